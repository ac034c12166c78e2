"""torch.Tensor, torch.Size, torch.dtype and torch.device: the kit's torch-family classes under
PyTorch's names, policy and print format."""
from __future__ import annotations

from .. import backend, ops
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

    @property
    def is_sparse(self) -> bool:
        """False: flowgrad's tensors are strided (dense) only."""
        return False

    def fill_diagonal_(self, fill_value, wrap: bool = False):
        """Write `fill_value` on the main diagonal in place, through a view of it (CopySlices, as
        PyTorch); `wrap`: a tall matrix's diagonal starts again every cols + 1 rows (a second write)."""
        ops.check_fill_diagonal(self)
        diag = self
        for _ in range(self.dim() - 1):
            diag = diag.diagonal(0, 0, 1)
        diag.fill_(fill_value)
        rows, cols = self.shape[0], self.shape[1]
        if wrap and self.dim() == 2 and rows > cols + 1:
            if self.is_contiguous():
                self.view(-1)[cols * (cols + 1)::cols + 1].fill_(fill_value)
            else:
                flat = backend.namespace(self._data).arange(cols * (cols + 1), rows * cols, cols + 1)
                self[flat // cols, flat % cols] = fill_value
        return self
