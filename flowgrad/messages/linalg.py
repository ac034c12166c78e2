"""Messages of torch.linalg's decompositions, solvers and norms (flowgrad/ops/linalg_decomp.py)."""


class LinAlgError(RuntimeError):
    """A linear-algebra routine failed on its input (singular, not positive-definite): PyTorch's
    `torch.linalg.LinAlgError`, a RuntimeError."""


MESSAGES: dict[str, tuple[type, str]] = {
    "linalg_float": (RuntimeError, "{op}: Expected a floating point or complex tensor as input. Got {dtype_scalar}"),
    "linalg_low_precision": (RuntimeError, "{op}: Low precision dtypes not supported. Got {dtype_scalar}"),
    "linalg_min_2d": (RuntimeError, "{op}: The input tensor {name} must have at least 2 dimensions."),
    "linalg_square": (RuntimeError, "{op}: A must be batches of square matrices, but they are {rows} by {cols} "
                                    "matrices"),
    "linalg_same_dtype": (RuntimeError, "{op}: Expected A and B to have the same dtype, but found A of type "
                                        "{a_scalar} and B of type {b_scalar} instead"),
    "linalg_inv_singular": (LinAlgError, "{op}: The diagonal element {index} is zero, the inversion could not be "
                                         "completed because the input matrix is singular."),
    "linalg_inv_singular_batch": (LinAlgError, "{op}: (Batch element {batch}): The diagonal element {index} is "
                                               "zero, the inversion could not be completed because the input "
                                               "matrix is singular."),
    "linalg_solve_singular": (LinAlgError, "{op}: The solver failed because the input matrix is singular."),
    "linalg_solve_shapes": (RuntimeError, "{op}: Incompatible shapes of A and B for the equation AX = B "
                                          "({a_rows}x{a_cols} and {b_rows}x{b_cols})"),
    "linalg_not_pd": (LinAlgError, "{op}: The factorization could not be completed because the input is not "
                                   "positive-definite (the leading minor of order {order} is not "
                                   "positive-definite)."),
    "linalg_not_pd_batch": (LinAlgError, "{op}: (Batch element {batch}): The factorization could not be completed "
                                         "because the input is not positive-definite (the leading minor of order "
                                         "{order} is not positive-definite)."),
    "linalg_matrix_norm_ord": (RuntimeError, "linalg.matrix_norm: Order {ord} not supported."),
    "linalg_matrix_norm_dim": (RuntimeError, "linalg.matrix_norm: dim must be a 2-tuple. Got {dim}"),
    "linalg_matrix_norm_same_dims": (RuntimeError, "linalg.matrix_norm: dims must be different. Got ({a}, {b})"),
    "linalg_norm_dim_len": (RuntimeError, "linalg.norm: If dim is specified, it must be of length 1 or 2. Got "
                                          "{dim}"),
    "linalg_norm_ndim": (RuntimeError, "linalg.norm: If dim is not specified but ord is, the input must be 1D or "
                                       "2D. Got {ndim}D."),
    "linalg_dim_repeated": (RuntimeError, "dim {dim} appears multiple times in the list of dims"),
    "linalg_norm_empty": (RuntimeError, "linalg.vector_norm cannot compute the {ord} norm on an empty tensor "
                                        "because the operation does not have an identity"),
    "linalg_qr_mode": (RuntimeError, "qr received unrecognized mode '{mode}' but expected one of 'reduced' "
                                     "(default), 'r', or 'complete'"),
    "linalg_qr_r_backward": (RuntimeError, "The derivative of linalg.qr depends on Q, which is not computed when "
                                           "mode='r'. Please use linalg.qr(A, mode='reduced') if you are going to "
                                           "differentiate through linalg.qr."),
    "linalg_qr_complete_backward": (RuntimeError, "The QR decomposition is not differentiable when mode='complete' "
                                                  "and nrows > ncols."),
    "linalg_uplo": (RuntimeError, "Expected UPLO argument to be 'L' or 'U', but got {uplo}"),
    "cholesky_solve_min_2d": (RuntimeError, "{name} should have at least 2 dimensions, but has {ndim} dimensions "
                                            "instead"),
    "cholesky_solve_dtype": (RuntimeError, "Expected b and A to have the same dtype, but found b of type {b_scalar} "
                                           "and A of type {a_scalar} instead."),
    "cholesky_solve_square": (RuntimeError, "A must be batches of square matrices, but they are {rows} by {cols} "
                                            "matrices"),
    "cholesky_solve_sizes": (RuntimeError, "Incompatible matrix sizes for cholesky_solve: each A matrix is {rows} by "
                                           "{rows} but each b matrix is {b_rows} by {b_cols}"),
    "linalg_not_implemented": (NotImplementedError, "\"{kernel}\" not implemented for '{dtype_scalar}'"),
    "linalg_legacy_tolerance": (TypeError, "{fn}(): {argument} must be a Tensor or a float, given without atol "
                                           "and rtol"),
    "matrix_rank_removed": (RuntimeError, "This function was deprecated since version 1.9 and is now removed.\nPlease "
                                          "use the `torch.linalg.matrix_rank` function instead. The parameter "
                                          "'symmetric' was renamed in `torch.linalg.matrix_rank()` to 'hermitian'."),
    "linalg_pinv_dtype": (RuntimeError, "linalg.pinv({dtype_scalar}{{[{shape}]}}): expected a tensor with 2 or more "
                                        "dimensions of float, double, cfloat or cdouble types"),
    "linalg_lstsq_dtype": (RuntimeError, "This function doesn't handle types other than float and double"),
    "linalg_lstsq_same_dtype": (RuntimeError, "{op}: Expected input and other to have the same dtype, but got "
                                              "input's dtype {a_scalar} and other's dtype {b_scalar}"),
    "linalg_lstsq_min_2d": (RuntimeError, "{op}: input must have at least 2 dimensions."),
    "linalg_lstsq_dims": (RuntimeError, "{op}: input.dim() must be greater or equal to other.dim() and (input.dim() - "
                                        "other.dim()) <= 1"),
    "linalg_lstsq_rows": (RuntimeError, "{op}: input.size(-2) should match other.size({b_dim})"),
    "linalg_lstsq_driver": (RuntimeError, "{op}: parameter `driver` should be one of (gels, gelsy, gelsd, gelss)"),
    "linalg_lstsq_rank": (LinAlgError, "{op}: The least squares solution could not be computed because the input "
                                       "matrix does not have full rank (error code: {code})."),
    "linalg_svd_driver": (RuntimeError, "torch.linalg.svd: keyword argument `driver=` is only supported on CUDA "
                                        "inputs with cuSOLVER backend."),
    "linalg_multi_dot_count": (RuntimeError, "multi_dot(): expected at least 2 tensors but got {count}"),
    "linalg_vecdot_dtype": (RuntimeError, "linalg.vecdot: Expected x and y to have the same dtype, but found x of "
                                          "type {a_scalar} and y of type {b_scalar} instead"),
    "linalg_cross_ndim": (RuntimeError, "linalg.cross: inputs must have the same number of dimensions."),
    "linalg_cross_length": (RuntimeError, "linalg.cross: inputs dimension {dim} must have length 3. Got {a} and {b}"),
    "linalg_cond_ord": (RuntimeError, "linalg.cond got an invalid norm type: {ord}"),
    "diagonal_same_dims": (RuntimeError, "diagonal dimensions cannot be identical {a}, {b}"),
    "fill_diagonal_dims": (RuntimeError, "dimensions must larger than 1"),
    "fill_diagonal_lengths": (RuntimeError, "all dimensions of input must be of equal length"),
    "linalg_vander_n": (RuntimeError, "N must be greater than 1."),
    "linalg_tensorinv_ind": (RuntimeError, "Expected a strictly positive integer for 'ind', but got {ind}"),
    "linalg_tensor_prod": (RuntimeError, "Expected self to satisfy the requirement prod(self.shape[{what}:]) == "
                                         "prod(self.shape[:{what}]), but got {a} != {b}"),
    "linalg_lu_dims": (RuntimeError, "{op}: Expected tensor with 2 or more dimensions. Got size: {shape} instead"),
    "linalg_lu_no_pivot": (RuntimeError, "linalg.lu_factor: LU without pivoting is not implemented on the CPU"),
    "linalg_lu_factor_singular": (RuntimeError, "{op}: U[{index},{index}] is zero and using it on lu_solve would "
                                                "result in a division by zero. If you still want to perform the "
                                                "factorization, consider calling linalg.lu(A, pivot) or "
                                                "linalg.lu_factor_ex(A, pivot)"),
    "linalg_lu_factor_singular_batch": (RuntimeError, "{op}: (Batch element {batch}): U[{index},{index}] is zero "
                                                      "and using it on lu_solve would result in a division by zero. "
                                                      "If you still want to perform the factorization, consider "
                                                      "calling linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"),
    "linalg_lu_solve_dtype": (RuntimeError, "linalg.lu_solve: Expected LU and B to have the same dtype, but found LU "
                                            "of type {a_scalar} and B of type {b_scalar} instead"),
    "linalg_lu_solve_pivots": (RuntimeError, "linalg.lu_solve: pivots should be a Tensor of scalar type torch.int32"),
    "linalg_lu_solve_pivots_count": (RuntimeError, "linalg.lu_solve: Number of pivots per batch should be same as "
                                                   "the dimension of the matrix"),
}
