"""Messages of modules, layers, functional and init (flowgrad/nn)."""

_EXTRA_STATE = ("Reached a code path in Module.{method}() that should never be called. Please file an issue at "
                "https://github.com/pytorch/pytorch/issues/new?template=bug-report.yml to report this bug.")
_NOT_SEQUENTIAL = "add operator supports only objects of Sequential class, but {type} is given."

MESSAGES: dict[str, tuple[type, str]] = {
    # Module construction, calling and hooks (flowgrad/nn/module.py)
    "nn_init_keyword": (TypeError, "{cls}.__init__() got an unexpected keyword argument '{name}'"),
    "nn_init_positional": (TypeError, "{cls}.__init__() takes 1 positional argument but {given} were given"),
    "nn_forward_missing": (NotImplementedError, 'Module [{cls}] is missing the required "forward" function'),
    "nn_forward_pre_hook_result": (RuntimeError, "forward pre-hook must return None or a tuple of (new_args, "
                                                 "new_kwargs), but got {result}."),
    "nn_always_call_hook_silenced": (UserWarning, "{which}module forward hook with ``always_call=True`` raised an "
                                                  "exception that was silenced as another error was raised in "
                                                  "forward: {exc}"),
    # full backward hooks (flowgrad/nn/module_hooks.py)
    "nn_backward_hook_count": (RuntimeError, "Backward hook returned an invalid number of grad_input, got {got}, but "
                                             "expected {expected}"),
    "nn_backward_pre_hook_count": (RuntimeError, "Backward pre hook returned an invalid number of grad_output, got "
                                                 "{got}, but expected {expected}"),
    "nn_backward_hook_outputs_only": (UserWarning, "Full backward hook is firing when gradients are computed with "
                                                   "respect to module outputs since no inputs require gradients. See "
                                                   "https://docs.pytorch.org/docs/main/generated/torch.nn.Module.html"
                                                   "#torch.nn.Module.register_full_backward_hook for more details."),
    "nn_backward_hook_no_input_result": (RuntimeError, "Backward hook for Modules where no input requires gradient "
                                                       "should always return None or None for all gradients."),
    "nn_backward_hook_output_type": (UserWarning, "For backward hooks to be called, module output should be a Tensor "
                                                  "or a tuple of Tensors but received {type}"),
    # registration: register_buffer / register_parameter / add_module and attribute assignment
    "nn_buffer_before_init": (AttributeError, "cannot assign buffer before Module.__init__() call"),
    "nn_buffer_name_type": (TypeError, "buffer name should be a string. Got {type}"),
    "nn_buffer_name_dot": (KeyError, 'buffer name can\'t contain "."'),
    "nn_buffer_name_empty": (KeyError, 'buffer name can\'t be empty string ""'),
    "nn_buffer_type": (TypeError, "cannot assign '{type}' object to buffer '{name}' (torch Tensor or None required)"),
    "nn_parameter_before_init": (AttributeError, "cannot assign parameter before Module.__init__() call"),
    "nn_parameter_name_type": (TypeError, "parameter name should be a string. Got {type}"),
    "nn_parameter_name_dot": (KeyError, 'parameter name can\'t contain "."'),
    "nn_parameter_name_empty": (KeyError, 'parameter name can\'t be empty string ""'),
    "nn_parameter_type": (TypeError, "cannot assign '{type}' object to parameter '{name}' (torch.nn.Parameter or "
                                     "None required)"),
    "nn_parameter_nonleaf": (ValueError, "Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must "
                                         "be created explicitly. To express '{name}' as a function of another Tensor, "
                                         "compute the value in the forward() method."),
    "nn_not_a_module_subclass": (TypeError, "{type} is not a Module subclass"),
    "nn_module_name_type": (TypeError, "module name should be a string. Got {type}"),
    "nn_module_name_dot": (KeyError, 'module name can\'t contain ".", got: {name}'),
    "nn_module_name_empty": (KeyError, 'module name can\'t be empty string ""'),
    "nn_attribute_exists": (KeyError, "attribute '{name}' already exists"),
    "nn_no_attribute": (AttributeError, "'{cls}' object has no attribute '{name}'"),
    "nn_parameters_before_init": (AttributeError, "cannot assign parameters before Module.__init__() call"),
    "nn_module_before_init": (AttributeError, "cannot assign module before Module.__init__() call"),
    "nn_assign_parameter": (TypeError, "cannot assign '{type}' as parameter '{name}' (torch.nn.Parameter or None "
                                       "expected)"),
    "nn_assign_child": (TypeError, "cannot assign '{type}' as child module '{name}' (torch.nn.Module or None "
                                   "expected)"),
    "nn_assign_buffer": (TypeError, "cannot assign '{type}' as buffer '{name}' (torch.nn.Buffer, torch.Tensor or "
                                    "None expected)"),
    "nn_get_missing": (AttributeError, "{owner} has no attribute `{name}`"),
    "nn_get_not_module": (AttributeError, "`{name}` is not an nn.Module"),
    "nn_get_not_parameter": (AttributeError, "`{name}` is not an nn.Parameter"),
    "nn_get_not_buffer": (AttributeError, "`{name}` is not a buffer"),
    # modes, conversions, extra state
    "nn_train_mode": (ValueError, "training mode is expected to be boolean"),
    "nn_to_arguments": (TypeError, "to() received an invalid combination of arguments - got ({type})"),
    "nn_to_dtype": (TypeError, "nn.Module.to only accepts floating point or complex dtypes, but got desired "
                               "dtype={dtype}"),
    "nn_get_extra_state": (RuntimeError, _EXTRA_STATE.format(method="get_extra_state")),
    "nn_set_extra_state": (RuntimeError, _EXTRA_STATE.format(method="set_extra_state")),
    # load_state_dict: the per-entry lines are collected, then raised together as nn_load_state
    "nn_state_dict_type": (TypeError, "Expected state_dict to be dict-like, got {type}."),
    "nn_load_state_not_tensor": (RuntimeError, 'While copying the parameter named "{key}", expected torch.Tensor or '
                                               "Tensor-like object from checkpoint but received {type}"),
    "nn_load_state_size": (RuntimeError, "size mismatch for {key}: copying a param with shape {got_shape} from "
                                         "checkpoint, the shape in current model is {want_shape}."),
    "nn_load_state_missing": (RuntimeError, "Missing key(s) in state_dict: {keys}. "),
    "nn_load_state_unexpected": (RuntimeError, "Unexpected key(s) in state_dict: {keys}. "),
    "nn_load_state": (RuntimeError, "Error(s) in loading state_dict for {cls}:\n\t{errors}"),
    # Parameter and nn.utils
    "nn_parameter_data": (AttributeError, "'{type}' object has no attribute 'detach'"),
    "nn_clip_nonfinite": (RuntimeError, "The total norm of order {norm_type} for gradients from `parameters` is "
                                        "non-finite, so it cannot be clipped. To disable this error and scale the "
                                        "gradients by the non-finite norm anyway, set `error_if_nonfinite=False`"),
    "nn_vector_type": (TypeError, "expected torch.Tensor, but got: {type}"),
    "nn_parameters_devices": (TypeError, "Found two parameters on different devices, this is currently not "
                                         "supported."),
    "nn_clip_empty_generator": (UserWarning, "`parameters` is an empty generator, no gradient clipping will occur."),
    "nn_clip_grad_norm_deprecated": (FutureWarning, "`torch.nn.utils.clip_grad_norm` is now deprecated in favor of "
                                                    "`torch.nn.utils.clip_grad_norm_`."),
    # parametrizations (flowgrad/nn/parametrize.py)
    "param_list_empty": (ValueError, "ParametrizationList requires one or more modules."),
    "param_right_inverse_type": (ValueError, "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                                             "tuple...). Got {type}"),
    "param_right_inverse_dtype": (ValueError, "When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                                              "original.dtype: {original}\nright_inverse(original).dtype: {new}"),
    "param_right_inverse_device": (ValueError, "When `right_inverse` outputs one tensor, it may not change the "
                                               "device.\noriginal.device: {original}\nright_inverse(original).device: "
                                               "{new}"),
    "param_right_inverse_element": (ValueError, "'right_inverse' must return a Tensor or a Sequence of tensors (list, "
                                                "tuple...). Got element {index} of the sequence with type {type}."),
    "param_not_tensor": (ValueError, "A parametrization must return a tensor. Got {type}."),
    "param_changes_dtype": (ValueError, "Registering a parametrization may not change the dtype of the tensor, unless "
                                        "`unsafe` flag is enabled.\nunparametrized dtype: {before}\nparametrized "
                                        "dtype: {after}"),
    "param_changes_shape": (ValueError, "Registering a parametrization may not change the shape of the tensor, unless "
                                        "`unsafe` flag is enabled.\nunparametrized shape: {before}\nparametrized "
                                        "shape: {after}"),
    "param_no_right_inverse": (RuntimeError, "parametrization {cls} does not implement right_inverse."),
    "param_right_inverse_not_tensor": (ValueError, "`right_inverse` should return a tensor. Got {type}"),
    "param_right_inverse_set_dtype": (ValueError, "The tensor returned by `right_inverse` has dtype {dtype} while "
                                                  "`original` has dtype {original}"),
    "param_right_inverse_not_sequence": (ValueError, "'right_inverse' must return a sequence of tensors. Got {type}."),
    "param_right_inverse_length": (ValueError, "'right_inverse' must return a sequence of tensors of length "
                                               "{expected}. Got a sequence of length {got}."),
    "param_right_inverse_set_element": (ValueError, "'right_inverse' must return a sequence of tensors or "
                                                    "reference-type opaques. Got element {index} of type {type}."),
    "param_right_inverse_element_dtype": (ValueError, "Tensor {index} returned by `right_inverse` has dtype {dtype} "
                                                      "while `original{index}` has dtype {original}"),
    "param_pickle": (RuntimeError, "Serialization of parametrized modules is only supported through state_dict(). "
                                   "See:\nhttps://pytorch.org/tutorials/beginner/saving_loading_models.html"
                                   "#saving-loading-a-general-checkpoint-for-inference-and-or-resuming-training"),
    "param_attribute_exists": (AssertionError, "Module already has an attribute named '{name}'"),
    "param_appended_dtype": (ValueError, "Registering a parametrization may not change the dtype of the tensor, "
                                         "unless the `unsafe` flag is enabled.\nmodule.{name}.dtype: {before}\n"
                                         "parametrization(module.{name}).dtype: {after}"),
    "param_appended_shape": (ValueError, "Registering a parametrization may not change the shape of the tensor, "
                                         "unless the `unsafe` flag is enabled.\nmodule.{name}.shape: {before}\n"
                                         "parametrization(module.{name}).shape: {after}"),
    "param_appended_inverse_type": (ValueError, "parametrization.right_inverse must return a tensor. Got: {type}"),
    "param_appended_inverse_dtype": (ValueError, "The tensor returned by parametrization.right_inverse must have the "
                                                 "same dtype as module.{name}, unless the `unsafe` flag is enabled.\n"
                                                 "module.{name}.dtype: {before}\nreturned dtype: {after}"),
    "param_appended_inverse_shape": (ValueError, "The tensor returned by parametrization.right_inverse must have the "
                                                 "same shape as module.{name}, unless the `unsafe` flag is enabled.\n"
                                                 "module.{name}.shape: {before}\nreturned shape: {after}"),
    "param_no_tensor": (ValueError, "Module '{module}' does not have a parameter, a buffer, or a parametrized element "
                                    "with name '{name}'"),
    "param_not_parametrized": (ValueError, "Module {module} does not have a parametrization on {name}"),
    "param_leave_sequence": (ValueError, "Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                                         "parametrized in terms of a sequence of tensors."),
    # flowgrad/nn/parametrizations.py
    "param_spectral_dim": (IndexError, "Dimension out of range (expected to be in range of [{low}, {high}] but got "
                                       "{dim})"),
    "param_power_iterations": (ValueError, "Expected n_power_iterations to be positive, but got "
                                           "n_power_iterations={n}"),
    "param_spectral_no_tensor": (ValueError, "Module '{module}' has no parameter or buffer with name '{name}'"),
    "param_orthogonal_shape": (ValueError, "Expected a matrix or batch of matrices of shape {expected}. Got a tensor "
                                           "of shape {got}."),
    "param_orthogonal_assign": (NotImplementedError, "It is not possible to assign to the matrix exponential or the "
                                                     "Cayley parametrizations when use_trivialization=False."),
    "param_orthogonal_ndim": (ValueError, "Expected a matrix or batch of matrices. Got a tensor of {ndim} "
                                          "dimensions."),
    "param_orthogonal_map": (ValueError, 'orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                                         "Got: {got}"),
    # containers (flowgrad/nn/containers.py)
    "nn_index_range": (IndexError, "index {index} is out of range"),
    "nn_sequential_add": (ValueError, _NOT_SEQUENTIAL),
    "nn_sequential_mul_type": (TypeError, "unsupported operand type(s) for *: {cls} and {type}"),
    "nn_sequential_mul_factor": (ValueError, "Non-positive multiplication factor {factor} for {cls}"),
    "nn_sequential_insert_type": (AssertionError, "module should be of type: {module_cls}"),
    "nn_sequential_insert_index": (IndexError, "Index out of range: {index}"),
    "nn_modulelist_extend": (TypeError, "ModuleList.extend should be called with an iterable, but got {type}"),
    "nn_moduledict_update": (TypeError, "ModuleDict.update should be called with an iterable of key/value pairs, but "
                                        "got {type}"),
    "nn_moduledict_element": (TypeError, "ModuleDict update sequence element #{index} should be Iterable; is{type}"),
    "nn_moduledict_element_length": (ValueError, "ModuleDict update sequence element #{index} has length {length}; 2 "
                                                 "is required"),
    "nn_parameterlist_extend": (TypeError, "ParameterList.extend should be called with an iterable, but got {type}"),
    "nn_parameterlist_call": (RuntimeError, "ParameterList should not be called."),
    "nn_parameterdict_call": (RuntimeError, "ParameterDict should not be called."),
    # layers (flowgrad/nn/layers.py) and their functional forms
    "nn_dropout_p": (ValueError, "dropout probability has to be between 0 and 1, but got {p}"),
    "nn_padding_idx": (AssertionError, "Padding_idx must be within num_embeddings"),
    "nn_embedding_weight_shape": (AssertionError, "Shape of weight does not match num_embeddings and embedding_dim"),
    "nn_embedding_pretrained_dim": (AssertionError, "Embeddings parameter is expected to be 2-dimensional"),
    "nn_batchnorm_input_dim": (ValueError, "expected {expected} input (got {ndim}D input)"),
    "nn_conv_groups": (ValueError, "groups must be a positive integer"),
    "nn_conv_in_groups": (ValueError, "in_channels must be divisible by groups"),
    "nn_conv_out_groups": (ValueError, "out_channels must be divisible by groups"),
    "nn_conv_padding_mode": (ValueError, "padding_mode must be one of {modes}, but got padding_mode='{mode}'"),
    "nn_conv_padding_string": (ValueError, "Invalid padding string {padding!r}, should be one of {valid}"),
    "nn_conv_same_strided": (ValueError, "padding='same' is not supported for strided convolutions"),
    # functional (flowgrad/nn/functional.py)
    "nn_reduction_legacy": (UserWarning, "size_average and reduce args will be deprecated, please use "
                                         "reduction='{reduction}' instead."),
    "nn_reduction_invalid": (ValueError, "{reduction} is not a valid value for reduction"),
    "nn_gelu_approximate": (RuntimeError, "approximate argument must be either none or tanh."),
    "nn_softmax_implicit_dim": (UserWarning, "Implicit dimension choice for {name} has been deprecated. Change the "
                                             "call to include dim=X as an argument."),
    "nn_one_hot_dtype": (RuntimeError, "one_hot is only applicable to index tensor of type LongTensor."),
    "nn_one_hot_negative": (RuntimeError, "Class values must be non-negative."),
    "nn_one_hot_too_large": (RuntimeError, "Class values must be smaller than num_classes."),
    "nn_pad_mode": (NotImplementedError, "Unrecognised padding mode {mode}"),
    "nn_pad_reflect_size": (RuntimeError, "Argument #{arg}: Padding size should be less than the corresponding input "
                                          "dimension, but got: padding ({lo}, {hi}) at dimension {dim} of input "
                                          "{size}"),
    "nn_conv2d_same_strided": (RuntimeError, "padding='same' is not supported for strided convolutions"),
    "nn_conv2d_padding_string": (RuntimeError, "Invalid padding string: '{padding}'"),
    "nn_conv2d_input_dim": (RuntimeError, "Expected {unbatched}D (unbatched) or {batched}D (batched) input to {fn}, "
                                          "but got input of size: {size}"),
    "nn_conv2d_weight_dim": (RuntimeError, "weight should have at least three dimensions"),
    "nn_conv2d_channels": (RuntimeError, "Given groups={groups}, weight of size {weight}, expected input{input} to "
                                         "have {expected} channels, but got {got} channels instead"),
    "nn_conv2d_weight_groups": (RuntimeError, "Given groups={groups}, expected weight to be divisible by {groups} at "
                                              "dimension 0, but got weight of size [{weight}] instead"),
    "nn_conv2d_bias": (RuntimeError, "Given weight of size {weight}, expected bias to be 1-dimensional with "
                                     "{expected} elements, but got bias of size {bias} instead"),
    "nn_conv2d_dtype": (RuntimeError, "expected scalar type {want_scalar} but found {got_scalar}"),
    "nn_conv2d_kernel_size": (RuntimeError, "Calculated padded input size per channel: ({padded}). Kernel size: "
                                            "({kernel}). Kernel size can't be greater than actual input size"),
    "nn_pool_input_dim": (RuntimeError, "non-empty {unbatched}D or {batched}D (batch mode) tensor expected for input"),
    "nn_pool_pad": (RuntimeError, "pad should be at most half of effective kernel size, but got pad={pad}, "
                                  "kernel_size={kernel} and dilation={dilation}"),
    "nn_adaptive_pool_input_dim": (RuntimeError, "{fn}(): Expected {unbatched}D or {batched}D tensor, but got {size}"),
    "nn_adaptive_pool_empty": (RuntimeError, "{fn}(): Expected input to have non-zero size for "
                                             "non-batch dimensions, but input has sizes {size} with dimension {dim} "
                                             "being empty"),
    "nn_batch_norm_size": (RuntimeError, "{name} should contain {expected} elements not {got}"),
    "nn_batch_norm_one_value": (ValueError, "Expected more than 1 value per channel when training, got input size "
                                            "{input_shape}"),
    "nn_layer_norm_shape": (RuntimeError, "Given normalized_shape={normalized}, expected input with shape [*, "
                                          "{inner}], but got input of size{size}"),
    "nn_smooth_l1_beta": (RuntimeError, "smooth_l1_loss does not support negative values for beta."),
    "nn_label_smoothing": (RuntimeError, "label_smoothing must be between 0.0 and 1.0. Got: {value:g}"),
    "nn_target_probabilities_dtype": (RuntimeError, "Expected floating point type for target with class "
                                                    "probabilities, got {dtype_scalar}"),
    "nn_kl_div_mean": (UserWarning, "reduction: 'mean' divides the total loss by both the batch size and the support "
                                    "size.'batchmean' divides only by the batch size, and aligns with the KL div math "
                                    "definition.'mean' will be changed to behave the same as 'batchmean' in the next "
                                    "major release."),
    # init (flowgrad/nn/init.py)
    "nn_init_zero_element": (UserWarning, "Initializing zero-element tensors is a no-op"),
    "nn_init_negative_slope": (ValueError, "negative_slope {param} not a valid number"),
    "nn_init_nonlinearity": (ValueError, "Unsupported nonlinearity {nonlinearity}"),
    "nn_init_fan_dims": (ValueError, "Fan in and fan out can not be computed for tensor with fewer than 2 dimensions"),
    "nn_init_fan_mode": (ValueError, "Mode {mode} not supported, please use one of {valid}"),
    "nn_init_dims": (ValueError, "Only tensors with {dims} dimensions are supported"),
    "nn_init_dirac_groups": (ValueError, "dim 0 must be divisible by groups"),
    # recurrent layers (nn/rnn.py) and sequence packing (nn/rnn_utils.py)
    "rnn_dropout_range": (ValueError, "dropout should be a number in range [0, 1] representing the probability of "
                                      "an element being zeroed"),
    "rnn_dropout_one_layer": (UserWarning, "dropout option adds dropout after all but last recurrent layer, so "
                                           "non-zero dropout expects num_layers greater than 1, but got "
                                           "dropout={dropout} and num_layers={num_layers}"),
    "rnn_arg_type": (TypeError, "{arg} should be of type {expected}, got: {got}"),
    "rnn_arg_positive": (ValueError, "{arg} must be greater than zero"),
    "rnn_proj_negative": (ValueError, "proj_size should be a positive integer or zero to disable projections"),
    "rnn_proj_too_big": (ValueError, "proj_size has to be smaller than hidden_size"),
    "rnn_proj_not_lstm": (ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    "rnn_mode": (ValueError, "Unrecognized RNN mode: {mode}"),
    "rnn_nonlinearity": (ValueError, "Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."),
    "rnn_cell_nonlinearity": (RuntimeError, "Unknown nonlinearity: {nonlinearity}"),
    "rnn_input_dims": (ValueError, "RNN: Expected input to be 2D or 3D, got {ndim}D tensor instead"),
    "rnn_lstm_gru_input_dims": (ValueError, "{name}: Expected input to be 2D or 3D, got {ndim}D instead"),
    "rnn_hx_dims": (RuntimeError, "For {batched} input, hx should also be {want} but got {ndim}-D tensor"),
    "rnn_lstm_hx_dims": (RuntimeError, "For {batched} input, hx and cx should also be {want} but got ({h}-D, {c}-D) "
                                       "tensors"),
    "rnn_input_dtype": (ValueError, "RNN input dtype ({input_dtype}) does not match weight dtype ({weight_dtype}). "
                                    "Convert input: input.to({weight_dtype}), or convert model: "
                                    "model.to({input_dtype})"),
    "rnn_input_ndim": (RuntimeError, "input must have {want} dimensions, got {ndim}"),
    "rnn_input_size": (RuntimeError, "input.size(-1) must be equal to input_size. Expected {want}, got {got}"),
    "rnn_hidden_size": (RuntimeError, "Expected {which} size {want}, got {got}"),
    "rnn_empty_sequence": (RuntimeError, "Expected sequence length to be larger than 0 in RNN"),
    "rnn_cell_input_dims": (ValueError, "{name}: Expected input to be 1D or 2D, got {ndim}D instead"),
    "rnn_cell_hidden_dims": (ValueError, "{name}: Expected {which} to be 1D or 2D, got {ndim}D instead"),
    "rnn_cell_input_size": (RuntimeError, "input has inconsistent input_size: got {got} expected {want}"),
    "rnn_cell_batch": (RuntimeError, "Input batch size {batch} doesn't match hidden{index} batch size {got}"),
    "rnn_cell_hidden_size": (RuntimeError, "hidden{index} has inconsistent hidden_size: got {got}, expected {want}"),
    "rnn_pad_iterable": (RuntimeError, "pad_sequence: Expected iterable for input sequences, but got arg of type: "
                                       "{type}"),
    "rnn_pad_empty": (RuntimeError, "received an empty list of sequences"),
    "rnn_pad_side": (RuntimeError, "Expected padding_side to be one of left or right, but got {side}."),
    "rnn_pad_output_shape": (RuntimeError, "output with shape [{out}] doesn't match the broadcast shape [{wide}]"),
    "rnn_pack_lengths": (RuntimeError, "'lengths' argument should be a 1D CPU int64 tensor, but got {ndim}D {device} "
                                       "Long tensor"),
    "rnn_pack_empty": (RuntimeError, "Cannot pack empty tensors."),
    "rnn_pack_batch": (RuntimeError, "Expected `len(lengths)` to be equal to batch_size, but got {got} "
                                     "(batch_size={batch})"),
    "rnn_pack_nonpositive": (RuntimeError, "Length of all samples has to be greater than 0, but found an element in "
                                           "'lengths' that is <= 0"),
    "rnn_pack_unsorted": (RuntimeError, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                                        "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                                        "pack_sequence to sidestep this requirement if you do not need ONNX "
                                        "exportability."),
    "rnn_total_length": (ValueError, "Expected total_length to be at least the length of the longest sequence in "
                                     "input, but got total_length={total} and max sequence length being {longest}"),
    "rnn_batch_sizes_device": (ValueError, "batch_sizes should always be on CPU. Instances of PackedSequence should "
                                           "never be created manually. They should be instantiated by functions like "
                                           "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                                           "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"),
    "rnn_packed_args": (AssertionError, "Expected data to be a list or tuple of length 2"),
}
