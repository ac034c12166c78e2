"""Graph introspection (reference §1.13): `grad_fn` classes and `name()`, `next_functions`,
`AccumulateGrad`, `is_leaf`, node `metadata`, calling a node directly, and tensor reprs."""
from __future__ import annotations

import re

import pytest


def _next(node):
    """`next_functions` as `(class name or None, output_nr)` pairs."""
    return [(None if n is None else type(n).__name__, nr) for n, nr in node.next_functions]


# --- grad_fn classes ---------------------------------------------------------------------------


def test_leaf_has_no_grad_fn(torch):
    x = torch.ones(2, requires_grad=True)
    assert x.grad_fn is None
    assert torch.ones(2).grad_fn is None


def test_grad_fn_is_per_op_class_and_autograd_node(torch):
    x = torch.ones(2, requires_grad=True)
    y = x + x
    assert type(y.grad_fn).__name__ == "AddBackward0"
    assert isinstance(y.grad_fn, torch.autograd.graph.Node)


_NODE_NAMES = [
    ("x+x", lambda torch, x: x + x, "AddBackward0"),
    ("x-x", lambda torch, x: x - x, "SubBackward0"),
    ("x*x", lambda torch, x: x * x, "MulBackward0"),
    ("x/2", lambda torch, x: x / 2, "DivBackward0"),
    ("x**2", lambda torch, x: x**2, "PowBackward0"),
    ("pow3", lambda torch, x: x.pow(3), "PowBackward0"),
    ("neg", lambda torch, x: -x, "NegBackward0"),
    ("sum", lambda torch, x: x.sum(), "SumBackward0"),
    ("sum_dim", lambda torch, x: x.sum(0), "SumBackward1"),
    ("mean", lambda torch, x: x.mean(), "MeanBackward0"),
    ("max", lambda torch, x: x.max(), "MaxBackward1"),
    ("view", lambda torch, x: x.view(6), "ViewBackward0"),
    ("reshape", lambda torch, x: x.reshape(6), "ViewBackward0"),
    ("t", lambda torch, x: x.t(), "TBackward0"),
    ("transpose", lambda torch, x: x.transpose(0, 1), "TransposeBackward0"),
    ("select_int", lambda torch, x: x[0], "SelectBackward0"),
    ("select_col", lambda torch, x: x[:, 1], "SelectBackward0"),
    ("index_list", lambda torch, x: x[[0, 1]], "IndexBackward0"),
    ("clone", lambda torch, x: x.clone(), "CloneBackward0"),
    ("exp", lambda torch, x: x.exp(), "ExpBackward0"),
    ("log", lambda torch, x: x.log(), "LogBackward0"),
    ("sin", lambda torch, x: x.sin(), "SinBackward0"),
    ("cos", lambda torch, x: x.cos(), "CosBackward0"),
    ("sqrt", lambda torch, x: x.sqrt(), "SqrtBackward0"),
    ("unsqueeze", lambda torch, x: x.unsqueeze(0), "UnsqueezeBackward0"),
    ("squeeze", lambda torch, x: x.unsqueeze(0).squeeze(), "SqueezeBackward0"),
    ("expand", lambda torch, x: x.unsqueeze(0).expand(3, 2, 3), "ExpandBackward0"),
    ("relu", lambda torch, x: x.relu(), "ReluBackward0"),
    ("torch_relu", lambda torch, x: torch.relu(x), "ReluBackward0"),
    ("double", lambda torch, x: x.double(), "ToCopyBackward0"),
    ("sigmoid", lambda torch, x: x.sigmoid(), "SigmoidBackward0"),
    ("tanh", lambda torch, x: x.tanh(), "TanhBackward0"),
    ("abs", lambda torch, x: x.abs(), "AbsBackward0"),
    ("clamp_min", lambda torch, x: x.clamp(min=0), "ClampBackward1"),
    ("softmax", lambda torch, x: torch.softmax(x, 0), "SoftmaxBackward0"),
    ("log_softmax", lambda torch, x: torch.log_softmax(x, 0), "LogSoftmaxBackward0"),
    ("where", lambda torch, x: torch.where(x > 0, x, -x), "WhereBackward0"),
    ("norm", lambda torch, x: x.norm(), "LinalgVectorNormBackward0"),
    ("cat", lambda torch, x: torch.cat([x, x]), "CatBackward0"),
    ("stack", lambda torch, x: torch.stack([x, x]), "StackBackward0"),
    ("matmul", lambda torch, x: x @ x.t(), "MmBackward0"),
    ("mm", lambda torch, x: x.mm(x.t()), "MmBackward0"),
]


@pytest.mark.parametrize(
    "build, expected", [(b, e) for _, b, e in _NODE_NAMES], ids=[i for i, _, _ in _NODE_NAMES]
)
def test_op_records_named_backward_node(torch, build, expected):
    x = torch.ones(2, 3, requires_grad=True)
    node = build(torch, x).grad_fn
    assert type(node).__name__ == expected
    assert node.name() == expected


# --- next_functions ----------------------------------------------------------------------------


def test_next_functions_of_binary_op_on_leaves_are_accumulate_grads(torch):
    x = torch.ones(2, requires_grad=True)
    w = torch.ones(2, requires_grad=True)
    nf = (x + w).grad_fn.next_functions
    assert type(nf) is tuple
    assert _next((x + w).grad_fn) == [("AccumulateGrad", 0), ("AccumulateGrad", 0)]
    assert nf[0][0].variable is x
    assert nf[1][0].variable is w


def test_next_functions_has_none_slot_for_python_scalar_operand(torch):
    x = torch.ones(2, requires_grad=True)
    a = x + x
    b = a + 5
    nf = b.grad_fn.next_functions
    assert nf[0][0] is a.grad_fn
    assert nf[0][1] == 0
    assert nf[1] == (None, 0)


def test_next_functions_has_none_slot_for_operand_not_requiring_grad(torch):
    x = torch.ones(2, requires_grad=True)
    c = torch.ones(2)
    assert _next((x * c).grad_fn) == [("AccumulateGrad", 0), (None, 0)]


def test_division_by_scalar_has_accumulate_grad_and_none_slots(torch):
    x = torch.ones(2, requires_grad=True)
    assert _next((x / 2).grad_fn) == [("AccumulateGrad", 0), (None, 0)]


def test_pow_by_scalar_has_single_next_function(torch):
    x = torch.ones(2, requires_grad=True)
    assert _next((x**2).grad_fn) == [("AccumulateGrad", 0)]


def test_matmul_with_transposed_operand_links_transpose_node(torch):
    x = torch.ones(2, 3, requires_grad=True)
    w = torch.ones(2, 3, requires_grad=True)
    assert _next(x.mm(w.t()).grad_fn) == [("AccumulateGrad", 0), ("TBackward0", 0)]


def test_inplace_on_clone_links_clone_node_and_none_slot(torch):
    x = torch.ones(2, requires_grad=True)
    y = x.clone().mul_(2)
    assert type(y.grad_fn).__name__ == "MulBackward0"
    assert _next(y.grad_fn) == [("CloneBackward0", 0), (None, 0)]


def test_accumulate_grad_has_no_next_functions(torch):
    x = torch.ones(2, requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]
    assert acc.next_functions == ()


def test_same_accumulate_grad_object_is_reused_for_every_use_of_a_leaf(torch):
    x = torch.ones(2, requires_grad=True)
    a = (x * 2).grad_fn.next_functions[0][0]
    b = (x + 1).grad_fn.next_functions[0][0]
    c = (x * x).grad_fn.next_functions
    assert a is b
    assert c[0][0] is a and c[1][0] is a


def test_accumulate_grad_name_and_variable(torch):
    x = torch.ones(2, requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]
    assert type(acc).__name__ == "AccumulateGrad"
    assert acc.name() == "torch::autograd::AccumulateGrad"
    assert acc.variable is x
    assert isinstance(acc, torch.autograd.graph.Node)


def test_setitem_with_grad_value_records_copy_slices_node(torch):
    w = torch.ones(2, requires_grad=True)
    t = torch.zeros(2)
    t[0] = w[0] * 5
    assert type(t.grad_fn).__name__ == "CopySlices"
    assert t.grad_fn.name() == "torch::autograd::CopySlices"


@pytest.mark.filterwarnings("ignore:Using backward\\(\\) with create_graph=True")
def test_grad_copied_under_create_graph_has_copy_backwards_node(torch):
    x = torch.ones(2, requires_grad=True)
    (x * x).sum().backward(create_graph=True)
    assert x.grad.tolist() == [2.0, 2.0]
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"
    assert repr(x.grad) == "tensor([2., 2.], grad_fn=<CopyBackwards>)"


# --- multi-output nodes -----------------------------------------------------------------------


def test_chunk_outputs_share_one_split_node_with_distinct_output_nr(torch):
    x = torch.ones(4, requires_grad=True)
    first, second = x.chunk(2)
    assert first.grad_fn is second.grad_fn
    assert type(first.grad_fn).__name__ == "SplitBackward0"
    assert (first.output_nr, second.output_nr) == (0, 1)


def test_max_along_dim_values_track_and_indices_do_not(torch):
    x = torch.ones(2, 3, requires_grad=True)
    values, indices = x.max(0)
    assert type(values.grad_fn).__name__ == "MaxBackward0"
    assert values.requires_grad is True
    assert indices.requires_grad is False
    assert indices.grad_fn is None


def test_float_on_float32_returns_same_tensor(torch):
    x = torch.ones(2, requires_grad=True)
    assert x.float() is x
    assert type(x.double().grad_fn).__name__ == "ToCopyBackward0"


# --- is_leaf ----------------------------------------------------------------------------------


def test_tensor_not_requiring_grad_is_leaf_even_when_computed(torch):
    t = torch.ones(2) * 2
    assert t.is_leaf is True
    assert t.requires_grad is False
    assert t.grad_fn is None


def test_result_of_tracked_op_is_not_leaf(torch):
    x = torch.ones(2, requires_grad=True)
    assert x.is_leaf is True
    assert (x * 2).is_leaf is False


def test_detach_result_is_leaf(torch):
    x = torch.ones(2, requires_grad=True)
    d = (x * 2).detach()
    assert d.is_leaf is True
    assert d.requires_grad is False


def test_result_computed_under_no_grad_is_leaf(torch):
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        y = x * 2
    assert y.is_leaf is True
    assert y.grad_fn is None
    assert y.requires_grad is False


# --- metadata, calling a node -----------------------------------------------------------------


def test_grad_fn_metadata_is_a_persistent_writable_dict(torch):
    x = torch.ones(2, requires_grad=True)
    node = (x * 2).grad_fn
    assert node.metadata == {}
    assert type(node.metadata) is dict
    node.metadata["tag"] = 1
    assert node.metadata == {"tag": 1}
    assert node.metadata is node.metadata


def test_calling_grad_fn_returns_grad_inputs_tuple(torch):
    x = torch.ones(2, requires_grad=True)
    out = (x * 2).grad_fn(torch.ones(2))
    assert type(out) is tuple
    assert len(out) == 2
    assert out[0].tolist() == [2.0, 2.0]
    assert out[1] is None
    assert x.grad is None


def test_calling_accumulate_grad_directly_accumulates(torch):
    x = torch.ones(2, requires_grad=True)
    acc = (x * 2).grad_fn.next_functions[0][0]
    assert acc(torch.ones(2)) == ()
    assert x.grad.tolist() == [1.0, 1.0]


def test_calling_grad_fn_with_wrong_arity_raises(torch):
    x = torch.ones(2, requires_grad=True)
    node = (x * 2).grad_fn
    with pytest.raises(TypeError, match=re.escape("expected 1 arguments, got 0 instead")):
        node()
    with pytest.raises(TypeError, match=re.escape("expected 1 arguments, got 2 instead")):
        node(torch.ones(2), torch.ones(2))
    assert x.grad is None


# --- reprs ------------------------------------------------------------------------------------


def test_repr_of_leaf_requiring_grad(torch):
    assert repr(torch.ones(2, requires_grad=True)) == "tensor([1., 1.], requires_grad=True)"


def test_repr_of_non_leaf_shows_grad_fn(torch):
    x = torch.ones(2, requires_grad=True)
    assert repr(x * 2) == "tensor([2., 2.], grad_fn=<MulBackward0>)"


def test_repr_of_zero_dim_non_leaf(torch):
    x = torch.ones(2, requires_grad=True)
    assert repr(x.sum()) == "tensor(2., grad_fn=<SumBackward0>)"


def test_repr_of_tensor_not_requiring_grad_has_no_suffix(torch):
    x = torch.ones(2, requires_grad=True)
    assert repr(x.detach()) == "tensor([1., 1.])"
    with torch.no_grad():
        assert repr(x * 2) == "tensor([2., 2.])"
