"""Reference §1.23: torch.autograd.Function (custom forward/backward, ctx, validation, once_differentiable).

Every test runs on flowgrad.torch and on real torch (the `torch` fixture): real torch is the oracle."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
    "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
    "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
    "saved tensors after calling backward."
)
UNUSED0 = ("The differentiated Tensor at index 0 appears to not have been used in the graph. Set allow_unused=True "
           "if this is the desired behavior.")
HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
        "torch.autograd.set_detect_anomaly(True, check_nan=False).")
VIEW_INPLACE = ("Output 0 of {} is a view and is being modified inplace. This view was created inside a custom "
                "Function (or because an input was returned as-is) and the autograd logic to handle view+inplace "
                "would override the custom backward associated with the custom Function, leading to incorrect "
                "gradients. This behavior is forbidden. You can fix this by cloning the output of the custom "
                "Function.")


def fn(torch, name, forward, backward=None, **extra):
    """A Function subclass named `name` with the given static methods."""
    attrs = {"forward": staticmethod(forward)}
    if backward is not None:
        attrs["backward"] = staticmethod(backward)
    attrs.update({k: staticmethod(v) for k, v in extra.items()})
    return type(name, (torch.autograd.Function,), attrs)


def cube(torch):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x ** 2

    return fn(torch, "Cube", forward, backward)


# ------------------------------------------------------------------------------------ basic contract

def test_forward_runs_with_grad_disabled_and_sees_real_requires_grad(torch):
    seen = []

    def forward(ctx, x):
        seen.append((torch.is_grad_enabled(), x.requires_grad))
        return x * 2

    f = fn(torch, "Double", forward, lambda ctx, g: g * 2)
    y = f.apply(torch.ones(2, requires_grad=True))
    assert seen == [(False, True)]
    assert torch.is_grad_enabled()
    assert y.requires_grad


def test_grad_fn_is_generated_backward_class(torch):
    Cube = cube(torch)
    y = Cube.apply(torch.tensor([1., 2.], requires_grad=True))
    assert type(y.grad_fn).__name__ == "CubeBackward"
    assert y.grad_fn.name() == "CubeBackward"
    assert type(y.grad_fn) is Cube._backward_cls
    assert isinstance(y.grad_fn, torch.autograd.graph.Node)
    assert isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction)
    assert repr(y) == "tensor([1., 8.], grad_fn=<CubeBackward>)"


def test_ctx_is_grad_fn_attributes_and_saved_tensors_readable(torch):
    def forward(ctx, x):
        ctx.foo = 5
        ctx.save_for_backward(x)
        return x * 2

    x = torch.tensor([1., 2.], requires_grad=True)
    y = fn(torch, "Attr", forward, lambda ctx, g: g * 2).apply(x)
    assert y.grad_fn.foo == 5
    (saved,) = y.grad_fn.saved_tensors
    assert saved is x
    (edge,) = y.grad_fn.next_functions
    assert type(edge[0]).__name__ == "AccumulateGrad" and edge[1] == 0 and edge[0].variable is x


def test_backward_gets_one_grad_per_output_none_for_non_tensor_outputs(torch):
    got = []

    def forward(ctx, x, a, s):
        return x * a, a, s

    def backward(ctx, g, ga, gs):
        got.append((g.tolist(), ga, gs))
        return g * 2, None, None

    x = torch.ones(2, requires_grad=True)
    out = fn(torch, "Mixed", forward, backward).apply(x, 2.0, "s")
    assert out[1:] == (2.0, "s")
    assert repr(out[0]) == "tensor([2., 2.], grad_fn=<MixedBackward>)"
    assert len(out[0].grad_fn.next_functions) == 1
    out[0].sum().backward()
    assert got == [([1., 1.], None, None)]
    assert x.grad.tolist() == [2., 2.]


def test_no_input_requiring_grad_or_no_grad_gives_no_grad_fn_but_forward_runs(torch):
    calls = []

    def forward(ctx, x):
        calls.append(1)
        return x * 2

    f = fn(torch, "Plain", forward, lambda ctx, g: g)
    y = f.apply(torch.ones(2))
    assert (y.requires_grad, y.grad_fn) == (False, None)
    with torch.no_grad():
        z = f.apply(torch.ones(2, requires_grad=True))
    assert (z.requires_grad, z.grad_fn) == (False, None)
    assert calls == [1, 1]


def test_apply_accepts_kwargs_which_count_as_inputs(torch):
    nig = []

    def forward(ctx, x, k=1.0):
        nig.append(ctx.needs_input_grad)
        return x * k

    f = fn(torch, "KW", forward, lambda ctx, g: (g * 2, None))
    x = torch.ones(2, requires_grad=True)
    f.apply(x, k=2.0).sum().backward()
    f.apply(x).sum().backward()      # one input: the trailing None is allowed
    assert nig == [(True, False), (True,)]
    assert x.grad.tolist() == [4., 4.]


def test_needs_input_grad_same_in_forward_and_backward(torch):
    seen = []

    def forward(ctx, a, b, c, k):
        seen.append(ctx.needs_input_grad)
        return a * b * c * k

    def backward(ctx, g):
        seen.append(ctx.needs_input_grad)
        return g, None, g, None

    a, c = torch.ones(2, requires_grad=True), torch.ones(2, requires_grad=True)
    fn(torch, "NIG", forward, backward).apply(a, torch.ones(2), c, 3.0).sum().backward()
    assert seen == [(True, False, True, False)] * 2


def test_needs_input_grad_reflects_requires_grad_even_under_no_grad(torch):
    seen = []

    def forward(ctx, x):
        seen.append(ctx.needs_input_grad)
        return x * 1

    with torch.no_grad():
        fn(torch, "NG", forward, lambda ctx, g: g).apply(torch.ones(2, requires_grad=True))
    assert seen == [(True,)]


# ------------------------------------------------------------------------------------ setup_context style

def test_setup_context_style_gets_inputs_with_defaults_and_output(torch):
    got = []

    def forward(x, k=3):
        return x ** k

    def setup_context(ctx, inputs, output):
        got.append((inputs[0].tolist(), inputs[1], output.tolist(), ctx.needs_input_grad))
        ctx.save_for_backward(inputs[0])
        ctx.k = inputs[1]

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * ctx.k * x ** (ctx.k - 1), None

    f = fn(torch, "CubeSC", forward, backward, setup_context=setup_context)
    x = torch.tensor([1., 2.], requires_grad=True)
    y = f.apply(x)
    assert repr(y) == "tensor([1., 8.], grad_fn=<CubeSCBackward>)"
    f.apply(x, k=2).sum().backward()
    assert got == [([1., 2.], 3, [1., 8.], (True, False)), ([1., 2.], 2, [1., 4.], (True, False))]
    assert x.grad.tolist() == [2., 4.]


def test_setup_context_style_with_classmethods(torch):
    class CM(torch.autograd.Function):
        @classmethod
        def forward(cls, x):
            return x * 2

        @classmethod
        def setup_context(cls, ctx, inputs, output):
            ctx.owner = cls

        @classmethod
        def backward(cls, ctx, g):
            return g * 2

    x = torch.ones(2, requires_grad=True)
    y = CM.apply(x)
    assert y.grad_fn.owner is CM
    y.sum().backward()
    assert x.grad.tolist() == [2., 2.]


# ------------------------------------------------------------------------------------ saved tensors

def test_save_for_backward_allows_none_and_keeps_last_call(torch):
    during = []

    def forward(ctx, x, y):
        during.append(ctx.saved_tensors)
        ctx.save_for_backward(x, y)
        ctx.save_for_backward(None, x)
        return x * y

    x, y = torch.ones(2, requires_grad=True), torch.ones(2)
    out = fn(torch, "S", forward, lambda ctx, g: (g, None)).apply(x, y)
    assert during == [()]
    saved = out.grad_fn.saved_tensors
    assert saved[0] is None and saved[1] is x


def test_saved_tensors_index_during_forward_raises_index_error(torch):
    def forward(ctx, x):
        with pytest.raises(IndexError, match=exact("tuple index out of range")):
            ctx.saved_tensors[0]
        return x * 1

    fn(torch, "Idx", forward, lambda ctx, g: g).apply(torch.ones(2, requires_grad=True))


def test_save_for_backward_of_non_tensor_raises_type_error(torch):
    def forward(ctx, x):
        ctx.save_for_backward(x, 1)
        return x * 2

    f = fn(torch, "SaveInt", forward, lambda ctx, g: g)
    x = torch.tensor([1., 2.], requires_grad=True)
    with pytest.raises(TypeError, match=exact("save_for_backward can only save variables, but argument 1 is of type "
                                              "int")):
        f.apply(x)
    assert f.apply(x.detach()).tolist() == [2., 4.]    # not recorded: nothing is saved, nothing checked


def test_saved_input_modified_in_place_raises_version_error(torch):
    Cube = cube(torch)
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 1
    y = Cube.apply(h)
    with torch.no_grad():
        h.add_(1)
    with pytest.raises(RuntimeError, match=exact(
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[torch.FloatTensor [2]], which is output 0 of Mul, is at version 1; expected version 0 instead. "
            + HINT)):
        y.sum().backward()
    assert x.grad is None


def test_saved_output_modified_in_place_names_the_function(torch):
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r

    x = torch.tensor(1., requires_grad=True)
    y = fn(torch, "Exp", forward, backward).apply(x)
    with torch.no_grad():
        y.mul_(2)
    with pytest.raises(RuntimeError, match=exact(
            "one of the variables needed for gradient computation has been modified by an inplace operation: "
            "[torch.FloatTensor []], which is output 0 of Exp, is at version 1; expected version 0 instead. "
            + HINT)):
        y.backward()
    assert x.grad is None


def test_saved_output_unpacks_with_the_node_as_grad_fn(torch):
    def forward(ctx, x):
        out = x * 2
        ctx.save_for_backward(out)
        return out

    def backward(ctx, g):
        (out,) = ctx.saved_tensors
        return g * out

    y = fn(torch, "SaveOut", forward, backward).apply(torch.tensor([3., 4.], requires_grad=True))
    (saved,) = y.grad_fn.saved_tensors
    assert saved.grad_fn is y.grad_fn
    assert saved.tolist() == [6., 8.]


def test_saved_tensors_after_release_raise_second_time_error(torch):
    Cube = cube(torch)
    x = torch.tensor([1., 2.], requires_grad=True)
    y = Cube.apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.grad_fn.next_functions[0][0].saved_tensors
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.backward()
    assert x.grad.tolist() == [3., 12.]


def test_backward_twice_is_fine_when_saved_tensors_are_not_read(torch):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    x = torch.ones(2, requires_grad=True)
    y = fn(torch, "SaveNoUse", forward, lambda ctx, g: g * 2).apply(x).sum()
    y.backward()
    y.backward()
    assert x.grad.tolist() == [4., 4.]


def test_reading_saved_tensors_after_release_raises_even_if_nothing_was_saved(torch):
    def backward(ctx, g):
        assert ctx.saved_tensors == ()
        return g * 2

    x = torch.ones(2, requires_grad=True)
    y = fn(torch, "NoSave", lambda ctx, x: x * 2, backward).apply(x).sum()
    y.backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.backward()
    assert x.grad.tolist() == [2., 2.]


def test_saved_variables_is_deprecated_alias(torch):
    Cube = cube(torch)
    x = torch.ones(2, requires_grad=True)
    y = Cube.apply(x)
    with pytest.warns(DeprecationWarning, match=exact("'saved_variables' is deprecated; use 'saved_tensors'")):
        saved = y.grad_fn.saved_variables
    assert saved[0] is x


def test_save_for_backward_goes_through_saved_tensor_hooks(torch):
    log = []

    def pack(t):
        log.append("pack")
        return t

    def unpack(t):
        log.append("unpack")
        return t

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return (x * 2).exp()        # ops inside forward record nothing, so pack nothing

    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 2 * (x * 2).exp()

    x = torch.ones(2, requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
        y = fn(torch, "Hooked", forward, backward).apply(x)
    assert log == ["pack"]
    y.sum().backward()
    assert log == ["pack", "unpack"]


# ------------------------------------------------------------------------------------ validation of backward

def _backward_error(torch, name, backward, *inputs):
    f = fn(torch, name, lambda ctx, *a: next(t for t in a if hasattr(t, "grad_fn")) * 1, backward)
    return f.apply(*inputs).sum()


def test_too_few_gradients_raises(torch):
    x = torch.ones(5, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact("function TooFewBackward returned an incorrect number of gradients "
                                                 "(expected 2, got 1)")):
        _backward_error(torch, "TooFew", lambda ctx, g: (g,), x, x).backward()
    assert x.grad is None


def test_too_many_gradients_raises_but_trailing_nones_are_fine(torch):
    x = torch.ones(5, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact("function TooManyBackward returned an incorrect number of gradients "
                                                 "(expected 1, got 2)")):
        _backward_error(torch, "TooMany", lambda ctx, g: (g, g), x).backward()
    assert x.grad is None
    _backward_error(torch, "TrailingNone", lambda ctx, g: (g, None, None), x).backward()
    assert x.grad.tolist() == [1.] * 5


def test_gradient_for_non_tensor_input_raises(torch):
    x = torch.ones(5, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(
            "function GradForNonTensorBackward returned a gradient different than None at position 3, but the "
            "corresponding forward input was not a Variable")):
        _backward_error(torch, "GradForNonTensor", lambda ctx, g: (g, None, g), x, x, 3).backward()
    assert x.grad is None


@pytest.mark.parametrize("value, type_name", [(1.5, "float"), ("a", "str")])
def test_non_tensor_gradient_raises(torch, value, type_name):
    x = torch.ones(5, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(f"expected Variable or None (got {type_name})")):
        _backward_error(torch, "NotTensor", lambda ctx, g: value, x).backward()
    assert x.grad is None


def test_broadcast_gradient_is_summed_down_to_input_shape(torch):
    x = torch.ones(5, requires_grad=True)
    _backward_error(torch, "SumDown", lambda ctx, g: g.expand(3, 5), x).backward()
    assert x.grad.tolist() == [3.] * 5
    y = torch.ones(5, 5, requires_grad=True)
    _backward_error(torch, "SumDown2", lambda ctx, g: torch.ones(2, 5, 5), y).backward()
    assert y.grad.tolist() == [[2.] * 5] * 5


@pytest.mark.parametrize("shape, in_shape, got, expected", [
    ((10,), (5, 5), "[10]", "[5, 5]"),
    ((1, 5), (5, 5), "[1, 5]", "[5, 5]"),      # gradients are never broadcast up
    ((5,), (5, 5), "[5]", "[5, 5]"),
    ((), (5,), "[]", "[5]"),
    ((5, 1), (5,), "[5, 1]", "[5]"),
])
def test_gradient_of_incompatible_shape_raises(torch, shape, in_shape, got, expected):
    y = torch.ones(*in_shape, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact(f"Function BadShapeBackward returned an invalid gradient at index 0 - "
                                                 f"got {got} but expected shape compatible with {expected}")):
        _backward_error(torch, "BadShape", lambda ctx, g: torch.ones(shape), y).backward()
    assert y.grad is None


def test_invalid_gradient_index_counts_tensor_inputs_only(torch):
    y = torch.ones(5, 5, requires_grad=True)
    with pytest.raises(RuntimeError, match=r"at index 0 - got \[10\]"):
        _backward_error(torch, "BS", lambda ctx, g: (None, torch.ones(10)), 3, y).backward()
    with pytest.raises(RuntimeError, match=r"at index 1 - got \[10\]"):
        _backward_error(torch, "BS2", lambda ctx, g: (None, torch.ones(10)), torch.ones(2), y).backward()


@pytest.mark.parametrize("cast", ["double", "long"])
def test_gradient_dtype_is_cast_to_input_dtype(torch, cast):
    x = torch.ones(5, requires_grad=True)
    _backward_error(torch, "Cast", lambda ctx, g: getattr(g, cast)() * 2, x).backward()
    assert x.grad.dtype == torch.float32
    assert x.grad.tolist() == [2.] * 5


def test_none_gradient_leaves_input_without_grad(torch):
    x = torch.ones(5, requires_grad=True)
    _backward_error(torch, "RetNone", lambda ctx, g: None, x).backward()
    assert x.grad is None
    with pytest.raises(RuntimeError, match=exact(UNUSED0)):
        torch.autograd.grad(_backward_error(torch, "RetNone", lambda ctx, g: None, x), x)


def test_gradient_for_input_not_requiring_grad_is_dropped(torch):
    x, w = torch.ones(2, requires_grad=True), torch.ones(2)
    y = fn(torch, "H", lambda ctx, x, w: x * w, lambda ctx, g: (g, g)).apply(x, w)
    assert y.grad_fn.next_functions[1] == (None, 0)
    y.sum().backward()
    assert x.grad.tolist() == [1., 1.] and w.grad is None


def test_exception_in_backward_propagates_with_its_type(torch):
    def backward(ctx, g):
        raise KeyError("boom")

    x = torch.ones(2, requires_grad=True)
    with pytest.raises(KeyError, match="boom"):
        _backward_error(torch, "KB", backward, x).backward()
    assert x.grad is None


def test_function_that_raises_leaves_retained_graph_usable(torch):
    fail = [True]

    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * 2

    def backward(ctx, g):
        if fail[0]:
            raise ValueError("boom")
        (x,) = ctx.saved_tensors
        return g * 2

    x = torch.ones(2, requires_grad=True)
    y = (fn(torch, "Flaky", forward, backward).apply(x) * x).sum()
    with pytest.raises(ValueError, match=exact("boom")):
        y.backward(retain_graph=True)
    assert x.grad is None
    fail[0] = False
    y.backward()
    assert x.grad.tolist() == [4., 4.]


# ------------------------------------------------------------------------------------ output marking

def test_mark_non_differentiable_output_gets_zero_gradient_in_backward(torch):
    got = []

    def forward(ctx, x):
        idx = torch.tensor([1, 0])
        ctx.mark_non_differentiable(idx)
        return x * 1, idx

    def backward(ctx, gv, gi):
        got.append((gv.tolist(), gi.tolist(), gi.dtype))
        return gv

    x = torch.ones(2, requires_grad=True)
    v, i = fn(torch, "Sort", forward, backward).apply(x)
    assert (i.requires_grad, i.grad_fn) == (False, None)
    assert v.grad_fn.name() == "SortBackward"
    v.sum().backward()
    assert got == [([1., 1.], [0, 0], torch.int64)]


def test_single_non_differentiable_output_has_no_grad_fn(torch):
    def forward(ctx, x):
        r = x * 2
        ctx.mark_non_differentiable(r)
        return r

    r = fn(torch, "OnlyND", forward, lambda ctx, g: g).apply(torch.ones(2, requires_grad=True))
    assert (r.requires_grad, r.grad_fn) == (False, None)
    with pytest.raises(RuntimeError, match=exact("element 0 of tensors does not require grad and does not have a "
                                                 "grad_fn")):
        r.sum().backward()


@pytest.mark.parametrize("materialize, expected", [(True, [0., 0.]), (False, None)])
def test_set_materialize_grads_controls_unused_output_gradients(torch, materialize, expected):
    got = []

    def forward(ctx, x):
        ctx.set_materialize_grads(materialize)
        return x * 1, x * 2

    def backward(ctx, g1, g2):
        got.append((g1.tolist(), None if g2 is None else g2.tolist()))
        return g1

    a, b = fn(torch, "Two", forward, backward).apply(torch.ones(2, requires_grad=True))
    assert (a.output_nr, b.output_nr) == (0, 1) and a.grad_fn is b.grad_fn
    a.sum().backward()
    assert got == [([1., 1.], expected)]


def _add_one(torch):
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x

    return fn(torch, "AddOneInplace", forward, lambda ctx, g: g * 2)


def test_mark_dirty_output_is_the_input_with_new_history(torch):
    x = torch.ones(2, requires_grad=True)
    xc = x.clone()
    r = _add_one(torch).apply(xc)
    assert r is xc
    assert xc._version == 2          # the in-place add and mark_dirty each bump it
    assert xc.grad_fn.name() == "AddOneInplaceBackward"
    assert not r._is_view()
    xc.sum().backward()
    assert x.grad.tolist() == [2., 2.]


def test_mark_dirty_on_leaf_requiring_grad_raises(torch):
    x = torch.ones(2, requires_grad=True)
    with pytest.raises(RuntimeError, match=exact("a leaf Variable that requires grad has been used in an in-place "
                                                 "operation.")):
        _add_one(torch).apply(x)
    assert (x.tolist(), x._version, x.grad_fn) == ([2., 2.], 2, None)   # forward ran, as in PyTorch


def test_mark_dirty_on_tensor_not_requiring_grad_bumps_version_only(torch):
    t = torch.ones(2)
    r = _add_one(torch).apply(t)
    assert r is t and t._version == 2 and t.grad_fn is None


def test_dirty_input_not_returned_raises(torch):
    def forward(ctx, x):
        x.add_(1)
        ctx.mark_dirty(x)
        return x * 2

    with pytest.raises(RuntimeError, match=exact(
            "Some elements marked as dirty during the forward method were not returned as output. The inputs that "
            "are modified inplace must all be outputs of the Function.")):
        fn(torch, "DirtyNotRet", forward, lambda ctx, g: g).apply(torch.ones(2, requires_grad=True).clone())


def test_mark_dirty_on_view_rebases_the_base_history(torch):
    x = torch.ones(2, requires_grad=True)
    base = x * 1
    view = base[:1]
    r = _add_one(torch).apply(view)
    assert r is view
    assert base.grad_fn.name().endswith("CopySlices")
    assert base.tolist() == [2., 1.]
    base.sum().backward()
    assert x.grad.tolist() == [2., 1.]


def _ident(torch):
    return fn(torch, "Ident", lambda ctx, x: x, lambda ctx, g: g)


def test_input_returned_as_is_becomes_a_new_view(torch):
    x = torch.ones(2, requires_grad=True)
    r = _ident(torch).apply(x)
    assert r is not x
    assert r._is_view() and r._base is x
    assert r.grad_fn.name() == "IdentBackward"
    assert (r._version, x._version) == (0, 0)
    r.sum().backward()
    assert x.grad.tolist() == [1., 1.]


@pytest.mark.parametrize("leaf", [True, False])
def test_in_place_on_input_returned_as_is_raises(torch, leaf):
    x = torch.ones(2, requires_grad=True)
    r = _ident(torch).apply(x if leaf else x.clone())
    with pytest.raises(RuntimeError, match=exact(VIEW_INPLACE.format("Ident"))):
        r.add_(1)
    assert r.tolist() == [1., 1.]


def test_input_returned_as_is_under_no_grad_is_a_plain_alias(torch):
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        r = _ident(torch).apply(x)
        r.add_(1)
    assert r is not x and not r._is_view() and not r.requires_grad
    assert x.tolist() == [2., 2.]


def test_input_not_requiring_grad_returned_as_is_may_be_modified(torch):
    z = torch.ones(2)
    r = _ident(torch).apply(z)
    assert r is not z and r._is_view() and not r.requires_grad
    r.add_(1)
    assert z.tolist() == [2., 2.]


def test_in_place_on_view_made_inside_forward_raises(torch):
    f = fn(torch, "IdentView", lambda ctx, x: x.view(2), lambda ctx, g: g)
    rv = f.apply(torch.ones(2, requires_grad=True).clone())
    assert rv._is_view()
    with pytest.raises(RuntimeError, match=exact(VIEW_INPLACE.format("IdentView"))):
        rv.add_(1)


# ------------------------------------------------------------------------------------ higher order

def test_double_backward_through_differentiable_backward(torch):
    x = torch.tensor(2., requires_grad=True)
    (g1,) = torch.autograd.grad(cube(torch).apply(x), x, create_graph=True)
    assert repr(g1) == "tensor(12., grad_fn=<MulBackward0>)"
    (g2,) = torch.autograd.grad(g1, x)
    assert g2.item() == 12.


def test_double_backward_through_saved_output(torch):
    def forward(ctx, x):
        r = x.exp()
        ctx.save_for_backward(r)
        return r

    def backward(ctx, g):
        (r,) = ctx.saved_tensors
        return g * r

    x = torch.tensor(1., requires_grad=True)
    y = fn(torch, "Exp", forward, backward).apply(x)
    (g1,) = torch.autograd.grad(y, x, create_graph=True)
    (g2,) = torch.autograd.grad(g1, x)
    assert abs(g1.item() - 2.718281828) < 1e-6 and abs(g2.item() - 2.718281828) < 1e-6


def test_backward_runs_with_grad_mode_equal_to_create_graph(torch):
    modes = []

    def backward(ctx, g):
        modes.append(torch.is_grad_enabled())
        return g

    x = torch.ones(2, requires_grad=True)
    f = fn(torch, "Mode", lambda ctx, x: x * 1, backward)
    f.apply(x).sum().backward()
    torch.autograd.grad(f.apply(x).sum(), x, create_graph=True)
    assert modes == [False, True]


def _cube_once(torch):
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x ** 3

    @torch.autograd.function.once_differentiable
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        return g * 3 * x ** 2

    return fn(torch, "CubeOnce", forward, backward)


def test_once_differentiable_with_plain_create_graph_gives_no_graph(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    (g1,) = torch.autograd.grad(_cube_once(torch).apply(x).sum(), x, create_graph=True)
    assert g1.tolist() == [3., 12.]
    assert (g1.requires_grad, g1.grad_fn) == (False, None)


def test_once_differentiable_result_refuses_double_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    go = torch.ones(2, requires_grad=True)
    (g1,) = torch.autograd.grad(_cube_once(torch).apply(x), x, go, create_graph=True)
    assert repr(g1) == "tensor([ 3., 12.], grad_fn=<Error>)"
    assert g1.grad_fn.name() == "torch::autograd::Error"
    assert type(g1.grad_fn.next_functions[0][0]).__name__ == "AccumulateGrad"
    with pytest.raises(RuntimeError, match=exact(UNUSED0)):
        torch.autograd.grad(g1.sum(), x, retain_graph=True)
    with pytest.raises(RuntimeError, match=exact(UNUSED0)):
        torch.autograd.grad(g1.sum(), go, retain_graph=True)
    with pytest.raises(RuntimeError, match=exact("trying to differentiate twice a function that was marked with "
                                                 "@once_differentiable")):
        g1.sum().backward()
    assert x.grad is None and go.grad is None


def test_reentrant_backward_inside_custom_backward(torch):
    inner = []

    def backward(ctx, g):
        with torch.enable_grad():
            z = torch.tensor(3., requires_grad=True)
            (z * z).backward()
            inner.append(z.grad.item())
        return g

    x = torch.tensor(1., requires_grad=True)
    fn(torch, "Re", lambda ctx, x: x * 1, backward).apply(x).backward()
    assert inner == [6.] and x.grad.item() == 1.


def test_node_hooks_on_custom_function_node(torch):
    log = []
    x = torch.ones(2, requires_grad=True)
    y = fn(torch, "G", lambda ctx, x: x * 2, lambda ctx, g: g * 2).apply(x)
    y.grad_fn.register_prehook(lambda go: log.append(("pre", [g.tolist() for g in go])))
    y.grad_fn.register_hook(lambda gi, go: log.append(("post", [g.tolist() for g in gi])))
    y.register_hook(lambda g: g * 10)
    y.sum().backward()
    assert log == [("pre", [[10., 10.]]), ("post", [[20., 20.]])]
    assert x.grad.tolist() == [20., 20.]


# ------------------------------------------------------------------------------------ definition errors

def test_missing_forward_raises_at_apply(torch):
    f = type("NoFwd", (torch.autograd.Function,), {"backward": staticmethod(lambda ctx, g: g)})
    with pytest.raises(NotImplementedError, match=exact("You must implement the forward function for custom "
                                                        "autograd.Function.")):
        f.apply(torch.ones(2, requires_grad=True))


def test_missing_backward_raises_at_backward(torch):
    x = torch.ones(2, requires_grad=True)
    y = fn(torch, "NoBwd", lambda ctx, x: x * 2).apply(x)
    with pytest.raises(NotImplementedError, match=exact(
            "You must implement either the backward or vjp method for your custom autograd.Function to use it with "
            "backward mode AD.")):
        y.sum().backward()
    assert x.grad is None


def test_vjp_may_replace_backward_but_not_both(torch):
    x = torch.ones(2, requires_grad=True)
    fn(torch, "OnlyVjp", lambda ctx, x: x * 2, vjp=lambda ctx, g: g * 3).apply(x).sum().backward()
    assert x.grad.tolist() == [3., 3.]
    both = fn(torch, "Both", lambda ctx, x: x * 2, lambda ctx, g: g, vjp=lambda ctx, g: g)
    with pytest.raises(RuntimeError, match=exact("Implementing both 'backward' and 'vjp' for a custom Function is not "
                                                 "allowed. You should only implement one of them.")):
        both.apply(x).sum().backward()


def test_instantiating_a_function_is_deprecated_and_calling_it_raises(torch):
    f = fn(torch, "Inst", lambda ctx, x: x * 2, lambda ctx, g: g)
    with pytest.warns(DeprecationWarning, match=r"^<class '.*Inst'> should not be instantiated\. Methods on autograd "
                                                r"functions are all static, so you should invoke them on the class "
                                                r"itself\. Instantiating an autograd function will raise an error in a "
                                                r"future version of PyTorch\.$"):
        inst = f()
    with pytest.raises(RuntimeError, match=exact(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style autograd "
            "function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")):
        inst(torch.ones(2))


def test_mark_shared_storage_is_deprecated(torch):
    def forward(ctx, x):
        ctx.mark_shared_storage((x, x))
        return x * 2

    with pytest.warns(FutureWarning, match=exact("`mark_shared_storage` is deprecated. Tensors with shared storages "
                                                 "are automatically tracked. Note that calls to `set_()` are not "
                                                 "tracked")):
        fn(torch, "Shared", forward, lambda ctx, g: g).apply(torch.ones(2, requires_grad=True))


def test_nan_from_custom_backward_is_reported_in_anomaly_mode(torch):
    x = torch.ones(2, requires_grad=True)
    f = fn(torch, "MyFunc", lambda ctx, x: x * 1, lambda ctx, g: g * float("nan"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with torch.autograd.detect_anomaly():
            y = f.apply(x).sum()
            with pytest.raises(RuntimeError, match=exact("Function 'MyFuncBackward' returned nan values in its 0th "
                                                         "output.")):
                y.backward()
    assert x.grad is None
