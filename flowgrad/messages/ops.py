"""Messages of the differentiable ops (flowgrad/ops): argument, dtype, shape and index checks."""

MESSAGES: dict[str, tuple[type, str]] = {
    # arithmetic (ops/elementwise.py)
    "zero_division": (RuntimeError, "ZeroDivisionError"),
    # products (ops/linalg.py)
    "dot_dtype": (RuntimeError, "dot : expected both vectors to have same dtype, but found {a_scalar} and {b_scalar}"),
    "addmv_dtype": (RuntimeError, "addmv input tensors must have the same dtype, but got {a_scalar}, {b_scalar}, and "
                                  "{a_scalar}"),
    "expected_scalar_type": (RuntimeError, "expected scalar type {a_scalar} but found {b_scalar}"),
    "mm_dtype": (RuntimeError, "expected m1 and m2 to have the same dtype, but got: {a_ctype} != {b_ctype}"),
    # reductions (ops/reduction.py)
    "moment_dtype": (RuntimeError, "{op} only support floating point and complex dtypes"),
    # shape ops (ops/shape.py)
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
    # sorting (facade/surface.py)
    "topk_range": (RuntimeError, "selected index k out of range"),
    "kthvalue_range": (RuntimeError, "kthvalue(): selected number k out of range for dimension {dim}"),
    # indexing by a key (ops/shape.py)
    "index_tensor_dtype": (IndexError, "tensors used as indices must be long, int, byte or bool tensors"),
    "index_type": (IndexError, "only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are "
                               "valid indices (got {type})"),
    # gather / scatter / index_select (ops/indexing.py)
    "index_select_vector": (IndexError, "index_select(): Index is supposed to be a vector"),
    "index_select_dtype": (RuntimeError, "index_select(): Expected dtype int32 or int64 for index"),
    "index_out_of_range": (IndexError, "index out of range in self"),
    "index_dtype": (RuntimeError, "{op}(): Expected dtype int32/int64 for index"),
    "index_ndim": (RuntimeError, "Index tensor must have the same number of dimensions as {name} tensor"),
    "index_bounds": (RuntimeError, "index {index} is out of bounds for dimension {dim} with size {size}"),
    "scatter_src_dtype": (RuntimeError, "scatter(): Expected self.dtype to be equal to src.dtype"),
    "scatter_reduce": (RuntimeError, "reduce argument must be either add or multiply."),
    "scatter_reduce_deprecated": (UserWarning, "The reduce argument of torch.scatter with Tensor src is deprecated "
                                               "and will be removed in a future PyTorch release. Use "
                                               "torch.scatter_reduce instead for more reduction options."),
    "derivative_not_implemented": (RuntimeError, "derivative for {op} is not implemented"),
    # layers and losses (ops/layers.py)
    "not_differentiable": (RuntimeError, "The function '{fn}' is not differentiable with respect to argument '{arg}'. "
                                         "This input cannot have requires_grad True."),
    "mm_shapes": (RuntimeError, "mat1 and mat2 shapes cannot be multiplied ({a}x{b} and {c}x{d})"),
    "linear_dtype": (RuntimeError, "mat1 and mat2 must have the same dtype, but got {a_scalar} and {b_scalar}"),
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
    "bce_logits_target_size": (ValueError, "Target size ({target_shape}) must be the same as input size "
                                           "({input_shape})"),
}
