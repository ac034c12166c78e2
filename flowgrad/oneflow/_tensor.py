"""oneflow.Tensor, oneflow.Size, oneflow.dtype and oneflow.device: the kit's torch-family classes
under OneFlow's names, policy and print format, with OneFlow's autograd surface on the tensor:
`requires_grad` settable on leaves only, `requires_grad_` anywhere, `register_hook` returning
None, `numpy()` whether or not it requires grad, `backward` without `inputs=`."""
from __future__ import annotations

from .. import backend
from ..autograd import api
from ..facade import naming
from ..facade.printing import Printer, PrintStyle
from ..facade.tensor import Tensor as TorchFamilyTensor
from ..tensor import Tensor as _CoreTensor
from ._policy import ONEFLOW

DTYPES = backend.dtype_table("oneflow", backend.REAL_DTYPE_NAMES)
dtype = backend.DType
Size = naming.make_size("oneflow", __name__, ONEFLOW)
device = naming.make_device("oneflow", __name__, default_index=0)
PRINTER = Printer(PrintStyle(always_dtype=True, nonfinite_in_analysis=True))

_kit_grad = TorchFamilyTensor.grad


class Tensor(TorchFamilyTensor):
    """oneflow.Tensor."""

    __slots__ = ()
    policy = ONEFLOW
    _dtypes = DTYPES
    _size = Size
    _device = device
    _printer = PRINTER

    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        if self._grad_fn is not None:
            raise self.policy.errors.nonleaf_requires_grad()
        self.requires_grad_(value)

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        """On a leaf, set the flag (False also drops its accumulator); on a non-leaf, False drops its history."""
        if self._grad_fn is None:
            self._set_requires_grad(bool(requires_grad), "int_requires_grad_method")
            if not requires_grad:
                self._acc = None
        elif not requires_grad:
            self._grad_fn, self.output_nr, self._requires_grad = None, 0, False
        return self

    def _set_grad(self, value) -> None:
        _kit_grad.fset(self, value)
        if value is not None and self._requires_grad and self._grad_fn is None:
            self._grad_accumulator()

    grad = property(_kit_grad.fget, _set_grad, _kit_grad.fdel)

    def _set_data(self, value) -> None:
        if self._grad_fn is not None:
            raise self.policy.errors.set_data_nonleaf()
        _CoreTensor.data.fset(self, value)
        self._acc = None    # OneFlow resets a leaf's grad_fn with its data

    data = property(_CoreTensor.data.fget, _set_data, doc=_CoreTensor.data.__doc__)

    def register_hook(self, hook) -> None:
        """Register `hook(grad) -> Tensor | None`; OneFlow gives no handle to remove it."""
        TorchFamilyTensor.register_hook(self, hook)
        if self._grad_fn is None:
            self._grad_accumulator()

    def numpy(self):
        """The values as a NumPy array; OneFlow converts a tensor that requires grad as well."""
        return self._host()

    def backward(self, gradient=None, retain_graph: bool = False, create_graph: bool = False) -> None:
        api.backward(self, gradient, retain_graph, create_graph, policy=self.policy)
