"""Messages of modules, layers, functional and init (flowgrad/nn)."""

MESSAGES: dict[str, tuple[type, str]] = {
}
