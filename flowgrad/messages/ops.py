"""Messages of the differentiable ops (flowgrad/ops): argument, dtype, shape and index checks."""

MESSAGES: dict[str, tuple[type, str]] = {
    # arithmetic (ops/elementwise.py)
    "zero_division": (RuntimeError, "ZeroDivisionError"),
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
}
