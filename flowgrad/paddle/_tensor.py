"""paddle.Tensor, paddle.dtype, Place and paddle.Size for the paddle facade."""
from __future__ import annotations

import itertools
import warnings
import weakref

import numpy as np

from .. import backend, creation
from ..tensor import Tensor as _CoreTensor
from ..tensor import _init
from . import _print
from ._policy import PADDLE

_DATA_TYPE_CODES = {"bool": 1, "uint8": 2, "int8": 3, "int16": 5, "int32": 7, "int64": 9, "float32": 10,
                    "float64": 11, "float16": 15}


class dtype(backend.DType):
    """paddle.dtype: prints as `paddle.float32`, reprs as `<DataType.FLOAT32: 10>`."""

    __slots__ = ()

    def __repr__(self):
        return f"<DataType.{self.name.upper()}: {_DATA_TYPE_CODES[self.name]}>"

    def __str__(self):
        return f"paddle.{self.name}"

    def __hash__(self):
        return hash(self.np)


DTYPES = {np.dtype(n): dtype(n, n, "paddle") for n in backend.REAL_DTYPE_NAMES}


class Size(list):
    """paddle.Size: a list that prints as `paddle.Size([2, 3])`, equal to a tuple or list of the same
    sizes; slicing, `+` and `*` give a Size."""

    def __repr__(self):
        return f"paddle.Size([{', '.join(map(str, self))}])"

    __str__ = __repr__

    def __eq__(self, other):
        return list.__eq__(self, list(other)) if isinstance(other, tuple) else list.__eq__(self, other)

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None

    def __getitem__(self, index):
        out = list.__getitem__(self, index)
        return Size(out) if isinstance(index, slice) else out

    def __add__(self, other):
        return Size(list.__add__(self, list(other)))

    def __mul__(self, n):
        return Size(list.__mul__(self, n))

    __rmul__ = __mul__

    def numel(self) -> int:
        n = 1
        for s in self:
            n *= s
        return n


class Place:
    """A device as paddle prints it: `Place(cpu)`, `Place(gpu:0)`."""

    __slots__ = ("device",)

    def __init__(self, device: backend.Device):
        self.device = device

    def is_cpu_place(self) -> bool:
        return self.device.type == "cpu"

    def is_gpu_place(self) -> bool:
        return self.device.type == "cuda"

    def gpu_device_id(self) -> int:
        return self.device.index or 0

    def __eq__(self, other):
        return isinstance(other, Place) and self.device == other.device

    def __hash__(self):
        return hash(self.device)

    def __repr__(self):
        if self.device.type == "cpu":
            return "Place(cpu)"
        if self.device.type == "cuda":
            return f"Place(gpu:{self.device.index or 0})"
        return f"Place({self.device})"

    __str__ = __repr__


def CPUPlace() -> Place:
    return Place(backend.CPU)


def CUDAPlace(device_id: int) -> Place:
    return Place(backend.Device("cuda", device_id))


def to_device(place) -> backend.Device | None:
    """A paddle place spelling (`'cpu'`, `'gpu:0'`, Place, None) as a flowgrad Device."""
    if place is None:
        return None
    if isinstance(place, Place):
        return place.device
    if isinstance(place, str):
        kind, _, idx = place.partition(":")
        if kind == "gpu":
            return backend.Device("cuda", int(idx) if idx else 0)
        return backend.Device(place)
    return backend.Device(place)


_names = {"generated_tensor": itertools.count(), "eager_tmp": itertools.count()}


def generated_name(kind: str) -> str:
    """paddle's generated tensor names: `generated_tensor_N` (made from data) and `eager_in_tmp_N`
    (detached) share one count, `eager_tmp_N` (an op's result, named when first asked) has its own."""
    return f"{kind}_{next(_names['eager_tmp' if kind == 'eager_tmp' else 'generated_tensor'])}"


class TensorHookRemoveHelper:
    """What `register_hook` returns: `remove()` is True the first time, False (with a warning) after."""

    def __init__(self, tensor, handle):
        self._tensor = tensor
        self._hook_id = handle.id
        self._handle = handle

    def remove(self) -> bool:
        hooks = self._handle.hooks_dict_ref()
        if hooks is not None and self._hook_id in hooks:
            del hooks[self._hook_id]
            return True
        warnings.warn(f"The backward hook (ID: {self._hook_id}) of Tensor `{self._tensor.name}` you want to remove "
                      "does not exist or has been removed.", RuntimeWarning, stacklevel=2)
        return False


class Tensor(_CoreTensor):
    """paddle.Tensor: `stop_gradient` instead of requires_grad, `.grad` None until the first
    backward, `clear_grad()` zero-fills, paddle's print format."""

    __slots__ = ("_name",)
    policy = PADDLE
    _dtypes = DTYPES

    def __init__(self, value=None, dtype=None, place=None, persistable=False, zero_copy=None, name=None,
                 stop_gradient=True):
        arr = creation.array_from([] if value is None else value, dtype, to_device(place), policy=self.policy)
        _init(self, arr)
        self._requires_grad = not stop_gradient
        self._name = name if name is not None else generated_name("generated_tensor")

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self) -> Size:
        return Size(self._data.shape)

    @property
    def size(self) -> int:
        return int(self._data.size)

    def numel(self):
        """The number of elements as a 0-D int64 tensor (`size` is the int)."""
        return self._new(backend.namespace(self._data).asarray(self._data.size, dtype=np.int64))

    def ndimension(self) -> int:
        return self._data.ndim

    @property
    def T(self):
        """All dimensions reversed."""
        from ..ops import permute
        return permute(self, *reversed(range(self._data.ndim)))

    @property
    def place(self) -> Place:
        return Place(backend.device_of(self._data))

    @property
    def _place_str(self) -> str:
        return str(self.place)

    @property
    def name(self) -> str:
        try:
            return self._name
        except AttributeError:
            self._name = generated_name("eager_tmp")
            return self._name

    @name.setter
    def name(self, value: str) -> None:
        self._name = value

    @property
    def _given_name(self) -> str:
        """The name paddle's messages print: empty until `name` was asked for (or given)."""
        try:
            return self._name
        except AttributeError:
            return ""

    def detach(self):
        t = super().detach()
        t._name = generated_name("eager_in_tmp")
        return t

    @property
    def persistable(self) -> bool:
        return False

    @property
    def inplace_version(self) -> int:
        return self._box()[0]

    def _inplace_version(self) -> int:
        return self._box()[0]

    # ------------------------------------------------------------------ stop_gradient
    @property
    def stop_gradient(self) -> bool:
        return not self._requires_grad

    @stop_gradient.setter
    def stop_gradient(self, value: bool) -> None:
        # any tensor, any dtype; on a non-leaf it only cuts uses recorded from now on
        self._requires_grad = not value

    def _set_requires_grad(self, value: bool, int_error: str) -> None:
        self._requires_grad = value

    # ------------------------------------------------------------------ grad
    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        if value is not None and not isinstance(value, _CoreTensor):
            raise ValueError(f"(InvalidArgument) argument (position 1) must be Tensor, but got "
                             f"{type(value).__name__} (at /paddle/paddle/utils/pybind.cc:51)\n")
        self._grad = value

    def _grad_ivar(self):
        return self._grad

    def gradient(self):
        """The gradient as a NumPy array, or None (deprecated in paddle)."""
        return None if self._grad is None else self._grad._host()

    def clear_grad(self) -> None:
        """Zero-fill the gradient in place (it stays a tensor)."""
        self.clear_gradient()

    def clear_gradient(self, *args, **kwargs) -> None:
        """`clear_gradient(set_to_zero=True)`; as in paddle 3.3.1 only a positional `False` sets
        the gradient to None: the keyword is ignored."""
        g = self._grad
        if g is None:
            return
        if args and not args[0]:
            self._grad = None
        else:
            g._data[...] = 0

    def register_hook(self, hook) -> TensorHookRemoveHelper:
        return TensorHookRemoveHelper(self, _CoreTensor.register_hook(self, hook))

    def retain_grads(self) -> None:
        """Keep this non-leaf's gradient in `.grad`, overwritten by each backward. It is a hook:
        it sees the gradient as changed by the hooks registered before it, not after."""
        if self._grad_fn is None or not self._requires_grad or self.retains_grad:
            return
        ref = weakref.ref(self)

        def retain(grad):
            t = ref()
            if t is not None:
                t._grad = grad._new(grad._data.copy())
                t._grad._requires_grad = True

        _CoreTensor.register_hook(self, retain)
        self._x().retains_grad = True

    def backward(self, grad_tensor=None, retain_graph: bool = False, *, dump_backward_graph_path=None) -> None:
        from .autograd.backward_mode import tensor_backward
        tensor_backward(self, grad_tensor, retain_graph, dump_backward_graph_path)

    # ------------------------------------------------------------------ conversions
    def numpy(self) -> np.ndarray:
        return self._host()

    def item(self, *args):
        if args:
            return self._data[args].item()
        if self._data.size != 1:
            raise ValueError("(InvalidArgument) only one element tensors can be converted to Python scalars when "
                             "no input coordinates\n  [Hint: Expected numel == 1, but received numel:"
                             f"{self._data.size} != 1:1.] (at /paddle/paddle/fluid/pybind/eager_method.cc:1833)\n")
        return self._data.reshape(()).item()

    def astype(self, dtype):
        from ..ops import cast
        return cast(self, dtype)

    def cpu(self):
        from ..ops import to_device as _to
        return _to(self, backend.CPU)

    def cuda(self, device_id=None, blocking=True):
        from ..ops import to_device as _to
        return _to(self, backend.Device("cuda", device_id or 0))

    def to(self, *args, **kwargs):
        """`x.to(device)`, `x.to(dtype)`, `x.to(device, dtype)`, or the keywords `device=`, `dtype=`."""
        from ..ops import cast, to_device as _to
        device, dtype = kwargs.get("device"), kwargs.get("dtype")
        for a in args:
            if isinstance(a, Place) or (isinstance(a, str) and a.split(":")[0] in ("cpu", "gpu")):
                device = a
            elif a is not None and not isinstance(a, bool):  # a bool is `blocking`
                dtype = a
        out = self if device is None else _to(self, to_device(device))
        return out if dtype is None else cast(out, dtype)

    def value(self):
        return self

    def set_value(self, value) -> None:
        """Overwrite the values (the version counter is not bumped, as in paddle)."""
        arr = value._data if isinstance(value, _CoreTensor) else np.asarray(value)
        if list(arr.shape) != list(self._data.shape):
            raise AssertionError(f"Variable Shape not match, Variable [ {self.name} ] need tensor with shape "
                                 f"{self.shape} but load set tensor with shape {tuple(arr.shape)}")
        self._data[...] = backend.to_device(arr, backend.device_of(self._data))

    def __str__(self) -> str:
        return _print.tensor_to_string(self)

    def __repr__(self) -> str:
        return _print.tensor_to_string(self)

    def __format__(self, spec: str) -> str:
        if self._data.ndim == 0:
            return self.item().__format__(spec)
        return object.__format__(self, spec)

    def __deepcopy__(self, memo):
        out = self._new(self._data.copy())
        out._requires_grad = self._requires_grad
        memo[id(self)] = out
        return out
