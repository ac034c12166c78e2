"""Reference §1.3 (retain_graph and backwarding twice) and §1.4 (create_graph, higher-order grads)."""
from __future__ import annotations

import json
import os
import pathlib
import re
import subprocess
import sys
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call .backward() "
    "or autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time "
    "or if you need to access saved tensors after calling backward."
)
ELEMENT0 = "element 0 of tensors does not require grad and does not have a grad_fn"
CREATE_GRAPH_WARNING_PREFIX = (
    "Using backward() with create_graph=True will create a reference cycle between the parameter and its "
    "gradient which can cause a memory leak. We recommend using autograd.grad when creating the graph to "
    "avoid this. If you have to use this function, make sure to reset the .grad fields of your parameters "
    "to None after use to break the cycle and avoid the leak."
)


# --------------------------------------------------------------------------------------------
# §1.3 retain_graph and backwarding twice
# --------------------------------------------------------------------------------------------

def test_second_backward_through_saved_node_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.backward()
    assert x.grad.tolist() == [2., 4.]


def test_grad_after_freeing_backward_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        torch.autograd.grad(y, x)
    assert x.grad.tolist() == [2., 4.]


def test_second_grad_after_freeing_grad_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    torch.autograd.grad(y, x)
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        torch.autograd.grad(y, x)


def test_saved_self_access_after_free_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * x
    assert y.grad_fn._saved_self.tolist() == [1., 2.]
    y.sum().backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.grad_fn._saved_self


# f(x) for x = [[1, 2], [3, 4]] and the gradient of f(x).sum() w.r.t. x (computed once)
_SAVE_NOTHING = {
    "add_scalar": (lambda torch, x: x + 1, [[1., 1.], [1., 1.]]),
    "sub_scalar": (lambda torch, x: x - 1, [[1., 1.], [1., 1.]]),
    "neg": (lambda torch, x: -x, [[-1., -1.], [-1., -1.]]),
    "sum": (lambda torch, x: x.sum(), [[1., 1.], [1., 1.]]),
    "mean": (lambda torch, x: x.mean(), [[0.25, 0.25], [0.25, 0.25]]),
    "view": (lambda torch, x: x.view(4), [[1., 1.], [1., 1.]]),
    "reshape": (lambda torch, x: x.reshape(4), [[1., 1.], [1., 1.]]),
    "t": (lambda torch, x: x.t(), [[1., 1.], [1., 1.]]),
    "select": (lambda torch, x: x[0], [[1., 1.], [0., 0.]]),
    "clone": (lambda torch, x: x.clone(), [[1., 1.], [1., 1.]]),
    "cat": (lambda torch, x: torch.cat([x, x]), [[2., 2.], [2., 2.]]),
}


@pytest.mark.parametrize("op", list(_SAVE_NOTHING), ids=list(_SAVE_NOTHING))
def test_backward_twice_through_nodes_that_save_nothing_accumulates(torch, op):
    fn, once = _SAVE_NOTHING[op]
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    out = fn(torch, x).sum()
    out.backward()
    out.backward()
    assert x.grad.tolist() == [[2 * v for v in row] for row in once]


_SAVING = {
    "mul_python_scalar": lambda torch, x: x * 2,
    "mul_const_tensor": lambda torch, x: x * torch.tensor([[2., 3.], [4., 5.]]),
    "div_python_scalar": lambda torch, x: x / 2,
    "pow": lambda torch, x: x ** 2,
    "exp": lambda torch, x: x.exp(),
    "relu": lambda torch, x: x.relu(),
    "sigmoid": lambda torch, x: x.sigmoid(),
    "tanh": lambda torch, x: x.tanh(),
    "matmul_const": lambda torch, x: x @ torch.tensor([[1., 0.], [0., 1.]]),
    "abs": lambda torch, x: x.abs(),
    "max": lambda torch, x: x.max(),
}


@pytest.mark.parametrize("op", list(_SAVING), ids=list(_SAVING))
def test_backward_twice_through_node_that_saved_tensors_raises(torch, op):
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    out = _SAVING[op](torch, x).sum()
    out.backward()
    first = x.grad.tolist()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        out.backward()
    assert x.grad.tolist() == first


def test_shared_node_freed_by_other_backward_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * x
    a = (h * 3).sum()
    b = (h * 5).sum()
    a.backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        b.backward()
    assert x.grad.tolist() == [6., 12.]


def test_retain_graph_true_allows_one_more_default_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    assert x.grad.tolist() == [4., 8.]


def test_default_backward_after_retained_one_frees_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    y.backward(retain_graph=True)
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.backward()
    assert x.grad.tolist() == [4., 8.]


def test_retain_graph_true_in_autograd_grad_keeps_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    torch.autograd.grad(y, x, retain_graph=True)
    (g,) = torch.autograd.grad(y, x)
    assert g.tolist() == [2., 4.]


def test_grad_with_create_graph_retains_graph_by_default(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    torch.autograd.grad(y, x, create_graph=True)
    (g,) = torch.autograd.grad(y, x)
    assert g.tolist() == [2., 4.]
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        torch.autograd.grad(y, x)


def test_backward_with_create_graph_retains_graph_by_default(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        y.backward(create_graph=True)
    x.grad = None
    y.backward()
    assert x.grad.tolist() == [2., 4.]


def test_create_graph_with_retain_graph_false_frees_original_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        torch.autograd.grad(y, x)


def test_create_graph_with_retain_graph_false_result_is_still_differentiable(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    (g,) = torch.autograd.grad(y, x, create_graph=True, retain_graph=False)
    assert g.requires_grad is True
    (gg,) = torch.autograd.grad(g.sum(), x)
    assert gg.tolist() == [2., 2.]


# --------------------------------------------------------------------------------------------
# §1.4 create_graph — higher-order gradients
# --------------------------------------------------------------------------------------------

def test_first_derivative_with_create_graph_has_grad_fn(torch):
    x = torch.tensor(3., requires_grad=True)
    (g1,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    assert g1.tolist() == 27.
    assert g1.requires_grad is True
    assert type(g1.grad_fn).__name__ == "MulBackward0"


def test_second_derivative_with_create_graph_has_grad_fn(torch):
    x = torch.tensor(3., requires_grad=True)
    (g1,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    (g2,) = torch.autograd.grad(g1, x, create_graph=True)
    assert g2.tolist() == 18.
    assert type(g2.grad_fn).__name__ == "MulBackward0"


def test_third_derivative_without_create_graph_has_no_grad_fn(torch):
    x = torch.tensor(3., requires_grad=True)
    (g1,) = torch.autograd.grad(x ** 3, x, create_graph=True)
    (g2,) = torch.autograd.grad(g1, x, create_graph=True)
    (g3,) = torch.autograd.grad(g2, x)
    assert g3.tolist() == 6.
    assert g3.grad_fn is None
    assert g3.requires_grad is False


def test_create_graph_grad_of_linear_function_does_not_require_grad(torch):
    x = torch.tensor(1., requires_grad=True)
    (g,) = torch.autograd.grad(x * 2, x, create_graph=True)
    assert g.tolist() == 2.
    assert g.requires_grad is False
    assert g.grad_fn is None


@pytest.mark.parametrize("kwargs", [{}, {"allow_unused": True}, {"materialize_grads": True}],
                         ids=["plain", "allow_unused", "materialize_grads"])
def test_differentiating_constant_gradient_again_raises(torch, kwargs):
    x = torch.tensor(1., requires_grad=True)
    (g,) = torch.autograd.grad(x * 2, x, create_graph=True)
    with pytest.raises(RuntimeError, match=exact(ELEMENT0)):
        torch.autograd.grad(g, x, **kwargs)


def test_grad_without_create_graph_returns_detached_leaf(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (g,) = torch.autograd.grad((x ** 3).sum(), x)
    assert g.requires_grad is False
    assert g.grad_fn is None
    assert g.is_leaf is True


def test_backward_without_create_graph_leaves_grad_not_requiring_grad(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x ** 3).sum().backward()
    assert x.grad.requires_grad is False
    assert x.grad.grad_fn is None
    assert x.grad.is_leaf is True


def test_backward_with_create_graph_makes_grad_non_leaf(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        (x ** 3).sum().backward(create_graph=True)
    assert x.grad.tolist() == [3., 12.]
    assert x.grad.is_leaf is False
    assert x.grad.requires_grad is True
    assert type(x.grad.grad_fn).__name__ == "CopyBackwards"


def test_backward_with_create_graph_accumulates_out_of_place(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        (x ** 2).sum().backward(create_graph=True)
        first = x.grad
        (x ** 2).sum().backward(create_graph=True)
    assert x.grad is not first
    assert first.tolist() == [2., 4.]
    assert x.grad.tolist() == [4., 8.]
    assert type(x.grad.grad_fn).__name__ == "AddBackward0"


def test_backward_without_create_graph_accumulates_in_place(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (x ** 2).sum().backward()
    first = x.grad
    (x ** 2).sum().backward()
    assert x.grad is first
    assert first.tolist() == [4., 8.]


_WARN_SCRIPT = r"""
import importlib, json, sys, warnings
torch = importlib.import_module(sys.argv[1])
def run():
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        x = torch.tensor([1., 2.], requires_grad=True)
        (x ** 3).sum().backward(create_graph=True)
    return [[w.category.__name__, str(w.message)] for w in rec]
print(json.dumps([run(), run()]))
"""


_WARN_LOGS: dict = {}


@pytest.fixture
def create_graph_warning_log(torch):
    """Warnings seen by two create_graph backwards in a fresh process (the warning is once per process)."""
    if torch.__name__ in _WARN_LOGS:
        return _WARN_LOGS[torch.__name__]
    root = pathlib.Path(__file__).resolve().parents[2]
    env = dict(os.environ)
    env["PYTHONPATH"] = str(root) + os.pathsep + env.get("PYTHONPATH", "")
    proc = subprocess.run([sys.executable, "-c", _WARN_SCRIPT, torch.__name__], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    _WARN_LOGS[torch.__name__] = json.loads(proc.stdout.strip().splitlines()[-1])
    return _WARN_LOGS[torch.__name__]


def test_backward_with_create_graph_warns_about_reference_cycle(create_graph_warning_log):
    first, _ = create_graph_warning_log
    assert len(first) == 1
    category, message = first[0]
    assert category == "UserWarning"
    assert message.startswith(CREATE_GRAPH_WARNING_PREFIX)


def test_backward_create_graph_warning_is_emitted_once_per_process(create_graph_warning_log):
    first, second = create_graph_warning_log
    assert len(first) == 1
    assert second == []


def test_grad_with_create_graph_never_warns_about_reference_cycle(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        (g,) = torch.autograd.grad((x ** 3).sum(), x, create_graph=True)
    assert g.requires_grad is True
    assert [str(w.message) for w in rec if "reference cycle" in str(w.message)] == []


def test_grad_mode_is_disabled_during_plain_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * x
    seen = []
    h.register_hook(lambda g: seen.append(torch.is_grad_enabled()))
    h.sum().backward()
    assert seen == [False]
    assert torch.is_grad_enabled() is True


def test_grad_mode_is_enabled_during_create_graph_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * x
    seen = []
    h.register_hook(lambda g: seen.append(torch.is_grad_enabled()))
    torch.autograd.grad(h.sum(), x, create_graph=True)
    assert seen == [True]


def test_backward_under_no_grad_still_works(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * x).sum()
    with torch.no_grad():
        y.backward()
    assert x.grad.tolist() == [2., 4.]


def test_create_graph_under_no_grad_still_records_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x ** 3).sum()
    with torch.no_grad():
        (g,) = torch.autograd.grad(y, x, create_graph=True)
    assert g.requires_grad is True
    assert g.tolist() == [3., 12.]


def test_hessian_vector_product_via_double_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = torch.tensor([3., 4.], requires_grad=True)
    z = x ** 2 + y * x + y ** 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        z.backward(torch.ones(2), create_graph=True)
    # dz/dx = 2x + y, dz/dy = x + 2y
    assert x.grad.tolist() == [5., 8.]
    assert y.grad.tolist() == [7., 10.]
    x_grad = x.grad.clone()
    y_grad = y.grad.clone()
    (2 * x.grad + y.grad).backward(torch.ones(2))
    assert (x.grad - x_grad).tolist() == [5., 5.]
    assert (y.grad - y_grad).tolist() == [4., 4.]
