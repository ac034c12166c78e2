"""torch.Tensor, torch.Size, torch.dtype and torch.device for the torch facade."""
from __future__ import annotations

import warnings

import numpy as np

from .. import backend, creation
from ..autograd import api
from ..autograd.policy import TORCH
from ..tensor import Tensor as _CoreTensor
from ..tensor import _init
from . import _print

DTYPES = backend.dtype_table("torch")
dtype = backend.DType


class Size(tuple):
    """torch.Size: a tuple that prints as `torch.Size([2, 3])`."""

    def __repr__(self):
        return f"torch.Size([{', '.join(map(str, self))}])"

    __str__ = __repr__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n

    def __getitem__(self, item):
        r = tuple.__getitem__(self, item)
        return Size(r) if isinstance(item, slice) else r

    def __add__(self, other):
        if not isinstance(other, tuple):
            raise TypeError(f"can only concatenate tuple (not {type(other).__name__}) to torch.Size")
        return Size(tuple(self) + tuple(other))

    def __radd__(self, other):
        if not isinstance(other, tuple):
            return NotImplemented
        return Size(tuple(other) + tuple(self))

    def __mul__(self, n):
        return Size(tuple.__mul__(self, n))

    __rmul__ = __mul__


class device(backend.Device):
    """torch.device."""

    __slots__ = ()


_NONLEAF_GRAD_WARNING = (
    "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its .grad attribute won't be "
    "populated during autograd.backward(). If you indeed want the .grad field to be populated for a non-leaf Tensor, "
    "use .retain_grad() on the non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
    "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more information. (Triggered internally "
    "at flowgrad/torch/_tensor.py.)")

_GRAD_DTYPE_NAMES = {"float32": "Float", "float64": "double", "float16": "Half", "int64": "long int",
                     "int32": "int", "int16": "short int", "int8": "signed char", "uint8": "unsigned char",
                     "bool": "bool"}


class Tensor(_CoreTensor):
    """torch.Tensor."""

    __slots__ = ()
    policy = TORCH
    _dtypes = DTYPES

    def __init__(self, *args, device=None):
        if len(args) == 1 and not isinstance(args[0], int):
            arr = creation.array_from(args[0], np.float32 if not isinstance(args[0], _CoreTensor) else None, device)
            if isinstance(args[0], _CoreTensor):
                arr = args[0]._data
        else:
            shape = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
            arr = backend.xp_for(device).zeros(tuple(shape), dtype=backend.default_float())
        _init(self, arr)

    # ----------------------------------------------------------------- metadata
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return Size(self._data.shape)
        from ..ops import normalize_dim
        return self._data.shape[normalize_dim(dim, self._data.ndim)]

    def nelement(self) -> int:
        return int(self._data.size)

    @property
    def device(self) -> device:
        d = backend.device_of(self._data)
        return device(d.type, d.index)

    @property
    def is_cuda(self) -> bool:
        return self.device.type == "cuda"

    @property
    def is_cpu(self) -> bool:
        return self.device.type == "cpu"

    def get_device(self) -> int:
        d = self.device
        return -1 if d.type == "cpu" else (d.index or 0)

    # ----------------------------------------------------------------- grad
    @property
    def grad(self):
        if self.grad_fn is not None and self._requires_grad and not self.retains_grad:
            warnings.warn(_NONLEAF_GRAD_WARNING, UserWarning, stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            if not isinstance(value, _CoreTensor):
                raise TypeError(f"assigned grad expected to be a Tensor or None but got grad of type "
                                f"{type(value).__name__}")
            if value is self:
                raise RuntimeError("can't assign Variable as its own grad")
            if type(value._data) is not type(self._data) or value.device != self.device:
                raise RuntimeError("assigned grad has data located on a different device")
            if value._data.dtype != self._data.dtype:
                raise RuntimeError(
                    f"attempting to assign a gradient with dtype '{_GRAD_DTYPE_NAMES[str(value._data.dtype)]}' to a "
                    f"tensor with grad_dtype '{self.policy.type_name(self._data.dtype)[6:-6]}'. The gradient must "
                    "match the tensor's grad_dtype (defaults to the tensor's dtype). You can set the tensor's "
                    "grad_dtype attribute with a specific dtype, or None to allow any dtype. Set grad_dtype with "
                    "caution. Diverging the dtypes of a tensor and its gradient may break downstream systems that "
                    "assume they match.")
            if value._data.shape != self._data.shape:
                raise RuntimeError(
                    f"attempting to assign a gradient of size '[{', '.join(map(str, value._data.shape))}]' to a "
                    f"tensor of size '[{', '.join(map(str, self._data.shape))}]'. Please ensure that the gradient and "
                    "the tensor are the same size")
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        api.backward(self, gradient, retain_graph, create_graph, inputs=inputs, policy=self.policy)

    # ----------------------------------------------------------------- conversions
    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._requires_grad and not force:
            raise RuntimeError("Can't call numpy() on Tensor that requires grad. Use tensor.detach().numpy() instead.")
        return self._host()

    def __repr__(self, *, tensor_contents=None) -> str:
        return _print.tensor_repr(self, backend.default_float())

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        if spec:
            raise TypeError("unsupported format string passed to Tensor.__format__")
        return repr(self)

    def to(self, *args, **kwargs):
        from ..ops import cast
        from .. import ops
        dt = kwargs.pop("dtype", None)
        dev = kwargs.pop("device", None)
        copy = kwargs.pop("copy", False)
        for a in args:
            if isinstance(a, backend.DType) or (isinstance(a, type) and a in (float, int, bool)):
                dt = a
            elif isinstance(a, (str, backend.Device)):
                dev = a
            elif isinstance(a, _CoreTensor):
                dt, dev = a.dtype, a.device
        out = self
        if dev is not None:
            out = ops.to_device(out, backend.Device(dev))
        if dt is not None:
            out = cast(out, dt)
        if copy and out is self:
            out = ops.clone(self)
        return out

    def type(self, dtype=None):
        if dtype is None:
            return self.policy.type_name(self._data.dtype)
        return self.to(dtype)

    def _cast(self, name):
        from ..ops import cast
        return cast(self, name)

    def float(self):
        return self._cast("float32")

    def double(self):
        return self._cast("float64")

    def half(self):
        return self._cast("float16")

    def long(self):
        return self._cast("int64")

    def int(self):
        return self._cast("int32")

    def short(self):
        return self._cast("int16")

    def bool(self):
        return self._cast("bool")

    def byte(self):
        return self._cast("uint8")

    def char(self):
        return self._cast("int8")

    def cpu(self):
        return self.to("cpu")

    def cuda(self, device=None, non_blocking=False):
        return self.to(backend.Device("cuda", device if isinstance(device, int) else 0) if not isinstance(
            device, (str, backend.Device)) else device)

    def type_as(self, other):
        return self.to(other.dtype)

    # ----------------------------------------------------------------- new_* factories
    def _factory_kw(self, dtype, device):
        return (dtype if dtype is not None else self._data.dtype), (device if device is not None else self.device)

    def new_zeros(self, *size, dtype=None, device=None, requires_grad=False):
        from . import zeros
        dt, dv = self._factory_kw(dtype, device)
        return zeros(*size, dtype=dt, device=dv, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        from . import ones
        dt, dv = self._factory_kw(dtype, device)
        return ones(*size, dtype=dt, device=dv, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        from . import full
        dt, dv = self._factory_kw(dtype, device)
        return full(size, fill_value, dtype=dt, device=dv, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        from . import tensor
        dt, dv = self._factory_kw(dtype, device)
        return tensor(data, dtype=dt, device=dv, requires_grad=requires_grad)

    # ----------------------------------------------------------------- random in-place
    def uniform_(self, a=0.0, b=1.0, generator=None):
        from ..ops import indexing
        return indexing.inplace(self, lambda x: x._new(creation.uniform_like(x._data, a, b, generator)))

    def normal_(self, mean=0.0, std=1.0, generator=None):
        from ..ops import indexing
        return indexing.inplace(self, lambda x: x._new(creation.normal_like(x._data, mean, std, generator)))

    def random_(self, low=0, high=None, generator=None):
        from ..ops import indexing
        if high is None:
            low, high = 0, low
        return indexing.inplace(self, lambda x: x._new(creation.randint(low, high, x._data.shape, x._data.dtype,
                                                                        generator=generator)))

    def bernoulli_(self, p=0.5, generator=None):
        from ..ops import indexing
        return indexing.inplace(self, lambda x: x._new((creation.rand(x._data.shape, np.float64, generator=generator)
                                                        < p).astype(x._data.dtype)))

    def exponential_(self, lambd=1.0, generator=None):
        from ..ops import indexing
        return indexing.inplace(self, lambda x: x._new(creation._gen(generator).exponential(
            1 / lambd, x._data.shape).astype(x._data.dtype)))

    def apply_(self, fn):
        flat = self._data.reshape(-1)
        for i, v in enumerate(flat.tolist()):
            flat[i] = fn(v)
        return self

    def __reduce_ex__(self, protocol):
        return (_rebuild, (self._host(), self._requires_grad))

    def __deepcopy__(self, memo):
        out = self._new(self._data.copy())
        out._requires_grad = self._requires_grad
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = out
        return out


def _rebuild(arr, requires_grad):
    t = Tensor._make(arr)
    t._requires_grad = requires_grad
    return t
