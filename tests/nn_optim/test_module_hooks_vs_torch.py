"""Module hooks against real torch: full backward hooks and backward pre-hooks (what they see,
replacing gradients, order, errors and warnings), the deprecated non-full backward hooks (the last
node's gradients, their FutureWarnings, mixing refused), forward hooks with kwargs / prepend /
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


def test_state_dict_pre_hooks_and_load_pre_hooks(real_torch):
    def program(T):
        log = []
        net = T.nn.Sequential(T.nn.Linear(2, 2), T.nn.Linear(2, 1))
        net[0].register_state_dict_pre_hook(lambda m, prefix, keep: log.append(("sd pre", prefix, keep)))
        net.register_load_state_dict_pre_hook(
            lambda m, sd, prefix, meta, strict, mk, uk, em: log.append(("load pre", type(m).__name__, prefix,
                                                                        sorted(sd), strict)))

        def rename(sd, prefix, meta, strict, mk, uk, em):
            if prefix + "w" in sd:
                sd[prefix + "weight"] = sd.pop(prefix + "w")

        net[1]._register_load_state_dict_pre_hook(rename)
        sd = {k: v.detach().clone() for k, v in net.state_dict(keep_vars=True).items()}
        sd["1.w"] = sd.pop("1.weight") * 0 + 3
        keys = net.load_state_dict(sd, strict=False)
        log.append((list(keys.missing_keys), list(keys.unexpected_keys), _show(net[1].weight)))
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


# ---------------------------------------------------------------- non-full backward hooks

def _rounded(v):
    """`_show(v)` to 12 digits (tanh's last bits differ between NumPy and PyTorch)."""
    if isinstance(v, (tuple, list)):
        return tuple(_rounded(x) for x in v)
    return None if v is None else [round(x, 12) for x in v.tolist()]


def _non_full_modules(T):
    class Scale(T.nn.Module):
        def __init__(self):
            super().__init__()
            self.w = T.nn.Parameter(T.tensor([2.0, 3.0]))

        def forward(self, x):
            return x * self.w

    class TwoOps(T.nn.Module):
        def forward(self, x):
            return (x * 2).tanh()

    class TwoOutputs(T.nn.Module):
        def forward(self, x):
            return x * 2, x + 1

    class DictOutput(T.nn.Module):
        def forward(self, x):
            return {"a": x * 2}

    class TwoInputs(T.nn.Module):
        def forward(self, x, y):
            return x * y

    return {"scale": (Scale, lambda y: y.sum()), "two_ops": (TwoOps, lambda y: y.sum()),
            "two_outputs": (TwoOutputs, lambda y: y[0].sum() + y[1].sum()),
            "dict_output": (DictOutput, lambda y: y["a"].sum()), "tanh": (T.nn.Tanh, lambda y: y.sum()),
            "two_inputs": (TwoInputs, lambda y: y.sum())}


@pytest.mark.parametrize("name", ["scale", "two_ops", "two_outputs", "dict_output", "tanh", "two_inputs"])
@pytest.mark.parametrize("leaf", [True, False], ids=["leaf_input", "computed_input"])
def test_non_full_backward_hook_sees_the_last_node(name, leaf, real_torch):
    def program(T):
        log = []
        cls, loss = _non_full_modules(T)[name]
        m = cls()
        m.register_backward_hook(lambda mod, gi, go: log.append((mod is m, _rounded(gi), _rounded(go))))
        x = T.tensor([1.0, 2.0], dtype=T.float64, requires_grad=True)
        inputs = (x, x * 3) if name == "two_inputs" else (x,)
        out = m(*(inputs if leaf else tuple(i * 1 for i in inputs)))
        loss(out).backward()
        log.append(_rounded(x.grad))
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


def test_non_full_backward_hook_replaces_grad_input_and_is_removable(real_torch):
    def program(T):
        class Scale(T.nn.Module):
            def forward(self, x):
                return x * 4

        m = Scale()
        handle = m.register_backward_hook(lambda mod, gi, go: tuple(None if g is None else g * 10 for g in gi))
        x = T.tensor([1.0, 2.0], requires_grad=True)
        m(x).sum().backward()
        first = _show(x.grad)
        handle.remove()
        x.grad = None
        m(x).sum().backward()
        return first, _show(x.grad), m._is_full_backward_hook

    mine, theirs = _both(real_torch, program)
    assert mine == theirs


@pytest.mark.parametrize("first, second", [("register_backward_hook", "register_full_backward_hook"),
                                           ("register_full_backward_hook", "register_backward_hook")])
def test_backward_hook_kinds_do_not_mix(first, second, torch):
    m = torch.nn.Tanh()
    getattr(m, first)(lambda *a: None)
    with pytest.raises(RuntimeError, match="^Cannot use both regular backward hooks and full backward hooks on a "
                                           "single Module. Please use only one of them.$"):
        getattr(m, second)(lambda *a: None)


@pytest.mark.filterwarnings("ignore:Using a non-full backward hook when the forward contains multiple:FutureWarning")
def test_non_full_hook_of_a_dead_module_and_a_bad_result(torch):
    x = torch.tensor([1.0, 2.0], requires_grad=True)

    def call_dropped():
        m = torch.nn.Tanh()
        m.register_backward_hook(lambda mod, gi, go: None)
        return m(x)

    with pytest.raises(RuntimeError, match="^You are trying to call the hook of a dead Module!$"):
        call_dropped().sum().backward()
    m = torch.nn.Tanh()
    m.register_backward_hook(lambda mod, gi, go: gi[0])
    with pytest.raises(TypeError, match="^expected tuple, but hook returned 'Tensor'$"):
        m(x).sum().backward()


@pytest.fixture
def global_hook_kind(real_torch):
    """No kind of global backward hook for the test (a registration fixes the kind for the process),
    the frameworks' kinds restored afterwards."""
    import flowgrad.nn.module_hooks as fhooks
    import torch.nn.modules.module as tmodule
    before = fhooks.GLOBAL.backward_is_full, tmodule._global_is_full_backward_hook
    fhooks.GLOBAL.backward_is_full = tmodule._global_is_full_backward_hook = None
    yield
    fhooks.GLOBAL.backward_is_full, tmodule._global_is_full_backward_hook = before


def test_global_non_full_backward_hook(real_torch, global_hook_kind):
    import importlib

    def program(T):
        module = importlib.import_module(T.__name__ + ".nn.modules.module")
        log = []
        handle = module.register_module_backward_hook(lambda m, gi, go: log.append((type(m).__name__, _show(gi))))
        try:
            with pytest.raises(RuntimeError, match="^Cannot use both regular backward hooks and full backward hooks "
                                                   "as a global Module hook. Please use only one of them.$"):
                module.register_module_full_backward_hook(lambda *a: None)
            m = T.nn.Tanh()
            m(T.tensor([0.5, 1.0], dtype=T.float64, requires_grad=True) * 1).sum().backward()
        finally:
            handle.remove()
        return log

    mine, theirs = _both(real_torch, program)
    assert mine == theirs
