"""Paddle's policy: the engine knobs set the way PaddlePaddle 3.3.1's dynamic graph behaves, its
error messages and exception classes, and the names of its grad nodes (`MatmulGradNode`, ...)."""
from __future__ import annotations

import traceback

from ..autograd.policy import TORCH_MESSAGES, Policy

_TWICE = ("(Fatal) The TensorWrappers of {node} do not exist. This may be because:\n"
          "You calculate backward twice for the same subgraph without setting retain_graph=True. Please set "
          "retain_graph=True in the first backward/grad call.\n\n"
          "  [Hint: Expected node->IsTensorWrappersCleared() != true, but received "
          "node->IsTensorWrappersCleared():1 == true:1.] (at /paddle/paddle/fluid/eager/backward.cc:204)\n")



class EnforceNotMet(Exception):
    """Paddle's exception for a failed check inside a kernel (`paddle.EnforceNotMet`)."""


PADDLE_MESSAGES: dict[str, tuple[type, str]] = dict(TORCH_MESSAGES)
PADDLE_MESSAGES.update({
    "broadcast": (ValueError, "(InvalidArgument) Broadcast dimension mismatch. Operands could not be broadcast "
                              "together with the shape of X = {x} and the shape of Y = {y}. Received [{a}] in X is "
                              "not equal to [{b}] in Y at i:{dim}."),
    "second_backward": (SystemError, _TWICE),
    "int_overflow": (ValueError, "(InvalidArgument) Input object type error or incompatible array data type. "
                                 "tensor.set() supports array with bool, float16, float32, float64, int8, int16, int32, "
                                 "int64, uint8 or uint16, please check your input or input array data type. (at "
                                 "/paddle/paddle/fluid/pybind/tensor_py.h:566)\n"),
    "zero_division": (EnforceNotMet, "() InvalidArgumentError: Integer division by zero encountered in (floor/trunc) "
                                     "divide. Please check the input value. (at "
                                     "/paddle/paddle/phi/kernels/funcs/elementwise_functor.h:326)\n"),
    "input_unused": (ValueError, "(InvalidArgument) The {index}-th input does not appear in the backward graph. "
                                 "Please check the input tensor or set allow_unused=True to get None result.\n"
                                 "  [Hint: Expected allow_unused == true, but received allow_unused:0 != true:1.] "
                                 "(at /paddle/paddle/fluid/eager/general_grad.h:474)\n"),
    "modified_inplace": (RuntimeError, "(PermissionDenied) Tensor '' used in gradient computation has been modified "
                                       "by an inplace operation. Its version is {version} but the expected version is "
                                       "{expected}. Please fix your code to void calling an inplace operator after "
                                       "using the Tensor which will used in gradient computation.\n"
                                       "  [Hint: Expected tensor_version == wrapper_version_snapshot, but received "
                                       "tensor_version:{version} != wrapper_version_snapshot:{expected}.] (at "
                                       "/paddle/paddle/fluid/eager/tensor_wrapper.h:268)\n"),
    "leaf_inplace": (ValueError, "(InvalidArgument) Leaf Var ({tensor.name}) that doesn't stop gradient can't use "
                                 "inplace strategy.\n  [Hint: Expected !autograd_meta->StopGradient() && "
                                 "IsLeafTensor(target) == false, but received !autograd_meta->StopGradient() && "
                                 "IsLeafTensor(target):1 != false:0.] (at /paddle/paddle/fluid/eager/utils.cc:277)\n"),
    "leaf_view_inplace": (ValueError, "(InvalidArgument) Leaf Tensor ({tensor.name}) that doesn't stop gradient "
                                      "can't use inplace strategy.\n  [Hint: Expected "
                                      "egr::EagerUtils::IsLeafTensor(tensor) && "
                                      "!egr::EagerUtils::autograd_meta(&tensor)->StopGradient() == false, but received "
                                      "egr::EagerUtils::IsLeafTensor(tensor) && "
                                      "!egr::EagerUtils::autograd_meta(&tensor)->StopGradient():1 != false:0.] (at "
                                      "/paddle/paddle/fluid/pybind/eager_method.cc:1935)\n"),
    # paddle 3.3.1 checks no seed shape in paddle.autograd.backward / paddle.grad (it computes garbage or crashes)
    "seed_shape": (ValueError, "(InvalidArgument) The shape of the {index}-th initial gradient {grad_shape} does not "
                               "match the shape of the {index}-th output {out_shape}."),
    "hook_no_grad": (RuntimeError, "Cannot register hook on a tensor that stop gradient."),
    # paddle 3.3.1 segfaults here; flowgrad raises instead
    "hook_type": (TypeError, "(InvalidType) A tensor hook must return a paddle.Tensor or None, but it returned "
                             "'{type}'."),
    # paddle 3.3.1 accepts it silently and the gradient takes the wrong shape; flowgrad refuses it
    "hook_size": (ValueError, "(InvalidArgument) The hook '{name}' changed the shape of the gradient it was given."),
    "hook_raised": (OSError, "(External) {type}: {message}\n\nAt:\n{at}\n  [Hint: res should not be null.] (at "
                             "/paddle/paddle/fluid/pybind/eager_utils.cc:2996)\n"),
    "facade_mismatch": (TypeError, "cannot mix tensors of different flowgrad facades in one operation: {a} and {b}"),
    "duplicate_roots": (AssertionError, "The argument '{what}' of paddle.autograd.backward contains duplicate "
                                        "paddle.Tensor object."),
    "duplicate_tensors": (RuntimeError, "(AlreadyExists) {what} contain duplicate tensor {name}, please check {what} "
                                        "carefully.\n  [Hint: Expected visited_ins.count(auto_grad_meta) == 0, but "
                                        "received visited_ins.count(auto_grad_meta):1 != 0:0.] (at "
                                        "/paddle/paddle/fluid/eager/backward.cc:220)\n"),
    # paddle 3.3.1 crashes here; flowgrad refuses it
    "input_in_cuts": (ValueError, "(InvalidArgument) The {index}-th input is also in no_grad_vars, so no gradient can "
                                  "reach it. (paddle 3.3.1 crashes here; flowgrad refuses it.)"),
    # the wording the paddle facade has always given for these (paddle 3.3.1's own differs), kept where the torch
    # facade took PyTorch 2.13's
    "nn_conv2d_dtype": (RuntimeError, "Input type ({want_scalar}) and weight type ({got_scalar}) should be the same "
                                      "or input should be a MKLDNN tensor and weight is a dense tensor"),
    "nn_conv2d_padding_string": (RuntimeError, "Invalid padding string '{padding}', should be one of ['valid', "
                                               "'same']"),
    "nn_conv2d_weight_groups": (RuntimeError, "Given groups={groups}, expected weight to be divisible by {groups} at "
                                              "dimension 0, but got weight of size {weight} instead"),
    "nn_label_smoothing": (RuntimeError, "label_smoothing must be between 0.0 and 1.0. Got: {value}"),
    "nn_moduledict_update": (TypeError, "'{type}' object is not iterable"),
    "nn_moduledict_element": (ValueError, "ModuleDict update sequence element #{index} has length unknown; 2 is "
                                          "required"),
    "optim_step_pre_hook_result": (RuntimeError, "{hook} must return None or a tuple of (new_args, new_kwargs), but "
                                                 "got {result}."),
})
del PADDLE_MESSAGES["hook_dtype"]  # paddle accepts a hook's new dtype (the engine casts it back)
# kinds only paddle raises: its knobs (duplicate roots, no_grad_vars, wrapped hook errors) lead there
OWN_KINDS = frozenset({"hook_raised", "duplicate_roots", "duplicate_tensors", "input_in_cuts"})


def node_name(node) -> str:
    """Paddle's name for a grad node (`MatmulGradNode`, `GradNodeAccumulation`): its column of the naming table."""
    return node.names["paddle"]


def size_str(shape) -> str:
    return f"paddle.Size([{', '.join(str(s) for s in shape)}])"


def _type_name(np_dtype) -> str:
    return f"paddle.{np_dtype}"


class PaddlePolicy(Policy):
    """Paddle's knobs and messages; an exception raised inside a hook is re-raised as paddle's
    `OSError: (External) ...` with the Python frames of the hook under `At:`."""

    def error(self, kind: str, **facts) -> Exception:
        if kind == "hook_raised":
            exc = facts["message"]
            frames = traceback.extract_tb(exc.__traceback__)[1:]
            facts["at"] = "".join(f"  {f.filename}({f.lineno}): {f.name}\n" for f in reversed(frames))
        elif kind == "duplicate_tensors":
            t = facts.pop("tensor")
            facts["name"] = t.name if t._grad_fn is None else ""
        return super().error(kind, **facts)


PADDLE = PaddlePolicy(
    name="paddle",
    implicit_seed_any_shape=True,
    allow_duplicate_roots=False,
    skip_nonrequiring_roots=True,
    free_every_node=True,
    retained_grad_accumulates=False,
    leaf_hooks_in_grad=False,
    allow_int_grads=True,
    grads_require_grad=True,
    detach_seeds=True,
    grad_keeps_graph=True,
    grad_unreached_inputs_unused=True,
    grad_results_follow_create_graph=True,
    grad_returns_list=True,
    negative_indices_wrap=True,
    sequence_tensors_stack=True,
    sign_keeps_nan=True,
    values_fit_dtype=False,
    messages=PADDLE_MESSAGES,
    size_str=size_str,
    type_name=_type_name,
    node_name=node_name,
    hint="",
    hint_anomaly="",
)
