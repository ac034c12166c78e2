"""Paddle's policy: the engine knobs set the way PaddlePaddle 3.3.1's dynamic graph behaves, its
error messages and exception classes, and the names of its grad nodes (`MatmulGradNode`, ...)."""
from __future__ import annotations

import traceback

from ..autograd.policy import TORCH_MESSAGES, Policy
from ..ops.names import paddle_double_grad

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
    "leaf_inplace": (ValueError, "(InvalidArgument) Leaf Var ({tensor._given_name}) that doesn't stop gradient can't use "
                                 "inplace strategy.\n  [Hint: Expected !autograd_meta->StopGradient() && "
                                 "IsLeafTensor(target) == false, but received !autograd_meta->StopGradient() && "
                                 "IsLeafTensor(target):1 != false:0.] (at /paddle/paddle/fluid/eager/utils.cc:277)\n"),
    "leaf_view_inplace": (ValueError, "(InvalidArgument) Leaf Tensor ({tensor._given_name}) that doesn't stop gradient "
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
    "promotion_kinds": (TypeError, "(InvalidType) Type promotion only support calculations between floating-point "
                                   "numbers and between complex and real numbers. But got different data type x: {x}, "
                                   "y: {y}. (at /paddle/paddle/phi/common/type_promotion.h:220)\n"),
    # PyLayer (the neutral custom function's kinds in paddle's words)
    "fn_grad_count": (ValueError, "(InvalidArgument) {name} : The number of outputs of `PyLayer.backward` should be "
                                  "{expected}, but received {got}. (at "
                                  "/paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:196)\n"),
    "fn_grad_missing": (ValueError, "(InvalidArgument) {name}'s backward function should not return empty at "
                                    "{position} position.\n  [Hint: Expected this->OutputMeta()[i][0].IsStopGradient() "
                                    "== true, but received this->OutputMeta()[i][0].IsStopGradient():0 != true:1.] "
                                    "(at /paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:243)\n"),
    "fn_grad_list": (ValueError, "(InvalidArgument) argument must be list or tuple, but got {type} (at "
                                 "/paddle/paddle/fluid/pybind/eager_utils.cc:2122)\n"),
    "fn_grad_type": (ValueError, "(InvalidArgument) {name} : We can only support Tensor or None for backward output, "
                                 ", but got {type}, please check your PyLayer code and make it fits (at "
                                 "/paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:234)\n"),
    # paddle 3.3.1 accepts it and corrupts .grad; flowgrad refuses it
    "fn_grad_shape": (ValueError, "(InvalidArgument) {name} : backward returned a gradient of shape {got} for input "
                                  "{index} of shape {expected}."),
    "fn_save_type": (ValueError, "(InvalidArgument) save_for_backward only support Tensor, list of Tensor, tuple of "
                                 "Tensor. (at /paddle/paddle/fluid/pybind/eager_py_layer.cc:820)\n"),
    "fn_no_tensor_output": (ValueError, "(InvalidArgument) {name} : At least one output of `PyLayer.forward` is a "
                                        "`Tensor`. (at /paddle/paddle/fluid/pybind/eager_py_layer.cc:524)\n"),
    "fn_dirty_leaf": (ValueError, "(InvalidArgument) {name} : Leaf Var ({tensor._given_name}) that doesn't stop gradient "
                                  "can't use inplace strategy.\n  [Hint: Expected !inplace_tensor_autograd_meta->"
                                  "StopGradient() && egr::EagerUtils::IsLeafTensor(*inplace_tensor) == false, but "
                                  "received !inplace_tensor_autograd_meta->StopGradient() && "
                                  "egr::EagerUtils::IsLeafTensor(*inplace_tensor):1 != false:0.] (at "
                                  "/paddle/paddle/fluid/pybind/eager_py_layer.cc:550)\n"),
    "fn_backward_raised": (OSError, "(External) \n{{\n    {bar} Error message in backward of {name}(0x{node_id:x})"
                                    "{bar}\n    {type}: {message}\n    \n    At:\n{at}    \n    {line}\n    \n}}\n"
                                    " (at /paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:177)\n"),
    "double_grad_unavailable": (RuntimeError, "(Unavailable) The Op {op} doesn't have any grad op. If you don't "
                                              "intend calculating higher order derivatives, please set `create_graph`"
                                              "to False. (at /paddle/paddle/fluid/eager/api/generated/eager_generated/"
                                              "backwards/nodes.cc:{line})\n"),
    "facade_mismatch": (TypeError, "cannot mix tensors of different flowgrad facades in one operation: {a} and {b}"),
    "duplicate_roots": (AssertionError, "The argument '{what}' of paddle.autograd.backward contains duplicate "
                                        "paddle.Tensor object."),
    "duplicate_tensors": (RuntimeError, "(AlreadyExists) {what} contain duplicate tensor {tensor._given_name}, please check {what} "
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
    # paddle.nn.Layer's wording
    **dict.fromkeys(("nn_buffer_before_init", "nn_parameter_before_init", "nn_parameters_before_init",
                     "nn_module_before_init"), (ValueError, "super().__init__() should be called first")),
    "nn_assign_parameter": (TypeError, "assignment to parameter '{name}' should be of type Parameter or None, but got "
                                       "'{type}'"),
    "nn_buffer_type": (TypeError, "The registered buffer should be a Paddle.Tensor, but received {type}."),
    "nn_parameter_type": (TypeError, "The parameter to be added should be a Parameter, but received {type}."),
    "optim_step_pre_hook_result": (RuntimeError, "{hook} must return None or a tuple of (new_args, new_kwargs), but "
                                                 "got {result}."),
    # paddle.nn.utils' wording
    "nn_clip_nonfinite": (RuntimeError, "The total norm of {norm_type} order of the gradients from `parameters` is "
                                        "non-finite, so it cannot be clipped. In any case, disable this error and "
                                        "scale the gradient by non-finite norm, set `error_if_nonfinite=False`"),
    "clip_norm_type": (ValueError, "norm_type only support [inf, 0, 1, 2]"),
    # paddle.io's wording
    "data_tensor_sizes": (AssertionError, "tensors not have same shape of the 1st dimension"),
    "data_collate_sizes": (RuntimeError, "fields number not same among samples in a batch"),
    "data_collate_type": (TypeError, "batch data con only contains: tensor, numpy.ndarray, dict, list, number, but "
                                     "got {type}"),
})
del PADDLE_MESSAGES["hook_dtype"]  # paddle accepts a hook's new dtype (the engine casts it back)
# the array functions (flowgrad/paddle/_array_functions.py)
PADDLE_MESSAGES.update({
    "take_mode": (ValueError, "'mode' in 'take' should be 'raise', 'wrap', 'clip', but received {mode}."),
    "rot90_dims_count": (ValueError, "expected total rotation axes == 2, but got axes = {count}"),
    "rot90_ndim": (ValueError, "expected total dims >= 2, but got total dims = {ndim}"),
    "rot90_same_dims": (ValueError, "expected rotation axes to be different, but got axis0 = {dim0}, and axis1 = "
                                    "{dim1}"),
})
# kinds only paddle raises: its knobs (duplicate roots, no_grad_vars, wrapped hook errors) lead there
OWN_KINDS = frozenset({"hook_raised", "promotion_kinds", "double_grad_unavailable", "fn_grad_missing", "fn_grad_list",
                       "fn_no_tensor_output", "fn_backward_raised", "duplicate_roots", "duplicate_tensors",
                       "input_in_cuts", "clip_norm_type", "take_mode"})


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
        elif kind == "fn_backward_raised":
            exc = facts.pop("exc")
            frames = traceback.extract_tb(exc.__traceback__)[1:]
            facts.update(type=type(exc).__name__, message=exc, node_id=id(facts.pop("node")), bar="=" * 28,
                         line="=" * 112, at="".join(f"      {f.filename}({f.lineno}): {f.name}\n"
                                                    for f in reversed(frames)))
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
    mixed_kind_promotion=False,
    leaf_inplace_writes_first=True,
    hooks_keep_caller_grad_mode=True,
    detach_views_inplace=True,
    leaf_grad_fn_is_accumulator=True,
    double_grad_name=paddle_double_grad,
    negative_indices_wrap=True,
    sequence_tensors_stack=True,
    sign_keeps_nan=True,
    one_bool_subtracts=True,
    isin_views_tests=False,
    later_bools_are_ints=False,
    shape_tensors=True,
    complex_dtypes=False,
    values_fit_dtype=False,
    ints_cast_to_float=True,
    arange_wrong_sign_empty=True,
    messages=PADDLE_MESSAGES,
    size_str=size_str,
    type_name=_type_name,
    node_name=node_name,
    hint="",
    hint_anomaly="",
)
