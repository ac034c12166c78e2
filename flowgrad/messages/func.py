"""Messages of the function transforms (flowgrad/autograd/transforms.py, PyTorch's torch.func) and of
functional_call (flowgrad/nn/stateless.py)."""

_GRAD = "grad_and_value(f)(*args)"
_JVP = "jvp(f, primals, tangents)"

MESSAGES: dict[str, tuple[type, str]] = {
    "func_functionalize_remove": (RuntimeError, "functionalize(f, remove='mutations'): received invalid argument for "
                                                "remove={remove}. Valid options are:\n     remove='mutations': all "
                                                "inplace and out= operators will be removed from the program, and "
                                                "replaced with their out-of-place equivalents.\n     "
                                                "remove='mutations_and_views': In addition to the above, all "
                                                "aliasing operators {{view}} will be replaced with their non-aliasing "
                                                "counterparts, {{view}}_copy.\n"),
    "func_argnums_type": (RuntimeError, "argnums must be int or Tuple[int, ...], got: {type}"),
    "func_argnums_empty": (RuntimeError, "argnums must be non-empty"),
    "func_argnum_range": (RuntimeError, "Got argnum={argnum}, but only {count} positional inputs"),
    "func_argnums_unique": (RuntimeError, "argnums elements must be unique, got {argnums}"),
    "func_not_tensor": (ValueError, "Thing passed to transform API must be Tensor, got {type}"),
    "func_aux_tuple": (RuntimeError, "{api}: output of function f should be a tuple: (output, aux) if has_aux is True"),
    "func_aux_not_tensor": (RuntimeError, "Expected tensors, got unsupported type {type}"),
    "func_grad_output_type": (RuntimeError, _GRAD + ": Expected f(*args) to return a Tensor, got {type}"),
    "func_grad_output_scalar": (RuntimeError, _GRAD + ": Expected f(*args) to return a scalar Tensor, got tensor with "
                                              "{ndim} dims. Maybe you wanted to use the vjp or jacrev APIs instead?"),
    "func_vjp_output_type": (RuntimeError, "{api}: expected f(*primals) to return only tensors, got unsupported type "
                                           "{type}"),
    "func_cotangent_structure": (RuntimeError, "Expected pytree structure of cotangents to be the same as pytree "
                                               "structure of outputs to the function. cotangents: {cotangents}, "
                                               "primal output: {output}"),
    "func_jvp_tuple": (RuntimeError, _JVP + ": Expected {name} to be a tuple. E.g. it should be valid to call "
                                            "f(*primals)."),
    "func_jvp_empty": (RuntimeError, _JVP + ": Expected primals to contain at least one Tensor."),
    "func_jvp_not_tensor": (RuntimeError, _JVP + ": Expected {name} to only contain Tensors, got {type}"),
    "func_jvp_structure": (RuntimeError, _JVP + ": Expected primals and tangents to have the same python structure. "
                                                "For example, if primals is a tuple of 3 tensors, tangents also must "
                                                "be. Got primals with structure {primals} and tangents with structure "
                                                "{tangents}"),
    "func_jvp_tangent_size": (RuntimeError, "Trying to set a forward gradient that has a different size than that of "
                                            "the original Tensor, this is not supported. Tensor is of size "
                                            "{primal_size} while the given forward gradient is of size "
                                            "{tangent_size}."),
    "func_jvp_strict_independent": (RuntimeError, "jvp(f, primals, tangents, strict=True): The output of f is "
                                                  "independent of the inputs. This is not allowed with strict=True."),
    "func_linearize_structure": (RuntimeError, "Expected the tangents {tangents} to have the same argspec as the "
                                               "primals {primals}"),
    "func_linearize_shape": (RuntimeError, "tangent:{index} with shape {tangent} in flattened pytree doesn't match the "
                                           "shape {primal} of the corresponding primal."),
    "func_stack_no_models": (RuntimeError, "stack_module_state: Expected at least one model, got 0."),
    "func_stack_modes": (RuntimeError, "stack_module_state: Expected all models to have the same training/eval mode."),
    "func_stack_classes": (RuntimeError, "stack_module_state: Expected all models to be of the same class."),
    "func_stack_requires_grad": (RuntimeError, "Expected {name} from each model to have the same .requires_grad"),
    "func_jacrev_chunk_size": (ValueError, "jacrev: `chunk_size` should be greater than 0."),
    "func_vmap_random": (RuntimeError, "vmap: called random operation while in randomness error mode. Please either "
                                       "use the 'same' or 'different' randomness flags on vmap or perform the "
                                       "randomness operation out of vmap"),
    "func_randomness": (RuntimeError, "Only allowed values for randomness are 'error', 'different', or 'same'. "
                                      "Got {randomness}"),
    "func_randomness_unsupported": (NotImplementedError, "{api}(randomness={randomness!r}) is not supported by "
                                                         "flowgrad: only the default randomness='error' is"),
    "func_vmap_chunk_size": (ValueError, "vmap: chunk_size should be None or greater than 0. (got {chunk_size})"),
    "func_vmap_out_dims_type": (ValueError, "vmap({name}, ..., out_dims={out_dims}): `out_dims` must be an int, None "
                                            "or a python collection of ints representing where in the outputs the "
                                            "vmapped dimension should appear."),
    "func_vmap_in_dims_type": (ValueError, "{where}: expected `in_dims` to be int or a (potentially nested) tuple "
                                           "matching the structure of inputs, got: {type}."),
    "func_vmap_no_inputs": (ValueError, "vmap({name})(<inputs>): got no inputs. Maybe you forgot to add inputs, or "
                                        "you are trying to vmap over a function with no inputs. The latter is "
                                        "unsupported."),
    "func_vmap_in_dims_structure": (ValueError, "{where}: in_dims is not compatible with the structure of `inputs`. "
                                                "in_dims has structure {dims} but inputs has structure {inputs}."),
    "func_vmap_in_dim_value": (ValueError, "{where}: Got in_dim={dim} for an input but in_dim must be either an "
                                           "integer dimension or None."),
    "func_vmap_in_dim_not_tensor": (ValueError, "{where}: Got in_dim={dim} for an input but the input is of type "
                                                "{type}. We cannot vmap over non-Tensor arguments, please use None as "
                                                "the respective in_dim"),
    "func_vmap_in_dim_range": (ValueError, "{where}: Got in_dim={dim} for some input, but that input is a Tensor of "
                                           "dimensionality {ndim} so expected in_dim to satisfy -{ndim} <= in_dim < "
                                           "{ndim}."),
    "func_vmap_nothing_mapped": (ValueError, "vmap: Expected at least one Tensor to vmap over"),
    "func_vmap_sizes": (ValueError, "vmap: Expected all tensors to have the same size in the mapped dimension, got "
                                    "sizes {sizes} for the mapped dimension"),
    "func_vmap_empty_batch": (NotImplementedError, "vmap: flowgrad calls the function once per batch element and "
                                                   "cannot map over an empty batch dimension"),
    "func_vmap_out_dims_structure": (ValueError, "vmap({name}, ..., out_dims={out_dims})(<inputs>): out_dims is not "
                                                 "compatible with the structure of `outputs`. out_dims has structure "
                                                 "{dims} but outputs has structure {outputs}."),
    "func_vmap_batched_out_none": (ValueError, "vmap({name}, ...): `{name}` can not return a BatchedTensor when "
                                               "out_dim is None"),
    "func_vmap_output_type": (ValueError, "vmap({name}, ...): `{name}` must only return Tensors, got type {type}. "
                                          "Did you mean to set out_dims= to None for output?"),
    "functional_call_repeated_keys": (ValueError, "{keys} appeared in multiple dictionaries; behavior of functional "
                                                  "call is ambiguous"),
    "functional_call_dicts_type": (ValueError, "Expected parameter_and_buffer_dicts to be a dict, or a list/tuple of "
                                               "dicts, but got {type}"),
    "functional_call_not_tensor": (TypeError, "{value} is not an instance of {module}.Tensor"),
    "functional_call_tied": (ValueError, "functional_call got multiple values for keys {keys}, which are tied. "
                                         "Consider using tie_weights=False"),
    "functional_call_keys": (RuntimeError, "Error(s) in reparametrizing for {module}:\n\tUnexpected key(s): "
                                           "{unexpected}.\n\tMissing key(s): {missing}."),
    "functional_call_unexpected": (RuntimeError, "Error(s) in reparametrizing for {module}:\n\tUnexpected key(s): "
                                                 "{unexpected}."),
    "functional_call_missing": (RuntimeError, "Error(s) in reparametrizing for {module}:\n\tMissing key(s): "
                                              "{missing}."),
}
