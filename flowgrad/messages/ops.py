"""Messages of the differentiable ops (flowgrad/ops): argument, dtype, shape and index checks."""

MESSAGES: dict[str, tuple[type, str]] = {
    # declaring the op table and its arguments (ops/_declare.py, ops/_args.py)
    "where_condition": (RuntimeError, "where expected condition to be a boolean tensor, but got a tensor with dtype "
                                      "{dtype_scalar}"),
    "masked_select_mask": (RuntimeError, "masked_select: expected BoolTensor for mask"),
    "index_uint8": (UserWarning, "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                                 "instead."),
    "triangle_dims": (RuntimeError, "{op}: input tensor must have at least 2 dimensions"),
    "outer_dims": (RuntimeError, "outer: Expected 1-D argument {name}, but got {ndim}-D"),
    "norm_dtype": (RuntimeError, "linalg.vector_norm: Expected a floating point or complex tensor as input. Got "
                                 "{dtype_scalar}"),
    "diag_dims": (RuntimeError, "diag(): Supports 1D or 2D tensors. Got {ndim}D"),
    "arg_extremum_bool": (RuntimeError, "{op}(): does not support bool input"),
    "vander_dtype": (RuntimeError, "linalg.vander supports floating point, complex, and integer tensors, but got "
                                   "{dtype_scalar}"),
    "sub_one_bool": (RuntimeError, "Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                                   "trying to invert a mask, use the `~` or `logical_not()` operator instead."),
    "relu_bool": (RuntimeError, "Boolean inputs not supported for relu"),
    "hardtanh_bool": (RuntimeError, "Bool inputs not supported for hardtanh"),
    "heaviside_dtypes": (RuntimeError, "heaviside is not yet implemented for tensors with different dtypes."),
    "isclose_dtypes": (RuntimeError, "{self_scalar} did not match {other_scalar}"),
    "bincount_input": (RuntimeError, "bincount only supports 1-d non-negative integral inputs."),
    "bincount_minlength": (RuntimeError, "minlength should be >= 0"),
    "bincount_weights": (RuntimeError, "weights should be 1-d and have the same length as input"),
    "fill_value_dims": (RuntimeError, "fill_ only supports 0-dimension value tensor but got tensor with {ndim} "
                                      "dimensions."),
    "norm_order": (RuntimeError, "linalg.matrix_norm: Order {ord} not supported."),
    "trace_dims": (RuntimeError, "trace: expected a matrix, but got tensor with dim {ndim}"),
    "op_row_unknown_name": (TypeError, "{node}: the formula for {input!r} names {unknown}, which the row does not "
                                       "declare"),
    "dim_range": (IndexError, "Dimension out of range (expected to be in range of [{low}, {high}], but got {dim})"),
    # arithmetic (ops/elementwise.py)
    "value_overflow_c": (RuntimeError, "value cannot be converted to type {name} without overflow"),
    "int_too_big": (OverflowError, "int too big to convert"),
    "zero_division": (RuntimeError, "ZeroDivisionError"),
    "sub_bool": (RuntimeError, "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                               "`logical_xor()` operator instead."),
    "div_rounding_mode": (RuntimeError, "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                                      "'{mode}'"),
    "neg_bool": (RuntimeError, "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to "
                               "invert a mask, use the `~` or `logical_not()` operator instead."),
    "pow_negative_int": (RuntimeError, "Integers to negative integer powers are not allowed."),
    "polygamma_negative_n": (RuntimeError, "polygamma(n, x) does not support negative n."),
    "clamp_no_bounds": (RuntimeError, "torch.clamp: At least one of 'min' or 'max' must not be None"),
    # products (ops/linalg.py)
    "dot_dtype": (RuntimeError, "dot : expected both vectors to have same dtype, but found {a_scalar} and {b_scalar}"),
    "addmv_dtype": (RuntimeError, "addmv input tensors must have the same dtype, but got {a_scalar}, {b_scalar}, and "
                                  "{a_scalar}"),
    "expected_scalar_type": (RuntimeError, "expected scalar type {a_scalar} but found {b_scalar}"),
    "mm_dtype": (RuntimeError, "expected m1 and m2 to have the same dtype, but got: {a_ctype} != {b_ctype}"),
    "matmul_0d": (RuntimeError, "both arguments to matmul need to be at least 1D, but they are {a}D and {b}D"),
    "dot_sizes": (RuntimeError, "inconsistent tensor size, expected tensor [{a}] and src [{b}] to have the same number "
                                "of elements, but got {a} and {b} elements respectively"),
    "mv_sizes": (RuntimeError, "size mismatch, got input ({rows}), mat ({mat}), vec ({vec})"),
    "dim_of_0d": (IndexError, "Dimension specified as {dim} but tensor has no dimensions"),
    "float_power_inplace": (RuntimeError, "the base given to float_power_ has dtype {self_scalar} but the operation's "
                                          "result requires dtype {want_scalar}"),
    "not_a_matrix": (RuntimeError, "{name} must be a matrix"),
    "not_3d": (RuntimeError, "{name} must be a 3D tensor"),
    "bmm_sizes": (RuntimeError, "Expected size for first two dimensions of batch2 tensor to be: {want} but got: {got}."),
    "dot_dims": (RuntimeError, "1D tensors expected, but got {a}D and {b}D tensors"),
    "einsum_operands": (RuntimeError, "einsum(): {more} operands were provided than specified in the equation"),
    "einsum_subscripts": (RuntimeError, "einsum(): the number of subscripts in the equation ({given}) does not match "
                                        "the number of dimensions ({ndim}) for operand {index} and no ellipsis was "
                                        "given"),
    "einsum_no_operands": (ValueError, "einsum(): must specify the equation string and at least one operand, or at "
                                       "least one operand and its subscripts list"),
    "einsum_sublist_range": (ValueError, "einsum(): subscript in subscript list is not within the valid range [0, 52)"),
    "einsum_invalid_subscript": (RuntimeError, "einsum(): invalid subscript given at index {index} in the equation "
                                               "string, subscripts must be in [a-zA-Z]"),
    "einsum_dot": (RuntimeError, "einsum(): found '.' for operand {operand} that is not part of any ellipsis"),
    "einsum_second_ellipsis": (RuntimeError, "einsum(): found '.' for operand {operand} for which an ellipsis was "
                                             "already found"),
    "einsum_subscripts_more": (RuntimeError, "einsum(): the number of subscripts in the equation ({given}) is more "
                                             "than the number of dimensions ({ndim}) for operand {index}"),
    "einsum_output_repeated": (RuntimeError, "einsum(): output subscript {label} appears more than once in the output"),
    "einsum_output_unknown": (RuntimeError, "einsum(): output subscript {label} does not appear in the equation for "
                                            "any input operand"),
    "einsum_size": (RuntimeError, "einsum(): subscript {label} has size {size} for operand {operand} which does not "
                                  "broadcast with previously seen size {seen}"),
    "einsum_diagonal_size": (RuntimeError, "einsum(): subscript {label} is repeated for operand {operand} but the "
                                           "sizes don't match, {size} != {other}"),
    "einsum_ellipsis_size": (RuntimeError, "einsum(): dimension {dim} covered by ellipsis in operand {operand}has size "
                                           "{size} which does not broadcast with previously seen ellipsis with size "
                                           "{seen} for the respective dimension"),
    # reductions (ops/reduction.py)
    "mean_dtype": (RuntimeError, "mean(): could not infer output dtype. Input dtype must be either a floating point or "
                                 "complex dtype. Got: {dtype_scalar}"),
    "mean_dtype_arg": (RuntimeError, "mean(): could not infer output dtype. Optional dtype must be either a floating "
                                     "point or complex dtype. Got: {dtype_scalar}"),
    "reduce_empty": (RuntimeError, "{op}(): Expected reduction dim to be specified for input.numel() == 0. Specify "
                                   "the reduction dim with the 'dim' argument."),
    "reduce_empty_arg": (IndexError, "{op}(): Expected reduction dim to be specified for input.numel() == 0."),
    "reduce_empty_dim": (IndexError, "{op}(): Expected reduction dim {dim} to have non-zero size."),
    "moment_dtype": (RuntimeError, "{op} only support floating point and complex dtypes"),
    # shape ops (ops/shape.py)
    "shape_dim_invalid": (RuntimeError, "invalid shape dimension {size} at index {index} of shape {shape}"),
    "shape_infer_twice": (RuntimeError, "only one dimension can be inferred"),
    "shape_invalid": (RuntimeError, "shape '{shape}' is invalid for input of size {numel}"),
    "memory_format_type": (TypeError, "{op}(): argument 'memory_format' must be torch.memory_format, not {type}"),
    "memory_format_rank": (RuntimeError, "required rank {rank} tensor to use {name} format"),
    "memory_format_preserve_new": (RuntimeError, "unsupported memory format Preserve"),
    "contiguous_preserve": (RuntimeError, "preserve memory format is unsupported by the contiguous operator"),
    "view_stride": (RuntimeError, "view size is not compatible with input tensor's size and stride (at least one "
                                  "dimension spans across two contiguous subspaces). Use .reshape(...) instead."),
    "flatten_dims": (RuntimeError, "flatten() has invalid args: start_dim cannot come after end_dim"),
    "permute_dims": (RuntimeError, "permute(sparse_coo): number of dimensions in the tensor input does not match the "
                                   "length of the desired ordering of dimensions i.e. input.dim() = {ndim} is not equal "
                                   "to len(dims) = {given}"),
    "t_dims": (RuntimeError, "{op}() expects a tensor with <= 2 dimensions, but self is {ndim}D"),
    "expand_sizes": (RuntimeError, "expand({type}{{{shape}}}, size={sizes}): the number of sizes provided ({given}) "
                                   "must be greater or equal to the number of dimensions in the tensor ({ndim})"),
    "expand_size": (RuntimeError, "The expanded size of the tensor ({want}) must match the existing size ({have}) at "
                                  "non-singleton dimension {dim}.  Target sizes: {sizes}.  Tensor sizes: {shape}"),
    "tensors_arg_type": (TypeError, "{fn}(): argument 'tensors' (position 1) must be tuple of Tensors, not {type}"),
    "cat_empty": (ValueError, "torch.cat(): expected a non-empty list of Tensors"),
    "stack_empty": (RuntimeError, "stack expects a non-empty TensorList"),
    "cat_ndim": (RuntimeError, "Tensors must have same number of dimensions: got {want} and {got}"),
    "cat_sizes": (RuntimeError, "Sizes of tensors must match except in dimension {dim}. Expected size {want} but got "
                                "size {got} for tensor number {index} in the list."),
    "stack_sizes": (RuntimeError, "stack expects each tensor to be equal size, but got {first} at entry 0 and {other} "
                                  "at entry {index}"),
    "split_sizes": (RuntimeError, "split_with_sizes expects split_sizes to sum exactly to {size} (input tensor's size "
                                  "at dimension {dim}), but got split_sizes={sizes}"),
    "split_0d": (RuntimeError, "split expects at least a 1-dimensional tensor"),
    "chunk_0d": (RuntimeError, "chunk expects at least a 1-dimensional tensor"),
    "chunk_count": (RuntimeError, "chunk expects `chunks` to be greater than 0, got: {chunks}"),
    "dims_repeated": (RuntimeError, "dim {dim} appears multiple times in the list of dims"),
    "split_negative": (RuntimeError, "split expects split_size be non-negative, but got split_size={size}"),
    "split_zero": (RuntimeError, "split_size can only be 0 if dimension size is 0, but got dimension size of {size}"),
    "split_sizes_negative": (RuntimeError, "split_with_sizes expects split_sizes have only non-negative entries, but "
                                           "got split_sizes={sizes}"),
    "repeat_dims": (RuntimeError, "Number of dimensions of repeat dims can not be smaller than number of dimensions "
                                  "of tensor"),
    "slice_step": (ValueError, "step must be greater than zero"),
    "view_dtype_0d": (RuntimeError, "self.dim() cannot be 0 to view {self_scalar} as {want_scalar} (different "
                                    "element sizes)"),
    "view_dtype_stride": (RuntimeError, "self.stride(-1) must be 1 to view {self_scalar} as {want_scalar} (different "
                                        "element sizes), but got {stride}"),
    "view_dtype_size": (RuntimeError, "self.size(-1) must be divisible by {ratio} to view {self_scalar} as "
                                      "{want_scalar} (different element sizes), but got {size}"),
    "narrow_0d": (RuntimeError, "narrow() cannot be applied to a 0-dim tensor."),
    "narrow_start": (IndexError, "start out of range (expected to be in range of [{low}, {high}], but got {start})"),
    "narrow_length": (RuntimeError, "narrow(): length must be non-negative."),
    "narrow_size": (RuntimeError, "start ({start}) + length ({length}) exceeds dimension size ({size})."),
    # complex tensors (ops/elementwise.py, ops/reduction.py, ops/complex_numbers.py)
    "complex_unsupported": (NotImplementedError, "{op} is not implemented for complex tensors in flowgrad"),
    "complex_gradient": (NotImplementedError, "{node}: the gradient of this op is not implemented for complex "
                                              "tensors in flowgrad"),
    "complex_inputs": (NotImplementedError, "{op} is not supported for complex inputs"),
    "complex_autograd": (RuntimeError, "{op} does not support automatic differentiation for outputs with complex "
                                       "dtype."),
    "clamp_complex": (NotImplementedError, "clamp is not supported for complex types"),
    "sign_complex": (NotImplementedError, "Unlike NumPy, torch.sign is not intended to support complex numbers. "
                                          "Please use torch.sgn instead."),
    "extremum_complex": (RuntimeError, "{op} not implemented for complex tensors."),
    "reduce_complex": (RuntimeError, "{op}(): does not support complex input"),
    "sort_complex": (RuntimeError, " {op} does not support complex dtypes on CPU"),
    "angle_unit_complex": (RuntimeError, "{op} is not supported for complex tensors."),
    "signbit_complex": (NotImplementedError, "signbit is not implemented for complex tensors."),
    "nansum_complex": (RuntimeError, "nansum on CPU does not support complex inputs"),
    "heaviside_complex": (RuntimeError, "heaviside is not yet implemented for complex tensors."),
    "complex_cast_discards": (UserWarning, "Casting complex values to real discards the imaginary part"),
    "seed_complex_dtype": (RuntimeError, "For complex Tensors, both grad_output and output are required to have the "
                                         "same dtype. Mismatch in dtype: grad_output[{index}] has a dtype of "
                                         "{grad_dtype} and output[{index}] has a dtype of {out_dtype}."),
    "implicit_complex": (RuntimeError, "grad can be implicitly created only for real scalar outputs but got "
                                       "{dtype}"),
    "imag_real": (RuntimeError, "imag is not implemented for tensors with non-complex dtypes."),
    "view_as_real_dtype": (RuntimeError, "view_as_real is only supported for complex tensors"),
    "view_as_complex_dtype": (RuntimeError, "view_as_complex is only supported for half, float and double tensors, "
                                            "but got a tensor of scalar type: {dtype_scalar}"),
    "view_as_complex_0d": (RuntimeError, "Input tensor must have one or more dimensions"),
    "view_as_complex_last": (RuntimeError, "Tensor must have a last dimension of size 2"),
    "view_as_complex_stride": (RuntimeError, "Tensor must have a last dimension with stride 1"),
    "complex_parts_dtype": (RuntimeError, "Expected both inputs to be Half, Float or Double tensors but got {a_scalar} "
                                          "and {b_scalar}"),
    "complex_parts_same": (RuntimeError, "Expected object of scalar type {a_scalar} but got scalar type {b_scalar} "
                                         "for second argument"),
    # sorting (facade/surface.py)
    "topk_range": (RuntimeError, "selected index k out of range"),
    "kthvalue_range": (RuntimeError, "kthvalue(): selected number k out of range for dimension {dim}"),
    # indexing by a key (ops/shape.py)
    "index_tensor_dtype": (IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
    "index_type": (IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                               "valid indices (got {type})"),
    # gather / scatter / index_select (ops/indexing.py)
    "masked_fill_mask": (RuntimeError, "masked_fill_ only supports boolean masks, but got mask with dtype "
                                       "{dtype_ctype}"),
    "masked_scatter_mask": (RuntimeError, "masked_scatter_ only supports boolean masks, but got mask with dtype "
                                          "{dtype_scalar}"),
    "masked_scatter_dtypes": (RuntimeError, "masked_scatter: expected self and source to have same dtypes but got"
                                            "{self_scalar} and {source_scalar}"),
    "masked_scatter_source": (RuntimeError, "Number of elements of source < number of ones in mask"),
    "inner_dtypes": (RuntimeError, "both inputs should have same dtype"),
    "inner_sizes": (RuntimeError, "inner() the last dimension must match on both input tensors but got shapes {a} and "
                                  "{b}"),
    "masked_fill_value_dims": (RuntimeError, "masked_fill_ only supports a 0-dimensional value tensor, but got tensor "
                                             "with {ndim} dimension(s)."),
    "index_put_dtypes": (RuntimeError, "Index put requires the source and destination dtypes match, got {self_scalar} "
                                       "for the destination and {source_scalar} for the source."),
    "index_put_shape": (RuntimeError, "shape mismatch: value tensor of shape {value} cannot be broadcast to "
                                      "indexing result of shape {result}"),
    "inplace_shape": (RuntimeError, "output with shape {shape} doesn't match the broadcast shape {broadcast}"),
    "inplace_overlap": (RuntimeError, "unsupported operation: more than one element of the written-to tensor refers to "
                                      "a single memory location. Please clone() the tensor before performing the "
                                      "operation."),
    "index_select_vector": (IndexError, "index_select(): Index is supposed to be a vector"),
    "index_select_dtype": (RuntimeError, "index_select(): Expected dtype int32 or int64 for index"),
    "index_out_of_range": (IndexError, "index out of range in self"),
    "index_dtype": (RuntimeError, "{op}(): Expected dtype int32/int64 for index"),
    "index_ndim": (RuntimeError, "Index tensor must have the same number of dimensions as {name} tensor"),
    "index_bounds": (RuntimeError, "index {index} is out of bounds for dimension {dim} with size {size}"),
    "scatter_src_dtype": (RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype"),
    "operand_type": (TypeError, "unsupported operand type(s): 'Tensor' and '{type}'"),
    "scatter_no_source": (TypeError, "scatter(): expected a src tensor or a value to scatter, got neither"),
    "scatter_reduce": (RuntimeError, "reduce argument must be either add or multiply."),
    "scatter_reduce_deprecated": (UserWarning, "The reduce argument of torch.scatter with Tensor src is deprecated "
                                               "and will be removed in a future PyTorch release. Use "
                                               "torch.scatter_reduce instead for more reduction options."),
    "derivative_not_implemented": (RuntimeError, "derivative for {op} is not implemented"),
    "derivative_not_implemented_for": (NotImplementedError, "the derivative for '{op}' is not implemented."),
    # constant padding (ops/conv.py)
    "pad_length_dims": (RuntimeError, "Padding length should be less than or equal to two times the input dimension "
                                      "but got padding length {length} and input of dimension {ndim}"),
    # layers and losses (ops/layers.py)
    "not_differentiable": (RuntimeError, "The function '{fn}' is not differentiable with respect to argument '{arg}'. "
                                         "This input cannot have requires_grad True."),
    "mm_shapes": (RuntimeError, "mat1 and mat2 shapes cannot be multiplied ({a} and {b})"),
    "linear_dtype": (RuntimeError, "mat1 and mat2 must have the same dtype, but got {a_scalar} and {b_scalar}"),
    "lerp_dtype": (RuntimeError, "expected dtype {want_ctype} for `{argument}` but got dtype {got_ctype}"),
    "addmm_bias_dtype": (RuntimeError, "self and mat2 must have the same dtype, but got {a_scalar} and {b_scalar}"),
    "embedding_indices_dtype": (RuntimeError, "Expected tensor for argument #1 'indices' to have one of the following "
                                              "scalar types: Long, Int; but got {type} instead (while checking "
                                              "arguments for embedding)"),
    "target_size_warning": (UserWarning, "Using a target size ({target_shape}) that is different to the input size "
                                         "({input_shape}). This will likely lead to incorrect results due to "
                                         "broadcasting. Please ensure they have the same size."),
    "result_type_cast": (RuntimeError, "result type {result_scalar} can't be cast to the desired output type "
                                       "{want_scalar}"),
    "nll_input_dims": (ValueError, "Expected 1 or more dimensions (got {ndim})"),
    "nll_batch_size": (ValueError, "Expected input batch_size ({input}) to match target batch_size ({target})."),
    "nll_multi_target": (RuntimeError, "0D or 1D target tensor expected, multi-target not supported"),
    "nll_1d_target": (ValueError, "For 1D input, 1D target must have size 1, but got target size: {size}"),
    "nll_target_size": (RuntimeError, "Expected target size {want}, got {got}"),
    "nll_size_mismatch": (RuntimeError, "size mismatch (got input: {input} , target: {target}"),
    "nll_target_dtype": (RuntimeError, "expected target dtype to be Long or Byte, but got {dtype_scalar}"),
    "nll_weight_shape": (RuntimeError, "weight tensor should be defined either for all {classes} classes or no classes "
                                       "but got weight tensor of shape: {shape}"),
    "nll_target_bounds": (IndexError, "Target {target} is out of bounds."),
    "bce_target_size": (ValueError, "Using a target size ({target_shape}) that is different to the input size "
                                    "({input_shape}) is deprecated. Please ensure they have the same size."),
    "found_dtype": (RuntimeError, "Found dtype {got_scalar} but expected {want_scalar}"),
    "bce_input_range": (RuntimeError, "all elements of input should be between 0 and 1"),
    "bce_target_range": (RuntimeError, "all elements of target should be between 0 and 1"),
    "bce_logits_target_size": (ValueError, "Target size ({target_shape}) must be the same as input size "
                                           "({input_shape})"),
}
