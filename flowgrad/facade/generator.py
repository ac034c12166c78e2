"""The torch family's `Generator` over flowgrad's seeded stream (`creation.Generator`, PCG64):
PyTorch's seed rules and checks, `manual_seed` returning the generator (so it chains), and the state
as a uint8 tensor (`get_state` / `set_state`, `get_rng_state` / `set_rng_state`). The numbers differ
from PyTorch's for a seed; a seed or a saved state reproduces flowgrad's own numbers exactly. The
state is flowgrad's (48 bytes: the seed and PCG64's state), not PyTorch's Mersenne Twister state."""
from __future__ import annotations

import numpy as np

from .. import creation
from ..tensor import Tensor as _CoreTensor
from .argcheck import place, typename

_U64 = 2 ** 64


def build(Tensor: type, module: str) -> tuple[type, object]:
    """(the facade's Generator class, its default generator: flowgrad's one default stream)."""
    policy = Tensor.policy

    class Generator:
        """A seeded random stream for the `generator=` of random functions."""

        __slots__ = ("_core",)

        def __init__(self, device="cpu"):
            self._core = creation.Generator(Tensor._device(device))

        @classmethod
        def _over(cls, core: creation.Generator) -> "Generator":
            gen = object.__new__(cls)
            gen._core = core
            return gen

        @property
        def device(self):
            return Tensor._device(self._core.device)

        @property
        def rng(self) -> np.random.Generator:
            """The NumPy stream the random functions draw from."""
            return self._core.rng

        def manual_seed(self, seed: int) -> "Generator":
            """Seed the stream; a seed in [-2**63, 2**64) is taken modulo 2**64. Returns the generator."""
            if isinstance(seed, np.integer):
                raise policy.errors.generator_seed_integer()
            if not isinstance(seed, int) or isinstance(seed, bool):
                raise policy.errors.generator_seed_type(type=typename(seed))
            if not -2 ** 63 <= seed < _U64:
                raise policy.errors.generator_seed_overflow()
            self._core.manual_seed(seed % _U64)
            return self

        def seed(self) -> int:
            """Seed from fresh entropy; returns the seed."""
            return self._core.seed()

        def initial_seed(self) -> int:
            """The seed last given (or the default seed)."""
            return self._core.initial_seed()

        def get_state(self):
            """The state as a uint8 tensor of creation.STATE_BYTES bytes (a copy)."""
            return Tensor._make(self._core.get_state())

        def set_state(self, new_state) -> "Generator":
            """Restore a state get_state returned; returns the generator."""
            if not isinstance(new_state, _CoreTensor):
                raise policy.errors.rng_state_type(type=typename(new_state))
            data = new_state._host()
            if data.dtype != np.uint8:
                raise policy.errors.rng_state_dtype()
            if not new_state.is_contiguous():
                raise policy.errors.rng_state_contiguous()
            if data.size != creation.STATE_BYTES:
                raise policy.errors.rng_state_size(expected=creation.STATE_BYTES, got=data.size)
            self._core.set_state(data)
            return self

        def clone_state(self) -> "Generator":
            """A new generator on the same device in the same state."""
            return type(self)(self.device).set_state(self.get_state())

    place(Generator, module)
    return Generator, Generator._over(creation.default_generator)
