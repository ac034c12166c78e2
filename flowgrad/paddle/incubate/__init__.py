"""paddle.incubate: its autograd helpers."""
from . import autograd  # noqa: F401
