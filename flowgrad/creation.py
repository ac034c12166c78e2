"""Building tensors: from Python data or arrays, constants, ranges, and seeded random numbers.
Each facade wraps these with its own signatures and tensor class."""
from __future__ import annotations

import math

import numpy as np

from . import backend
from .autograd.mode import _random_refused
from .autograd.policy import TORCH, Policy
from .tensor import Tensor


def _has_array_of(data, dtype) -> bool:
    """Whether nested `data` holds a tensor or NumPy array of `dtype` (which then decides the dtype)."""
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, (list, tuple)):
            stack.extend(x)
        elif isinstance(x, Tensor):
            if x._data.dtype == dtype:
                return True
        elif isinstance(x, (np.ndarray, np.generic)) and x.dtype == dtype:
            return True
    return False


def array_from(data, dtype=None, device=None, *, policy: Policy = TORCH):
    """An array for `data` (nested sequences, scalars, arrays, tensors) with PyTorch's inference:
    Python floats give the default float dtype, ints int64, bools bool; arrays keep their dtype.
    `policy` words the errors (the facade's)."""
    dt = backend.to_np_dtype(dtype)
    if isinstance(data, Tensor):
        arr = data._data
        arr = arr.astype(dt) if dt is not None and arr.dtype != dt else arr.copy()
    else:
        xp_src = backend.namespace(data) if hasattr(data, "__array_namespace__") or hasattr(data, "__cuda_array_interface__") else np
        if xp_src is not np:
            arr = data.astype(dt) if dt is not None else data.copy()
        else:
            python_data = not isinstance(data, (np.ndarray, np.generic))
            try:
                # tensors inside a sequence: looked for only when the first element is one or NumPy fails
                # (a list of numbers is not walked in Python)
                tensors = python_data and isinstance(_first_leaf(data), Tensor)
                try:
                    arr = np.asarray(_flatten_tensors(data, policy) if tensors else data)
                except ValueError:
                    if tensors or not python_data or not _holds_tensor(data):
                        raise
                    arr = np.asarray(_flatten_tensors(data, policy))
            except OverflowError:
                raise policy.errors.int_overflow() from None
            if python_data:
                if arr.dtype.kind in "USO":
                    _check_leaf(arr, policy, dt)
                _check_python_ints(arr, dt, policy)
            if arr.dtype.kind == "c" and not policy.complex_dtypes:
                raise policy.errors.array_dtype_unsupported(dtype=arr.dtype)
            if arr.dtype.kind == "V" and not python_data:   # (PyTorch takes no bfloat16 array)
                raise policy.errors.array_bfloat16()
            if dt is None:
                if arr.dtype == np.float64 and not _has_array_of(data, np.float64):
                    arr = arr.astype(backend.default_float())
                elif arr.dtype == np.complex128 and not _has_array_of(data, np.complex128):
                    arr = arr.astype(backend.default_complex())
                elif arr.dtype.kind in "iu" and arr.dtype not in backend.DTYPES:
                    arr = arr.astype(np.int64)
                elif arr.dtype not in backend.DTYPES:
                    raise policy.errors.array_dtype_unsupported(dtype=arr.dtype)
                else:
                    arr = np.array(arr, copy=True)
            else:
                with backend.quiet(np):
                    arr = np.array(arr, dtype=dt)
    if device is not None:
        arr = backend.to_device(arr, backend.Device(device))
    return arr


def _check_leaf(arr, policy: Policy, dt) -> None:
    """PyTorch's errors for data holding what is no number (strings, None, other objects); Python
    numbers NumPy keeps as objects (ints beyond int64) pass. With a dtype to convert to, a TypeError."""
    leaf = arr.reshape(-1)[0] if arr.size else None
    if arr.dtype.kind in "US" or isinstance(leaf, str):
        raise policy.errors.data_type_str(type="str")
    if dt is not None and not isinstance(leaf, (int, float, bool, complex)):
        raise policy.errors.data_not_number(type=type(leaf).__name__)
    if not isinstance(leaf, (int, float, bool, complex)):
        raise policy.errors.data_dtype_infer(type=type(leaf).__name__)


def _first_leaf(data):
    while isinstance(data, (list, tuple)) and data:
        data = data[0]
    return data


def _holds_tensor(data) -> bool:
    stack = [data]
    while stack:
        x = stack.pop()
        if isinstance(x, Tensor):
            return True
        if isinstance(x, (list, tuple)):
            stack.extend(x)
    return False


def _flatten_tensors(data, policy: Policy):
    """Nested sequences with each tensor in them as a 0-d array of its dtype (PyTorch takes a
    tensor inside a sequence as a scalar: one of more than one element is an error)."""
    if isinstance(data, Tensor):
        if policy.sequence_tensors_stack:
            return backend.to_device(data._data, backend.CPU)
        if data._data.size != 1:
            raise policy.errors.scalar_numel()
        return backend.to_device(data._data, backend.CPU).reshape(())
    if isinstance(data, (list, tuple)):
        return [_flatten_tensors(x, policy) for x in data]
    return data


def _check_python_ints(arr, dt, policy: Policy) -> None:
    """PyTorch's errors for Python numbers that do not fit: an int beyond int64 (NumPy made uint64
    or object of it), a value outside the requested integer dtype."""
    k = arr.dtype.kind
    if (k == "O" and any(isinstance(v, int) for v in arr.reshape(-1))) or \
            (k == "u" and arr.dtype.itemsize == 8 and arr.size and arr.max() > np.iinfo(np.int64).max):
        if dt is None or dt.kind not in "fV":
            raise policy.errors.int_overflow()
    elif dt is not None and dt.kind in "iu" and k in "iuf" and arr.size and policy.values_fit_dtype:
        info = np.iinfo(dt)
        if arr.min() < (-info.max if dt.kind == "u" else info.min) or arr.max() > info.max:
            raise policy.errors.value_overflow(dtype=dt)


def full(shape, value, dtype=None, device=None):
    dt = backend.to_np_dtype(dtype)
    if dt is None:
        dt = (np.dtype(np.bool_) if isinstance(value, bool) else np.dtype(np.int64) if isinstance(value, int)
              else backend.default_complex() if isinstance(value, complex) else backend.default_float())
    return backend.xp_for_dtype(device, dt).full(tuple(shape), value, dtype=dt)


def strided(shape, strides, dtype=None, device=None, *, policy: Policy = TORCH):
    """A new array of `shape` whose elements lie `strides` (in elements) apart in one zero-filled buffer
    just large enough (PyTorch's empty_strided: strides may overlap, as 0 does)."""
    shape, strides = [int(s) for s in shape], [int(s) for s in strides]
    if len(shape) != len(strides):
        raise policy.errors.strided_dims(sizes=len(shape), strides=len(strides))
    for dim in shape:
        if dim < 0:
            raise policy.errors.size_negative(dim=dim, shape=shape)
    if any(st < 0 for st in strides):
        raise policy.errors.strided_overflow(shape=shape, strides=strides)
    dt = backend.to_np_dtype(dtype) or backend.default_float()
    xp = backend.xp_for_dtype(device, dt)
    n = 0 if 0 in shape else 1 + sum((size - 1) * st for size, st in zip(shape, strides))
    return xp.lib.stride_tricks.as_strided(xp.zeros(n, dtype=dt), tuple(shape),
                                           tuple(st * dt.itemsize for st in strides))


def arange(start, end=None, step=1, dtype=None, device=None, *, policy: Policy = TORCH):
    if end is None:
        start, end = 0, start
    vals = [v.item() if isinstance(v, Tensor) else v for v in (start, end, step)]
    if step == 0:
        raise policy.errors.arange_zero_step()
    if not all(math.isfinite(v) for v in vals[:2]):
        raise policy.errors.arange_range(start=vals[0], end=vals[1])
    if (vals[1] - vals[0]) * vals[2] < 0 and not policy.arange_wrong_sign_empty:
        raise policy.errors.arange_sign()
    dt = backend.to_np_dtype(dtype)
    if dt is None:
        dt = np.dtype(np.int64) if all(isinstance(v, int) for v in vals) else backend.default_float()
    n = max(0, math.ceil((vals[1] - vals[0]) / vals[2]))
    xp = backend.xp_for_dtype(device, dt)
    return (xp.arange(n, dtype=np.float64) * vals[2] + vals[0]).astype(dt) if dt.kind in "fV" else \
        xp.arange(vals[0], vals[1], vals[2], dtype=dt)


def linspace(start, end, steps: int, dtype=None, device=None):
    """PyTorch's linspace: the first half of the points stepped up from `start`, the rest back from
    `end` (so both ends are exact and an infinite end gives PyTorch's NaNs), in the dtype's arithmetic
    (float32 for bfloat16; for an integer dtype, from the truncated ends in float64). Without a dtype,
    the default complex one for a complex end, else the default float."""
    dt = backend.to_np_dtype(dtype) or (backend.default_complex() if isinstance(start, complex) or
                                        isinstance(end, complex) else backend.default_float())
    xp = backend.xp_for_dtype(device, dt)
    work = np.dtype(np.float64) if dt.kind in "iu" else np.dtype(np.float32) if dt.kind == "V" else dt
    first, last = (work.type(int(v)) if dt.kind in "iu" else work.type(v) for v in (start, end))
    if steps == 1:
        return xp.asarray([first]).astype(dt)
    i = xp.arange(steps, dtype=work)
    step = (last - first) / work.type(max(steps - 1, 1))
    with backend.quiet(xp):
        return xp.where(i < steps // 2, first + step * i, last - step * (steps - 1 - i)).astype(dt)


def eye(n, m=None, dtype=None, device=None):
    dt = backend.to_np_dtype(dtype) or backend.default_float()
    return backend.xp_for_dtype(device, dt).eye(n, n if m is None else m, dtype=dt)


def triangle_indices(which: str, row: int, col: int, offset: int = 0, dtype=None, device=None,
                     policy: Policy = TORCH):
    """The coordinates (2 x N) of the lower (`which="tril"`) or upper triangle of a row x col
    matrix, diagonal `offset` included, row by row."""
    for name, value in (("row", row), ("col", col)):
        if value < 0:
            raise policy.errors.triangle_indices_negative(name=name, value=value)
    dt = backend.to_np_dtype(dtype) or np.dtype(np.int64)
    if dt != np.int64 and dt != np.int32:
        raise policy.errors.not_implemented_for(op=f"{which}_indices", dtype_scalar=dt)
    xp = backend.xp_for(device)
    r, c = (xp.tril_indices if which == "tril" else xp.triu_indices)(row, offset, col)
    return xp.stack([r, c]).astype(dt)


class Generator:
    """A seeded random stream (PCG64). The numbers differ from PyTorch's; the seeding contract holds."""

    def __init__(self, device="cpu"):
        self.device = backend.Device(device)
        self._seed = 67280421310721
        self._rng = None

    @property
    def rng(self) -> np.random.Generator:
        """The NumPy stream, made from the seed on the first draw (importing flowgrad loads no numpy.random)."""
        rng = self._rng
        if rng is None:
            rng = self._rng = np.random.default_rng(self._seed)
        return rng

    @rng.setter
    def rng(self, value: np.random.Generator) -> None:
        self._rng = value

    def manual_seed(self, seed: int) -> "Generator":
        self._seed = int(seed)
        self._rng = None
        return self

    def seed(self) -> int:
        s = int(np.random.SeedSequence().entropy % (2 ** 63))
        self.manual_seed(s)
        return s

    def initial_seed(self) -> int:
        return self._seed

    def get_state(self) -> np.ndarray:
        """The seed and the whole PCG64 state as bytes (uint8, STATE_BYTES long): what set_state takes."""
        st = self.rng.bit_generator.state
        words = (self._seed, st["state"]["state"], st["state"]["inc"], st["has_uint32"], st["uinteger"])
        raw = b"".join(int(w).to_bytes(n, "little") for w, n in zip(words, _STATE_LAYOUT))
        return np.frombuffer(raw, np.uint8).copy()

    def set_state(self, state: np.ndarray) -> None:
        """Restore a state get_state returned (the seed included)."""
        raw, words = np.ascontiguousarray(state, np.uint8).tobytes(), []
        for n in _STATE_LAYOUT:
            words.append(int.from_bytes(raw[:n], "little"))
            raw = raw[n:]
        self._seed = words[0]
        self.rng.bit_generator.state = {"bit_generator": "PCG64", "state": {"state": words[1], "inc": words[2]},
                                        "has_uint32": words[3], "uinteger": words[4]}


# byte widths of get_state's fields: seed, PCG64 state, PCG64 increment, has_uint32, uinteger
_STATE_LAYOUT = (8, 16, 16, 4, 4)
STATE_BYTES = sum(_STATE_LAYOUT)


default_generator = Generator()


def _gen(generator):
    """The NumPy generator every random draw of the core comes from (refused inside vmap's
    randomness="error" mode, as PyTorch refuses any random operation there)."""
    policy = _random_refused.get()
    if policy is not None:
        raise policy.errors.func_vmap_random()
    return (generator or default_generator).rng


def _place(arr, device):
    return arr if device is None else backend.to_device(arr, backend.Device(device))


def check_probability(policy: Policy, p) -> None:
    """PyTorch's error for a Bernoulli probability outside [0, 1]."""
    if not 0 <= p <= 1:
        raise policy.errors.bernoulli_p(p=p)


def _as_complex(pairs, dt):
    """Real and imaginary parts drawn as a trailing pair, as one complex array of dtype `dt`."""
    return (pairs[..., 0] + 1j * pairs[..., 1]).astype(dt)


def rand(shape, dtype=None, device=None, generator=None):
    """Uniform on [0, 1); a complex dtype draws both parts so."""
    dt = backend.to_np_dtype(dtype) or backend.default_float()
    if dt.kind == "c":
        return _place(_as_complex(_gen(generator).random(tuple(shape) + (2,)), dt), device)
    return _place(_gen(generator).random(tuple(shape)).astype(dt), device)


def randn(shape, dtype=None, device=None, generator=None):
    """Standard normal; a complex dtype draws each part with variance 1/2 (as PyTorch's)."""
    dt = backend.to_np_dtype(dtype) or backend.default_float()
    if dt.kind == "c":
        pairs = _gen(generator).standard_normal(tuple(shape) + (2,)) * math.sqrt(0.5)
        return _place(_as_complex(pairs, dt), device)
    return _place(_gen(generator).standard_normal(tuple(shape)).astype(dt), device)


def randint(low, high, shape, dtype=None, device=None, generator=None):
    dt = backend.to_np_dtype(dtype) or np.dtype(np.int64)
    return _place(_gen(generator).integers(low, high, tuple(shape)).astype(dt), device)


def random_bound(dt) -> int:
    """The exclusive upper bound of `random_()` without bounds: 2**mantissa + 1 for a float dtype (every
    integer below is exact), max + 1 for an integer dtype, 2 for bool (PyTorch's)."""
    dt = np.dtype(dt)
    if dt.kind in "fV":
        return 2 ** (backend.finfo(dt).nmant + 1) + 1
    if dt.kind == "b":
        return 2
    return int(np.iinfo(dt).max) + 1


def randperm(n, dtype=None, device=None, generator=None):
    dt = backend.to_np_dtype(dtype) or np.dtype(np.int64)
    return _place(_gen(generator).permutation(n).astype(dt), device)


def uniform_like(arr, low, high, generator=None):
    """Uniform on [low, high) in `arr`'s shape and dtype (a complex dtype: both parts so)."""
    xp = backend.namespace(arr)
    if arr.dtype.kind == "c":
        host = _as_complex(_gen(generator).uniform(low, high, arr.shape + (2,)), arr.dtype)
    else:
        host = _gen(generator).uniform(low, high, arr.shape).astype(arr.dtype)
    return host if xp is np else backend.to_device(host, backend.device_of(arr))


def normal_like(arr, mean, std, generator=None):
    """Normal in `arr`'s shape and dtype (a complex dtype: each part with variance std**2 / 2)."""
    xp = backend.namespace(arr)
    if arr.dtype.kind == "c":
        pairs = _gen(generator).standard_normal(arr.shape + (2,)) * (std * math.sqrt(0.5))
        host = _as_complex(pairs, arr.dtype) + mean
    else:
        host = (_gen(generator).standard_normal(arr.shape) * std + mean).astype(arr.dtype)
    return host if xp is np else backend.to_device(host, backend.device_of(arr))


def standard_gamma_like(alpha, generator=None):
    """Gamma(alpha, 1) draws shaped and typed as the array `alpha`, on its device."""
    xp = backend.namespace(alpha)
    host = alpha if xp is np else xp.asnumpy(alpha)
    draws = _gen(generator).standard_gamma(host.astype(np.float64)).astype(alpha.dtype)
    return draws if xp is np else backend.to_device(draws, backend.device_of(alpha))


def standard_exponential_like(arr, generator=None):
    """Exponential(1) draws shaped and typed as the array `arr`, on its device."""
    xp = backend.namespace(arr)
    host = _gen(generator).standard_exponential(arr.shape).astype(arr.dtype)
    return host if xp is np else backend.to_device(host, backend.device_of(arr))


def binomial_like(count, prob, generator=None):
    """Binomial(count, prob) draws shaped and typed as the array `prob`, on its device."""
    xp = backend.namespace(prob)
    host_n, host_p = (a if xp is np else xp.asnumpy(a) for a in (count, prob))
    draws = _gen(generator).binomial(host_n.astype(np.int64), host_p.astype(np.float64)).astype(prob.dtype)
    return draws if xp is np else backend.to_device(draws, backend.device_of(prob))


def poisson_like(rate, generator=None):
    """Poisson(rate) draws shaped and typed as the array `rate`, on its device."""
    xp = backend.namespace(rate)
    host = rate if xp is np else xp.asnumpy(rate)
    draws = _gen(generator).poisson(host.astype(np.float64)).astype(rate.dtype)
    return draws if xp is np else backend.to_device(draws, backend.device_of(rate))
