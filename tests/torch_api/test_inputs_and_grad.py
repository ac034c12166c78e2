"""Reference §1.5 (`inputs=` of backward / inputs of grad, GradientEdge) and §1.9 (autograd.grad options)."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


NONLEAF_GRAD_WARNING = "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed."


def _unused(i: int) -> str:
    return (f"The differentiated Tensor at index {i} appears to not have been used in the graph. "
            "Set allow_unused=True if this is the desired behavior.")


# --------------------------------------------------------------------------------------------
# §1.5 inputs= / inputs of grad
# --------------------------------------------------------------------------------------------

def test_backward_inputs_list_accumulates_only_listed_tensors(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    (x * w).sum().backward(inputs=[x])
    assert x.grad.tolist() == [3., 4.]
    assert w.grad is None


def test_backward_inputs_single_tensor(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    (x * w).sum().backward(inputs=w)
    assert w.grad.tolist() == [1., 2.]
    assert x.grad is None


def test_backward_inputs_tuple(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    b = torch.tensor([5., 6.], requires_grad=True)
    (x * w + b).sum().backward(inputs=(x, b))
    assert x.grad.tolist() == [3., 4.]
    assert b.grad.tolist() == [1., 1.]
    assert w.grad is None


def test_backward_inputs_plain_dict_uses_values(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    (x * w).sum().backward(inputs={"weight": w})
    assert w.grad.tolist() == [1., 2.]
    assert x.grad is None


def test_autograd_backward_inputs_keyword(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    torch.autograd.backward((x * w).sum(), inputs=[w])
    assert w.grad.tolist() == [1., 2.]
    assert x.grad is None


def test_backward_non_leaf_input_gets_grad_and_retains_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    out = (h * h).sum()
    assert h.retains_grad is False
    out.backward(inputs=[h])
    assert h.retains_grad is True
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        assert h.grad.tolist() == [4., 8.]
    assert [w for w in rec if NONLEAF_GRAD_WARNING in str(w.message)] == []


def test_backward_non_leaf_input_blocks_accumulation_into_leaves_behind_it(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    (h * h).sum().backward(inputs=[h])
    assert x.grad is None


def test_backward_input_not_in_graph_is_silently_ignored(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    other = torch.tensor([5., 6.], requires_grad=True)
    (x * x).sum().backward(inputs=[x, other])
    assert x.grad.tolist() == [2., 4.]
    assert other.grad is None


def test_backward_empty_inputs_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    out = (x * x).sum()
    with pytest.raises(RuntimeError, match=exact("`inputs` argument to `backward()` cannot be empty.")):
        out.backward(inputs=[])
    assert x.grad is None


@pytest.mark.parametrize("empty", [[], ()], ids=["list", "tuple"])
def test_grad_empty_inputs_raises(torch, empty):
    x = torch.tensor([1., 2.], requires_grad=True)
    out = (x * x).sum()
    with pytest.raises(RuntimeError, match=exact("`inputs` argument to `grad()` cannot be empty.")):
        torch.autograd.grad(out, empty)


def test_backward_input_not_requiring_grad_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    c = torch.tensor([3., 4.])
    out = (x * c).sum()
    with pytest.raises(RuntimeError, match=exact("can't retain_grad on Tensor that has requires_grad=False")):
        out.backward(inputs=[c])
    assert x.grad is None
    assert c.grad is None


def test_grad_single_input_not_requiring_grad_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    c = torch.tensor([3., 4.])
    out = (x * c).sum()
    with pytest.raises(RuntimeError, match=exact("One of the differentiated Tensors does not require grad")):
        torch.autograd.grad(out, c)


def test_backward_non_tensor_input_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    out = (x * x).sum()
    with pytest.raises(RuntimeError, match=exact("all inputs have to be Tensors or GradientEdges, but got float")):
        out.backward(inputs=[1.0])
    assert x.grad is None


def test_get_gradient_edge_repr_names_node(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    edge = torch.autograd.graph.get_gradient_edge(h)
    assert isinstance(edge, torch.autograd.graph.GradientEdge)
    assert re.fullmatch(r"GradientEdge\(node=<MulBackward0 object at 0x[0-9a-f]+>, output_nr=0, "
                        r"ownership_token=None\)", repr(edge))


def test_gradient_edge_of_leaf_is_its_accumulate_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    edge = torch.autograd.graph.get_gradient_edge(x)
    assert type(edge.node).__name__ == "AccumulateGrad"
    assert edge.output_nr == 0


def test_grad_wrt_gradient_edge_equals_grad_wrt_tensor(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    h = x * 2
    out = (h * w).sum()
    (g_edge,) = torch.autograd.grad(out, torch.autograd.graph.get_gradient_edge(h), retain_graph=True)
    (g_tensor,) = torch.autograd.grad(out, h)
    assert g_edge.tolist() == g_tensor.tolist() == [3., 4.]


def test_get_gradient_edge_of_tensor_not_requiring_grad_raises(torch):
    with pytest.raises(RuntimeError, match=exact(
            "It is not possible to get the gradient edge for a Tensor that does not require gradients")):
        torch.autograd.graph.get_gradient_edge(torch.ones(2))


def test_grad_with_gradient_edge_as_output(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    edge = torch.autograd.graph.get_gradient_edge(h)
    (g,) = torch.autograd.grad(edge, x, grad_outputs=torch.tensor([1., 10.]))
    assert g.tolist() == [2., 20.]


def test_backward_with_gradient_edge_as_root(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    torch.autograd.backward([torch.autograd.graph.get_gradient_edge(h)], [torch.ones(2)])
    assert x.grad.tolist() == [2., 2.]


def test_grad_of_non_scalar_gradient_edge_without_grad_outputs_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    with pytest.raises(RuntimeError, match=exact("grad can be implicitly created only for scalar outputs")):
        torch.autograd.grad(torch.autograd.graph.get_gradient_edge(h), x)


def test_materialize_grads_with_unused_gradient_edge_input_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    other = torch.tensor([3., 4.], requires_grad=True)
    out = (x * x).sum()
    with pytest.raises(RuntimeError, match=exact(
            "materialize_grads cannot be used when the given input is a GradientEdge")):
        torch.autograd.grad(out, [x, torch.autograd.graph.get_gradient_edge(other)], materialize_grads=True)


def test_grad_wrt_output_itself_returns_grad_output(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 3
    (g,) = torch.autograd.grad(y, y, torch.ones(2))
    assert g.tolist() == [1., 1.]


def test_grad_wrt_same_input_twice_returns_two_equal_results(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    res = torch.autograd.grad((x * x).sum(), [x, x])
    assert len(res) == 2
    assert res[0].tolist() == [2., 4.]
    assert res[1].tolist() == [2., 4.]


# --------------------------------------------------------------------------------------------
# §1.9 autograd.grad options
# --------------------------------------------------------------------------------------------

def test_grad_does_not_touch_dot_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (g,) = torch.autograd.grad((x * x).sum(), x)
    assert g.tolist() == [2., 4.]
    assert x.grad is None


def test_grad_does_not_modify_existing_dot_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    x.grad = torch.tensor([7., 7.])
    before = x.grad
    torch.autograd.grad((x * x).sum(), x)
    assert x.grad is before
    assert x.grad.tolist() == [7., 7.]


def test_grad_result_is_fresh_leaf_not_requiring_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (g,) = torch.autograd.grad((x * 2).sum(), x)
    assert g.requires_grad is False
    assert g.is_leaf is True
    assert g.grad_fn is None


def test_grad_unused_input_raises_with_its_index(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    unused = torch.tensor([3., 4.], requires_grad=True)
    out = (x * x).sum()
    with pytest.raises(RuntimeError, match=exact(_unused(1))):
        torch.autograd.grad(out, [x, unused])
    assert x.grad is None


def test_grad_does_not_execute_nodes_that_cannot_reach_inputs(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    hw = w * 3
    log = []
    hw.register_hook(lambda g: log.append("hw"))
    out = (x * 2 + hw).sum()
    (g,) = torch.autograd.grad(out, [x])
    assert g.tolist() == [2., 2.]
    assert log == []


def test_grad_allow_unused_gives_none(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    unused = torch.tensor([3., 4.], requires_grad=True)
    res = torch.autograd.grad((x * x).sum(), [x, unused], allow_unused=True)
    assert res[0].tolist() == [2., 4.]
    assert res[1] is None


def test_grad_materialize_grads_gives_zeros_for_unused(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    unused = torch.tensor([3., 4.], requires_grad=True)
    res = torch.autograd.grad((x * x).sum(), [x, unused], materialize_grads=True)
    assert res[0].tolist() == [2., 4.]
    assert res[1].tolist() == [0., 0.]
    assert res[1].requires_grad is False


def test_materialized_zeros_require_grad_under_create_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    unused = torch.tensor([3., 4.], requires_grad=True)
    res = torch.autograd.grad((x * x).sum(), [x, unused], materialize_grads=True, create_graph=True)
    assert res[1].tolist() == [0., 0.]
    assert res[1].requires_grad is True


def test_materialize_grads_with_allow_unused_false_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    out = (x * x).sum()
    with pytest.raises(ValueError, match=exact(
            "Expected allow_unused to be True or not passed when materialize_grads=True, "
            "but got: allow_unused=False.")):
        torch.autograd.grad(out, x, materialize_grads=True, allow_unused=False)
    assert torch.autograd.grad(out, x)[0].tolist() == [2., 4.]


def test_only_inputs_false_is_deprecated_and_ignored(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.], requires_grad=True)
    with pytest.warns(FutureWarning, match=exact(
            "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate "
            "gradient for other parts of the graph, please use torch.autograd.backward.")):
        (g,) = torch.autograd.grad((x * w).sum(), x, only_inputs=False)
    assert g.tolist() == [3., 4.]
    assert x.grad is None
    assert w.grad is None


def test_is_grads_batched_with_identity_gives_jacobian(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * torch.tensor([10., 20.])
    eye = torch.tensor([[1., 0.], [0., 1.]])
    (jac,) = torch.autograd.grad(y, x, eye, is_grads_batched=True)
    assert jac.tolist() == [[10., 0.], [0., 20.]]


def test_is_grads_batched_with_scalar_output(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    (res,) = torch.autograd.grad(y, x, torch.arange(3.), is_grads_batched=True)
    assert res.tolist() == [[0., 0.], [2., 4.], [4., 8.]]


def test_is_grads_batched_shape_mismatch_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError, match=exact(
            "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
            "dimension. The sizes of the remaining dimensions are expected to match the shape of "
            "corresponding output, but a mismatch was detected: grad_output[0] has a shape of "
            "torch.Size([]) and output[0] has a shape of torch.Size([2]). If you only want some tensors "
            "in `grad_output` to be considered batched, consider using vmap.")):
        torch.autograd.grad(y, x, torch.arange(2.), is_grads_batched=True)


def test_grad_of_multiple_outputs_is_summed(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (g,) = torch.autograd.grad([(2 * x).sum(), (3 * x).sum()], x)
    assert g.tolist() == [5., 5.]


def test_grad_wrt_non_leaf_and_leaf_inputs(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 2
    o = (h * h).sum()
    gh, gx = torch.autograd.grad(o, [h, x])
    assert gh.tolist() == [4., 8.]
    assert gx.tolist() == [8., 16.]
