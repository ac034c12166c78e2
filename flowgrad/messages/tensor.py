"""Messages of tensors, the backend, creation, serialization and DLPack (flowgrad/tensor.py, backend.py, creation.py, serialization.py, dlpack.py, facade/)."""

MESSAGES: dict[str, tuple[type, str]] = {
}
