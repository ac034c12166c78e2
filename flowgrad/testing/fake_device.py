"""A second device for tests on machines without a GPU: NumPy behind a wrapper array type that
NumPy itself refuses. Any core code path that calls NumPy directly instead of going through the
tensor's namespace fails loudly on it, so running the op and engine suites on device "fake" proves
the GPU path is the same code.

    from flowgrad.testing import fake_device
    fake_device.register()          # then device="fake" works everywhere
"""
from __future__ import annotations

import operator
import types

import numpy as np

from .. import backend


def _unwrap(x):
    if type(x) is FakeArray:
        return x.a
    if type(x) is tuple:
        return tuple(_unwrap(v) for v in x)
    if type(x) is list:
        return [_unwrap(v) for v in x]
    return x


def _wrap(x):
    if isinstance(x, np.ndarray):
        return FakeArray(x)
    if isinstance(x, np.generic):
        return FakeArray(np.asarray(x))
    if isinstance(x, tuple):     # and NumPy's named results (linalg.svd's, ...)
        return tuple(_wrap(v) for v in x)
    if type(x) is list:
        return [_wrap(v) for v in x]
    return x


def _call(fn):
    def call(*args, **kwargs):
        if "out" in kwargs:
            out = kwargs["out"]
            kwargs["out"] = _unwrap(out)
            fn(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()})
            return out
        return _wrap(fn(*_unwrap(args), **{k: _unwrap(v) for k, v in kwargs.items()}))
    call.__name__ = getattr(fn, "__name__", "call")
    return call


class FakeArray:
    """An ndarray in disguise: same behaviour through its own methods and namespace, but NumPy
    functions and `np.asarray` refuse it."""

    __slots__ = ("a", "__weakref__")
    __array_ufunc__ = None          # np.exp(fake) raises TypeError
    __array_priority__ = 2000

    def __init__(self, a: np.ndarray):
        self.a = a

    def __array__(self, *args, **kwargs):
        raise TypeError("a fake-device array reached NumPy directly: the core must go through the array namespace")

    def __array_function__(self, func, types, args, kwargs):
        raise TypeError(f"np.{func.__name__} was called on a fake-device array: the core must go through the "
                        "array namespace")

    @property
    def device(self):
        return "fake"

    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: self.a.dtype)
    ndim = property(lambda self: self.a.ndim)
    size = property(lambda self: self.a.size)
    itemsize = property(lambda self: self.a.itemsize)
    nbytes = property(lambda self: self.a.nbytes)
    flags = property(lambda self: self.a.flags)
    strides = property(lambda self: self.a.strides)
    T = property(lambda self: FakeArray(self.a.T))

    @property
    def base(self):
        return None if self.a.base is None else FakeArray(self.a.base)

    @shape.setter
    def shape(self, value):
        self.a.shape = value

    def __getattr__(self, name):
        attr = getattr(self.a, name)
        return _call(attr) if callable(attr) else _wrap(attr)

    def __getitem__(self, key):
        return _wrap(self.a[_unwrap(key)])

    def __setitem__(self, key, value):
        self.a[_unwrap(key)] = _unwrap(value)

    def __len__(self):
        return len(self.a)

    def __bool__(self):
        return bool(self.a)

    def __float__(self):
        return float(self.a)

    def __int__(self):
        return int(self.a)

    def __index__(self):
        return operator.index(self.a)

    def __repr__(self):
        return f"FakeArray({self.a!r})"

    def __dlpack__(self, *args, **kwargs):
        return self.a.__dlpack__(*args, **kwargs)

    def __dlpack_device__(self):
        return self.a.__dlpack_device__()


def _binop(name):
    op = getattr(operator, name)

    def method(self, other):
        return _wrap(op(self.a, _unwrap(other)))

    def rmethod(self, other):
        return _wrap(op(_unwrap(other), self.a))

    def imethod(self, other):
        self.a = getattr(operator, "i" + name.strip("_"))(self.a, _unwrap(other))
        return self
    return method, rmethod, imethod


for _n in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift",
           "rshift"):
    _m, _r, _i = _binop(f"__{_n}__")
    setattr(FakeArray, f"__{_n}__", _m)
    setattr(FakeArray, f"__r{_n}__", _r)
    setattr(FakeArray, f"__i{_n}__", _i)
for _n in ("lt", "le", "gt", "ge", "eq", "ne"):
    setattr(FakeArray, f"__{_n}__", (lambda op: lambda self, other: _wrap(op(self.a, _unwrap(other))))(
        getattr(operator, _n)))
for _n in ("neg", "pos", "abs", "invert"):
    setattr(FakeArray, f"__{_n}__", (lambda op: lambda self: _wrap(op(self.a)))(getattr(operator, _n)))
FakeArray.__hash__ = None


class _UFunc:
    """A NumPy ufunc that unwraps fake arrays (including `.at`, `.reduce`, ...)."""

    def __init__(self, uf):
        self._uf = uf

    def __call__(self, *args, **kwargs):
        return _call(self._uf)(*args, **kwargs)

    def __getattr__(self, name):
        attr = getattr(self._uf, name)
        if name == "at":
            def at(a, idx, b=None):
                return attr(_unwrap(a), _unwrap(idx), *(() if b is None else (_unwrap(b),)))
            return at
        return _call(attr) if callable(attr) else attr


class FakeNamespace:
    """The array namespace of the fake device: NumPy's functions over FakeArray."""

    ndarray = FakeArray
    __name__ = "flowgrad.testing.fake_device"

    def __init__(self, module=np):
        self._module = module

    def __getattr__(self, name):
        attr = getattr(self._module, name)
        if isinstance(attr, types.ModuleType):      # np.linalg, as cupy.linalg
            return FakeNamespace(attr)
        if isinstance(attr, np.ufunc):
            return _UFunc(attr)
        if callable(attr) and not isinstance(attr, type):
            return _call(attr)
        return attr

    @staticmethod
    def asnumpy(x):
        return _unwrap(x)

    @staticmethod
    def asarray(x, dtype=None):
        return FakeArray(np.asarray(_unwrap(x), dtype=dtype))


namespace = FakeNamespace()


def register() -> None:
    """Make `device="fake"` available (idempotent)."""
    if "fake" not in backend._BACKENDS:
        backend.register_backend("fake", lambda: namespace, lambda xp: FakeArray)
        backend._BACKENDS["fake"].xp  # noqa: B018 - registers the array type
