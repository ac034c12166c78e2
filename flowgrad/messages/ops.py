"""Messages of the differentiable ops (flowgrad/ops): argument, dtype, shape and index checks."""

MESSAGES: dict[str, tuple[type, str]] = {
    # arithmetic (ops/elementwise.py)
    "zero_division": (RuntimeError, "ZeroDivisionError"),
    # gather / scatter (ops/indexing.py)
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
