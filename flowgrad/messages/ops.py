"""Messages of the differentiable ops (flowgrad/ops): argument, dtype, shape and index checks."""

MESSAGES: dict[str, tuple[type, str]] = {
}
