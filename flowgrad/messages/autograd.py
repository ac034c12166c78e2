"""Messages of the autograd core, tensors and the facade kit: the engine, hooks, custom Functions, the
backward / grad front end, `.grad` and conversions."""
_SECOND_TIME = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they have "
    "already been freed). Saved intermediate values of the graph are freed when you call .backward() or "
    "autograd.grad(). Specify retain_graph=True if you need to backward through the graph a second time or "
    "if you need to access saved tensors after calling backward.")

MESSAGES: dict[str, tuple[type, str]] = {
    "broadcast": (RuntimeError, "The size of tensor a ({a}) must match the size of tensor b ({b}) at non-singleton "
                                "dimension {dim}"),
    "second_backward": (RuntimeError, _SECOND_TIME),
    "implicit_nonscalar": (RuntimeError, "grad can be implicitly created only for scalar outputs"),
    "seed_shape": (RuntimeError, "Mismatch in shape: grad_output[{index}] has a shape of {grad_shape} and "
                                 "output[{index}] has a shape of {out_shape}."),
    "seed_type": (TypeError, "gradients can be either Tensors or None, but got {type}"),
    "seed_count": (RuntimeError, "got {n_tensors} tensors and {n_grads} gradients"),
    "root_no_grad": (RuntimeError, "element {index} of tensors does not require grad and does not have a grad_fn"),
    "input_no_grad": (RuntimeError, "One of the differentiated Tensors does not require grad"),
    "input_unused": (RuntimeError, "The differentiated Tensor at index {index} appears to not have been used in "
                                   "the graph. Set allow_unused=True if this is the desired behavior."),
    "inputs_empty": (RuntimeError, "`inputs` argument to `{api}()` cannot be empty."),
    "inputs_type": (RuntimeError, "all inputs have to be Tensors or GradientEdges, but got {type}"),
    "retain_grad_no_grad": (RuntimeError, "can't retain_grad on Tensor that has requires_grad=False"),
    "modified_inplace": (RuntimeError, "one of the variables needed for gradient computation has been modified by "
                                       "an inplace operation: [{type_name} [{shape_list}]]{origin} is at version "
                                       "{version}; expected version {expected} instead. {hint}"),
    "leaf_inplace": (RuntimeError, "a leaf Variable that requires grad is being used in an in-place operation."),
    "leaf_view_inplace": (RuntimeError, "a view of a leaf Variable that requires grad is being used in an "
                                        "in-place operation."),
    "multi_view_inplace": (RuntimeError, "Output {output_nr} of {op} is a view and is being modified inplace. This "
                                         "view is the output of a function that returns multiple views. Such "
                                         "functions do not allow the output views to be modified inplace. You "
                                         "should replace the inplace operation by an out-of-place one."),
    "int_requires_grad": (RuntimeError, "Only Tensors of floating point and complex dtype can require gradients"),
    "int_requires_grad_method": (RuntimeError, "only Tensors of floating point dtype can require gradients"),
    "int_requires_grad_attr": (RuntimeError, "only Tensors of floating point and complex dtype can require "
                                             "gradients"),
    "nonleaf_requires_grad": (RuntimeError, "you can only change requires_grad flags of leaf variables. If you want "
                                            "to use a computed variable in a subgraph that doesn't require "
                                            "differentiation use var_no_grad = var.detach()."),
    "hook_no_grad": (RuntimeError, "cannot register a hook on a tensor that doesn't require gradient"),
    "hook_size": (RuntimeError, "hook '{name}' has changed the size of value"),
    "hook_type": (TypeError, "expected Variable, but hook returned '{type}'"),
    "hook_dtype": (RuntimeError, "hook '{name}' has changed the type of value (was {was} got {got})"),
    "node_hook_tuple": (TypeError, "expected tuple, but hook returned '{type}'"),
    "node_hook_count": (RuntimeError, "hook '{name}' has returned an incorrect number of values (got {got}, but "
                                      "expected {expected})"),
    "node_hook_none": (RuntimeError, "can't replace a None gradient with a non-None value"),
    "post_acc_nonleaf": (RuntimeError, "post accumulate grad hooks cannot be registered on non-leaf tensors"),
    "post_acc_return": (RuntimeError, "Tensor post accumulate grad hooks should return None."),
    "node_call_arity": (TypeError, "expected {expected} arguments, got {got} instead"),
    "device_mismatch": (RuntimeError, "Expected all tensors to be on the same device, but found at least two "
                                      "devices, {a} and {b}!"),
    "facade_mismatch": (TypeError, "cannot mix tensors of different flowgrad facades in one operation: {a} and {b}"),
    "inference_saved": (RuntimeError, "Inference tensors cannot be saved for backward. Please do not use Tensors "
                                      "created in inference mode in computation tracked by autograd. To work around "
                                      "this, you can make a clone to get a normal tensor and use it in autograd, or "
                                      "use `torch.no_grad()` instead of `torch.inference_mode()`."),
    "inference_inplace": (RuntimeError, "Inplace update to inference tensor outside InferenceMode is not allowed."
                                        "You can make a clone to get a normal tensor before doing inplace update."
                                        "See https://github.com/pytorch/rfcs/pull/17 for more details."),
    "nan_in_backward": (RuntimeError, "Function '{node}' returned nan values in its {index}th output."),
    "saved_detached": (RuntimeError, "Trying to use a saved tensor that has been detached in-place, i.e. with "
                                     ".detach_().This is not supported, please use out-of-place `.detach()` "
                                     "instead"),
    # anomaly mode (warnings) and custom autograd Functions (flowgrad/autograd/function.py)
    "anomaly_trace": (UserWarning, "Error detected in {node}. Traceback of forward call that caused the error:\n"
                                   "{trace} (Triggered internally at flowgrad/autograd/engine.py.)"),
    "anomaly_no_trace": (UserWarning, "Error detected in {node}. No forward pass information available. Enable "
                                      "detect anomaly during forward pass for more information. (Triggered "
                                      "internally at flowgrad/autograd/engine.py.)"),
    "fn_grad_count": (RuntimeError, "function {name} returned an incorrect number of gradients (expected "
                                    "{expected}, got {got})"),
    "fn_grad_non_tensor": (RuntimeError, "function {name} returned a gradient different than None at position "
                                         "{position}, but the corresponding forward input was not a Variable"),
    "fn_grad_type": (RuntimeError, "expected Variable or None (got {type})"),
    "fn_grad_shape": (RuntimeError, "Function {name} returned an invalid gradient at index {index} - got {got} but "
                                    "expected shape compatible with {expected}"),
    "fn_save_type": (TypeError, "save_for_backward can only save variables, but argument {index} is of type "
                                "{type}"),
    "fn_dirty_leaf": (RuntimeError, "a leaf Variable that requires grad has been used in an in-place operation."),
    "fn_dirty_not_output": (RuntimeError, "Some elements marked as dirty during the forward method were not "
                                          "returned as output. The inputs that are modified inplace must all be "
                                          "outputs of the Function."),
    "fn_view_inplace": (RuntimeError, "Output {output_nr} of {op} is a view and is being modified inplace. This view "
                                      "was created inside a custom Function (or because an input was returned "
                                      "as-is) and the autograd logic to handle view+inplace would override the "
                                      "custom backward associated with the custom Function, leading to incorrect "
                                      "gradients. This behavior is forbidden. You can fix this by cloning the output "
                                      "of the custom Function."),
    "once_differentiable": (RuntimeError, "trying to differentiate twice a function that was marked with "
                                          "@once_differentiable"),
    # the backward / grad front end (flowgrad/autograd/api.py)
    "grad_variables_and_tensors": (RuntimeError, "`grad_tensors` and `grad_variables` (deprecated) arguments both "
                                                 "passed to `backward()`. Please only use `grad_tensors`."),
    "materialize_unused": (ValueError, "Expected allow_unused to be True or not passed when materialize_grads=True, "
                                       "but got: allow_unused=False."),
    "materialize_edge": (RuntimeError, "materialize_grads cannot be used when the given input is a GradientEdge"),
    "backward_create_graph": (UserWarning, "Using backward() with create_graph=True will create a reference cycle "
                                           "between the parameter and its gradient which can cause a memory leak. We "
                                           "recommend using autograd.grad when creating the graph to avoid this. If "
                                           "you have to use this function, make sure to reset the .grad fields of "
                                           "your parameters to None after use to break the cycle and avoid the "
                                           "leak. (Triggered internally at flowgrad/autograd/api.py.)"),
    # Tensor.grad and Tensor.numpy (flowgrad/facade/tensor.py)
    "nonleaf_grad_access": (UserWarning, "The .grad attribute of a Tensor that is not a leaf Tensor is being "
                                         "accessed. Its .grad attribute won't be populated during "
                                         "autograd.backward(). If you indeed want the .grad field to be populated "
                                         "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
                                         "access the non-leaf Tensor by mistake, make sure you access the leaf "
                                         "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
                                         "information. (Triggered internally at flowgrad/facade/tensor.py.)"),
    "grad_assign_type": (TypeError, "assigned grad expected to be a Tensor or None but got grad of type {type}"),
    "grad_assign_self": (RuntimeError, "can't assign Variable as its own grad"),
    "grad_assign_device": (RuntimeError, "assigned grad has data located on a different device"),
    "grad_assign_dtype": (RuntimeError, "attempting to assign a gradient with dtype '{got_ctype}' to a tensor with "
                                        "grad_dtype '{want_scalar}'. The gradient must match the tensor's grad_dtype "
                                        "(defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                                        "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype "
                                        "with caution. Diverging the dtypes of a tensor and its gradient may break "
                                        "downstream systems that assume they match."),
    "grad_assign_shape": (RuntimeError, "attempting to assign a gradient of size '{got}' to a tensor of size "
                                        "'{want}'. Please ensure that the gradient and the tensor are the same size"),
    "tensor_from_tensor": (UserWarning, "To copy construct from a tensor, it is recommended to use "
                                        "sourceTensor.detach().clone() or "
                                        "sourceTensor.detach().clone().requires_grad_(True), rather than "
                                        "torch.tensor(sourceTensor)."),
    "from_numpy_type": (TypeError, "expected np.ndarray (got {type})"),
    "from_numpy_dtype": (TypeError, "can't convert np.ndarray of type numpy.{dtype}. The only supported types are: "
                                    "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                                    "uint64, uint32, uint16, uint8, and bool."),
    "not_implemented_for": (RuntimeError, "\"{op}\" not implemented for '{dtype_scalar}'"),
    "meshgrid_indexing_default": (UserWarning, "torch.meshgrid: in an upcoming release, it will be required to pass "
                                               "the indexing argument."),
    "meshgrid_indexing": (RuntimeError, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: "
                                        "{indexing}"),
    "out_requires_grad": (RuntimeError, "{name}(): functions with out=... arguments don't support automatic "
                                        "differentiation, but one of the arguments requires grad."),
    "numpy_requires_grad": (RuntimeError, "Can't call numpy() on Tensor that requires grad. Use "
                                          "tensor.detach().numpy() instead."),
}
