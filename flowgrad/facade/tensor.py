"""The torch family's Tensor (PyTorch's, which OneFlow mirrors): metadata as Size and device
objects, `.grad` with its assignment checks, conversions, `new_*` factories and in-place random
fills. A facade subclasses it and names its Size, device, dtypes, printer and policy."""
from __future__ import annotations

import warnings

import numpy as np

from .. import backend, creation
from ..creation import check_probability
from ..autograd import api
from ..tensor import Tensor as _CoreTensor
from ..tensor import _init
from .argtypes import parser_words
from .signatures import LEFT_OUT


class Tensor(_CoreTensor):
    """The torch family's Tensor (PyTorch's, which OneFlow mirrors); a facade subclasses it and sets
    the class attributes below."""

    __slots__ = ()
    _size: type = tuple            # the facade's Size
    _device: type = backend.Device  # the facade's device type
    _printer = None                # a flowgrad.facade.printing.Printer
    _factories = None              # the facade's namespace of creation functions (zeros, tensor, ...)

    def __init__(self, *args, device=None):
        if len(args) == 1 and not isinstance(args[0], int):
            arr = creation.array_from(args[0], np.float32 if not isinstance(args[0], _CoreTensor) else None, device,
                                      policy=self.policy)
            if isinstance(args[0], _CoreTensor):
                arr = args[0]._data
        else:
            shape = args[0] if len(args) == 1 and isinstance(args[0], (tuple, list)) else args
            arr = backend.xp_for(device).zeros(tuple(shape), dtype=backend.default_float())
        _init(self, arr)

    # ----------------------------------------------------------------- metadata
    @property
    def shape(self) -> tuple:
        return self._size(self._data.shape)

    def size(self, dim: int | None = None):
        if dim is None:
            return self._size(self._data.shape)
        from ..ops import normalize_dim
        return self._data.shape[normalize_dim(dim, self._data.ndim)]

    def nelement(self) -> int:
        return int(self._data.size)

    @property
    def device(self) -> backend.Device:
        d = backend.device_of(self._data)
        return self._device(d.type, d.index)

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
        if self._grad_fn is not None and self._requires_grad and not self.retains_grad and \
                "nonleaf_grad_access" in self.policy.messages:
            warning = self.policy.errors.nonleaf_grad_access()
            warnings.warn(str(warning), type(warning), stacklevel=2)
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None:
            policy = self.policy
            if not isinstance(value, _CoreTensor):
                raise policy.errors.grad_assign_type(type=type(value).__name__)
            if value is self:
                raise policy.errors.grad_assign_self()
            if type(value._data) is not type(self._data) or value.device != self.device:
                raise policy.errors.grad_assign_device()
            if value._data.dtype != self._data.dtype:
                raise policy.errors.grad_assign_dtype(got_ctype=value._data.dtype, want_scalar=self._data.dtype)
            if value._data.shape != self._data.shape:
                raise policy.errors.grad_assign_shape(got=list(value._data.shape), want=list(self._data.shape))
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    def backward(self, gradient=None, retain_graph=None, create_graph=False, inputs=None) -> None:
        api.backward(self, gradient, retain_graph, create_graph, inputs=inputs, policy=self.policy)

    # ----------------------------------------------------------------- conversions
    def numpy(self, *, force: bool = False) -> np.ndarray:
        if self._requires_grad and not force:
            raise self.policy.errors.numpy_requires_grad()
        if self._data.dtype.kind == "V":   # bfloat16, which NumPy itself lacks
            raise self.policy.errors.numpy_bfloat16()
        return self._host()

    def __repr__(self, *, tensor_contents=None) -> str:
        return self._printer.tensor_repr(self, backend.default_float())

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        if spec:
            raise self.policy.errors.format_spec_unsupported()
        return repr(self)

    def to(self, *args, **kwargs):
        from ..ops import cast
        from .. import ops
        dt = kwargs.pop("dtype", None)
        dev = kwargs.pop("device", None)
        copy = kwargs.pop("copy", False)
        memory_format = kwargs.pop("memory_format", None)
        for a in args:
            if isinstance(a, backend.DType) or (isinstance(a, type) and a in (float, int, bool)):
                dt = a
            elif isinstance(a, (str, backend.Device)):
                dev = a
            elif isinstance(a, _CoreTensor):
                dt, dev = a.dtype, a.device
            elif a is not None:
                raise self.policy.errors.nn_to_arguments(type=type(a).__name__)
        out = self
        if dev is not None:
            out = ops.to_device(out, backend.Device(dev))
        if dt is not None:
            out = cast(out, dt)
        if memory_format is not None and ops.memory_format_name(out, memory_format, "to") != "preserve_format":
            out = ops.contiguous(out, memory_format)   # a copy only where the layout changes
        if copy and out is self:
            out = ops.clone(self, memory_format)
        return out

    def type(self, dtype=None):
        if dtype is None:
            return self.policy.type_name(self._data.dtype)
        if not isinstance(dtype, (str, type, backend.DType)):
            raise self.policy.errors.tensor_type_arg()
        if isinstance(dtype, str):   # a type name: 'torch.FloatTensor'
            match = [dt for dt in backend.DTYPES if self.policy.type_name(dt) == dtype]
            if not match:
                raise self.policy.errors.tensor_type_name(name=dtype)
            dtype = self._dtypes[match[0]]
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
        dt, dv = self._factory_kw(dtype, device)
        return self._factories.zeros(*size, dtype=dt, device=dv, requires_grad=requires_grad)

    def new_ones(self, *size, dtype=None, device=None, requires_grad=False):
        dt, dv = self._factory_kw(dtype, device)
        return self._factories.ones(*size, dtype=dt, device=dv, requires_grad=requires_grad)

    def new_full(self, size, fill_value, dtype=None, device=None, requires_grad=False):
        if fill_value is None:
            raise self.policy.errors.argument_type_at(fn="new_full", argument="fill_value", position=2,
                                                      expected="Number", type="NoneType")
        dt, dv = self._factory_kw(dtype, device)
        return self._factories.full(size, fill_value, dtype=dt, device=dv, requires_grad=requires_grad)

    def new_empty(self, *size, dtype=None, device=None, requires_grad=False):
        return self.new_zeros(*size, dtype=dtype, device=device, requires_grad=requires_grad)

    def new_tensor(self, data, dtype=None, device=None, requires_grad=False):
        dt, dv = self._factory_kw(dtype, device)
        return self._factories.tensor(data, dtype=dt, device=dv, requires_grad=requires_grad)

    # ----------------------------------------------------------------- random in-place
    def _random_float(self, kernel: str) -> None:
        if self._data.dtype.kind not in "fcV":
            raise self.policy.errors.not_implemented_for(op=kernel, dtype_scalar=self._data.dtype)

    def uniform_(self, a=0.0, b=1.0, generator=None):
        from ..ops import indexing
        self._random_float("check_uniform_bounds")
        return indexing.inplace(self, lambda x: x._new(creation.uniform_like(x._data, a, b, generator)))

    def normal_(self, mean=0.0, std=1.0, generator=None):
        from ..ops import indexing
        self._random_float("normal_kernel_cpu")
        if not std >= 0:
            raise self.policy.errors.normal_std(std=std)
        return indexing.inplace(self, lambda x: x._new(creation.normal_like(x._data, mean, std, generator)))

    def random_(self, from_=LEFT_OUT, to=LEFT_OUT, *, generator=None):
        """PyTorch's three overloads: random_() every integer the dtype holds exactly, from 0 (bool:
        0 or 1); random_(to): [0, to); random_(from, to): [from, to), to=None up to that bound. The
        range is checked against the dtype as PyTorch checks it."""
        from ..ops import indexing
        if from_ is None or (to is None and from_ is LEFT_OUT):
            name = "to" if from_ is LEFT_OUT else "from"
            raise parser_words(self.policy.errors.argument_none(fn="random_", argument=name), name)
        dt = self._data.dtype
        if dt.kind == "c" and from_ is LEFT_OUT and to is LEFT_OUT:   # (with bounds: the bounds check refuses it)
            raise self.policy.errors.not_implemented_for(op="random_kernel_cpu", dtype_scalar=dt)
        if to is LEFT_OUT:
            low, high = (0, None) if from_ is LEFT_OUT else (0, from_)
        else:
            low, high = (0 if from_ is LEFT_OUT else from_), to
        if high is not None and low >= high:
            raise self.policy.errors.random_range(low=low, high=high)
        top = creation.random_bound(dt) - 1 if high is None else high - 1
        if from_ is not LEFT_OUT or to is not LEFT_OUT:
            check_random_range(self.policy, low, top, dt)
        return indexing.inplace(self, lambda x: x._new(creation.randint(low, top + 1, x._data.shape, x._data.dtype,
                                                                        device=x.device, generator=generator)))

    def bernoulli_(self, p=0.5, generator=None):
        from ..ops import indexing
        if self._data.dtype.kind == "c":
            raise self.policy.errors.not_implemented_for(op="bernoulli_scalar_cpu_" if not isinstance(p, _CoreTensor)
                                                         else "bernoulli_tensor_cpu_self_", dtype_scalar=self._data.dtype)
        if not isinstance(p, _CoreTensor):
            check_probability(self.policy, p)
        return indexing.inplace(self, lambda x: x._new((creation.rand(x._data.shape, np.float64, x.device, generator)
                                                        < p).astype(x._data.dtype)))

    def exponential_(self, lambd=1.0, generator=None):
        from ..ops import indexing
        if self._data.dtype.kind not in "fV":
            raise self.policy.errors.exponential_dtype(dtype_scalar=self._data.dtype)
        return indexing.inplace(self, lambda x: x._new(backend.to_device(creation._gen(generator).exponential(
            1 / lambd, x._data.shape).astype(x._data.dtype), x.device)))

    def apply_(self, fn):
        flat = self._data.reshape(-1)
        for i, v in enumerate(flat.tolist()):
            flat[i] = fn(v)
        return self

    def __reduce_ex__(self, protocol):
        return (_rebuild, (type(self), self._host(), self._requires_grad))

    def __deepcopy__(self, memo):
        out = self._new(self._data.copy())
        out._requires_grad = self._requires_grad
        if self._grad is not None:
            out._grad = self._grad.__deepcopy__(memo)
        memo[id(self)] = out
        return out


def _rebuild(cls, arr, requires_grad):
    t = cls._make(arr)
    t._requires_grad = requires_grad
    return t


def check_random_range(policy, low: int, top: int, dt) -> None:
    """PyTorch's checks of random_'s range [low, top] against the dtype: each end representable, and
    a float dtype warned beyond the integers it holds exactly."""
    if dt.kind not in "fiub":
        raise policy.errors.random_dtype()
    info = np.finfo(dt) if dt.kind == "f" else np.iinfo(dt) if dt.kind != "b" else None
    lowest, highest = (float(info.min), float(info.max)) if info is not None else (0, 1)
    for value, name in ((low, "from"), (top, "to - 1")):
        if not lowest <= value <= highest:
            raise policy.errors.random_out_of_bounds(name=name, dtype_ctype=dt)
    if dt.kind == "f":
        digits = info.nmant + 1
        for value, name in ((low, "from"), (top, "to - 1")):
            if not -(2 ** digits) <= value <= 2 ** digits:
                warnings.warn(policy.errors.random_inexact(name=name, digits=digits, dtype_ctype=dt), stacklevel=3)
