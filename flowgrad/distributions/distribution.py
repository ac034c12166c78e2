"""The base classes: `Distribution` (batch and event shapes, argument and value validation with
PyTorch's messages, sample through rsample, expand) and `ExponentialFamily`."""
from __future__ import annotations

import numbers

from .. import ops
from ..autograd import mode
from ..tensor import Tensor
from . import constraints
from .utils import broadcast_all, lazy_property


class Distribution:
    """A batch of probability distributions over events of `event_shape`. A facade subclasses it
    naming its tensor class (`_tensor_cls`), which words errors and makes tensors from numbers."""

    has_rsample = False
    has_enumerate_support = False
    _validate_args = __debug__
    _tensor_cls: type = Tensor
    _family: dict = {}   # a facade's classes by their neutral ones (see `_cls`)

    @staticmethod
    def set_default_validate_args(value: bool) -> None:
        if value not in [True, False]:
            raise ValueError
        Distribution._validate_args = value

    def __init__(self, batch_shape=(), event_shape=(), validate_args: bool | None = None) -> None:
        size = self._tensor_cls._size
        self._batch_shape, self._event_shape = size(batch_shape), size(event_shape)
        if validate_args is not None:
            self._validate_args = validate_args
        if self._validate_args:
            self._check_arguments()

    def _check_arguments(self) -> None:
        for param, constraint in self.arg_constraints.items():
            if constraints.is_dependent(constraint):
                continue
            if param not in self.__dict__ and isinstance(getattr(type(self), param), lazy_property):
                continue
            value = getattr(self, param)
            if not bool(ops.all(constraint.check(value))._data):
                raise self._policy.errors.dist_param_constraint(
                    param=param, type=type(value).__name__, shape=tuple(value._data.shape), dist=repr(self),
                    constraint=repr(constraint), value=value)

    @classmethod
    def _cls(cls, neutral: type) -> type:
        """The class that presents `neutral` (a distribution or transform class) in this class's facade:
        what a distribution builds its parts with."""
        return cls._family.get(neutral, neutral)

    @staticmethod
    def _default_device():
        """Where parameters given as numbers go (a facade names its default device)."""
        return None

    def _broadcast(self, *values) -> list[Tensor]:
        return broadcast_all(values, self._tensor_cls, self._default_device())

    @property
    def _policy(self):
        return self._tensor_cls.policy

    def _get_checked_instance(self, cls, _instance=None):
        if _instance is None and type(self).__init__ != cls.__init__:
            raise self._policy.errors.dist_expand_custom_init(sub=type(self).__name__, cls=cls.__name__)
        return self.__new__(type(self)) if _instance is None else _instance

    def _init_params(self, values: tuple, validate_args) -> None:
        """Set the parameters named by the class's `_params` from `values` broadcast to one shape: the
        batch shape (empty when every value is a Python number)."""
        tensors = self._broadcast(*values)
        for name, t in zip(self._params, tensors):
            setattr(self, name, t)
        numbers_only = all(isinstance(v, numbers.Number) for v in values)
        Distribution.__init__(self, () if numbers_only else tensors[0]._data.shape, validate_args=validate_args)

    def _expand_params(self, cls, batch_shape, _instance=None) -> "Distribution":
        """`expand` of a distribution whose parameters (`_params`) share its batch shape."""
        new = self._get_checked_instance(cls, _instance)
        shape = tuple(batch_shape)
        for name in self._params:
            setattr(new, name, ops.broadcast_to(getattr(self, name), shape))
        return self._finish_expand(new, shape)

    def _finish_expand(self, new, batch_shape, event_shape=()) -> "Distribution":
        Distribution.__init__(new, batch_shape, event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def expand(self, batch_shape, _instance=None):
        raise NotImplementedError

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def event_shape(self):
        return self._event_shape

    @property
    def arg_constraints(self) -> dict:
        raise NotImplementedError

    @property
    def support(self):
        raise NotImplementedError

    @property
    def mean(self) -> Tensor:
        raise NotImplementedError

    @property
    def mode(self) -> Tensor:
        raise NotImplementedError

    @property
    def variance(self) -> Tensor:
        raise NotImplementedError

    @property
    def stddev(self) -> Tensor:
        return ops.sqrt(self.variance)

    def sample(self, sample_shape=()) -> Tensor:
        """A sample (no graph) of shape sample_shape + batch_shape + event_shape."""
        with mode._GradModeGuard(False):
            return self.rsample(sample_shape)

    def rsample(self, sample_shape=()) -> Tensor:
        raise NotImplementedError

    def log_prob(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def cdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def icdf(self, value: Tensor) -> Tensor:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        raise NotImplementedError

    def perplexity(self) -> Tensor:
        return ops.exp(self.entropy())

    def _extended_shape(self, sample_shape=()) -> tuple:
        return self._tensor_cls._size(tuple(sample_shape) + tuple(self._batch_shape) + tuple(self._event_shape))

    def _validate_sample(self, value) -> None:
        policy = self._policy
        if not isinstance(value, Tensor):
            raise policy.errors.dist_value_not_tensor()
        size = self._tensor_cls._size
        shape = tuple(value._data.shape)
        start = len(shape) - len(self._event_shape)
        if shape[start:] != tuple(self._event_shape):
            raise policy.errors.dist_value_event_shape(size=size(shape), event=self._event_shape)
        expected = tuple(self._batch_shape) + tuple(self._event_shape)
        for i, j in zip(reversed(shape), reversed(expected)):
            if i != 1 and j != 1 and i != j:
                raise policy.errors.dist_value_broadcast(size=size(shape), expected=size(expected))
        support = self.support
        if not bool(ops.all(support.check(value))._data):
            raise policy.errors.dist_value_support(type=type(value).__name__, shape=shape, support=repr(support),
                                                   dist=repr(self), value=value)

    def __repr__(self) -> str:
        shown = []
        for p in self.arg_constraints:
            if p in self.__dict__:
                v = self.__dict__[p]
                shown.append(f"{p}: {v if v._data.size == 1 else self._tensor_cls._size(v._data.shape)}")
        return type(self).__name__ + "(" + ", ".join(shown) + ")"


class ExponentialFamily(Distribution):
    """Distributions of the exponential family (the base of their shared KL rule)."""

    @property
    def _natural_params(self) -> tuple:
        raise NotImplementedError

    def _log_normalizer(self, *natural_params) -> Tensor:
        raise NotImplementedError

    @property
    def _mean_carrier_measure(self) -> float:
        raise NotImplementedError

    def entropy(self) -> Tensor:
        """The entropy by the Bregman divergence of the log-normalizer (what a family without its own
        formula takes)."""
        from ..autograd import api
        result = -self._mean_carrier_measure
        with mode._GradModeGuard(True):
            nparams = [p.detach().requires_grad_(True) for p in self._natural_params]
            lg_normal = self._log_normalizer(*nparams)
            gradients = api.grad([ops.sum(lg_normal)], nparams, create_graph=True, policy=self._policy)
            result = result + lg_normal
            for n, g in zip(nparams, gradients):
                result = result - ops.sum(ops.reshape(n * g, tuple(self._batch_shape) + (-1,)), -1)
        return result
