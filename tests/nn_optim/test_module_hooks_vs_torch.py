"""Module hooks against real torch: full backward hooks and backward pre-hooks (what they see,
replacing gradients, order, errors and warnings), forward hooks with kwargs / prepend /
always_call, and the global hooks of torch.nn.modules.module."""
from __future__ import annotations

import re
import warnings

import pytest


def _show(v):
    if isinstance(v, (tuple, list)):
        return tuple(_show(x) for x in v)
    return v.tolist() if hasattr(v, "tolist") else v


def _both(real_torch, program):
    import flowgrad.torch as ft
    out = []
    for T in (ft, real_torch):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            result = program(T)
        out.append((result, [str(w.message) for w in caught]))
    return out


def _two_in_two_out(T):
    class M(T.nn.Module):
        def forward(self, x, k, y):
            return x * y * k, x + y

    return M()


def test_full_backward_hooks_see_and_replace_gradients(real_torch):
    def program(T):
        log = []
        m = _two_in_two_out(T)
        m.register_full_backward_pre_hook(lambda mod, go: log.append(("pre", _show(go))) or (go[0] * 2, go[1]))
        m.register_full_backward_hook(lambda mod, gi, go: log.append(("full", _show(gi), _show(go)))
                                      or (gi[0] * 10, None, gi[2]))
        x = T.tensor([1.0, 2.0], requires_grad=True)
        y = T.tensor([3.0, 4.0], requires_grad=True)
        a, b = m(x, 5, y)
        log.append((type(a.grad_fn).__name__, a.grad_fn.name()))
        (a.sum() + (b * 3).sum()).backward()
        log.append(("grads", _show(x.grad), _show(y.grad)))
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_full_backward_hook_with_an_input_that_does_not_require_grad(real_torch):
    def program(T):
        log = []
        m = _two_in_two_out(T)
        m.register_full_backward_hook(lambda mod, gi, go: log.append((_show(gi), _show(go))))
        x = T.tensor([1.0, 2.0], requires_grad=True)
        a, b = m(x, 2, T.tensor([3.0, 4.0]))
        (a * b).sum().backward()
        log.append(_show(x.grad))
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_hooks_order_global_first_prepend_and_removal(real_torch):
    def program(T):
        log = []
        hooks = T.nn.modules.module
        lin = T.nn.Linear(2, 2)
        handles = [
            hooks.register_module_full_backward_pre_hook(lambda m, go: log.append("global pre")),
            hooks.register_module_full_backward_hook(lambda m, gi, go: log.append("global full")),
            hooks.register_module_forward_pre_hook(lambda m, a: log.append("global fwd pre")),
            hooks.register_module_forward_hook(lambda m, a, o: log.append("global fwd")),
        ]
        try:
            lin.register_full_backward_hook(lambda m, gi, go: log.append("full a"))
            lin.register_full_backward_hook(lambda m, gi, go: log.append("full b"), prepend=True)
            lin.register_full_backward_pre_hook(lambda m, go: log.append("pre a"))
            h = lin.register_full_backward_pre_hook(lambda m, go: log.append("pre b"), prepend=True)
            lin.register_forward_pre_hook(lambda m, a: log.append("fwd pre"))
            lin.register_forward_hook(lambda m, a, o: log.append("fwd"))
            lin(T.ones(1, 2, requires_grad=True)).sum().backward()
            h.remove()
            log.append("--")
            lin(T.ones(1, 2, requires_grad=True)).sum().backward()
        finally:
            for handle in handles:
                handle.remove()
        log.append("--")
        lin(T.ones(1, 2, requires_grad=True)).sum().backward()
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_backward_hooks_of_nested_modules(real_torch):
    def program(T):
        log = []
        T.manual_seed(0)
        net = T.nn.Sequential(T.nn.Linear(3, 2), T.nn.Tanh(), T.nn.Linear(2, 1))
        for name, mod in net.named_modules():
            mod.register_full_backward_hook(lambda m, gi, go, name=name: log.append(
                (name, [None if g is None else tuple(g.shape) for g in gi], [tuple(g.shape) for g in go])))
            mod.register_full_backward_pre_hook(lambda m, go, name=name: log.append(("pre " + name, len(go))))
        net(T.ones(4, 3, requires_grad=True)).sum().backward()
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_no_input_requiring_grad_fires_at_the_outputs(real_torch):
    def program(T):
        log = []
        lin = T.nn.Linear(2, 1)
        lin.register_full_backward_hook(lambda m, gi, go: log.append((_show(gi), [tuple(g.shape) for g in go])))
        lin(T.ones(3, 2)).sum().backward()
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs and len(mine[1]) == 1 and mine[1][0].startswith("Full backward hook is firing")


def test_no_hook_runs_without_grad(real_torch):
    def program(T):
        log = []
        lin = T.nn.Linear(2, 1)
        lin.register_full_backward_hook(lambda m, gi, go: log.append("full"))
        with T.no_grad():
            out = lin(T.ones(3, 2, requires_grad=True))
        return log, out.requires_grad

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_non_tensor_output_warns(real_torch):
    def program(T):
        class M(T.nn.Module):
            def forward(self, x):
                return {"y": x * 2}

        m = M()
        m.register_full_backward_hook(lambda mod, gi, go: None)
        out = m(T.ones(2, requires_grad=True))
        return sorted(out)

    mine, theirs = _both(real_torch, program)
    assert mine == theirs
    assert [re.sub("flowgrad.facade.", "", m) for m in mine[1]] == theirs[1] or mine[1][0].startswith(
        "For backward hooks to be called, module output should be a Tensor or a tuple of Tensors but received <class")


HOOK_ERRORS = [
    ("pre", lambda m, go: (go[0], go[0]), "Backward pre hook returned an invalid number of grad_output, got 2, "
                                          "but expected 1"),
    ("full", lambda m, gi, go: (gi[0], gi[0]), "Backward hook returned an invalid number of grad_input, got 2, but "
                                               "expected 1"),
]


@pytest.mark.parametrize("kind, hook, message", HOOK_ERRORS, ids=["pre", "full"])
def test_hook_results_of_the_wrong_length(kind, hook, message, torch):
    lin = torch.nn.Linear(2, 1)
    getattr(lin, "register_full_backward_pre_hook" if kind == "pre" else "register_full_backward_hook")(hook)
    out = lin(torch.ones(3, 2, requires_grad=True)).sum()
    with pytest.raises(RuntimeError, match="^" + re.escape(message) + "$"):
        out.backward()


def test_hook_without_inputs_requiring_grad_must_return_none(torch):
    lin = torch.nn.Linear(2, 1)
    lin.register_full_backward_hook(lambda m, gi, go: (torch.ones(3, 2),))
    out = lin(torch.ones(3, 2)).sum()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(RuntimeError, match="^" + re.escape(
                "Backward hook for Modules where no input requires gradient should always return None or None for "
                "all gradients.") + "$"):
            out.backward()


def test_forward_hooks_with_kwargs_prepend_and_always_call(real_torch):
    def program(T):
        log = []

        class M(T.nn.Module):
            def forward(self, x, scale=1.0, fail=False):
                if fail:
                    raise ValueError("forward failed")
                return x * scale

        m = M()
        m.register_forward_pre_hook(lambda mod, args, kwargs: log.append(("pre kw", sorted(kwargs)))
                                    or (args, dict(kwargs, scale=3.0)), with_kwargs=True)
        m.register_forward_pre_hook(lambda mod, args: log.append("pre first"), prepend=True)
        m.register_forward_hook(lambda mod, args, kwargs, out: log.append(("fwd kw", kwargs["scale"])) or out + 1,
                                with_kwargs=True)
        m.register_forward_hook(lambda mod, args, out: log.append(("fwd first", _show(out))), prepend=True)
        m.register_forward_hook(lambda mod, args, out: log.append("always"), always_call=True)
        log.append(_show(m(T.tensor([1.0, 2.0]), scale=2.0)))
        with pytest.raises(ValueError, match="forward failed"):
            m(T.tensor([1.0]), fail=True)
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_global_always_call_hook_runs_on_error(real_torch):
    def program(T):
        log = []

        class Boom(T.nn.Module):
            def forward(self, x):
                raise KeyError("boom")

        def failing(m, a, o):
            raise IndexError("hook failed")

        handles = [T.nn.modules.module.register_module_forward_hook(lambda m, a, o: log.append("global always"),
                                                                    always_call=True),
                   T.nn.modules.module.register_module_forward_hook(failing, always_call=True)]
        try:
            with pytest.raises(KeyError):
                Boom()(T.ones(1))
        finally:
            for h in handles:
                h.remove()
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs
    assert mine[1] == ["global module forward hook with ``always_call=True`` raised an exception that was "
                       "silenced as another error was raised in forward: hook failed"]


def test_forward_pre_hook_bad_result(torch):
    lin = torch.nn.Linear(2, 1)
    lin.register_forward_pre_hook(lambda m, a, k: 5, with_kwargs=True)
    with pytest.raises(RuntimeError, match="^" + re.escape("forward pre-hook must return None or a tuple of "
                                                           "(new_args, new_kwargs), but got 5.") + "$"):
        lin(torch.ones(1, 2))
