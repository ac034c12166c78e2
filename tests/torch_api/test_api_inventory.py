"""Which public names of real torch the facade has, namespace by namespace, and that it has no public
name real torch lacks (code written against flowgrad must run on PyTorch: a `hasattr` probe or a
name used by mistake would otherwise pass here and fail there).

The figures print with `-s`; the floors below only ratchet up: when a family lands, raise its floor."""
from __future__ import annotations

import importlib

import pytest

real_torch = pytest.importorskip("torch")

# namespace -> the least number of real torch's public names the facade must have
FLOORS = {"": 401, "nn": 126, "nn.functional": 97, "linalg": 36, "distributions": 114, "optim": 16,
          "optim.lr_scheduler": 17, "func": 12, "autograd": 17, "utils.data": 15}

# public names the facade has and real torch lacks in that namespace, each a deliberate choice
EXTRAS: dict[str, set[str]] = {}


def _public(module) -> set[str]:
    # (identifiers only: pytest's assertion rewriting, which covers an installed plugin's package,
    # adds `@py_builtins` / `@pytest_ar` to the modules it rewrites)
    return {n for n in dir(module) if not n.startswith("_") and n.isidentifier()}


def _modules(space: str):
    suffix = "." + space if space else ""
    real = importlib.import_module("torch" + suffix)
    try:
        mine = importlib.import_module("flowgrad.torch" + suffix)
    except ImportError:
        mine = None
    return real, mine


@pytest.mark.parametrize("space", list(FLOORS), ids=lambda s: s or "torch")
def test_inventory_of_public_names(space):
    real, mine = _modules(space)
    theirs, ours = _public(real), (_public(mine) if mine is not None else set())
    have = theirs & ours
    print(f"torch{'.' + space if space else ''}: {len(have)} of {len(theirs)} public names "
          f"({100 * len(have) / len(theirs):.0f}%)")
    assert len(have) >= FLOORS[space], f"torch.{space}: names lost: now {len(have)}, floor {FLOORS[space]}"
    extra = ours - theirs
    assert extra == EXTRAS.get(space, set()), f"public names real torch lacks: {sorted(extra)}"
