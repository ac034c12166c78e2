"""Invertible maps with computable log |det Jacobian| (PyTorch's torch.distributions.transforms), used
by TransformedDistribution: each has a domain and codomain constraint, `inv` (its inverse, whose
`inv` is the transform again), an optional one-entry cache, and the forward / inverse shapes."""
from __future__ import annotations

import math
import numbers

import numpy as np

from .. import backend, ops
from ..autograd.policy import policy_of
from ..ops import linalg_decomp
from ..ops import layers as _layers
from ..ops.conv import constant_pad
from ..tensor import Tensor
from . import constraints
from .utils import broadcast_all, lazy_property, sum_rightmost

__all__ = ["AbsTransform", "AffineTransform", "ComposeTransform", "CumulativeDistributionTransform",
           "ExpTransform", "IndependentTransform", "LowerCholeskyTransform", "PositiveDefiniteTransform",
           "PowerTransform", "ReshapeTransform", "SigmoidTransform", "SoftplusTransform", "TanhTransform",
           "SoftmaxTransform", "StickBreakingTransform", "Transform", "identity_transform"]


def _full_like(x: Tensor, value: float) -> Tensor:
    d = x._data
    return x._new(backend.namespace(d).full(d.shape, value, dtype=d.dtype))


def _check_ndim(shape, n: int, x=None) -> None:
    if len(shape) < n:
        raise policy_of(x).errors.transform_too_few_dims()


class Transform:
    """An invertible map x -> y. A subclass implements `_call` and / or `_inverse`, and a bijective
    one `log_abs_det_jacobian`. `cache_size` 1 remembers the last (x, y) pair."""

    bijective = False
    domain: constraints.Constraint
    codomain: constraints.Constraint
    _tensor_cls: type = Tensor
    _family: dict = {}   # a facade's classes by their neutral ones

    def __init__(self, cache_size: int = 0) -> None:
        if cache_size not in (0, 1):
            raise self._tensor_cls.policy.errors.transform_cache_size()
        self._cache_size = cache_size
        self._inv = None
        if cache_size == 1:
            self._cached_x_y = None, None

    def __getstate__(self):
        state = self.__dict__.copy()
        state["_inv"] = None
        return state

    @property
    def event_dim(self) -> int:
        if self.domain.event_dim == self.codomain.event_dim:
            return self.domain.event_dim
        raise self._tensor_cls.policy.errors.transform_event_dim()

    @property
    def inv(self) -> "Transform":
        """The inverse transform (t.inv.inv is t)."""
        if self._inv is None:
            self._inv = self._family.get(_InverseTransform, _InverseTransform)(self)
        return self._inv

    @property
    def sign(self):
        """+1 or -1: the sign of the Jacobian's determinant of a monotone univariate transform."""
        raise NotImplementedError

    def with_cache(self, cache_size: int = 1) -> "Transform":
        if self._cache_size == cache_size:
            return self
        if type(self).__init__ is Transform.__init__:
            return type(self)(cache_size=cache_size)
        raise self._tensor_cls.policy.errors.transform_with_cache(cls=str(type(self)))

    def __eq__(self, other):
        return self is other

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = object.__hash__

    def __call__(self, x):
        if self._cache_size == 0:
            return self._call(x)
        x_old, y_old = self._cached_x_y
        if x is x_old:
            return y_old
        y = self._call(x)
        self._cached_x_y = x, y
        return y

    def _inv_call(self, y):
        if self._cache_size == 0:
            return self._inverse(y)
        x_old, y_old = self._cached_x_y
        if y is y_old:
            return x_old
        x = self._inverse(y)
        self._cached_x_y = x, y
        return x

    def _call(self, x):
        raise NotImplementedError

    def _inverse(self, y):
        raise NotImplementedError

    def log_abs_det_jacobian(self, x, y):
        raise NotImplementedError

    def __repr__(self) -> str:
        return type(self).__name__ + "()"

    def forward_shape(self, shape):
        return shape

    def inverse_shape(self, shape):
        return shape

    def _size(self, shape):
        """`shape` as the facade's size type (a tuple for the neutral classes)."""
        return getattr(self._tensor_cls, "_size", tuple)(shape)


class _InverseTransform(Transform):
    """The inverse of a transform (what `Transform.inv` gives)."""

    def __init__(self, transform: Transform) -> None:
        super().__init__(cache_size=transform._cache_size)
        self._inv = transform

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return self._inv.codomain

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return self._inv.domain

    @property
    def bijective(self) -> bool:
        return self._inv.bijective

    @property
    def sign(self):
        return self._inv.sign

    @property
    def inv(self) -> Transform:
        return self._inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        return self.inv.with_cache(cache_size).inv

    def __eq__(self, other):
        return isinstance(other, _InverseTransform) and self._inv == other._inv

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._inv!r})"

    def __call__(self, x):
        return self._inv._inv_call(x)

    def log_abs_det_jacobian(self, x, y):
        return -self._inv.log_abs_det_jacobian(y, x)

    def forward_shape(self, shape):
        return self._inv.inverse_shape(shape)

    def inverse_shape(self, shape):
        return self._inv.forward_shape(shape)


class ComposeTransform(Transform):
    """The transforms of `parts` applied in order (each caches for itself)."""

    def __init__(self, parts: list, cache_size: int = 0) -> None:
        if cache_size:
            parts = [part.with_cache(cache_size) for part in parts]
        super().__init__(cache_size=cache_size)
        self.parts = parts

    def __eq__(self, other):
        return isinstance(other, ComposeTransform) and self.parts == other.parts

    __hash__ = object.__hash__

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        if not self.parts:
            return constraints.real
        domain = self.parts[0].domain
        event_dim = self.parts[-1].codomain.event_dim
        for part in reversed(self.parts):
            event_dim = max(event_dim + part.domain.event_dim - part.codomain.event_dim, part.domain.event_dim)
        if event_dim > domain.event_dim:
            domain = constraints.independent(domain, event_dim - domain.event_dim)
        return domain

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        if not self.parts:
            return constraints.real
        codomain = self.parts[-1].codomain
        event_dim = self.parts[0].domain.event_dim
        for part in self.parts:
            event_dim = max(event_dim + part.codomain.event_dim - part.domain.event_dim, part.codomain.event_dim)
        if event_dim > codomain.event_dim:
            codomain = constraints.independent(codomain, event_dim - codomain.event_dim)
        return codomain

    @lazy_property
    def bijective(self) -> bool:
        return all(p.bijective for p in self.parts)

    @lazy_property
    def sign(self):
        sign = 1
        for p in self.parts:
            sign = sign * p.sign
        return sign

    @property
    def inv(self) -> Transform:
        if self._inv is None:
            self._inv = type(self)([p.inv for p in reversed(self.parts)])
            self._inv._inv = self
        return self._inv

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.parts, cache_size=cache_size)

    def __call__(self, x):
        for part in self.parts:
            x = part(x)
        return x

    def log_abs_det_jacobian(self, x, y):
        if not self.parts:
            return _full_like(x, 0.0)
        xs = [x]
        for part in self.parts[:-1]:
            xs.append(part(xs[-1]))
        xs.append(y)
        event_dim = self.domain.event_dim
        total = None
        for part, a, b in zip(self.parts, xs[:-1], xs[1:]):
            term = sum_rightmost(part.log_abs_det_jacobian(a, b), event_dim - part.domain.event_dim)
            total = term if total is None else total + term
            event_dim += part.codomain.event_dim - part.domain.event_dim
        return total

    def forward_shape(self, shape):
        for part in self.parts:
            shape = part.forward_shape(shape)
        return shape

    def inverse_shape(self, shape):
        for part in reversed(self.parts):
            shape = part.inverse_shape(shape)
        return shape

    def __repr__(self) -> str:
        return type(self).__name__ + "(\n    " + ",\n    ".join(repr(p) for p in self.parts) + "\n)"


identity_transform = ComposeTransform([])


class IndependentTransform(Transform):
    """A transform whose rightmost `reinterpreted_batch_ndims` dims are summed out of its log
    |det Jacobian| (the map itself is the base transform's)."""

    def __init__(self, base_transform: Transform, reinterpreted_batch_ndims: int, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.base_transform = base_transform.with_cache(cache_size)
        self.reinterpreted_batch_ndims = reinterpreted_batch_ndims

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.base_transform, self.reinterpreted_batch_ndims, cache_size=cache_size)

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return constraints.independent(self.base_transform.domain, self.reinterpreted_batch_ndims)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return constraints.independent(self.base_transform.codomain, self.reinterpreted_batch_ndims)

    @property
    def bijective(self) -> bool:
        return self.base_transform.bijective

    @property
    def sign(self):
        return self.base_transform.sign

    def _call(self, x):
        _check_ndim(x._data.shape, self.domain.event_dim, x)
        return self.base_transform(x)

    def _inverse(self, y):
        _check_ndim(y._data.shape, self.codomain.event_dim, y)
        return self.base_transform.inv(y)

    def log_abs_det_jacobian(self, x, y):
        return sum_rightmost(self.base_transform.log_abs_det_jacobian(x, y), self.reinterpreted_batch_ndims)

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.base_transform!r}, {self.reinterpreted_batch_ndims})"

    def forward_shape(self, shape):
        return self.base_transform.forward_shape(shape)

    def inverse_shape(self, shape):
        return self.base_transform.inverse_shape(shape)


class ReshapeTransform(Transform):
    """Reshapes the rightmost `in_shape` dims to `out_shape` (unit Jacobian)."""

    bijective = True

    def __init__(self, in_shape, out_shape, cache_size: int = 0) -> None:
        self.in_shape, self.out_shape = self._size(in_shape), self._size(out_shape)
        if math.prod(self.in_shape) != math.prod(self.out_shape):
            raise self._tensor_cls.policy.errors.transform_reshape_numel()
        super().__init__(cache_size=cache_size)

    @constraints.dependent_property
    def domain(self):
        return constraints.independent(constraints.real, len(self.in_shape))

    @constraints.dependent_property
    def codomain(self):
        return constraints.independent(constraints.real, len(self.out_shape))

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.in_shape, self.out_shape, cache_size=cache_size)

    def _call(self, x):
        shape = x._data.shape
        return ops.reshape(x, shape[:len(shape) - len(self.in_shape)] + tuple(self.out_shape))

    def _inverse(self, y):
        shape = y._data.shape
        return ops.reshape(y, shape[:len(shape) - len(self.out_shape)] + tuple(self.in_shape))

    def log_abs_det_jacobian(self, x, y):
        shape = x._data.shape
        d = x._data
        return x._new(backend.namespace(d).zeros(shape[:len(shape) - len(self.in_shape)], dtype=d.dtype))

    def _swap(self, shape, have, want):
        _check_ndim(shape, len(have))
        cut = len(shape) - len(have)
        if tuple(shape[cut:]) != tuple(have):
            raise self._tensor_cls.policy.errors.transform_reshape_mismatch(got=shape[cut:], expected=have)
        return self._size(tuple(shape[:cut]) + tuple(want))

    def forward_shape(self, shape):
        return self._swap(shape, self.in_shape, self.out_shape)

    def inverse_shape(self, shape):
        return self._swap(shape, self.out_shape, self.in_shape)


class _Univariate(Transform):
    """A parameterless transform: all instances are equal."""

    def __eq__(self, other):
        return isinstance(other, type(self))

    __hash__ = object.__hash__


class ExpTransform(_Univariate):
    """y = exp(x)."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return ops.exp(x)

    def _inverse(self, y):
        return ops.log(y)

    def log_abs_det_jacobian(self, x, y):
        return x


class PowerTransform(Transform):
    """y = x ** exponent."""

    domain = constraints.positive
    codomain = constraints.positive
    bijective = True

    def __init__(self, exponent, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        (self.exponent,) = broadcast_all((exponent,), self._tensor_cls)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.exponent, cache_size=cache_size)

    @lazy_property
    def sign(self):
        return ops.sign(self.exponent)

    def __eq__(self, other):
        return isinstance(other, PowerTransform) and bool(ops.all(self.exponent == other.exponent)._data)

    __hash__ = object.__hash__

    def _call(self, x):
        return ops.pow(x, self.exponent)

    def _inverse(self, y):
        return ops.pow(y, 1 / self.exponent)

    def log_abs_det_jacobian(self, x, y):
        return ops.log(ops.abs(self.exponent * y / x))

    def forward_shape(self, shape):
        return self._size(np.broadcast_shapes(tuple(shape), self.exponent._data.shape))

    inverse_shape = forward_shape


def clipped_sigmoid(x):
    """sigmoid(x) kept inside (tiny, 1 - eps) of x's dtype."""
    finfo = np.finfo(x._data.dtype)
    return ops.clamp(ops.sigmoid(x), float(finfo.tiny), float(1.0 - finfo.eps))


class SigmoidTransform(_Univariate):
    """y = sigmoid(x), x = logit(y)."""

    domain = constraints.real
    codomain = constraints.unit_interval
    bijective = True
    sign = +1

    def _call(self, x):
        return clipped_sigmoid(x)

    def _inverse(self, y):
        finfo = np.finfo(y._data.dtype)
        y = ops.clamp(y, float(finfo.tiny), float(1.0 - finfo.eps))
        return ops.log(y) - ops.log1p(-y)

    def log_abs_det_jacobian(self, x, y):
        return -_layers.softplus(-x) - _layers.softplus(x)


class SoftplusTransform(_Univariate):
    """y = log(1 + exp(x)) (linear above 20)."""

    domain = constraints.real
    codomain = constraints.positive
    bijective = True
    sign = +1

    def _call(self, x):
        return _layers.softplus(x)

    def _inverse(self, y):
        return ops.log(-ops.expm1(-y)) + y

    def log_abs_det_jacobian(self, x, y):
        return -_layers.softplus(-x)


class TanhTransform(_Univariate):
    """y = tanh(x)."""

    domain = constraints.real
    codomain = constraints.interval(-1.0, 1.0)
    bijective = True
    sign = +1

    def _call(self, x):
        return ops.tanh(x)

    def _inverse(self, y):
        return 0.5 * (ops.log1p(y) - ops.log1p(-y))

    def log_abs_det_jacobian(self, x, y):
        return 2.0 * (math.log(2.0) - x - _layers.softplus(-2.0 * x))


class AbsTransform(_Univariate):
    """y = |x| (not bijective: the inverse is the identity)."""

    domain = constraints.real
    codomain = constraints.positive

    def _call(self, x):
        return ops.abs(x)

    def _inverse(self, y):
        return y


def _param_shape(p) -> tuple:
    return p._data.shape if isinstance(p, Tensor) else ()


class AffineTransform(Transform):
    """y = loc + scale * x, over events of `event_dim` dims."""

    bijective = True

    def __init__(self, loc, scale, event_dim: int = 0, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.loc, self.scale, self._event_dim = loc, scale, event_dim

    @property
    def event_dim(self) -> int:
        return self._event_dim

    @constraints.dependent_property(is_discrete=False)
    def domain(self):
        return constraints.real if self.event_dim == 0 else constraints.independent(constraints.real, self.event_dim)

    @constraints.dependent_property(is_discrete=False)
    def codomain(self):
        return constraints.real if self.event_dim == 0 else constraints.independent(constraints.real, self.event_dim)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.loc, self.scale, self.event_dim, cache_size=cache_size)

    def __eq__(self, other):
        if not isinstance(other, AffineTransform):
            return False
        for a, b in ((self.loc, other.loc), (self.scale, other.scale)):
            if isinstance(a, numbers.Number) and isinstance(b, numbers.Number):
                if a != b:
                    return False
            elif not bool(ops.all(a == b)._data):
                return False
        return True

    __hash__ = object.__hash__

    @property
    def sign(self):
        if isinstance(self.scale, numbers.Number):
            return 1 if float(self.scale) > 0 else -1 if float(self.scale) < 0 else 0
        return ops.sign(self.scale)

    def _call(self, x):
        return self.loc + self.scale * x

    def _inverse(self, y):
        return (y - self.loc) / self.scale

    def log_abs_det_jacobian(self, x, y):
        shape = x._data.shape
        if isinstance(self.scale, numbers.Number):
            result = _full_like(x, math.log(abs(self.scale)))
        else:
            result = ops.log(ops.abs(self.scale))
        if self.event_dim:
            rshape = result._data.shape
            result = ops.sum(ops.reshape(result, rshape[:len(rshape) - self.event_dim] + (-1,)), -1)
            shape = shape[:len(shape) - self.event_dim]
        return ops.broadcast_to(result, shape)

    def forward_shape(self, shape):
        return self._size(np.broadcast_shapes(tuple(shape), _param_shape(self.loc),
                                                          _param_shape(self.scale)))

    inverse_shape = forward_shape


class SoftmaxTransform(_Univariate):
    """Unconstrained vectors to the simplex: exp, then normalise (not bijective)."""

    domain = constraints.real_vector
    codomain = constraints.simplex

    def _call(self, x):
        probs = ops.exp(x - ops.amax(x, -1, keepdim=True))
        return probs / ops.sum(probs, -1, keepdim=True)

    def _inverse(self, y):
        return ops.log(y)

    def forward_shape(self, shape):
        _check_ndim(shape, 1)
        return shape

    inverse_shape = forward_shape


def _stick_offset(like, n: int) -> Tensor:
    """log(n + 1 - k) for k = 1 .. n: the stick-breaking offsets of n free coordinates."""
    d = like._data
    xp = backend.namespace(d)
    return like._new(xp.log(n + 1 - xp.arange(1, n + 1, dtype=d.dtype)))


class StickBreakingTransform(_Univariate):
    """Unconstrained vectors to the simplex of one more dimension by stick breaking (bijective)."""

    domain = constraints.real_vector
    codomain = constraints.simplex
    bijective = True

    def _call(self, x):
        z = clipped_sigmoid(x - _stick_offset(x, x._data.shape[-1]))
        z_cumprod = ops.cumprod(1 - z, -1)
        return constant_pad(z, [0, 1], value=1) * constant_pad(z_cumprod, [1, 0], value=1)

    def _inverse(self, y):
        y_crop = y[..., :-1]
        sf = ops.clamp(1 - ops.cumsum(y_crop, -1), min=float(np.finfo(y._data.dtype).tiny))
        return ops.log(y_crop) - ops.log(sf) + _stick_offset(y, y_crop._data.shape[-1])

    def log_abs_det_jacobian(self, x, y):
        x = x - _stick_offset(x, x._data.shape[-1])
        return ops.sum(-x - _layers.softplus(-x) + ops.log(y[..., :-1]), -1)

    def forward_shape(self, shape):
        _check_ndim(shape, 1)
        return self._size(tuple(shape[:-1]) + (shape[-1] + 1,))

    def inverse_shape(self, shape):
        _check_ndim(shape, 1)
        return self._size(tuple(shape[:-1]) + (shape[-1] - 1,))


class LowerCholeskyTransform(_Univariate):
    """Unconstrained matrices to lower-triangular ones with a positive (exponentiated) diagonal."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.lower_cholesky

    def _call(self, x):
        return ops.tril(x, -1) + linalg_decomp._diag_embed(ops.exp(linalg_decomp.diagonal(x, 0, -2, -1)))

    def _inverse(self, y):
        return ops.tril(y, -1) + linalg_decomp._diag_embed(ops.log(linalg_decomp.diagonal(y, 0, -2, -1)))


class PositiveDefiniteTransform(_Univariate):
    """Unconstrained matrices to positive-definite ones: L L^T of their LowerCholeskyTransform."""

    domain = constraints.independent(constraints.real, 2)
    codomain = constraints.positive_definite

    def _call(self, x):
        L = self._family.get(LowerCholeskyTransform, LowerCholeskyTransform)()(x)
        return ops.matmul(L, ops.transpose(L, -2, -1))

    def _inverse(self, y):
        return self._family.get(LowerCholeskyTransform, LowerCholeskyTransform)().inv(linalg_decomp.linalg_cholesky(y))


class CumulativeDistributionTransform(Transform):
    """x -> the cdf of `distribution` at x (its icdf the inverse)."""

    bijective = True
    codomain = constraints.unit_interval
    sign = +1

    def __init__(self, distribution, cache_size: int = 0) -> None:
        super().__init__(cache_size=cache_size)
        self.distribution = distribution

    @property
    def domain(self):
        return self.distribution.support

    def _call(self, x):
        return self.distribution.cdf(x)

    def _inverse(self, y):
        return self.distribution.icdf(y)

    def log_abs_det_jacobian(self, x, y):
        return self.distribution.log_prob(x)

    def with_cache(self, cache_size: int = 1) -> Transform:
        if self._cache_size == cache_size:
            return self
        return type(self)(self.distribution, cache_size=cache_size)


# the classes a facade presents, bases before the classes derived from them
CLASSES = (Transform, _InverseTransform, ComposeTransform, IndependentTransform, ReshapeTransform, _Univariate,
           ExpTransform, PowerTransform, SigmoidTransform, SoftplusTransform, TanhTransform, AbsTransform,
           AffineTransform, SoftmaxTransform, StickBreakingTransform, LowerCholeskyTransform,
           PositiveDefiniteTransform, CumulativeDistributionTransform)
