"""Messages of the index, cumulative and search ops (ops/index_ops.py, ops/cumulative.py,
ops/search.py, ops/tiling.py)."""

MESSAGES: dict[str, tuple[type, str]] = {
    # index_add / index_copy / index_fill / scatter_reduce (ops/index_ops.py)
    "index_add_vector": (IndexError, "index_add_(): Index is supposed to be a vector, but got dim: {ndim} with type: "
                                     "{dtype_scalar} and size: {size}"),
    "index_add_dtype": (RuntimeError, "index_add_(): Expected dtype int32/int64 for index but got: {dtype_scalar}"),
    "index_add_source_dtype": (RuntimeError, "index_add_(): self ({self_scalar}) and source ({source_scalar}) must "
                                             "have the same scalar type"),
    "index_add_source_dim": (RuntimeError, "index_add_(): Indexing dim {dim} is out of bounds of the source tensor "
                                           "with dim {ndim}"),
    "index_add_count": (RuntimeError, "index_add_(): Number of indices ({count}) should be equal to source.size(dim): "
                                      "({size}), for dim: {dim}"),
    "index_add_shape": (RuntimeError, "source tensor shape must match self tensor shape, excluding the specified "
                                      "dimension. Got self.shape = {self_size} source.shape = {source_size}"),
    "index_copy_vector": (IndexError, "index_copy_(): Index should have dimension 1 or 0 (got {ndim})"),
    "index_copy_scalar": (IndexError, "index_copy_(): When source is scalar, index should have one element (got "
                                      "{count})"),
    "index_copy_ndim": (IndexError, "index_copy_(): When source and destination are not scalars, their "
                                    "dimensionality must match. Source dimensionality ({source}), destination "
                                    "dimensionality ({dest})"),
    "index_copy_dtype": (RuntimeError, "index_copy_(): Expected a long tensor for index, but got {dtype_scalar}"),
    "index_copy_source_dtype": (RuntimeError, "index_copy_(): self and source expected to have the same dtype, but "
                                              "got (self) {self_scalar} and (source) {source_scalar}"),
    "index_copy_slices": (RuntimeError, "index_copy_(): Source/destination tensor must have same slice shapes. "
                                        "Destination slice shape: {dest} at dimension {dim} and source slice shape: "
                                        "{source} at dimension 0."),
    "index_copy_count": (IndexError, "index_copy_(): Number of indices ({count}) should be equal to source.size(dim) "
                                     "({size})"),
    "index_copy_bounds": (IndexError, "index_copy_(): index {index} is out of bounds for dimension {dim} with size "
                                      "{size}"),
    "index_fill_value_dim": (RuntimeError, "index_fill_ only supports a 0-dimensional value tensor, but got tensor "
                                           "with {ndim} dimension(s)."),
    "index_fill_dtype": (IndexError, "index_fill_(): Expected dtype int64 for index."),
    "index_fill_complex": (RuntimeError, "index_fill_(): Converting complex Scalar to non-complex type is not "
                                         "supported"),
    "index_fill_vector": (RuntimeError, "Index has to be a vector/scalar"),
    "index_fill_autograd_dtype": (RuntimeError, "Autograd not support dtype: {dtype_scalar}"),
    "scatter_reduce_backward_kind": (RuntimeError, "Expected 'reduce' to be one of 'sum', 'prod', 'mean', 'amax', "
                                                   "'amin' but got {reduce}."),
    "index_fill_bounds": (IndexError, "index {index} is out of bounds for dimension {dim} with size {size}"),
    "scatter_reduce_kind": (RuntimeError, "reduce argument must be either sum, prod, mean, amax or amin, got "
                                          "{reduce}"),
    "scatter_index_size": (RuntimeError, "Expected index {index} to be no larger than self {dest} apart from "
                                         "dimension {dim} and to be no larger size than src {src}"),
    "scatter_reduce_double_backward": (RuntimeError, "scatter_reduce(): Double backward is unsupported for src when "
                                                     ">1 zeros in src are scattered to the same position in self"),
    # searchsorted / bucketize / histc (ops/search.py)
    "searchsorted_side": (RuntimeError, "torch.searchsorted(): side can only be 'left' or 'right' but got {side}"),
    "searchsorted_side_right": (RuntimeError, "torch.searchsorted(): side and right can't be set to opposites, got "
                                              "side of {side} while right was True"),
    "searchsorted_sorter_size": (RuntimeError, "torch.searchsorted(): boundary and sorter must have the same size, but "
                                               "got boundary tensor {boundary}and got sorter tensor {sorter}"),
    "searchsorted_sorter_dtype": (RuntimeError, "torch.searchsorted(): sorter must be a tensor of long dtype but got "
                                                "dtype {dtype_scalar}"),
    "searchsorted_sorter_range": (RuntimeError, "torch.searchsorted(): sorter index out of range"),
    "searchsorted_scalar": (RuntimeError, "torch.searchsorted(): input value can be a scalar only when boundaries "
                                          "tensor dimension is 1, but we got boundaries tensor dim({ndim}) and input "
                                          "value's dim({value_ndim}) numel({numel})"),
    "searchsorted_boundaries_0d": (RuntimeError, "torch.searchsorted(): boundaries tensor should have positive "
                                                 "dimension, but got 0 dimension"),
    "searchsorted_dims": (RuntimeError, "torch.searchsorted(): boundaries tensor should be 1 dimension or the first "
                                        "N-1 dimensions of boundaries tensor and input value tensor must match, but we "
                                        "got boundaries tensor {boundaries} and input value tensor {values}"),
    "bucketize_boundaries": (RuntimeError, "boundaries tensor must be 1 dimension, but got dim({ndim})"),
    "histc_bins": (RuntimeError, "torch.histogram(): bins must be > 0, but got {bins} for dimension 0"),
    "histc_order": (RuntimeError, "torch.histc: max must be larger than min"),
    "histc_range": (RuntimeError, "torch.histc: range of [{min:g}, {max:g}] is not finite"),
    # repeat_interleave (ops/tiling.py)
    "repeat_interleave_vector": (RuntimeError, "repeat_interleave only accept 1D vector as repeat"),
    "repeat_interleave_repeats_dim": (RuntimeError, "repeats must be 0-dim or 1-dim tensor"),
    "repeat_interleave_negative_tensor": (RuntimeError, "repeats can not be negative"),
    "repeat_interleave_negative": (RuntimeError, "Repeats must be non-negative"),
    "repeat_interleave_size": (RuntimeError, "repeats must have the same size as input along dim, but got "
                                             "repeats.size(0) = {repeats} and input.size({dim}) = {size}"),
    "repeat_interleave_allocated": (RuntimeError, "allocated size does not match required size"),
    "repeat_interleave_output_size": (RuntimeError, "repeat_interleave: Invalid output_size, expected {expected} but "
                                                    "got {got}"),
    # unique / unique_consecutive (ops/sets.py)
    "unique_not_differentiable": (NotImplementedError, "the derivative for '{op}' is not implemented."),
    # tril_indices / triu_indices (creation.py)
    "triangle_indices_negative": (RuntimeError, "{name} must be non-negative, got{value}"),
    # compositions checked as ATen checks them (ops/indexing.py, facade/surface.py)
    "take_along_dim_dtype": (RuntimeError, "torch.take_along_dim(): dtype of indices should be Long but got "
                                           "{dtype_scalar}"),
    "take_along_dim_ndim": (RuntimeError, "torch.take_along_dim(): input and indices should have the same number of "
                                          "dimensions, but got {ndim} dimensions for input, and {indices_ndim} "
                                          "dimensions for indices"),
    "diff_0d": (RuntimeError, "diff expects input to be at least one-dimensional"),
    "diff_order": (RuntimeError, "order must be non-negative but got {n}"),
    "diff_other_ndim": (RuntimeError, "diff expects prepend or append to be the same dimension as input"),
    "diff_other_shape": (RuntimeError, "diff expects the shape of tensor to prepend or append to match that of input "
                                       "except along the differencing dimension; input.size({dim}) = {size}, but got "
                                       "tensor.size({dim}) = {other}"),
    "tensordot_negative": (RuntimeError, "tensordot expects dims >= 0, but got dims={dims}"),
    "tensordot_too_many": (RuntimeError, "tensordot expects dims < ndim_a or ndim_b, but got dims={dims}"),
    "tensordot_lists": (RuntimeError, "both dimension lists should have same length"),
    "tensordot_sizes": (RuntimeError, "contracted dimensions need to match, but first has size {a} in dim {a_dim} and "
                                      "second has size {b} in dim {b_dim}"),
    "meshgrid_empty": (RuntimeError, "meshgrid expects a non-empty TensorList"),
    "meshgrid_dims": (RuntimeError, "torch.meshgrid: Expected 0D or 1D tensor in the tensor list but got: {tensor}"),
    "meshgrid_dtype": (RuntimeError, "meshgrid expects all tensors to have the same dtype"),
    # cdist (ops/distance.py)
    "cdist_mode": (ValueError, "{mode} is not a valid value for compute_mode"),
    "cdist_dims": (RuntimeError, "cdist only supports at least 2D tensors, {name} got: {ndim}D"),
    "cdist_columns": (RuntimeError, "X1 and X2 must have the same number of columns. X1: {x1} X2: {x2}"),
    "cdist_dtype": (RuntimeError, "cdist only supports floating-point dtypes, {name} got: {dtype_scalar}"),
    "cdist_p": (RuntimeError, "cdist only supports non-negative p values"),
    # cumulative ops in place (ops/cumulative.py)
    "inplace_dtype_mismatch": (RuntimeError, "Bad in-place call: input tensor dtype {self_ctype} and output tensor "
                                             "dtype {out_ctype} should match"),
}
