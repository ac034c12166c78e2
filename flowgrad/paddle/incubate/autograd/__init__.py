"""paddle.incubate.autograd: `utils.as_tensors`."""
from . import utils  # noqa: F401
