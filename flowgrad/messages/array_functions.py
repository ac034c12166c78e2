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
