"""Messages of convolution, pooling, resampling and the image layers (flowgrad/nn conv / pooling / norm)."""

MESSAGES: dict[str, tuple[type, str]] = {
    # convolution arguments, checked as ATen's convolution checks them
    "conv_param_length": (RuntimeError, "expected {name} to be a single integer value or a list of {dims} values to "
                                        "match the convolution dimensions, but got {name}={value}"),
    "conv_param_ints": (TypeError, "{fn}(): argument '{name}' must be tuple of ints, but found element of type "
                                   "{type_name} at pos {pos}"),
    "conv_negative_padding": (RuntimeError, "negative padding is not supported"),
    "conv_negative_output_padding": (RuntimeError, "negative output_padding is not supported"),
    "conv_nonpositive_stride": (RuntimeError, "non-positive stride is not supported"),
    "conv_negative_dilation": (RuntimeError, "dilation should be greater than zero"),
    "conv_zero_dilation": (RuntimeError, "non-positive dilation is not supported"),
    "conv_nonpositive_groups": (RuntimeError, "non-positive groups is not supported"),
    "conv_weight_input_dims": (RuntimeError, "Expected {dims}-dimensional input for {dims}-dimensional weight {weight}, "
                                             "but got {got}-dimensional input of size {input} instead"),
    "conv_weight_below_groups": (RuntimeError, "Given groups={groups}, expected weight to be at least {groups} at "
                                               "dimension 0, but got weight of size {weight} instead"),
    "conv_transposed_channels": (RuntimeError, "Given transposed=1, weight of size {weight}, expected input{input} "
                                               "to have {expected} channels, but got {got} channels instead"),
    "conv_transposed_bias": (RuntimeError, "Given transposed=1, weight of size {weight}, expected bias to be "
                                           "1-dimensional with {expected} elements, but got bias of size {bias} "
                                           "instead"),
    "conv_bias_dtype": (RuntimeError, "Input type ({input_type}) and bias type ({bias_type}) should be the same"),
    "conv_output_padding": (RuntimeError, "output padding must be smaller than either stride or dilation, but got "
                                          "{values}"),
    "conv_transposed_output_size": (RuntimeError, "Given input size per channel: ({input}). Calculated output size "
                                                  "per channel: ({output}). Output size is too small"),
    "conv_transpose_padding_mode": (ValueError, 'Only "zeros" padding mode is supported for {name}'),
    "conv_transpose_output_size_len": (ValueError, "ConvTranspose{dims}D: for {ndim}D input, output_size must have "
                                                   "{dims} or {full} elements (got {got})"),
    "conv_transpose_output_size_range": (ValueError, "requested an output size of {size}, but valid sizes range from "
                                                     "{low} to {high} (for an input of {input_shape})"),
}
