"""Messages of gradcheck, autograd.functional and the command-line tools (runner, check)."""

MESSAGES: dict[str, tuple[type, str]] = {
}
