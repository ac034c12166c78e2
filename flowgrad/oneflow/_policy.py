"""OneFlow's policy: the engine knobs set the way OneFlow's eager autograd behaves, its error
messages (verbatim, with the literal `RuntimeError: ` prefixes its check-failed errors carry) and
the names of its grad nodes (`broadcast_mulBackward`, `accumulategrad`, ...).

Every error is a builtin RuntimeError (OneFlow's check-failed `Exception` and its RuntimeError
subclass both satisfy `assertRaises(Exception)`), but TypeError where OneFlow raises one.
"""
from __future__ import annotations

from ..autograd.policy import TORCH_MESSAGES, Policy

_R = RuntimeError
ONEFLOW_MESSAGES: dict[str, tuple[type, str]] = dict(TORCH_MESSAGES)
ONEFLOW_MESSAGES.update({
    "root_no_grad": (_R, "\nRuntimeError: element {index} of tensors does not require grad and does not have a "
                         "grad_fn"),
    "implicit_nonscalar": (_R, "Grad can be implicitly created only for scalar outputs"),
    "seed_count": (_R, "RuntimeError: got {n_tensors} tensors and {n_grads} gradients"),
    "seed_shape": (_R, "out_grad's shape must be same as output's ({out_shape} vs {grad_shape})"),
    "seed_batched_shape": (_R, "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as "
                               "the batch dimension. The sizes of the remaining dimensions are expected to match "
                               "the shape of corresponding output, but a mismatch was detected: grad_output[{index}] "
                               "has a shape of {grad_shape} and output[{index}] has a shape of {out_shape}."),
    "input_no_grad": (_R, "All input tensors `.requires_grad` should be true"),
    "input_unused": (_R, "One of the differentiated Tensors appears to not have been used in the graph. Set "
                         "allow_unused=True if this is the desired behavior."),
    "second_backward": (_R, "This FunctionNode with name `{node}` has been released.\nMaybe you try to backward "
                            "through the node a second time. Specify retain_graph=True when calling .backward() or "
                            "autograd.grad() the first time."),
    "int_requires_grad_attr": (_R, "RuntimeError: only Tensors of floating point or complex can require gradients"),
    "int_requires_grad_method": (_R, "RuntimeError: only Tensors of floating point or complex can require "
                                     "gradients"),
    "int_requires_grad": (_R, "RuntimeError: only Tensors of floating point or complex can require gradients"),
    "nonleaf_requires_grad": (_R, "You can only change requires_grad flags of leaf tensors."),
    "retain_grad_no_grad": (_R, "Can't retain_grad on Tensor that has requires_grad=False"),
    "leaf_inplace": (_R, "a leaf Tensor that requires grad is being used in an in-place operation"),
    "grad_assign_self": (_R, "can't assign Tensor as its own grad"),
    "fn_grad_count": (_R, "RuntimeError: function {name} returned an incorrect number of gradients (expected "
                          "{expected}, got {got})"),
    "fn_grad_none": (_R, "autograd.Function named {cls}'s inputs[{index}] requires grad but got None grad. Please "
                         "use Tensor.detach() for this input."),
    "fn_apply_arg_type": (_R, "expected Tensor or None as element {index}, but got {type}"),
    "fn_output_type": (_R, "autograd.Function's output only support tensor or list of tensors"),
    "fn_save_type": (TypeError, "save_for_backward() only support Tensor or Tensors"),
    "unpack_hook_type": (_R, "unpack_hook should return a Tensor, but got `{type}` instead"),
    "node_hook_count": (_R, "The number of input grads returned by hook is not correct, expected {expected}, but "
                            "got {got}."),
    "set_data_nonleaf": (_R, "Can only set leaf tensor's data."),
})
# OneFlow warns about neither; the engine and the kit leave out a warning whose kind the table lacks
del ONEFLOW_MESSAGES["nonleaf_grad_access"], ONEFLOW_MESSAGES["backward_create_graph"]
# kinds only OneFlow raises: its Function knobs lead there, and its Tensor's `data` setter
OWN_KINDS = frozenset({"fn_grad_none", "fn_apply_arg_type", "fn_output_type", "set_data_nonleaf"})


def size_str(shape) -> str:
    """A shape as OneFlow's C++ messages print it: `(2,3)`, `(5,)`, `()`."""
    return f"({','.join(map(str, shape))}{',' if len(shape) == 1 else ''})"


class OneFlowPolicy(Policy):
    """OneFlow's knobs and messages; a Function's errors name its bare class (`MyFn`, not `MyFnBackward`)."""

    def error(self, kind: str, **facts) -> Exception:
        if kind == "fn_grad_count":
            facts["name"] = str(facts["name"]).removesuffix("Backward")
        if kind in ("fn_apply_arg_type", "unpack_hook_type") and isinstance(facts["type"], str):
            facts["type"] = f"<class '{facts['type']}'>"
        return super().error(kind, **facts)


ONEFLOW = OneFlowPolicy(
    name="oneflow",
    complex_dtypes=False,
    create_graph_retains=True,
    seed_count_exact=True,
    release_needs_saved_tensor=True,
    saving_nodes=frozenset({"SumBackward0", "SumBackward1", "MeanBackward0", "MeanBackward1"}),
    check_versions=False,
    leaf_grad_fn_is_accumulator=True,
    compact_next_functions=True,
    function_strict_types=True,
    function_none_grad_error=True,
    function_nondiff_grad_none=True,
    messages=ONEFLOW_MESSAGES,
    size_str=size_str,
    type_name=lambda np_dtype: f"oneflow.{np_dtype}",
    node_name=lambda node: node.names["oneflow"],   # its column of the naming table
    node_repr=lambda node: f"<{node.name()} at {hex(id(node))}>",
    hint="",
    hint_anomaly="",
)
