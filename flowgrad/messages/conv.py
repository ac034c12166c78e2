"""Messages of convolution, pooling, resampling and the image layers (flowgrad/nn conv / pooling / norm)."""

MESSAGES: dict[str, tuple[type, str]] = {
    # convolution arguments, checked as ATen's convolution checks them
    "conv_param_length": (RuntimeError, "expected {name} to be a single integer value or a list of {dims} values to "
                                        "match the convolution dimensions, but got {name}={value}"),
    "conv_param_ints": (TypeError, "{fn}(): argument '{name}' must be tuple of ints, not {type_name}"),
    "conv_negative_padding": (RuntimeError, "negative padding is not supported"),
    "conv_negative_output_padding": (RuntimeError, "negative output_padding is not supported"),
    "conv_nonpositive_stride": (RuntimeError, "non-positive stride is not supported"),
    "conv_negative_dilation": (RuntimeError, "dilation should be greater than zero"),
    "conv_zero_dilation": (RuntimeError, "non-positive dilation is not supported"),
    "conv_nonpositive_groups": (RuntimeError, "non-positive groups is not supported"),
    "conv_weight_input_dims": (RuntimeError, "Expected {dims}-dimensional input for {dims}-dimensional weight "
                                             "{weight}, but got {got}-dimensional input of size {input} instead"),
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
    "unpool_output_size_len": (ValueError, "output_size should be a sequence containing {dims} or {full} elements, but "
                                           "it has a length of '{got}'"),
    "unpool_output_size_range": (ValueError, 'invalid output_size "{size}" (dim {dim} must be between {low} and {high})'),
    "unpool_indices_shape": (RuntimeError, "Expected shape of indices to be same as that of the input tensor "
                                           "({input}) but got indices tensor with shape: {indices}"),
    "unpool_indices_dtype": (RuntimeError, "elements in indices should be type int64 but got: {got_scalar}"),
    "unpool_index_range": (RuntimeError, "Found an invalid max index: {index} (output volumes are of size {cells})"),
    "adaptive_output_size_len": (RuntimeError, "{fn}: output_size must be {count}"),
    "adaptive_max_output_size_len": (RuntimeError, "{fn}(): internal error: output_size.size() must be {count}"),
    "object_no_len": (TypeError, "object of type '{type}' has no len()"),
    "pool_input_dim_at_least": (ValueError, "Input dimension should be at least {count}"),
    "unpack_too_few": (ValueError, "not enough values to unpack (expected {expected}, got {got})"),
    "unpack_too_many": (ValueError, "too many values to unpack (expected {expected})"),
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
    "pad_circular_empty": (RuntimeError, "Negative padding value is resulting in an empty dimension"),
    "pad_too_small": (RuntimeError, "input (W: {size}) is too small. Calculated output W: {out}"),
    "pad_negative_dimension": (RuntimeError, "Trying to create tensor with negative dimension {dim}: {size}"),
    # normalisation
    "norm_input_min_dims": (RuntimeError, "Expected at least 2 dimensions for input tensor but received {ndim}"),
    "group_norm_groups": (RuntimeError, "Expected number of channels in input to be divisible by num_groups, but got "
                                        "input of shape {size} and num_groups={groups}"),
    "group_norm_affine": (RuntimeError, "Expected {name} to be a vector of size equal to the number of channels in "
                                        "input, but got {name} of shape {shape} and input of shape {size}"),
    "group_norm_channels": (ValueError, "num_channels ({channels}) must be divisible by num_groups ({groups})"),
    "instance_norm_spatial": (ValueError, "Expected more than 1 spatial element when training, got input size "
                                          "{input_shape}"),
    "instance_norm_input_dim": (ValueError, "expected {dims} input (got {ndim}D input)"),
    "instance_norm_features": (ValueError, "expected input's size at dim={dim} to match num_features ({features}), "
                                           "but got: {got}."),
    "instance_norm_features_warning": (UserWarning, "input's size at dim={dim} does not match num_features. You can "
                                                    "silence this warning by not passing in num_features, which is "
                                                    "not used because affine=False"),
    "local_response_norm_dims": (ValueError, "Expected 3D or higher dimensionality                          input (got "
                                             "{ndim} dimensions)"),
    "prelu_promotion": (RuntimeError, "prelu: Type promoting not supported. Got {input_scalar} and {weight_scalar}"),
    "prelu_channels": (RuntimeError, "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
                                     "{params} and channel size = {channels}."),
    "prelu_zero_dim": (RuntimeError, "Not allow zero-dim input tensor."),
    # resampling
    "pixel_shuffle_dims": (RuntimeError, "{fn} expects input to have at least 3 dimensions, but got input with {ndim} "
                                         "dimension(s)"),
    "pixel_shuffle_factor": (RuntimeError, "{fn} expects a positive {name}, but got {value}"),
    "pixel_shuffle_channels": (RuntimeError, "pixel_shuffle expects its input's 'channel' dimension to be divisible "
                                             "by the square of upscale_factor, but input.size(-3)={channels} is not "
                                             "divisible by {square}"),
    "channel_shuffle_dims": (RuntimeError, "channel_shuffle expects input with > 2 dims, but got input with sizes "
                                           "{size}"),
    "channel_shuffle_groups": (RuntimeError, "Number of groups to divide channels in must be positive. Value of "
                                             "groups:{groups}"),
    "channel_shuffle_channels": (RuntimeError, "Number of channels must be divisible by groups. Got {channels} "
                                               "channels and {groups} groups."),
    "pixel_unshuffle_size": (RuntimeError, "pixel_unshuffle expects {what} to be divisible by downscale_factor, but "
                                           "input.size({dim})={size} is not divisible by {factor}"),
    "upsample_deprecated": (UserWarning, "`nn.functional.{name}` is deprecated. Use `nn.functional.interpolate` "
                                         "instead."),
    "interpolate_align_corners": (ValueError, "align_corners option can only be set with the interpolating modes: "
                                              "linear | bilinear | bicubic | trilinear"),
    "interpolate_size_and_scale": (ValueError, "only one of size or scale_factor should be defined"),
    "interpolate_no_size": (ValueError, "either size or scale_factor should be defined"),
    "interpolate_size_dims": (ValueError, "Input and output must have the same number of spatial dimensions, but got "
                                          "input with spatial dimensions of {spatial} and output size of {size}. "
                                          "Please provide input tensor in (N, C, d1, d2, ...,dK) format and output "
                                          "size in (o1, o2, ...,oK) format."),
    "interpolate_scale_dims": (ValueError, "Input and scale_factor must have the same number of spatial dimensions, "
                                           "but got input with spatial dimensions of {spatial} and scale_factor of "
                                           "shape {scale}. Please provide input tensor in (N, C, d1, d2, ...,dK) "
                                           "format and scale_factor in (s1, s2, ...,sK) format."),
    "interpolate_recompute_with_size": (ValueError, "recompute_scale_factor is not meaningful with an explicit size."),
    "interpolate_input_dims": (NotImplementedError, "Input Error: Only 3D, 4D and 5D input Tensors supported (got "
                                                    "{ndim}D) for the modes: nearest | linear | bilinear | bicubic | "
                                                    "trilinear | lanczos | area | nearest-exact (got {mode})"),
    "interpolate_mode_dims": (NotImplementedError, "Got {ndim}D input, but {mode} mode needs {needs}D input"),
    "interpolate_mode_not_built": (NotImplementedError, "flowgrad does not implement interpolate(mode='{mode}')"),
    "interpolate_antialias_not_built": (NotImplementedError, "flowgrad does not implement interpolate(antialias=True)"),
    "interpolate_output_size_1d": (RuntimeError, "Input and output sizes should be greater than 0, but got input "
                                                 "({input}) and output ({output})"),
    "interpolate_output_size": (RuntimeError, "Input and output sizes should be greater than 0, but got input "
                                              "({input}) output ({output})"),
    # unfold / fold
    "fold_param_len": (RuntimeError, "It is expected {name} equals to 2, but got size {size}"),
    "fold_kernel_positive": (RuntimeError, "kernel size should be greater than zero, but got kernel_height: {h} "
                                           "kernel_width: {w}"),
    "fold_dilation_positive": (RuntimeError, "dilation should be greater than zero, but got dilation_height: {h} "
                                             "dilation_width: {w}"),
    "fold_padding_negative": (RuntimeError, "padding should be non-negative, but got pad_height: {h} pad_width: {w}"),
    "fold_stride_positive": (RuntimeError, "stride should be greater than zero, but got stride_height: {h} "
                                           "stride_width: {w}"),
    "unfold_input_dims": (RuntimeError, "Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other "
                                        "non-zero dimensions for input, but got: {size}"),
    "unfold_blocks": (RuntimeError, "Given input with spatial size ({h}, {w}), kernel_size={kernel}, "
                                    "dilation={dilation}, padding={padding}, calculated shape of the array of sliding "
                                    "blocks as {blocks}, but its components must be at least one."),
    "fold_input_dims": (RuntimeError, "Expected 2D or 3D (batch mode) tensor for input with possibly 0 batch size and "
                                      "non-zero dimensions for input, but got: {size}"),
    "fold_divisible": (RuntimeError, "Expected size of input's dimension 1 to be divisible by the product of "
                                     "kernel_size, but got input.size(1)={size} and kernel_size={kernel}."),
    "fold_blocks": (RuntimeError, "Given output_size={size}, kernel_size={kernel}, dilation={dilation}, "
                                  "padding={padding}, stride={stride}, expected size of input's dimension 2 to match "
                                  "the calculated number of sliding blocks {bh} * {bw} = {blocks}, but got "
                                  "input.size(2)={got}."),
    # embedding bags
    "embedding_bag_weights_shape": (ValueError, "embedding_bag: If per_sample_weights ({weights_shape}) is not None, "
                                                "then it must have the same shape as the input ({input_shape})"),
    "embedding_bag_weight_dim": (ValueError, "weight has to be a 2D Tensor, but got Tensor of dimension {ndim}"),
    "embedding_bag_2d_offsets": (ValueError, "if input is 2D, then offsets has to be None, as input is treated is a "
                                             "mini-batch of fixed length sequences. However, found offsets of type "
                                             "{type_name}"),
    "embedding_bag_offsets_none": (ValueError, "offsets has to be a 1D Tensor but got None"),
    "embedding_bag_offsets_dim": (ValueError, "offsets has to be a 1D Tensor"),
    "embedding_bag_input_dim": (ValueError, "input has to be 1D or 2D Tensor, but got Tensor of dimension {ndim}"),
    "embedding_bag_max_freq": (ValueError, "max mode does not support scaling the gradient by the frequency"),
    "embedding_bag_max_sparse": (ValueError, "max mode does not support sparse weights"),
    "embedding_bag_mode": (ValueError, "mode has to be one of sum, mean or max"),
    "embedding_bag_weights_mode": (NotImplementedError, "embedding_bag: per_sample_weights was not None. "
                                                        "per_sample_weights is only supported for mode='sum' (got "
                                                        "mode='{mode}'). Please open a feature request on GitHub."),
    "embedding_bag_not_built": (NotImplementedError, "flowgrad does not implement embedding_bag({what}=True)"),
    "embedding_bag_index_dtype": (RuntimeError, "Expected tensor for argument #{arg} '{name}' to have one of the "
                                                "following scalar types: Long, Int; but got {type_name} instead "
                                                "(while checking arguments for embedding_bag)"),
    # (PyTorch names a type without a legacy tensor class, complex, by its CPU type)
    **{kind: (RuntimeError, "Expected tensor for argument #1 'weight' to have one of the following scalar types: "
                            f"Half, BFloat16, Float, Double; but got {name} instead (while checking arguments for "
                            "embedding_bag)")
       for kind, name in (("embedding_bag_weight_dtype", "{type_name}"),
                          ("embedding_bag_weight_complex", "CPU{dtype_scalar}Type"))},
    "embedding_bag_padding_idx": (RuntimeError, "padding_idx must be within the number of embeddings, {low} through "
                                                "{high}, but got {got}"),
    "embedding_bag_first_offset": (RuntimeError, "offsets[0] has to be 0, i.e., the first sequence in the mini-batch "
                                                 "has to start from position 0. However, got {got}"),
    "embedding_bag_last_offset": (RuntimeError, "offsets[-1] can not be greater than input's length {length} but got "
                                                "offsets[-1] of {got}"),
    "embedding_bag_module_padding_idx": (AssertionError, "padding_idx must be within num_embeddings"),
}
