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

    # pooling
    "pool_kernel_size_len": (RuntimeError, "{fn}: kernel_size must either be a single int, or a tuple of {count} ints"),
    "pool_stride_len": (RuntimeError, "{fn}: stride must either be omitted, a single int, or a tuple of {count} ints"),
    "pool_padding_len": (RuntimeError, "{fn}: padding must either be a single int, or a tuple of {count} ints"),
    "pool_dilation_len": (RuntimeError, "{fn}: dilation must be either a single int, or a tuple of {count} ints"),
    "avg_pool3d_kernel_size_len": (RuntimeError, "{fn}: kernel_size must be a single int, or a tuple of {count} "
                                                 "ints"),
    "avg_pool3d_stride_len": (RuntimeError, "{fn}: stride must be omitted, a single int, or a tuple of {count} ints"),
    "avg_pool3d_padding_len": (RuntimeError, "{fn}: padding must be a single int, or a tuple of {count} ints"),
    "pool_stride_zero": (RuntimeError, "stride should not be zero"),
    "pool_kernel_positive": (RuntimeError, "kernel size should be greater than zero, but got {values}"),
    "pool_dilation_positive": (RuntimeError, "dilation should be greater than zero, but got {values}"),
    "pool_output_small": (RuntimeError, "Given input size: ({input}). Calculated output size: ({output}). Output size "
                                        "is too small"),
    "pool_divisor_zero": (RuntimeError, "divisor must be not zero"),
    "avg_pool3d_small": (RuntimeError, "input image (T: {t} H: {h} W: {w}) smaller than kernel size (kT: {kt} kH: {kh} "
                                       "kW: {kw})"),
    "pool1d_input_dim": (RuntimeError, "{fn}: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch size for "
                                       "input, but got:{size}"),
    "pool1d_param_len": (RuntimeError, "{fn}() {name} must be an int, list of ints or tuple of ints of size 1 but got "
                                       "size {size}"),
    "pool1d_stride_len": (RuntimeError, "{fn}() {name} must be None, an int, list of ints, or tuple of ints of size 1 "
                                        "but got size {size}"),
    "pool1d_positive": (RuntimeError, "{fn}() {name} must be greater than zero, but got {value}"),
    "pool1d_padding_negative": (RuntimeError, "{fn}() padding must be non-negative, but got {value}"),
    "pool1d_padding_half": (RuntimeError, "{fn}() padding should be at most half of kernel size, but got "
                                          "padding={pad} and kernel_size={kernel}"),
    "pool1d_output_size": (RuntimeError, "{fn}() Invalid computed output size: {size}"),
    "pool_dims_range": (RuntimeError, "Expected {low} to {high} dimensions, but got {ndim}-dimensional tensor for "
                                      "argument #1 'self' (while checking arguments for {fn})"),
    "pool_one_int": (RuntimeError, "{fn}() argument '{name}' should contain one int (got {got})"),
    "adaptive_output_size_len": (RuntimeError, "{fn}: output_size must be {count}"),
    "adaptive_max_input_dim": (RuntimeError, "{fn}(): Expected {unbatched}D or {batched}D tensor, but got: {size}"),
    # padding
    "pad_mode_value": (RuntimeError, 'Padding mode "{mode}" doesn\'t take in value argument'),
    "pad_length_odd": (RuntimeError, "Padding length must be divisible by 2"),
    "pad_mode_dims": (NotImplementedError, "Padding size {size} is not supported for {ndim}D input tensor.\n"
                                           "Supported combinations for non-constant padding:\n"
                                           "  - 2D or 3D input: padding size = 2 (pads last dimension)\n"
                                           "  - 3D or 4D input: padding size = 4 (pads last 2 dimensions)\n"
                                           "  - 4D or 5D input: padding size = 6 (pads last 3 dimensions)"),
    "pad_circular_wrap": (RuntimeError, "Padding value causes wrapping around more than once."),
    "pad_circular_input_dim": (ValueError, "expected {dims} input (got {ndim}D input)"),
}
