"""Bad input: OneFlow's message catalogue, each raised as a builtin RuntimeError (TypeError where
OneFlow raises one) with OneFlow's text, literal `RuntimeError: ` prefixes included, all from the
policy's message table; nothing is changed by a refused call."""
from __future__ import annotations

import pytest

from same_program import make_function


def _fn(flow, backward, forward=lambda ctx, a: a * 1):
    return make_function(flow, "Fn", forward, backward)


CASES = {
    "output needs no grad": (lambda f, x: f.autograd.backward([x.sum(), f.ones(1)], [None, None]), RuntimeError,
                             "\nRuntimeError: element 1 of tensors does not require grad and does not have a grad_fn"),
    "implicit non-scalar": (lambda f, x: (x * 2).backward(), RuntimeError,
                            "Grad can be implicitly created only for scalar outputs"),
    "gradient count": (lambda f, x: f.autograd.backward([x.sum(), x.sum()], [None]), RuntimeError,
                       "RuntimeError: got 2 tensors and 1 gradients"),
    "gradient shape": (lambda f, x: (x * 2).backward(f.ones(2, 1)), RuntimeError,
                       "out_grad's shape must be same as output's ((2,) vs (2,1))"),
    "batched shape": (lambda f, x: f.autograd.grad(x * 2, [x], f.ones(3, 1), is_grads_batched=True), RuntimeError,
                      "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the batch "
                      "dimension. The sizes of the remaining dimensions are expected to match the shape of "
                      "corresponding output, but a mismatch was detected: grad_output[0] has a shape of (1,) and "
                      "output[0] has a shape of (2,)."),
    "grad input needs no grad": (lambda f, x: f.autograd.grad(x.sum(), [f.ones(2)]), RuntimeError,
                                 "All input tensors `.requires_grad` should be true"),
    "unused input": (lambda f, x: f.autograd.grad(x.sum(), [f.ones(2, requires_grad=True)]), RuntimeError,
                     "One of the differentiated Tensors appears to not have been used in the graph. Set "
                     "allow_unused=True if this is the desired behavior."),
    "int requires grad": (lambda f, x: f.tensor([1]).requires_grad_(), RuntimeError,
                          "RuntimeError: only Tensors of floating point or complex can require gradients"),
    "non-leaf requires_grad": (lambda f, x: setattr(x * 2, "requires_grad", False), RuntimeError,
                               "You can only change requires_grad flags of leaf tensors."),
    "retain_grad": (lambda f, x: f.ones(1).retain_grad(), RuntimeError,
                    "Can't retain_grad on Tensor that has requires_grad=False"),
    "hook without grad": (lambda f, x: f.ones(1).register_hook(print), RuntimeError,
                          "cannot register a hook on a tensor that doesn't require gradient"),
    "in-place on a leaf": (lambda f, x: x.mul_(2), RuntimeError,
                           "a leaf Tensor that requires grad is being used in an in-place operation"),
    "Function gradient count": (lambda f, x: _fn(f, lambda ctx, g: (g, g)).apply(x).sum().backward(), RuntimeError,
                                "RuntimeError: function Fn returned an incorrect number of gradients (expected 1, "
                                "got 2)"),
    "Function None gradient": (lambda f, x: _fn(f, lambda ctx, g: None).apply(x).sum().backward(), RuntimeError,
                               "autograd.Function named Fn's inputs[0] requires grad but got None grad. Please use "
                               "Tensor.detach() for this input."),
    "Function argument": (lambda f, x: _fn(f, lambda ctx, g: g).apply(x, 1), RuntimeError,
                          "expected Tensor or None as element 1, but got <class 'int'>"),
    "Function list output": (lambda f, x: _fn(f, lambda ctx, g: g, lambda ctx, a: [a]).apply(x), RuntimeError,
                             "autograd.Function's output only support tensor or list of tensors"),
    "save a non-tensor": (lambda f, x: _fn(f, lambda ctx, g: g, lambda ctx, a: ctx.save_for_backward(None) or a * 1)
                          .apply(x), TypeError, "save_for_backward() only support Tensor or Tensors"),
    "own grad": (lambda f, x: setattr(x, "grad", x), RuntimeError, "can't assign Tensor as its own grad"),
}


@pytest.mark.parametrize("case", CASES)
def test_catalogue(flow, case):
    call, exc, text = CASES[case]
    x = flow.tensor([1., 2.], requires_grad=True)
    with pytest.raises(exc) as e:
        call(flow, x)
    assert type(e.value) is exc and str(e.value) == text
    assert x.grad is None and x.tolist() == [1., 2.] and x.requires_grad


def test_released_node(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = x * x
    y.sum().backward()
    with pytest.raises(RuntimeError) as e:
        y.sum().backward()
    assert str(e.value) == ("This FunctionNode with name `broadcast_mulBackward` has been released.\nMaybe you try to "
                            "backward through the node a second time. Specify retain_graph=True when calling "
                            ".backward() or autograd.grad() the first time.")
    assert x.grad.tolist() == [2., 4.]


def test_every_message_comes_from_the_policy_table(flow):
    from flowgrad.oneflow import _policy
    assert flow.Tensor.policy is _policy.ONEFLOW and _policy.ONEFLOW.messages is _policy.ONEFLOW_MESSAGES
    for kind in _policy.OWN_KINDS:
        assert kind in _policy.ONEFLOW_MESSAGES


def test_where_the_texts_agree_real_torch_says_the_same():
    from same_program import FRAMEWORKS
    import importlib
    texts = set()
    for name in FRAMEWORKS:
        fw = importlib.import_module(name)
        with pytest.raises(RuntimeError) as e:
            fw.ones(1).register_hook(print)
        texts.add(str(e.value))
    assert texts == {"cannot register a hook on a tensor that doesn't require gradient"}
