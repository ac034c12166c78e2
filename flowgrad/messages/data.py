"""Messages of datasets, samplers and the DataLoader (flowgrad/data.py)."""

MESSAGES: dict[str, tuple[type, str]] = {
}
