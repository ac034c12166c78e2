"""The naming table serves every facade its own node names: torch's from the declarations, paddle's
as its tests expect them from real paddle, OneFlow's as its reference gives them
(`op_type_name + "Backward"`, `accumulategrad` for a leaf)."""
from __future__ import annotations

import pytest

import flowgrad.paddle as fpaddle
import flowgrad.torch as ftorch


def _leaf(t):
    return t.grad_fn.next_functions[0][0]


def _nodes(T):
    """A handful of nodes recorded through the torch facade, by what they record."""
    x = T.ones(2, 3, requires_grad=True)
    y = T.ones(2, 3, requires_grad=True)
    w = T.ones(3, 4, requires_grad=True)
    return {
        "mul": (x * y).grad_fn, "mul_scalar": (x * 2).grad_fn, "add": (x + y).grad_fn,
        "add_broadcast": (x + y[0]).grad_fn, "sum": x.sum().grad_fn, "sum_dim": x.sum(0).grad_fn,
        "mm": x.mm(w).grad_fn, "cat": T.cat([x, y]).grad_fn, "leaf": _leaf(x * y), "exp": x.exp().grad_fn,
        "log_softmax": x.log_softmax(1).grad_fn,
    }


@pytest.mark.parametrize("op, name", [
    ("mul", "MulBackward0"), ("mul_scalar", "MulBackward0"), ("add", "AddBackward0"), ("sum", "SumBackward0"),
    ("sum_dim", "SumBackward1"), ("mm", "MmBackward0"), ("cat", "CatBackward0"),
    ("leaf", "torch::autograd::AccumulateGrad"), ("log_softmax", "LogSoftmaxBackward0"),
])
def test_torch_column(op, name):
    node = _nodes(ftorch)[op]
    assert node.name() == name == ftorch.Tensor.policy.node_name(node)


@pytest.mark.parametrize("build, name", [
    (lambda p, x: (x * x).sum(), "SumGradNode"),
    (lambda p, x: x * x, "MultiplyGradNode"),
    (lambda p, x: x + 1, "ScaleGradNode"),
    (lambda p, x: x * 2, "ScaleGradNode"),
    (lambda p, x: p.matmul(x.reshape([1, 2]), x.reshape([2, 1])), "MatmulGradNode"),
    (lambda p, x: p.concat([x, x]), "ConcatGradNode"),
    (lambda p, x: p.transpose(x.reshape([1, 2]), [1, 0]), "TransposeGradNode"),
    (lambda p, x: x.reshape([1, 2]), "ReshapeGradNode"),
    (lambda p, x: x.log1p(), "Log1pGradNode"),
])
def test_paddle_column(build, name):
    x = fpaddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert build(fpaddle, x).grad_fn.name() == name


def test_paddle_leaf_is_grad_node_accumulation():
    x = fpaddle.to_tensor([1.0, 2.0], stop_gradient=False)
    assert _leaf(x * x).name() == "GradNodeAccumulation"


@pytest.mark.parametrize("op, name", [
    ("mul", "broadcast_mulBackward"), ("mul_scalar", "scalar_mulBackward"), ("add", "add_nBackward"),
    ("add_broadcast", "broadcast_addBackward"), ("sum", "reduce_sumBackward"), ("sum_dim", "reduce_sumBackward"),
    ("mm", "matmulBackward"), ("cat", "catBackward"), ("leaf", "accumulategrad"),
    ("exp", "expBackward"), ("log_softmax", "log_softmaxBackward"),
])
def test_oneflow_column(op, name):
    assert _nodes(ftorch)[op].names["oneflow"] == name


def test_custom_function_keeps_its_class_name_in_torch_and_oneflow():
    class MyFn(ftorch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, g):
            return g

    node = MyFn.apply(ftorch.ones(2, requires_grad=True)).grad_fn
    assert node.names["torch"] == node.names["oneflow"] == "MyFnBackward" == node.name()
    assert node.names["paddle"] == "MyFnGradNode"
