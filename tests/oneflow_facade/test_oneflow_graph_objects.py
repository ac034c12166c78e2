"""Graph objects the OneFlow way: a used leaf's `accumulategrad` grad_fn, OneFlow's node names,
`name()` a method, `next_functions` a list of `(node, 0)`, `register_hook` returning None,
`retain_grad`, `requires_grad` settable on leaves only and `requires_grad_` anywhere."""
from __future__ import annotations

import pytest


def test_a_leaf_gets_its_accumulategrad_when_first_used(flow):
    x = flow.tensor([1., 1.], requires_grad=True)
    assert x.grad_fn is None and x.is_leaf
    assert repr(x) == "tensor([1., 1.], dtype=oneflow.float32, requires_grad=True)"
    y = x * 2
    assert x.grad_fn.name() == "accumulategrad" and x.is_leaf
    assert repr(x) == "tensor([1., 1.], dtype=oneflow.float32, grad_fn=<accumulategrad>)"
    del y
    assert x.grad_fn.name() == "accumulategrad"          # kept by the leaf, not by the graph
    assert x.grad_fn.variable is x and x.grad_fn is (x + 1).grad_fn.next_functions[0][0]


def test_fresh_and_detached_leaves_have_none(flow):
    x = flow.tensor([1., 1.], requires_grad=True)
    (x * 2).sum().backward()
    assert x.detach().grad_fn is None
    assert flow.nn.Parameter(flow.ones(2)).grad_fn is None
    assert flow.ones(2).grad_fn is None


def test_hooks_and_grad_assignment_make_the_accumulator(flow):
    x = flow.tensor([1., 1.], requires_grad=True)
    assert x.register_hook(lambda g: g * 2) is None
    assert x.grad_fn.name() == "accumulategrad"
    (x * 3).sum().backward()
    assert x.grad.tolist() == [6., 6.]
    w = flow.tensor([1., 1.], requires_grad=True)
    w.grad = flow.ones(2)
    assert w.grad_fn.name() == "accumulategrad"


@pytest.mark.parametrize("build, name", [
    (lambda flow, x, y: x * y, "broadcast_mulBackward"),
    (lambda flow, x, y: x * 2, "scalar_mulBackward"),
    (lambda flow, x, y: x + y, "add_nBackward"),
    (lambda flow, x, y: x + y[0], "broadcast_addBackward"),
    (lambda flow, x, y: x.sum(), "reduce_sumBackward"),
    (lambda flow, x, y: flow.matmul(x, y.t()), "matmulBackward"),
    (lambda flow, x, y: flow.cat([x, y]), "catBackward"),
])
def test_node_names_are_oneflows(flow, build, name):
    x = flow.ones(2, 2, requires_grad=True)
    y = flow.ones(2, 2, requires_grad=True)
    node = build(flow, x, y).grad_fn
    assert node.name() == name and callable(node.name)
    assert repr((x * 2).sum()) == "tensor(8., dtype=oneflow.float32, grad_fn=<reduce_sumBackward>)"


def test_next_functions_is_a_list_of_node_zero_pairs(flow):
    x1 = flow.ones(2, requires_grad=True)
    x2 = flow.ones(2)
    x3 = flow.ones(2, requires_grad=True)
    cat = flow.cat([x1, x2, x3])
    nf = cat.grad_fn.next_functions
    assert type(nf) is list and len(nf) == 2                # only the inputs that require grad
    assert [(n.name(), i) for n, i in nf] == [("accumulategrad", 0), ("accumulategrad", 0)]
    assert nf[0][0].variable is x1 and nf[1][0].variable is x3
    a, b = flow.ones(4, requires_grad=True).split(2)
    assert [i for _, i in (a * b).grad_fn.next_functions] == [0, 0]   # the index is always 0


def test_retain_grad(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    assert x.retain_grad() is None                          # no-op on a leaf
    y = x * 2
    assert y.retain_grad() is None
    y.sum().backward(retain_graph=True)
    y.sum().backward()
    assert y.grad.tolist() == [2., 2.]                      # accumulates like a leaf's
    with pytest.raises(RuntimeError) as e:
        flow.ones(2).retain_grad()
    assert str(e.value) == "Can't retain_grad on Tensor that has requires_grad=False"


def test_nonleaf_grad_access_returns_none_silently(flow, recwarn):
    y = flow.ones(2, requires_grad=True) * 2
    assert y.grad is None and not recwarn.list


def test_requires_grad_setter_only_on_leaves(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = x * 2
    for value in (True, False):
        with pytest.raises(RuntimeError) as e:
            y.requires_grad = value
        assert str(e.value) == "You can only change requires_grad flags of leaf tensors."
    assert y.requires_grad and y.grad_fn is not None
    x.requires_grad = False
    assert not x.requires_grad and x.grad_fn is None        # setting False clears the accumulator
    with flow.no_grad():
        m = x * 2
    m.requires_grad = True                                  # a no_grad result is a leaf
    assert m.is_leaf and m.requires_grad


def test_requires_grad_underscore_works_anywhere(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = x * 2
    assert y.requires_grad_(False) is y
    assert not y.requires_grad and y.grad_fn is None and y.is_leaf
    assert y.requires_grad_() is y and y.requires_grad
    z = x * 3
    z.requires_grad_(True)
    assert z.grad_fn.name() == "scalar_mulBackward"


def test_only_floating_tensors_require_grad(flow):
    msg = "RuntimeError: only Tensors of floating point or complex can require gradients"
    for make in (lambda: flow.tensor([1, 2], requires_grad=True), lambda: flow.tensor([1, 2]).requires_grad_(),
                 lambda: setattr(flow.tensor([True]), "requires_grad", True)):
        with pytest.raises(RuntimeError) as e:
            make()
        assert str(e.value) == msg
    x = flow.ones(2, requires_grad=True)
    assert not (x > 0).requires_grad                        # integer / bool results never require grad


def test_inplace_ops(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(RuntimeError) as e:
        x.add_(1)
    assert str(e.value) == "a leaf Tensor that requires grad is being used in an in-place operation"
    with flow.no_grad():
        x.add_(1)
    assert x.tolist() == [2., 3.]
    t = flow.zeros(2)
    t += x                                                  # a constant becomes a non-leaf
    assert not t.is_leaf and t.requires_grad
    t.sum().backward()
    assert x.grad.tolist() == [1., 1.]


def test_data_is_settable_on_leaves_only(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = x * 2
    with pytest.raises(RuntimeError) as e:
        y.data = flow.zeros(2)
    assert str(e.value) == "Can only set leaf tensor's data." and y.tolist() == [2., 4.]
    x.data = flow.zeros(3)
    assert x.tolist() == [0., 0., 0.] and x.requires_grad and x.grad_fn is None


def test_node_hooks_must_return_one_gradient_per_input(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    w = flow.tensor([3., 4.], requires_grad=True)
    y = x * w
    y.grad_fn.register_hook(lambda grad_inputs, grad_outputs: (grad_inputs[0],))
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == "The number of input grads returned by hook is not correct, expected 2, but got 1."


def test_grad_leaves_inputs_alone_but_fills_retained_grads_and_runs_hooks(flow):
    from same_program import FRAMEWORKS
    import importlib
    for name in FRAMEWORKS:                                  # OneFlow and PyTorch agree here
        fw = importlib.import_module(name)
        x = fw.tensor([1., 2.], requires_grad=True)
        seen = []
        x.register_hook(lambda g: seen.append(g.tolist()))
        y = x * 2
        y.retain_grad()
        (g,) = fw.autograd.grad((y * y).sum(), [x])
        assert (g.tolist(), x.grad, y.grad.tolist(), seen) == ([8., 16.], None, [4., 8.], [[8., 16.]]), name


def test_nodes_print_oneflows_way(flow):
    y = flow.ones(2, requires_grad=True) * 2
    assert repr(y.grad_fn) == str(y.grad_fn) == f"<scalar_mulBackward at {hex(id(y.grad_fn))}>"
    leaf = y.grad_fn.next_functions[0][0]
    assert repr(leaf) == f"<accumulategrad at {hex(id(leaf))}>"
