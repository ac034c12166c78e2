"""Node hooks on `grad_fn` (reference §1.14), hook ordering (§1.15) and the engine's execution
order (§1.16): newest-first scheduling, diamonds, reentrant backward."""
from __future__ import annotations

import re

import pytest


# --- §1.14 node pre-hooks and post-hooks ------------------------------------------------------


def test_node_prehook_receives_grad_outputs_tuple(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    seen = []
    y.grad_fn.register_prehook(lambda grad_outputs: seen.append(grad_outputs))
    y.sum().backward()
    assert len(seen) == 1
    assert type(seen[0]) is tuple
    assert [g.tolist() for g in seen[0]] == [[1.0, 1.0]]


def test_node_posthook_receives_grad_inputs_and_grad_outputs(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    seen = []
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: seen.append((grad_inputs, grad_outputs)))
    y.sum().backward()
    assert len(seen) == 1
    grad_inputs, grad_outputs = seen[0]
    assert type(grad_inputs) is tuple and type(grad_outputs) is tuple
    assert len(grad_inputs) == 2
    assert grad_inputs[0].tolist() == [2.0, 2.0]
    assert grad_inputs[1] is None
    assert [g.tolist() for g in grad_outputs] == [[1.0, 1.0]]


def test_node_prehook_returning_tuple_replaces_grad_outputs(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda gO: (gO[0] * 10,))
    y.sum().backward()
    assert x.grad.tolist() == [20.0, 20.0]


def test_node_posthook_returning_tuple_replaces_grad_inputs(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gI, gO: (gI[0] * 100, None))
    y.sum().backward()
    assert x.grad.tolist() == [200.0, 200.0]


def test_node_hooks_returning_none_keep_gradients(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    calls = []
    y.grad_fn.register_prehook(lambda gO: calls.append("pre"))
    y.grad_fn.register_hook(lambda gI, gO: calls.append("post"))
    y.sum().backward()
    assert calls == ["pre", "post"]
    assert x.grad.tolist() == [2.0, 2.0]


def test_node_prehook_returning_tensor_raises_type_error(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda gO: gO[0])
    with pytest.raises(TypeError, match=re.escape("expected tuple, but hook returned 'Tensor'")):
        y.sum().backward()
    assert x.grad is None


def test_node_posthook_returning_tensor_raises_type_error(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gI, gO: gI[0])
    with pytest.raises(TypeError, match=re.escape("expected tuple, but hook returned 'Tensor'")):
        y.sum().backward()
    assert x.grad is None


def test_node_posthook_returning_wrong_number_of_values_raises(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gI, gO: (gI[0],))
    msg = "hook '<lambda>' has returned an incorrect number of values (got 1, but expected 2)"
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        y.sum().backward()
    assert x.grad is None


def test_node_prehook_returning_wrong_number_of_values_raises(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_prehook(lambda gO: (gO[0], gO[0]))
    msg = "hook '<lambda>' has returned an incorrect number of values (got 2, but expected 1)"
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        y.sum().backward()
    assert x.grad is None


def test_wrong_number_of_values_message_names_the_hook_function(torch):
    def my_post_hook(grad_inputs, grad_outputs):
        return (grad_inputs[0],)

    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(my_post_hook)
    msg = "hook 'my_post_hook' has returned an incorrect number of values (got 1, but expected 2)"
    with pytest.raises(RuntimeError, match=re.escape(msg)):
        y.sum().backward()
    assert x.grad is None


def test_node_posthook_replacing_none_gradient_raises(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.grad_fn.register_hook(lambda gI, gO: (gI[0], gI[0]))
    with pytest.raises(RuntimeError, match=re.escape("can't replace a None gradient with a non-None value")):
        y.sum().backward()
    assert x.grad is None


def test_accumulate_grad_prehook_receives_incoming_grad(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    acc = y.grad_fn.next_functions[0][0]
    seen = []
    acc.register_prehook(lambda gO: seen.append(gO))
    y.sum().backward()
    assert len(seen) == 1
    assert type(seen[0]) is tuple
    assert [g.tolist() for g in seen[0]] == [[3.0, 3.0]]


def test_accumulate_grad_posthook_receives_empty_grad_inputs(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 3
    acc = y.grad_fn.next_functions[0][0]
    seen = []
    acc.register_hook(lambda gI, gO: seen.append((gI, gO)))
    y.sum().backward()
    assert len(seen) == 1
    grad_inputs, grad_outputs = seen[0]
    assert grad_inputs == ()
    assert [g.tolist() for g in grad_outputs] == [[3.0, 3.0]]
    assert x.grad.tolist() == [3.0, 3.0]


def test_node_hooks_fire_on_every_retained_backward(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    calls = []
    y.grad_fn.register_prehook(lambda gO: calls.append("pre"))
    y.grad_fn.register_hook(lambda gI, gO: calls.append("post"))
    out = y.sum()
    out.backward(retain_graph=True)
    out.backward()
    assert calls == ["pre", "post", "pre", "post"]
    assert x.grad.tolist() == [4.0, 4.0]


def test_removed_node_hook_is_not_called(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    calls = []
    pre = y.grad_fn.register_prehook(lambda gO: calls.append("pre"))
    post = y.grad_fn.register_hook(lambda gI, gO: calls.append("post"))
    pre.remove()
    post.remove()
    y.sum().backward()
    assert calls == []
    assert x.grad.tolist() == [2.0, 2.0]


def test_node_hook_does_not_fire_when_node_is_not_executed(torch):
    x = torch.ones(2, requires_grad=True)
    unused = x * 2
    calls = []
    unused.grad_fn.register_prehook(lambda gO: calls.append("pre"))
    unused.grad_fn.register_hook(lambda gI, gO: calls.append("post"))
    (x * 3).sum().backward()
    assert calls == []
    assert x.grad.tolist() == [3.0, 3.0]


def test_autograd_grad_does_not_execute_input_accumulate_grad_hooks(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    acc = y.grad_fn.next_functions[0][0]
    calls = []
    acc.register_prehook(lambda gO: calls.append("acc-pre"))
    acc.register_hook(lambda gI, gO: calls.append("acc-post"))
    x.register_hook(lambda g: calls.append("tensor"))
    (gx,) = torch.autograd.grad(y.sum(), x)
    assert gx.tolist() == [2.0, 2.0]
    assert calls == ["tensor"]
    assert x.grad is None


# --- §1.15 hook ordering ----------------------------------------------------------------------


def test_tensor_hook_runs_before_node_prehook_before_node_posthook(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    log = []
    y.grad_fn.register_hook(lambda gI, gO: log.append("node-post"))
    y.grad_fn.register_prehook(lambda gO: log.append("node-pre"))
    y.register_hook(lambda g: log.append("tensor-hook"))
    y.sum().backward()
    assert log == ["tensor-hook", "node-pre", "node-post"]


def test_node_prehooks_run_in_registration_order_and_see_earlier_results(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    log = []

    def first(gO):
        log.append(("first", gO[0].tolist()))
        return (gO[0] * 2,)

    def second(gO):
        log.append(("second", gO[0].tolist()))
        return (gO[0] + 1,)

    y.grad_fn.register_prehook(first)
    y.grad_fn.register_prehook(second)
    y.sum().backward()
    assert log == [("first", [1.0, 1.0]), ("second", [2.0, 2.0])]
    assert x.grad.tolist() == [6.0, 6.0]


def test_node_posthooks_run_in_registration_order_and_see_earlier_results(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    log = []

    def first(gI, gO):
        log.append(("first", gI[0].tolist()))
        return (gI[0] * 3, None)

    def second(gI, gO):
        log.append(("second", gI[0].tolist()))
        return None

    y.grad_fn.register_hook(first)
    y.grad_fn.register_hook(second)
    y.sum().backward()
    assert log == [("first", [2.0, 2.0]), ("second", [6.0, 6.0])]
    assert x.grad.tolist() == [6.0, 6.0]


def test_retained_grad_sees_tensor_hooks_but_not_node_prehooks(torch):
    x = torch.ones(2, requires_grad=True)
    y = x * 2
    y.retain_grad()
    y.register_hook(lambda g: g * 3)
    y.grad_fn.register_prehook(lambda gO: (gO[0] * 10,))
    (y * 1).sum().backward()
    assert y.grad.tolist() == [3.0, 3.0]
    assert x.grad.tolist() == [60.0, 60.0]


def _prehook_ordering_graph(torch, log):
    """The graph of upstream test_prehook_ordering: tensor hooks multiply by 3 (log 1),
    node pre-hooks by 2 (log 2)."""

    def hook1(g):
        log.append(1)
        return g * 3

    def hook2(gs):
        log.append(2)
        return tuple(g * 2 for g in gs)

    a = torch.tensor(1.0, requires_grad=True)
    b = a.clone()
    b.grad_fn.register_prehook(hook2)
    b.register_hook(hook1)
    b.grad_fn.register_prehook(hook2)
    acc = b.grad_fn.next_functions[0][0]
    a.register_hook(hook1)
    acc.register_prehook(hook2)
    a.register_hook(hook1)
    return a, b


def test_tensor_hooks_run_before_node_prehooks_whatever_the_registration_order(torch):
    log = []
    a, b = _prehook_ordering_graph(torch, log)
    b.sum().backward()
    assert log == [1, 2, 2, 1, 1, 2]
    assert a.grad.item() == 216.0


def test_autograd_grad_runs_input_tensor_hooks_but_not_its_accumulate_grad_prehook(torch):
    log = []
    a, b = _prehook_ordering_graph(torch, log)
    (ga,) = torch.autograd.grad(b.sum(), inputs=(a,))
    assert log == [1, 2, 2, 1, 1]
    assert ga.item() == 108.0
    assert a.grad is None


def test_backward_with_inputs_stops_hooks_at_the_input_and_retains_pre_node_grad(torch):
    log = []
    a, b = _prehook_ordering_graph(torch, log)
    b.sum().backward(inputs=(b,))
    assert log == [1, 2, 2]
    assert b.grad.item() == 3.0
    assert a.grad is None


def test_leaf_hook_order_around_accumulation(torch):
    t = torch.tensor([3.0, 3.0], requires_grad=True)
    acc = (t * 1).grad_fn.next_functions[0][0]
    log = []

    def post_accumulate(tensor):
        log.append(("post-accumulate", tensor.grad.tolist()))

    t.register_hook(lambda g: log.append(("tensor", t.grad)))
    acc.register_prehook(lambda gO: log.append(("acc-pre", t.grad)))
    t.register_post_accumulate_grad_hook(post_accumulate)
    acc.register_hook(lambda gI, gO: log.append(("acc-post", t.grad.tolist())))
    (t * 2).sum().backward()
    assert log == [
        ("tensor", None),
        ("acc-pre", None),
        ("post-accumulate", [2.0, 2.0]),
        ("acc-post", [2.0, 2.0]),
    ]


def test_leaf_hooks_compose_tensor_pre_accumulate_post_accumulate_then_node_post(torch):
    tensor = torch.tensor(3.0, requires_grad=True)
    acc = tensor.view_as(tensor).grad_fn.next_functions[0][0]

    def post_accumulate(t):
        t.grad.add_(0.5)

    def acc_post(grad_inputs, grad_outputs):
        tensor.grad.mul_(10)

    tensor.register_hook(lambda g: g.sub(2.0))
    acc.register_prehook(lambda gO: (gO[0].div(5.0),))
    tensor.register_post_accumulate_grad_hook(post_accumulate)
    acc.register_hook(acc_post)
    (tensor * 1).backward()
    # ((1 - 2) / 5 + 0.5) * 10
    assert tensor.grad.item() == pytest.approx(3.0)


# --- §1.16 engine execution order ------------------------------------------------------------


def test_diamond_node_runs_once_with_summed_gradient(torch):
    x = torch.tensor(1.0, requires_grad=True)
    h = x * 2
    seen = []
    h.register_hook(lambda g: seen.append(g.item()))
    node_calls = []
    h.grad_fn.register_prehook(lambda gO: node_calls.append(gO[0].item()))
    (h + h * 3).backward()
    assert seen == [4.0]
    assert node_calls == [4.0]
    assert x.grad.item() == 8.0


def test_ready_nodes_run_most_recently_created_first(torch):
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    out = b.sin() * a.cos()
    names = []

    def record(node):
        node.register_prehook(lambda gO: names.append(type(node).__name__))

    record(out.grad_fn)
    for node, _ in out.grad_fn.next_functions:
        record(node)
    out.backward()
    assert names == ["MulBackward0", "CosBackward0", "SinBackward0"]


def test_sum_of_three_tensors_runs_their_hooks_newest_first(torch):
    w = torch.tensor(1.0, requires_grad=True)
    x1 = w * 1
    x2 = w * 2
    x3 = w * 3
    order = []
    for name, t in (("x1", x1), ("x2", x2), ("x3", x3)):
        t.register_hook(lambda g, name=name: order.append(name))
    (x3 + x1 + x2).backward()
    assert order == ["x3", "x2", "x1"]
    assert w.grad.item() == 6.0


def test_reentrant_backward_inside_tensor_hook(torch):
    z = torch.tensor(3.0, requires_grad=True)
    x = torch.tensor(1.0, requires_grad=True)
    y = x * 2

    def hook(g):
        # backward runs hooks with grad mode off, so the inner graph is built under enable_grad
        with torch.enable_grad():
            (z * z).backward()
        return g

    y.register_hook(hook)
    y.backward()
    assert z.grad.item() == 6.0
    assert x.grad.item() == 2.0


def test_reentrant_backward_inside_node_posthook(torch):
    z = torch.tensor(3.0, requires_grad=True)
    x = torch.tensor(1.0, requires_grad=True)
    y = x * 5
    inner = z * z  # graph built ahead; only its backward runs inside the hook

    def hook(grad_inputs, grad_outputs):
        inner.backward()

    y.grad_fn.register_hook(hook)
    y.backward()
    assert z.grad.item() == 6.0
    assert x.grad.item() == 5.0
