"""Messages of optimizers and learning-rate schedulers (flowgrad/optim)."""

MESSAGES: dict[str, tuple[type, str]] = {
}
