"""Every user-facing message of the core, as PyTorch words it: kind -> (exception class, template).

The core raises by kind with the facts (`policy.errors.kind(**facts)`); a facade's policy starts
from this table and overrides the kinds its framework words or types differently. One module per
area keeps the tables short; a kind is defined once across all of them.
"""
from __future__ import annotations

from . import own
from . import (array_functions, attention, autograd, checkpoint, conv, data, distributions, func, linalg, nn, ops, optim, runtime,
               tensor, tensor_ops, tools)


def _merge(*tables: dict) -> dict:
    merged: dict = {}
    for table in tables:
        clash = merged.keys() & table.keys()
        if clash:
            raise AssertionError(own.text("kinds_twice", kinds=sorted(clash)))
        merged.update(table)
    return merged


TORCH_MESSAGES: dict[str, tuple[type, str]] = _merge(
    autograd.MESSAGES, tensor.MESSAGES, ops.MESSAGES, nn.MESSAGES, optim.MESSAGES, data.MESSAGES, tools.MESSAGES,
    runtime.MESSAGES, attention.MESSAGES, conv.MESSAGES, linalg.MESSAGES, tensor_ops.MESSAGES, func.MESSAGES,
    distributions.MESSAGES, checkpoint.MESSAGES, array_functions.MESSAGES)
