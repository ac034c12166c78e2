"""Messages of torch's array functions built over the op table: the fused products
(ops/products.py) and the arrangement, statistics and integer functions beside them."""

MESSAGES: dict[str, tuple[type, str]] = {
    # addmm, addbmm, baddbmm, addmv, addr (ops/products.py)
    "value_overflow_float": (RuntimeError, "value cannot be converted to type {dtype_ctype} without overflow"),
    "integral_coefficient": (RuntimeError, "For integral input tensors, argument {name} must not be a floating point "
                                           "number."),
    "boolean_coefficient": (RuntimeError, "Boolean {name} only supported for Boolean results."),
    "not_a_matrix_dims": (RuntimeError, "{name} must be a matrix, got {ndim}-D tensor"),
    "batch_counts": (RuntimeError, "batch1 and batch2 must have same number of batches, got {a} and {b}"),
    "bmm_incompatible": (RuntimeError, "Incompatible matrix sizes for bmm ({a} and {b})"),
    "baddbmm_dtypes": (RuntimeError, "Input dtypes must be the same, got: input {self_ctype}, batch1: {a_ctype}, "
                                     "batch2: {b_ctype}"),
    "addmv_dims": (RuntimeError, "vector + matrix @ vector expected, got {input}, {mat}, {vec}"),
    "addmv_dtypes": (RuntimeError, "addmv input tensors must have the same dtype, but got {self_scalar}, "
                                   "{mat_scalar}, and {vec_scalar}"),
    "inplace_sizes": (RuntimeError, "Bad in-place call: input tensor size {input} and output tensor size {output} "
                                    "should match"),
    "addr_dims": (RuntimeError, "addr: Expected 1-D argument {name}, but got {ndim}-D"),
}
MESSAGES.update({
    # torch.cross (ops/products.py)
    "cross_default_dim": (UserWarning, "Using torch.cross without specifying the dim arg is deprecated.\nPlease "
                                       "either pass the dim explicitly or simply use torch.linalg.cross.\nThe default "
                                       "value of dim will change to agree with that of linalg.cross in a future "
                                       "release."),
    "cross_no_dim": (RuntimeError, "no dimension of size 3 in input"),
    # rot90, tensor_split, take, put (ops/arrangement.py)
    "rot90_dims_count": (RuntimeError, "expected total rotation dims == 2, but got dims = {count}"),
    "rot90_ndim": (RuntimeError, "expected total dims >= 2, but got total dims = {ndim}"),
    "rot90_same_dims": (RuntimeError, "expected rotation dims to be different, but got dim0 = {dim0} and dim1 = "
                                      "{dim1}"),
    "tensor_split_0d": (RuntimeError, "tensor_split expected at least a 1-dimensional tensor, but got a tensor with "
                                      "{ndim} dims"),
    "tensor_split_dtype": (RuntimeError, "tensor_split expected tensor_indices_or_sections to have dtype of long, but "
                                         "got {dtype_scalar}"),
    "tensor_split_ndim": (RuntimeError, "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or "
                                        "one-dimensional tensor, but got a tensor with {ndim} dims"),
    "tensor_split_sections": (RuntimeError, "number of sections must be larger than 0, got {sections}"),
    "flat_index_dtype": (RuntimeError, "{op}(): Expected a long tensor for index, but got {dtype_scalar}"),
    "take_empty": (IndexError, "take(): tried to take from an empty tensor"),
    "flat_index_range": (IndexError, "out of range: tried to access index {index} on a tensor of {numel} elements."),
    "put_dtype": (RuntimeError, "put_(): self and source expected to have the same dtype, but got self.dtype = "
                                "{self_scalar} and source.dtype = {source_scalar}"),
    "put_numel": (IndexError, "put_(): Expected source and index to have the same number of elements, but got "
                              "source.numel() = {source}, index.numel() = {index}"),
    # cov, corrcoef (ops/statistics.py)
    "stat_ndim": (RuntimeError, "{op}(): expected input to have two or fewer dimensions but got an input with {ndim} "
                                "dimensions"),
    "cov_bool": (RuntimeError, "cov(): bool dtype is not supported for input"),
    "cov_correction_type": (TypeError, "cov(): argument 'correction' must be int, not {type}"),
    "cov_weights_ndim": (RuntimeError, "cov(): expected {name} to have one or fewer dimensions but got {name} with "
                                       "{ndim} dimensions"),
    "cov_weights_dtype": (RuntimeError, "cov(): expected {name} to have {wanted} dtype but got {name} with "
                                        "{dtype_scalar} dtype"),
    "cov_weights_numel": (RuntimeError, "cov(): expected {name} to have the same numel as there are observations in "
                                        "the input but got {numel} != {observations}"),
    "cov_weights_negative": (RuntimeError, "cov(): {name} cannot be negative"),
    "cov_weights_zero": (RuntimeError, "cov(): weights sum to zero, can't be normalized"),
    "cov_dof": (UserWarning, "cov(): degrees of freedom is <= 0. Correction should be strictly less than the number "
                             "of observations."),
})
MESSAGES.update({
    # quantile, nanquantile (ops/statistics.py)
    "quantile_interpolation": (RuntimeError, "quantile() interpolation must be one of linear, lower, higher, midpoint or "
                                             "nearest, but got {interpolation}"),
    "quantile_q_range": (RuntimeError, "quantile() q must be in the range [0, 1] but got {q}"),
    "quantile_empty": (RuntimeError, "quantile() input tensor must be non-empty"),
    "quantile_q_ndim": (RuntimeError, "quantile() q must be a scalar or 1D tensor"),
    "quantile_dtype": (RuntimeError, "quantile() input tensor must be either float or double dtype"),
    "quantile_q_dtype": (RuntimeError, "quantile() q tensor must be same dtype as the input tensor"),
    "quantile_q_values": (RuntimeError, "quantile() q values must be in the range [0, 1]"),
    "quantile_too_large": (RuntimeError, "quantile() input tensor is too large"),
})
MESSAGES.update({
    # histogram (ops/statistics.py)
    "histogram_bins_ndim": (RuntimeError, "torch.histogramdd: bins tensor should have one dimension, but got {ndim} "
                                          "dimensions in the bins tensor for dimension 0"),
    "histogram_bins_dtype": (RuntimeError, "torch.histogramdd: input tensor and bins tensors should have the same "
                                           "dtype, but got input with dtype {input_ctype} and bins for dimension 0 "
                                           "with dtype {bins_ctype}"),
    "histogram_range": (RuntimeError, "torch.histogramdd: dimension 0's range [{min:g}, {max:g}] is not finite"),
    "histogram_order": (RuntimeError, "torch.histogramdd: min should not exceed max, but got min {min:g} max {max:g} "
                                      "for dimension 0"),
    "histogram_weight_dtype": (RuntimeError, "torch.histogramdd: if weight tensor is provided, input tensor and "
                                             "weight tensor should have the same dtype, but got input({input_ctype}), "
                                             "and weight({weight_ctype})"),
    "histogram_weight_shape": (RuntimeError, "torch.histogramdd: if weight tensor is provided it should have the "
                                             "same shape as the input tensor excluding its innermost dimension, but "
                                             "got input with shape {input} and weight with shape {weight}"),
    # block_diag, cartesian_prod, combinations, vander (ops/arrangement.py)
    "block_diag_ndim": (RuntimeError, "torch.block_diag: Input tensors must have 2 or fewer dimensions. Input {index} "
                                      "has {ndim} dimensions"),
    "expect_vector": (RuntimeError, "Expect a 1D vector, but got shape {shape}"),
    "combinations_negative": (RuntimeError, "Expect a non-negative number, but got {r}"),
    "vander_ndim": (RuntimeError, "x must be a one-dimensional tensor."),
    "vander_negative": (RuntimeError, "N must be non-negative."),
    # isin (ops/sets.py)
    "isin_dtype": (RuntimeError, "Unsupported input type encountered for isin(): {dtype_scalar}"),
    # trapezoid, cumulative_trapezoid (ops/integration.py)
    "trapezoid_bool": (RuntimeError, "{op}: received a bool input for `{inputs}`, but bool is not supported"),
    "trapezoid_samples": (RuntimeError, "{op}: There must be one `x` value for each sample point"),
    "trapezoid_dx": (RuntimeError, "{op}: Currently, we only support dx as a real number."),
    # window functions (flowgrad/windows.py)
    "window_length": (RuntimeError, "{fn} requires non-negative window_length, got window_length={length}"),
    "window_dtype": (RuntimeError, "{fn} expects floating point dtypes, got: TensorOptions(dtype={dtype_ctype}, "
                                   "device=cpu, layout=Strided (default), requires_grad=false (default), "
                                   "pinned_memory=false, memory_format=(nullopt))"),
})
MESSAGES["trapezoid_x_and_dx"] = (TypeError, "{op}() takes sample points x or a spacing dx, not both")
