"""Known defects of flowgrad's facades: where a facade disagrees with the framework it imitates.

These are findings for the facades' owners, not expected differences: a facade must behave as its
own framework does. The runner shows a listed disagreement as "known defect" (it does not fail the
run) and flags an entry whose disagreement is gone as stale, so the list only shrinks when the
facade is fixed. Keep each entry to one line saying what differs.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class KnownDefect:
    """`impl` (a facade) disagrees with its real framework on `scenario`: `what`."""

    scenario: str
    impl: str
    what: str


_NEXT_FUNCTIONS = "grad_fn.next_functions holds (node, index) pairs; paddle's holds the nodes themselves"

KNOWN_DEFECTS: tuple[KnownDefect, ...] = (
    KnownDefect("tensor_hooks.wrong_shape", "flowgrad.paddle",
                "a hook returning another shape raises ValueError; paddle accepts it and .grad takes the new shape"),
    KnownDefect("grad_mode.flag_off_after_forward", "flowgrad.torch",
                "backward raises 'saved tensor detached in-place' after requires_grad=False on a leaf; torch runs"),
    KnownDefect("grad_mode.flag_off_after_forward", "flowgrad.oneflow",
                "backward raises 'saved tensor detached in-place' after requires_grad=False on a leaf; OneFlow has "
                "no such check"),
    KnownDefect("grad_mode.flag_off_after_forward", "flowgrad.paddle",
                "backward raises 'saved tensor detached in-place' after stop_gradient=True; paddle accumulates"),
    KnownDefect("saved_hooks.nested", "flowgrad.paddle",
                "nested saved_tensors_hooks are accepted; paddle allows one pair at a time (ValueError)"),
    KnownDefect("saved_hooks.unpack_non_tensor", "flowgrad.paddle",
                "an unpack hook returning an int raises PyTorch's TypeError; paddle raises ValueError"),
    KnownDefect("saved_hooks.pack_raises", "flowgrad.paddle",
                "an exception in a pack hook propagates as is; paddle wraps it in OSError (External)"),
    KnownDefect("graph_dump.structure", "flowgrad.paddle", _NEXT_FUNCTIONS),
    KnownDefect("graph_dump.names_along_graph", "flowgrad.paddle", _NEXT_FUNCTIONS),
    KnownDefect("graph_dump.shared_accumulation_node", "flowgrad.paddle", _NEXT_FUNCTIONS),
    KnownDefect("graph_dump.custom_function_in_graph", "flowgrad.paddle", _NEXT_FUNCTIONS),
    KnownDefect("custom_function.wrong_shape_grad", "flowgrad.paddle",
                "PyLayer.backward returning another shape raises ValueError; paddle accepts it silently"),
)


def find(scenario_id: str, impl: str) -> KnownDefect | None:
    for d in KNOWN_DEFECTS:
        if d.scenario == scenario_id and d.impl == impl:
            return d
    return None
