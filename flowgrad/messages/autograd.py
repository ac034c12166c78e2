"""Messages of the autograd core: the engine, graph, hooks, custom Functions, grad modes, the
backward / grad front end and DOT rendering (flowgrad/autograd), and the autograd flags of tensors."""
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
    "gradient_edge_no_grad": (RuntimeError, "It is not possible to get the gradient edge for a Tensor that does not "
                                            "require gradients"),
    "inputs_mapping_type": (TypeError, "`inputs` argument to `{api}()` must be a dict, not {type}. Other Mapping types "
                                       "are not supported."),
    "seed_batched_shape": (RuntimeError, "If `is_grads_batched=True`, we interpret the first dimension of each "
                                         "grad_output as the batch dimension. The sizes of the remaining dimensions "
                                         "are expected to match the shape of corresponding output, but a mismatch was "
                                         "detected: grad_output[{index}] has a shape of {grad_shape} and "
                                         "output[{index}] has a shape of {out_shape}. If you only want some tensors in "
                                         "`grad_output` to be considered batched, consider using vmap."),
    "seed_device": (RuntimeError, "invalid gradient at index {index} - expected device {expected} but got {got}"),
    "grad_variables_deprecated": (FutureWarning, "`grad_variables` is deprecated. Use `grad_tensors` instead."),
    "only_inputs_deprecated": (FutureWarning, "only_inputs argument is deprecated and is ignored now (defaults to "
                                              "True). To accumulate gradient for other parts of the graph, please use "
                                              "torch.autograd.backward."),
    # the engine, saved-tensor hooks and multi-grad hooks (engine.py, graph.py, hooks.py)
    "engine_not_running": (RuntimeError, "_will_engine_execute_node should only be called during the backward pass"),
    "pack_hook_inplace": (RuntimeError, "A saved tensor pack hook is modifying its input in place. Tensors provided "
                                        "as input to pack hook cannot be modified by in-place operations as this can "
                                        "lead to unexpected side-effects. Please open an issue if you need to perform "
                                        "in-place operations on the input to a pack hook."),
    "saved_hooks_not_callable": (TypeError, "register_hooks() expects two callables: pack_hook and unpack_hook"),
    "saved_hooks_already_set": (RuntimeError, "Calling register_hooks on a saved tensor whose hooks have already been "
                                              "set. Hint: only one pair of hooks is allowed at a time."),
    "unpack_hook_type": (TypeError, "Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                                    "{type}"),
    "multi_hook_no_grad_fn": (AssertionError, "Expected gradient function to be set"),
    "multi_hook_outside_backward": (AssertionError, "expected this hook to be called inside a backward call"),
    "multi_hook_mode": (ValueError, "Expects mode to be one of {supported} but got {mode}"),
    # custom Functions: ctx, deprecated and unimplemented parts (function.py)
    "fn_save_for_forward_type": (AssertionError, "save_for_forward expects all arguments to be tensors; you should "
                                                 "save non-tensors as attributes on ctx."),
    "fn_mark_shared_storage": (FutureWarning, "`mark_shared_storage` is deprecated. Tensors with shared storages are "
                                              "automatically tracked. Note that calls to `set_()` are not tracked"),
    "fn_saved_variables": (DeprecationWarning, "'saved_variables' is deprecated; use 'saved_tensors'"),
    "fn_backward_and_vjp": (RuntimeError, "Implementing both 'backward' and 'vjp' for a custom Function is not "
                                          "allowed. You should only implement one of them."),
    "fn_instantiated": (DeprecationWarning, "{cls} should not be instantiated. Methods on autograd functions are all "
                                            "static, so you should invoke them on the class itself. Instantiating an "
                                            "autograd function will raise an error in a future version of PyTorch."),
    "fn_legacy_call": (RuntimeError, "Legacy autograd function with non-static forward method is deprecated. Please "
                                     "use new-style autograd function with static forward method. (Example: "
                                     "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)"),
    "fn_forward_missing": (NotImplementedError, "You must implement the forward function for custom "
                                                "autograd.Function."),
    "fn_setup_context_missing": (NotImplementedError, "setup_context is not implemented."),
    "fn_backward_missing": (NotImplementedError, "You must implement either the backward or vjp method for your "
                                                 "custom autograd.Function to use it with backward mode AD."),
    "fn_jvp_missing": (NotImplementedError, "You must implement the jvp function for custom autograd.Function to use "
                                            "it with forward mode AD."),
    "fn_vmap_missing": (NotImplementedError, "To use autograd.Function with vmap, you must either override the vmap "
                                             "staticmethod or set generate_vmap_rule=True."),
    # grad modes and anomaly detection (mode.py)
    "grad_enabled_type": (TypeError, "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not {type}"),
    "decorate_class": (FutureWarning, "Decorating classes is deprecated and will be disabled in future versions. You "
                                      "should only decorate functions or methods. To preserve the current behavior of "
                                      "class decoration, you can directly decorate the `__init__` method and nothing "
                                      "else."),
    "anomaly_enabled": (UserWarning, "Anomaly Detection has been enabled. This mode will increase the runtime and "
                                     "should only be enabled for debugging."),
    # Graphviz rendering of the graph (dot.py)
    "dot_format": (ValueError, "format must be 'svg' or 'png', not {format!r}"),
    "dot_not_found": (RuntimeError, "Graphviz's `dot` program was not found on PATH, so the graph cannot be rendered. "
                                    "Install Graphviz (e.g. `apt-get install graphviz` or `brew install graphviz`), "
                                    "or use flowgrad.autograd.dot.to_dot() for the DOT text."),
    "dot_failed": (RuntimeError, "Graphviz `dot` failed (exit code {code}): {stderr}"),
}
