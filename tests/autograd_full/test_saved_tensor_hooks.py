"""Reference §1.17: saved-tensor hooks (saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks,
SavedTensor.register_hooks) and the `grad_fn._saved_*` introspection of common ops."""
from __future__ import annotations

import re
import threading

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have already "
    "been freed). Saved intermediate values of the graph are freed when you call .backward() or autograd.grad(). "
    "Specify retain_graph=True if you need to backward through the graph a second time or if you need to access "
    "saved tensors after calling backward."
)


def logging_hooks(log):
    def pack(t):
        log.append("pack")
        return t

    def unpack(t):
        log.append("unpack")
        return t

    return pack, unpack


# ------------------------------------------------------------------------------------ saved_tensors_hooks

def test_pack_once_per_saved_tensor_unpack_when_needed(torch):
    log = []
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(*logging_hooks(log)):
        y = (x * x).exp().sum()      # mul saves 2, exp saves its result, sum saves nothing
    assert log == ["pack"] * 3
    y.backward()
    assert log == ["pack"] * 3 + ["unpack"] * 3


def test_nothing_packed_for_scalars_no_grad_or_inputs_not_needed(torch):
    log = []
    x, w = torch.tensor([1., 2.], requires_grad=True), torch.tensor([3., 4.])
    with torch.autograd.graph.saved_tensors_hooks(*logging_hooks(log)):
        x * 3
        w * w
        with torch.no_grad():
            x * x
        assert log == []
        x * w                        # only w is needed (for x's gradient)
    assert log == ["pack"]


def test_hooks_captured_at_forward_are_used_after_the_block(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: 2 * t, lambda t: t):
        y = x * x
    y.sum().backward()
    assert x.grad.tolist() == [4., 8.]


def test_packed_object_may_be_anything(torch):
    store = []

    def pack(t):
        store.append(t.detach())
        return len(store) - 1

    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(pack, lambda i: store[i]):
        y = (x * x).exp().sum()
    y.backward()
    assert len(store) == 3
    expected = (2 * x * (x * x).exp()).detach()
    assert torch.allclose(x.grad, expected)


def test_innermost_hooks_win(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: 3 * t, lambda t: t):
        with torch.autograd.graph.saved_tensors_hooks(lambda t: 5 * t, lambda t: t):
            y = x * x
    y.sum().backward()
    assert x.grad.tolist() == [10., 20.]


def test_pack_hook_modifying_its_input_in_place_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach().mul_(1), lambda t: t):
        with pytest.raises(RuntimeError, match=exact(
                "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack hook "
                "cannot be modified by in-place operations as this can lead to unexpected side-effects. Please open "
                "an issue if you need to perform in-place operations on the input to a pack hook.")):
            x * x


def test_exceptions_from_pack_at_forward_and_from_unpack_at_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)

    def bad_pack(t):
        raise ValueError("boom in pack")

    def bad_unpack(t):
        raise KeyError("boom in unpack")

    with torch.autograd.graph.saved_tensors_hooks(bad_pack, lambda t: t):
        with pytest.raises(ValueError, match=exact("boom in pack")):
            x * x
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, bad_unpack):
        y = (x * x).sum()
    with pytest.raises(KeyError, match="boom in unpack"):
        y.backward()
    assert x.grad is None


def test_unpack_returning_non_tensor_raises_type_error(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: 0, lambda p: 1):
        y = (x * x).sum()
    with pytest.raises(TypeError, match=exact("Output of saved tensor unpack_hook expected to be a Tensor but got "
                                              "result of type int")):
        y.backward()
    assert x.grad is None


def test_unpacked_values_keep_the_autograd_identity_for_double_backward(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t.detach(), lambda t: t):
        y = x * x                     # a leaf saved through a detaching hook
        e = (x * 1).exp()             # an op's own output saved through it
    assert e.grad_fn._saved_result.grad_fn is e.grad_fn
    u = y.grad_fn._saved_self
    assert u is not x and u.requires_grad and u.grad_fn is None
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    assert repr(g) == "tensor([2., 4.], grad_fn=<AddBackward0>)"
    (g2,) = torch.autograd.grad(g.sum(), x)
    assert g2.tolist() == [2., 2.]


def test_hooks_are_thread_local(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    log = []
    seen = []

    def worker():
        y = x * x
        seen.append(y.grad_fn._saved_self is x)

    with torch.autograd.graph.saved_tensors_hooks(*logging_hooks(log)):
        th = threading.Thread(target=worker)
        th.start()
        th.join()
    assert seen == [True] and log == []


def test_save_on_cpu_is_a_saved_tensors_hooks(torch):
    assert issubclass(torch.autograd.graph.save_on_cpu, torch.autograd.graph.saved_tensors_hooks)
    x = torch.tensor([1., 2.], requires_grad=True)
    for pin in (False, True):
        x.grad = None
        with torch.autograd.graph.save_on_cpu(pin_memory=pin):
            y = (x * x).sum()
        y.backward()
        assert x.grad.tolist() == [2., 4.]


def test_saved_tensors_hooks_exposes_its_hooks(torch):
    pack, unpack = (lambda t: t), (lambda t: t)
    h = torch.autograd.graph.saved_tensors_hooks(pack, unpack)
    assert h.pack_hook is pack and h.unpack_hook is unpack


# ------------------------------------------------------------------------------------ disable_saved_tensors_hooks

def test_disabled_hooks_refuse_to_be_entered(torch):
    graph = torch.autograd.graph
    with graph.disable_saved_tensors_hooks("my error msg"):
        with pytest.raises(RuntimeError, match=exact("my error msg")):
            with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):   # enabled again
        pass


def test_nested_disable_uses_innermost_message_then_restores(torch):
    graph = torch.autograd.graph
    with graph.disable_saved_tensors_hooks("a"):
        with graph.disable_saved_tensors_hooks("b"):
            with pytest.raises(RuntimeError, match=exact("b")):
                with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                    pass
        with pytest.raises(RuntimeError, match=exact("a")):
            with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
                pass


def test_disabling_while_hooks_are_active_raises(torch):
    graph = torch.autograd.graph
    with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        with pytest.raises(RuntimeError, match=exact("dis")):
            with graph.disable_saved_tensors_hooks("dis"):
                pass
        x = torch.ones(2, requires_grad=True)
        assert (x * x).grad_fn is not None


def test_disable_saved_tensors_hooks_as_decorator(torch):
    graph = torch.autograd.graph

    @graph.disable_saved_tensors_hooks("deco")
    def f():
        with graph.saved_tensors_hooks(lambda t: t, lambda t: t):
            pass

    with pytest.raises(RuntimeError, match=exact("deco")):
        f()


# ------------------------------------------------------------------------------------ per-tensor hooks

def test_raw_saved_tensor_register_hooks(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * x
    raw = y.grad_fn._raw_saved_self
    raw.register_hooks(lambda t: t * 2, lambda p: p)
    with pytest.raises(RuntimeError, match=exact("Calling register_hooks on a saved tensor whose hooks have already "
                                                 "been set. Hint: only one pair of hooks is allowed at a time.")):
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda p: p)
    y.sum().backward()
    assert x.grad.tolist() == [3., 6.]       # x (other, unhooked) + 2x (self, packed doubled)


def test_register_hooks_refused_when_default_hooks_already_packed_it(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        y = x * x
    with pytest.raises(RuntimeError, match=r"^Calling register_hooks on a saved tensor whose hooks have already been "
                                           r"set\."):
        y.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda p: p)


# ------------------------------------------------------------------------------------ grad_fn._saved_*

def test_saved_self_and_other_of_mul(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    w = torch.tensor([3., 4.])
    y = x * x
    assert y.grad_fn._saved_self is x and y.grad_fn._saved_other is x
    y = x * w
    assert y.grad_fn._saved_self is None and y.grad_fn._saved_other is w
    y = w * x
    assert y.grad_fn._saved_self is w and y.grad_fn._saved_other is None


def test_python_scalar_operand_is_saved_as_0d_tensor(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    other = (x * 2).grad_fn._saved_other
    assert (other.shape, other.dtype, other.item()) == ((), torch.int64, 2)
    other = (x / 2.5).grad_fn._saved_other
    assert (other.dtype, other.item()) == (torch.float64, 2.5)
    assert (x * 2).grad_fn._saved_self is None


@pytest.mark.parametrize("op, attr", [
    (lambda x: x.exp(), "_saved_result"), (lambda x: x.tanh(), "_saved_result"),
    (lambda x: x.sigmoid(), "_saved_result"), (lambda x: x.sqrt(), "_saved_result"),
    (lambda x: x.relu(), "_saved_result"), (lambda x: x.softmax(0), "_saved_result"),
    (lambda x: x.log(), "_saved_self"), (lambda x: x.sin(), "_saved_self"), (lambda x: x.cos(), "_saved_self"),
    (lambda x: x.abs(), "_saved_self"), (lambda x: x ** 2, "_saved_self"), (lambda x: x.clamp(0, 1), "_saved_self"),
    (lambda x: x.max(), "_saved_self"), (lambda x: x.prod(), "_saved_self"), (lambda x: x / x, "_saved_other"),
])
def test_saved_values_of_common_ops(torch, op, attr):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = op(x)
    v = getattr(y.grad_fn, attr)
    if attr == "_saved_result":
        assert v.grad_fn is y.grad_fn and v.tolist() == y.tolist()
    else:
        assert v is x


def test_saved_scalar_attributes(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    assert (x ** 2).grad_fn._saved_exponent == 2
    c = x.clamp(0, 1).grad_fn
    assert (c._saved_min, c._saved_max) == (0, 1)
    assert (x + x).grad_fn._saved_alpha == 1
    assert x.softmax(0).grad_fn._saved_dim == 0


def test_saved_tensors_of_matmul(torch):
    a = torch.ones(2, 3, requires_grad=True)
    b = torch.ones(3, 4)
    mm = (a @ b).grad_fn
    assert mm.name() == "MmBackward0"
    assert mm._saved_self is None and mm._saved_mat2 is b
    v = torch.ones(3)
    dot = (torch.ones(3, requires_grad=True) @ v).grad_fn
    assert dot._saved_self is None and dot._saved_tensor is v


def test_saved_value_after_release_raises(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    y = x * x
    assert y.grad_fn._saved_self.tolist() == [1., 2.]
    y.sum().backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        y.grad_fn._saved_self
    e = x.exp()
    e.sum().backward()
    with pytest.raises(RuntimeError, match=exact(SECOND_TIME)):
        e.grad_fn._saved_result


def test_saved_value_read_goes_through_unpack_hook(torch):
    log = []
    x = torch.tensor([1., 2.], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(*logging_hooks(log)):
        y = x.exp()
    y.grad_fn._saved_result
    assert log == ["pack", "unpack"]


def test_increment_version_marks_a_saved_tensor_as_modified(torch):
    x = torch.tensor([1., 2.], requires_grad=True)
    h = x * 1
    y = (h * h).sum()
    torch.autograd.graph.increment_version(h)
    torch.autograd.graph.increment_version([h])
    assert h._version == 2
    with pytest.raises(RuntimeError, match=r"^one of the variables needed for gradient computation has been modified "
                                           r"by an inplace operation: \[torch\.FloatTensor \[2\]\], which is output 0 "
                                           r"of Mul, is at version 2; expected version 0 instead\."):
        y.backward()
    assert x.grad is None
