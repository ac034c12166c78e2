"""unsafe_chunk / unsafe_split / unsafe_split_with_sizes against real torch: the parts, their
gradients and nodes (UnsafeSplitBackward0, UnsafeSplitWithSizesBackward0), parts that autograd does
not treat as views (an in-place change of one records an ordinary node), and the errors."""
from __future__ import annotations

import numpy as np
import pytest

from tensor_op_parity import same, same_error

X = np.arange(18.0).reshape(6, 3) / 7 - 1


@pytest.mark.parametrize("fn", [
    lambda T, x: T.unsafe_chunk(x, 3),
    lambda T, x: x.unsafe_chunk(2, 1),
    lambda T, x: T.unsafe_split(x, 4),
    lambda T, x: x.unsafe_split(2, dim=1),
    lambda T, x: T.unsafe_split_with_sizes(x, [2, 4]),
    lambda T, x: x.unsafe_split_with_sizes([1, 2], 1),
    lambda T, x: [type(p.grad_fn).__name__ for p in (x * 1).unsafe_chunk(3)],
    lambda T, x: [type(p.grad_fn).__name__ for p in (x * 1).unsafe_split_with_sizes([3, 3])],
    lambda T, x: [p._is_view() for p in (x * 1).unsafe_chunk(3)],
    lambda T, x: (lambda p: (p.mul_(2), type(p.grad_fn).__name__))((x * 1).unsafe_chunk(2)[0]),
], ids=["chunk", "chunk_method", "split", "split_method", "sizes", "sizes_method", "node", "sizes_node", "not_views",
        "in_place_part"])
def test_unsafe_split(fn):
    same(fn, X)


@pytest.mark.parametrize("fn", [
    lambda T, x: T.unsafe_split(x, [2, 4]),
    lambda T, x: x.unsafe_split([2, 4]),
    lambda T, x: T.unsafe_chunk(x, 0),
    lambda T, x: T.unsafe_split(x, -1),
    lambda T, x: x.unsafe_split_with_sizes([2, 3]),
], ids=["split_list", "split_method_list", "chunk_zero", "split_negative", "sizes_sum"])
def test_unsafe_split_errors(fn):
    same_error(fn, X)
