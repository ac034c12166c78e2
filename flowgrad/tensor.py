"""Tensor: an array (NumPy or CuPy) plus autograd metadata. Operators and math methods are bound
onto the class by the op table (`flowgrad.ops`) when it is imported."""
from __future__ import annotations

import threading
import weakref
from typing import Any, Callable

import numpy as np

from . import backend
from .autograd import mode

_inference = mode.inference_enabled
_new = object.__new__
_acc_lock = threading.Lock()
_ndarray, _generic = np.ndarray, np.generic
from .autograd.graph import AccumulateGrad, _HookDict, add_hook
from .autograd.policy import TORCH


class TensorExtra:
    """Rarely used per-tensor state, allocated on first use to keep Tensor small."""

    __slots__ = ("hooks", "post_acc_hooks", "retains_grad", "inference")

    def __init__(self):
        self.hooks = None            # leaf tensor hooks (non-leaf ones live on grad_fn)
        self.post_acc_hooks = None
        self.retains_grad = False
        self.inference = False


class Tensor:
    """An n-dimensional array that can record the operations applied to it."""

    __slots__ = ("_data", "_requires_grad", "_grad", "_grad_fn", "output_nr", "_vc", "_acc", "_view", "_extra",
                 "__weakref__")
    policy = TORCH
    _dtypes = backend.DTYPES
    __array_priority__ = 1000

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "_out_cls" not in cls.__dict__:
            cls._out_cls = cls

    def __init__(self, data: Any = None, requires_grad: bool = False):
        arr = data._data if isinstance(data, Tensor) else np.asarray([] if data is None else data)
        if arr.dtype == np.float64 and not isinstance(data, (Tensor, np.ndarray)):
            arr = arr.astype(np.float32)
        _init(self, arr)
        if requires_grad:
            self.requires_grad = True

    @classmethod
    def _make(cls, data) -> "Tensor":
        """Wrap an array without copying (the hot path of every op). A NumPy scalar (what a ufunc or
        a full reduction returns for 0-d operands) becomes a 0-d array."""
        if type(data) is not _ndarray and isinstance(data, _generic):
            data = np.asarray(data)
        t = _new(cls)
        t._data = data
        t._requires_grad = False
        t._grad = None
        t._grad_fn = None
        t.output_nr = 0
        t._vc = None
        t._acc = None
        t._view = None
        t._extra = None
        if _inference():
            t._x().inference = True
        return t

    def _new(self, data) -> "Tensor":
        """A fresh tensor of this tensor's facade around `data`."""
        return self._out_cls._make(data)

    def _x(self) -> TensorExtra:
        if self._extra is None:
            self._extra = TensorExtra()
        return self._extra

    # ------------------------------------------------------------------ metadata
    @property
    def shape(self) -> tuple:
        return self._data.shape

    @property
    def dtype(self):
        return self._dtypes[self._data.dtype]

    @property
    def device(self) -> backend.Device:
        return backend.device_of(self._data)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    def dim(self) -> int:
        return self._data.ndim

    def numel(self) -> int:
        return int(self._data.size)

    def element_size(self) -> int:
        return self._data.itemsize

    @property
    def grad_fn(self):
        """The node that made this tensor, None for a leaf (the core reads the `_grad_fn` slot); with
        the policy's `leaf_grad_fn_is_accumulator` a leaf that has fed a graph shows its accumulator."""
        fn = self._grad_fn
        if fn is None and self._acc is not None and self.policy.leaf_grad_fn_is_accumulator and self._requires_grad:
            return self._acc()
        return fn

    @grad_fn.setter
    def grad_fn(self, node) -> None:
        self._grad_fn = node

    @property
    def is_leaf(self) -> bool:
        return self._grad_fn is None

    @property
    def _version(self) -> int:
        if self._extra is not None and self._extra.inference and not mode.state.inference:
            raise self.policy.errors.inference_version()
        vc = self._vc
        return 0 if vc is None else vc[0]

    def _box(self) -> list:
        """The version counter, a one-item list shared with views and aliases; made on first use
        (most tensors are never saved, viewed or modified in place, and never need one)."""
        vc = self._vc
        if vc is None:
            vc = self._vc = [0]
        return vc

    def _bump(self) -> None:
        """Count an in-place change."""
        vc = self._vc
        if vc is None:
            self._vc = [1]
        else:
            vc[0] += 1

    def is_inference(self) -> bool:
        return self._extra is not None and self._extra.inference

    def _is_view(self) -> bool:
        return self._view is not None

    @property
    def _base(self):
        return self._view[0] if self._view is not None else None

    def is_floating_point(self) -> bool:
        return self._data.dtype.kind in "fV"

    # ------------------------------------------------------------------ requires_grad
    @property
    def requires_grad(self) -> bool:
        return self._requires_grad

    @requires_grad.setter
    def requires_grad(self, value: bool) -> None:
        self._set_requires_grad(bool(value), "int_requires_grad_attr")

    def requires_grad_(self, requires_grad: bool = True) -> "Tensor":
        if type(requires_grad) is not bool and not isinstance(requires_grad, np.bool_):
            raise self.policy.errors.argument_type_at(fn="requires_grad_", argument="requires_grad", position=1,
                                                      expected="bool", type=type(requires_grad).__name__)
        self._set_requires_grad(bool(requires_grad), "int_requires_grad_method")
        return self

    def _set_requires_grad(self, value: bool, int_error: str) -> None:
        if self._grad_fn is not None:
            if value:
                return
            raise self.policy.errors.nonleaf_requires_grad()
        if value and self._data.dtype.kind not in "fcV" and not self.policy.allow_int_grads:
            raise self.policy.error(int_error)
        self._requires_grad = value

    # ------------------------------------------------------------------ grad
    @property
    def grad(self):
        return self._grad

    @grad.setter
    def grad(self, value) -> None:
        self._grad = value

    @grad.deleter
    def grad(self) -> None:
        self._grad = None

    def retain_grad(self) -> None:
        if not self._requires_grad:
            raise self.policy.errors.retain_grad_no_grad()
        if self._grad_fn is None:
            return
        hooks = self._grad_fn._hooks_obj()
        hooks.retains[self.output_nr] = weakref.ref(self)
        self._x().retains_grad = True

    @property
    def retains_grad(self) -> bool:
        return self._extra is not None and self._extra.retains_grad and self._grad_fn is not None

    # ------------------------------------------------------------------ hooks
    def register_hook(self, hook: Callable):
        if not self._requires_grad:
            raise self.policy.errors.hook_no_grad()
        return add_hook(self._tensor_hooks(), hook)

    def _tensor_hooks(self) -> dict:
        """Hook dict for this tensor: on the tensor for a leaf, on its grad_fn slot otherwise."""
        if self._grad_fn is None:
            x = self._x()
            if x.hooks is None:
                x.hooks = _HookDict()
            return x.hooks
        hooks = self._grad_fn._hooks_obj().tensor_pre
        d = hooks.get(self.output_nr)
        if d is None:
            d = hooks[self.output_nr] = _HookDict()
        return d

    def register_post_accumulate_grad_hook(self, hook: Callable):
        if self._grad_fn is not None:
            raise self.policy.errors.post_acc_nonleaf()
        x = self._x()
        if x.post_acc_hooks is None:
            x.post_acc_hooks = _HookDict()
        return add_hook(x.post_acc_hooks, hook)

    @property
    def _post_acc_hooks(self):
        return self._extra.post_acc_hooks if self._extra is not None else None

    def _grad_accumulator(self) -> AccumulateGrad:
        """The leaf's one AccumulateGrad while any graph holds it: made under a lock, so threads
        recording ops on a shared leaf at once never get two (each would run its hooks)."""
        acc = self._acc() if self._acc is not None else None
        if acc is None:
            with _acc_lock:
                acc = self._acc() if self._acc is not None else None
                if acc is None:
                    acc = AccumulateGrad(self)
                    # kept for good where the leaf shows it as its grad_fn, else while a graph holds it
                    self._acc = (lambda: acc) if self.policy.leaf_grad_fn_is_accumulator else weakref.ref(acc)
        return acc

    # ------------------------------------------------------------------ detach / data
    @property
    def data(self) -> "Tensor":
        """A non-recording alias of the same array (its own version counter)."""
        return self._new(self._data)

    @data.setter
    def data(self, value) -> None:
        arr = value._data if isinstance(value, Tensor) else value
        if self._requires_grad and arr.dtype.kind not in "fcV" and not self.policy.allow_int_grads:
            raise self.policy.errors.data_int_requires_grad()
        self._data = arr

    def detach(self) -> "Tensor":
        t = self._new(self._data)
        t._vc = self._box()
        return t

    def detach_(self) -> "Tensor":
        if self._view is not None:
            if not self.policy.detach_views_inplace:
                raise self.policy.errors.detach_view_inplace()
            self._view = None   # a detached view still shares its base's array and version counter
        self._grad_fn = None
        self._requires_grad = False
        self.output_nr = 0
        return self

    # ------------------------------------------------------------------ conversions
    def _host(self) -> np.ndarray:
        """The values as a NumPy array (no copy on cpu)."""
        xp = backend.namespace(self._data)
        return xp.asnumpy(self._data) if hasattr(xp, "asnumpy") else self._data

    def numpy(self) -> np.ndarray:
        return self._host()

    def __array__(self, dtype=None, copy=None):
        a = self._host()
        return a if dtype is None else a.astype(dtype)

    def item(self):
        if self._data.size != 1:
            raise self.policy.errors.item_numel(numel=self._data.size)
        return self._data.reshape(()).item()

    def tolist(self):
        return self._host().tolist()

    def __len__(self) -> int:
        if self._data.ndim == 0:
            raise self.policy.errors.len_0d()
        return self._data.shape[0]

    def __iter__(self):
        if self._data.ndim == 0:
            raise self.policy.errors.iter_0d()
        return (self[i] for i in range(self._data.shape[0]))

    def __bool__(self) -> bool:
        if self._data.size != 1:
            raise self.policy.errors.bool_ambiguous()
        return bool(self._data.reshape(()))

    def _scalar(self):
        if self._data.size != 1:
            raise self.policy.errors.scalar_numel()
        return self._data.reshape(()).item()

    def __float__(self) -> float:
        return float(self._scalar())

    def __int__(self) -> int:
        return int(self._scalar())

    def __index__(self) -> int:
        if self._data.dtype.kind not in "iub" or self._data.size != 1:
            raise self.policy.errors.index_not_integer()
        return int(self._scalar())

    def __complex__(self) -> complex:
        return complex(self._scalar())

    __hash__ = object.__hash__

    def __dlpack__(self, stream=None, **kwargs):
        if self._requires_grad:
            raise self.policy.errors.dlpack_requires_grad()
        return self._data.__dlpack__(**({"stream": stream} if stream is not None else {}), **kwargs)

    def __dlpack_device__(self):
        return self._data.__dlpack_device__()

    def __repr__(self) -> str:
        extra = ", requires_grad=True" if self._requires_grad and self._grad_fn is None else ""
        if self._grad_fn is not None:
            extra = f", grad_fn=<{self._grad_fn.name()}>"
        return f"tensor({self._data!r}{extra})"


def zero_grads(params, set_to_none: bool = True) -> None:
    """Clear the `.grad` of each tensor: drop it, or zero it in place detached from any history
    (what `Module.zero_grad` and `Optimizer.zero_grad` do)."""
    for p in params:
        g = p._grad
        if g is None:
            continue
        if set_to_none:
            p._grad = None
            continue
        if g._grad_fn is not None:
            g.detach_()
        else:
            g._requires_grad = False
        g._data[...] = 0
        g._bump()


def _init(t: Tensor, arr) -> None:
    """Fill the slots of a tensor built through __init__ (subclasses with their own constructors)."""
    t._data = arr
    t._requires_grad = False
    t._grad = None
    t._grad_fn = None
    t.output_nr = 0
    t._vc = None
    t._acc = None
    t._view = None
    t._extra = None


Tensor._out_cls = Tensor
