"""The torch family's creation functions (`tensor`, `zeros`, `randn`, `arange`, ... and the
seeding functions), built for one facade: its Tensor class, dtype table and default device."""
from __future__ import annotations

import builtins
import warnings

import numpy as np

from .. import backend, creation, windows
from ..creation import check_probability
from .. import ops
from ..tensor import Tensor as _CoreTensor
from ..ops._args import check_fill_value
from .argcheck import is_long, typename
from .generator import build as build_generator
from .tensor import check_random_range


def _is_int(s) -> bool:
    """An int as PyTorch's size arguments take it: a Python or NumPy integer or a 0-d integer tensor."""
    return is_long(s) or (isinstance(s, _CoreTensor) and s._data.ndim == 0 and s._data.dtype.kind in "iu")


def build(Tensor: type, dtypes: dict, module: str) -> dict:
    """The creation namespace of a torch-family facade whose tensors are `Tensor`."""
    policy = Tensor.policy
    default_device = [None]

    def _dev(d):
        d = d if d is not None else default_device[0]
        return None if d is None else backend.Device(d)

    def _finish(arr, requires_grad):
        t = Tensor._make(arr)
        if requires_grad:
            if arr.dtype.kind not in "fcV":
                raise policy.errors.int_requires_grad()
            t._requires_grad = True
        return t

    def _size(fn, size):
        """PyTorch's `size` argument of `fn`: ints, one tuple / list / Size of ints, or none."""
        if len(size) == 1 and isinstance(size[0], (tuple, list)):
            size = size[0]
            if size and not _is_int(size[0]):
                raise policy.errors.size_element(fn=fn, type=typename(size[0]), pos=0)
        elif size and not _is_int(size[0]):
            if len(size) > 1:
                raise policy.errors.size_positional(fn=fn, given=len(size))
            raise policy.errors.size_type(fn=fn, type=typename(size[0]))
        for pos, s in enumerate(size):
            if not _is_int(s):
                raise policy.errors.size_unpack(fn=fn, type=typename(s), pos=pos + 1)
        shape = tuple(builtins.int(s) for s in size)
        if any(s < 0 for s in shape):
            if fn == "zeros":
                raise policy.errors.size_negative_zeros()
            raise policy.errors.size_negative(dim=next(s for s in shape if s < 0), shape=list(shape))
        return shape

    def _random_dtype(kernel, dtype):
        """The dtype of a random float tensor; PyTorch's error for any other."""
        dt = backend.to_np_dtype(dtype)
        if dt is not None and dt.kind not in "fcV":
            raise policy.errors.not_implemented_for(op=kernel, dtype_scalar=dt)
        return dtype

    def _like(t, dtype, device):
        return (dtype if dtype is not None else t._data.dtype), (device if device is not None else t.device)

    def set_default_dtype(d) -> None:
        backend.set_default_float(d)

    def get_default_dtype():
        return dtypes[backend.default_float()]

    def set_default_device(d) -> None:
        default_device[0] = None if d is None else Tensor._device(d)

    def get_default_device():
        return default_device[0] or Tensor._device("cpu")

    def tensor(data, dtype=None, device=None, requires_grad=False, pin_memory=False):
        if isinstance(data, _CoreTensor):
            warning = policy.errors.tensor_from_tensor()
            warnings.warn(str(warning), type(warning), stacklevel=2)
        return _finish(creation.array_from(data, dtype, _dev(device), policy=policy), requires_grad)

    def as_tensor(data, dtype=None, device=None):
        if isinstance(data, _CoreTensor) and (dtype is None or data.dtype == dtype) and device is None:
            return data
        if isinstance(data, np.ndarray) and dtype is None and device is None and data.dtype in backend.DTYPES \
                and data.dtype.kind != "V":
            return Tensor._make(data)
        return _finish(creation.array_from(data, dtype, _dev(device), policy=policy), False)

    def from_numpy(arr: np.ndarray):
        if not isinstance(arr, np.ndarray):
            raise policy.errors.from_numpy_type(type=type(arr).__name__)
        if arr.dtype.kind == "V":   # (PyTorch takes no bfloat16 array)
            raise policy.errors.array_bfloat16()
        if arr.dtype not in backend.DTYPES:
            raise policy.errors.from_numpy_dtype(dtype=arr.dtype)
        return Tensor._make(arr)

    def from_dlpack(ext):
        """A tensor sharing memory with a DLPack producer (NumPy, CuPy, real torch, ...) or capsule."""
        from .. import dlpack
        return Tensor._make(dlpack.array_from_dlpack(ext, policy))

    def zeros(*size, dtype=None, device=None, requires_grad=False, out=None):
        return _finish(creation.full(_size("zeros", size), 0, dtype or backend.default_float(), _dev(device)), requires_grad)

    def ones(*size, dtype=None, device=None, requires_grad=False, out=None):
        return _finish(creation.full(_size("ones", size), 1, dtype or backend.default_float(), _dev(device)), requires_grad)

    def empty(*size, dtype=None, device=None, requires_grad=False, memory_format=None):
        made = Tensor._make(creation.full(_size("empty", size), 0, dtype or backend.default_float(), _dev(device)))
        return _finish(ops.new_layout(made, memory_format, "empty")._data, requires_grad)

    def empty_strided(size, stride, dtype=None, device=None, requires_grad=False):
        return _finish(creation.strided(size, stride, dtype, _dev(device), policy=policy), requires_grad)

    def full(size, fill_value, dtype=None, device=None, requires_grad=False):
        if isinstance(fill_value, _CoreTensor):
            fill_value = fill_value.item()
        if not isinstance(size, (tuple, list)):
            raise policy.errors.size_type(fn="full", type=typename(size))
        shape = _size("full", (size,))
        dt = backend.to_np_dtype(dtype)
        if dt is not None or type(fill_value) is int:     # (without a dtype, the value's own is taken)
            fill_value = check_fill_value(policy, fill_value, dt or np.dtype(np.int64))
        return _finish(creation.full(shape, fill_value, dtype, _dev(device)), requires_grad)

    def zeros_like(t, dtype=None, device=None, requires_grad=False, memory_format=None):
        dt, dv = _like(t, dtype, device)
        return _finish(ops.like_layout(t, creation.full(t._data.shape, 0, dt, dv), memory_format, "zeros_like"),
                       requires_grad)

    def ones_like(t, dtype=None, device=None, requires_grad=False, memory_format=None):
        dt, dv = _like(t, dtype, device)
        return _finish(ops.like_layout(t, creation.full(t._data.shape, 1, dt, dv), memory_format, "ones_like"),
                       requires_grad)

    def full_like(t, fill_value, dtype=None, device=None, requires_grad=False, memory_format=None):
        if not isinstance(fill_value, (int, float, bool, complex, np.number, np.bool_, _CoreTensor)):
            raise policy.errors.argument_type_at(fn="full_like", argument="fill_value", position=2,
                                                 expected="Number", type=typename(fill_value))
        dt, dv = _like(t, dtype, device)
        fill_value = check_fill_value(policy, fill_value, backend.to_np_dtype(dt))
        return _finish(ops.like_layout(t, creation.full(t._data.shape, fill_value, dt, dv), memory_format,
                                       "full_like"), requires_grad)

    def empty_like(t, dtype=None, device=None, requires_grad=False, memory_format=None):
        dt, dv = _like(t, dtype, device)
        return _finish(ops.like_layout(t, creation.full(t._data.shape, 0, dt, dv), memory_format, "empty_like"),
                       requires_grad)

    def rand_like(t, dtype=None, device=None, requires_grad=False, generator=None, memory_format=None):
        dt, dv = _like(t, dtype, device)
        values = creation.rand(t._data.shape, _random_dtype("check_uniform_bounds", dt), dv, generator)
        return _finish(ops.like_layout(t, values, memory_format, "rand_like"), requires_grad)

    def randn_like(t, dtype=None, device=None, requires_grad=False, generator=None, memory_format=None):
        dt, dv = _like(t, dtype, device)
        values = creation.randn(t._data.shape, _random_dtype("normal_kernel_cpu", dt), dv, generator)
        return _finish(ops.like_layout(t, values, memory_format, "randn_like"), requires_grad)

    def arange(start, end=None, step=1, dtype=None, device=None, requires_grad=False, out=None):
        return _finish(creation.arange(start, end, step, dtype, _dev(device), policy=policy), requires_grad)

    def linspace(start, end, steps, dtype=None, device=None, requires_grad=False):
        steps = ops.int_argument(steps, policy)
        if steps < 0:
            raise policy.errors.linspace_steps()
        for name, v in (("start", start), ("end", end)):
            if isinstance(v, _CoreTensor) and v._data.ndim:
                raise policy.errors.linspace_0d(name=name, ndim=v._data.ndim)
        start, end = (v._data.item() if isinstance(v, _CoreTensor) else v for v in (start, end))
        inferred = backend.default_complex() if isinstance(start, complex) or isinstance(end, complex) else \
            backend.default_float()
        dt = backend.to_np_dtype(dtype) or inferred
        if inferred.kind == "c" and dt.kind != "c":
            raise policy.errors.linspace_cast(inferred_ctype=inferred, dtype_scalar=dt)
        if dt.kind == "b":
            raise policy.errors.not_implemented_for(op="linspace_cpu", dtype_scalar=dt)
        for v in (start, end):
            if dt.kind in "iu":
                check_fill_value(policy, int(v), dt)
        return _finish(creation.linspace(start, end, steps, dtype, _dev(device)), requires_grad)

    def eye(n, m=None, dtype=None, device=None, requires_grad=False):
        for name, size in (("n", n), ("m", m)):
            if size is not None and size < 0:
                raise policy.errors.eye_negative(name=name, size=size)
        return _finish(creation.eye(n, m, dtype, _dev(device)), requires_grad)

    def tril_indices(row, col, offset=0, dtype=None, device=None):
        row, col = ops.int_argument(row, policy), ops.int_argument(col, policy)
        return Tensor._make(creation.triangle_indices("tril", row, col, offset, dtype, _dev(device), policy))

    def triu_indices(row, col, offset=0, dtype=None, device=None):
        row, col = ops.int_argument(row, policy), ops.int_argument(col, policy)
        return Tensor._make(creation.triangle_indices("triu", row, col, offset, dtype, _dev(device), policy))

    def _window(kind):
        def fn(window_length, periodic=True, dtype=None, device=None, requires_grad=False, **params):
            return _finish(windows.window(kind, window_length, periodic, dtype, _dev(device), policy=policy,
                                          **params), requires_grad)
        fn.__name__ = fn.__qualname__ = f"{kind}_window"
        return fn

    hann_window, blackman_window, bartlett_window = (_window(k) for k in ("hann", "blackman", "bartlett"))
    _hamming, _kaiser = _window("hamming"), _window("kaiser")

    def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, dtype=None, device=None,
                       requires_grad=False):
        return _hamming(window_length, periodic, dtype, device, requires_grad, alpha=alpha, beta=beta)

    def kaiser_window(window_length, periodic=True, beta=12.0, dtype=None, device=None, requires_grad=False):
        return _kaiser(window_length, periodic, dtype, device, requires_grad, beta=beta)

    # ------------------------------------------------------------------------------ random
    Generator, default_generator = build_generator(Tensor, module)

    def manual_seed(seed):
        return default_generator.manual_seed(builtins.int(seed))

    def seed() -> builtins.int:
        return default_generator.seed()

    def initial_seed() -> builtins.int:
        return default_generator.initial_seed()

    def get_rng_state():
        return default_generator.get_state()

    def set_rng_state(new_state) -> None:
        default_generator.set_state(new_state)

    def rand(*size, generator=None, dtype=None, device=None, requires_grad=False):
        return _finish(creation.rand(_size("rand", size), _random_dtype("check_uniform_bounds", dtype), _dev(device),
                                     generator), requires_grad)

    def randn(*size, generator=None, dtype=None, device=None, requires_grad=False):
        return _finish(creation.randn(_size("randn", size), _random_dtype("normal_kernel_cpu", dtype), _dev(device),
                                      generator), requires_grad)

    def randint(low, high=None, size=None, generator=None, dtype=None, device=None, requires_grad=False):
        if high is None or isinstance(high, (tuple, list)):
            low, high, size = 0, low, high if size is None else size
        elif size is None:      # randint(high, size) with a size that is no sequence
            raise policy.errors.argument_type_at(fn="randint", argument="size", position=2, expected="tuple of ints",
                                                 type=typename(high))
        low, high = ops.int_argument(low, policy), ops.int_argument(high, policy)
        if not isinstance(size, (tuple, list)):
            raise policy.errors.size_type(fn="randint", type=typename(size))
        size = _size("randint", (size,))
        if low >= high:
            raise policy.errors.random_range(low=low, high=high)
        return _finish(creation.randint(low, high, size, dtype, _dev(device), generator), requires_grad)

    def randperm(n, generator=None, dtype=None, device=None, requires_grad=False):
        if not is_long(n):
            if not ops.is_int_tensor(n):
                raise policy.errors.argument_type_at(fn="randperm", argument="n", position=1, expected="int",
                                                     type=typename(n))
            n = int(n)
        if n < 0:
            raise policy.errors.size_negative(dim=n, shape=[n])
        return _finish(creation.randperm(n, dtype, _dev(device), generator), requires_grad)

    def randint_like(input, low=0, high=None, *, dtype=None, device=None, requires_grad=False, generator=None):
        if high is None:
            if low == 0:
                raise policy.errors.argument_missing(fn="randint_like", argument="high")
            low, high = 0, low
        for name, bound in (("low", low), ("high", high)):
            if isinstance(bound, _CoreTensor):
                if bound._data.size != 1:
                    raise policy.errors.randint_like_bound()
            elif not is_long(bound):
                raise policy.errors.argument_type(fn="randint_like", argument=name, expected="int",
                                                  type=typename(bound))
        dt, dv = _like(input, dtype, device)
        if int(low) >= int(high):
            raise policy.errors.random_range(low=int(low), high=int(high))
        check_random_range(policy, int(low), int(high) - 1, backend.to_np_dtype(dt))
        return _finish(creation.randint(low, high, input._data.shape, dt, dv, generator), requires_grad)

    def normal(mean, std=1.0, size=None, generator=None):
        tensors = [x for x in (mean, std) if isinstance(x, _CoreTensor)]
        if isinstance(std, _CoreTensor):
            if std._data.dtype.kind == "c":
                raise policy.errors.normal_std_complex()
            if not bool((std._data >= 0).all()):
                raise policy.errors.normal_stds()
        elif not std >= 0:
            raise policy.errors.normal_std(std=std)
        if tensors:
            if len(tensors) == 2:
                err = ops.broadcast_error(mean._data.shape, std._data.shape, policy)
                if err is not None:
                    raise err
            for t in tensors:
                if t._data.dtype.kind not in "fVc":
                    raise policy.errors.not_implemented_for(op="normal_kernel_cpu", dtype_scalar=t._data.dtype)
            shape = np.broadcast_shapes(*(x._data.shape for x in tensors))
            # a complex mean: complex draws (each part of variance std^2 / 2)
            kind = tensors[0]._data.dtype
            out = mean + std * randn(shape, generator=generator, dtype=kind if kind.kind == "c" else None)
            # in the first tensor's dtype (PyTorch draws into a tensor like it)
            return ops.cast(out, tensors[0]._data.dtype)
        return randn(size, generator=generator) * std + mean

    def bernoulli(input, p=None, generator=None):
        """0 / 1 drawn with the probabilities in `input`, or with the one probability `p` in
        `input`'s shape and dtype."""
        d, one_probability = input._data, p is not None
        if d.dtype.kind == "c":
            raise policy.errors.not_implemented_for(
                op="bernoulli_tensor_cpu_self_" if p is None else "bernoulli_scalar_cpu_", dtype_scalar=d.dtype)
        if p is None:
            if d.dtype.kind not in "fV":
                raise policy.errors.not_implemented_for(op="bernoulli_tensor_cpu_p_", dtype_scalar=d.dtype)
            if d.size and not bool(((d >= 0) & (d <= 1)).all()):
                raise policy.errors.bernoulli_probabilities()
            p = d
        else:
            if isinstance(p, _CoreTensor) and p._data.size == 1:   # (PyTorch's parser takes it as a float)
                p = p.item()
            check_probability(policy, p)
        draws = Tensor._make((creation.rand(d.shape, np.float64, device=input.device, generator=generator) < p)
                             .astype(d.dtype))
        return ops.elementwise.record_bernoulli(input, draws, one_probability)

    def poisson(input, generator=None):
        """Counts drawn from Poisson distributions of the rates in `input`, in its dtype."""
        if generator is not None and not isinstance(generator, Generator):
            raise policy.errors.argument_type_at(fn="poisson", argument="generator", position=2,
                                                 expected="torch.Generator", type=typename(generator))
        d = input._data
        if d.dtype.kind not in "fV":
            raise policy.errors.not_implemented_for(op="poisson_cpu", dtype_scalar=d.dtype)
        rates = backend.to_device(d, backend.Device("cpu")).astype(np.float64)
        if not bool((rates >= 0).all()):        # (NaN too)
            raise policy.errors.poisson_rate()
        finite = np.isfinite(rates)     # (an infinite rate: PyTorch's int64 overflow)
        draws = np.where(finite, creation._gen(generator).poisson(np.where(finite, rates, 0)), -2.0 ** 63)
        out = Tensor._make(backend.to_device(draws.astype(d.dtype), input.device))
        return ops.elementwise.record_poisson(input, out)

    def multinomial(probs, num_samples, replacement=False, generator=None):
        """Category indices drawn by the rows of `probs` (PyTorch's checks, in its order)."""
        d = probs._data
        if d.dtype.kind not in "fV":
            raise policy.errors.multinomial_dtype(dtype_scalar=d.dtype)
        if d.ndim not in (1, 2):
            raise policy.errors.multinomial_dim()
        num_samples = ops.int_argument(num_samples, policy, sym=True)
        if num_samples <= 0:
            raise policy.errors.multinomial_count()
        if not replacement and num_samples > d.shape[-1]:
            raise policy.errors.multinomial_too_many()
        p = np.atleast_2d(probs._host()).astype(np.float64)
        if p.size and not bool((np.isfinite(p) & (p >= 0)).all()):
            raise policy.errors.multinomial_values()
        if p.size and not bool((p.sum(-1) > 0).all()):
            raise policy.errors.multinomial_sum()
        rng = creation._gen(generator)
        rows = [rng.choice(p.shape[1], num_samples, replace=replacement, p=row / row.sum()) for row in p]
        out = np.stack(rows).astype(np.int64) if rows else np.zeros((0, num_samples), np.int64)
        return Tensor._make(out if d.ndim == 2 else out[0])

    namespace = {name: value for name, value in locals().items()
                 if not name.startswith("_") and name not in ("Tensor", "dtypes", "module", "policy", "default_device")}
    namespace.update(asarray=as_tensor, _default_device=default_device)
    return namespace
