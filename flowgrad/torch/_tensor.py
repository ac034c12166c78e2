"""torch.Tensor, torch.Size, torch.dtype and torch.device: the kit's torch-family classes under
PyTorch's names, policy and print format."""
from __future__ import annotations

from .. import backend
from ..autograd.policy import TORCH
from ..facade import naming
from ..facade.printing import Printer
from ..facade.tensor import Tensor as TorchFamilyTensor

DTYPES = backend.dtype_table("torch")
dtype = backend.DType
Size = naming.make_size("torch", __name__, TORCH)
device = naming.make_device("torch", __name__)
PRINTER = Printer()


class Tensor(TorchFamilyTensor):
    """torch.Tensor."""

    __slots__ = ()
    policy = TORCH
    _dtypes = DTYPES
    _size = Size
    _device = device
    _printer = PRINTER

    def bfloat16(self):
        return self._cast("bfloat16")

    def cfloat(self):
        return self._cast("complex64")

    def cdouble(self):
        return self._cast("complex128")
