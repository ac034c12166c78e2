"""PyTorch's parameter names, defaults and keyword-only markers for the torch facade's functions
and Tensor methods (as PyTorch 2.13's argument parser accepts them), in the kit's signature grammar
(`flowgrad/facade/signatures.py`). Where an op's own parameters already are PyTorch's, the op is used
as it is. `~` marks the parameters to which PyTorch's parser gives no None (`torch.max(x, None)` raises,
where `torch.sum(x, None)` sums everything)."""
from __future__ import annotations

_UNARY_OUT = "input, *, out=None"
_BINARY_OUT = "input, other, *, out=None"
_LIKE = "input, *, dtype=None, layout=None, device=None, requires_grad=False, memory_format=None, pin_memory=False"
_RAND_LIKE = ("input, *, generator=None, dtype=None, layout=None, device=None, requires_grad=False, "
              "memory_format=None, pin_memory=False")
_FILLED = "*size, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False"
_RANDOM = "*size, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False"
_STAT = "input, dim=None, unbiased~=None, keepdim~=False, *, correction=None"

FUNCTIONS = {
    **{name: _UNARY_OUT for name in (
        "abs", "absolute", "ceil", "cos", "erf", "exp", "expm1", "floor", "log", "log10", "log1p", "log2", "neg",
        "negative", "reciprocal", "rsqrt", "sigmoid", "sign", "sin", "sqrt", "square", "tan", "tanh", "trunc",
        "logical_not", "msort", "lgamma", "digamma", "erfinv", "fix")},
    "polygamma": "n, input, *, out=None",
    "xlogy": "input, other, *, out=None",
    "arctan2": "input, other, *, out=None",
    "logaddexp": "input, other, *, out=None", "logaddexp2": "input, other, *, out=None",
    "logcumsumexp": "input, dim, *, out=None",
    **{name: _UNARY_OUT for name in (
        "acos", "arccos", "asin", "arcsin", "atan", "arctan", "cosh", "sinh", "asinh", "arcsinh", "acosh",
        "arccosh", "atanh", "arctanh", "deg2rad", "rad2deg", "frac", "sgn",
        "signbit", "bitwise_not", "angle", "conj_physical")},
    **{name: "input" for name in ("real", "imag", "conj", "resolve_conj", "view_as_real", "view_as_complex")},
    "complex": "real, imag, *, out=None",
    **{name: _BINARY_OUT for name in ("bitwise_and", "bitwise_or", "bitwise_xor", "fmod", "hypot")},
    **{name: _BINARY_OUT for name in (
        "mul", "multiply", "true_divide", "atan2", "eq", "ne", "not_equal", "ge", "greater_equal", "gt", "greater",
        "le", "less_equal", "lt", "less", "logical_and", "logical_or", "logical_xor", "maximum", "minimum",
        "remainder", "floor_divide", "matmul")},
    "add": "input, other, *, alpha=1, out=None",
    "sub": "input, other, *, alpha=1, out=None",
    "subtract": "input, other, *, alpha=1, out=None",
    "div": "input, other, *, rounding_mode=None, out=None",
    "divide": "input, other, *, rounding_mode=None, out=None",
    "round": "input, *, decimals=0, out=None",
    "isfinite": "input", "isinf": "input", "isnan": "input", "detach": "input", "relu": "input",
    "numel": "input", "is_inference": "input", "t": "input",
    "dot": "input, tensor, *, out=None",
    "mm": "input, mat2, *, out_dtype=None, out=None",
    "bmm": "input, mat2, *, out_dtype=None, out=None",
    "mv": "input, vec, *, out=None",
    "outer": "input, vec2, *, out=None",
    "pow": "input@a=None, exponent@b=None, *, self@a=None, out=None",   # pow(self=<number>, exponent=<tensor>)
    "addmm": "input, mat1, mat2, *, beta=1, alpha=1, out=None",
    "addbmm": "input, batch1, batch2, *, beta=1, alpha=1, out=None",
    "baddbmm": "input, batch1, batch2, *, beta=1, alpha=1, out=None",
    "addmv": "input, mat, vec, *, beta=1, alpha=1, out=None",
    "addr": "input, vec1, vec2, *, beta=1, alpha=1, out=None",
    "addcmul": "input, tensor1, tensor2, *, value=1, out=None",
    "addcdiv": "input, tensor1, tensor2, *, value=1, out=None",
    "lerp": "input, end, weight, *, out=None",
    "clamp_min": "input, min, *, out=None",
    "clamp_max": "input, max, *, out=None",
    "float_power": "input, exponent, *, out=None",
    "heaviside": "input, values, *, out=None",
    "logit": "input, eps=None, *, out=None",
    "nan_to_num": "input, nan=0.0, posinf=None, neginf=None, *, out=None",
    "tensordot": "a, b, dims=2, out=None",
    # reductions
    "sum": "input, dim=None, keepdim=False, *, dtype=None, out=None",
    "mean": "input, dim=None, keepdim~=False, *, dtype=None, out=None",
    "prod": "input, dim~=None, keepdim~=False, *, dtype=None, out=None",
    "amax": "input, dim=(), keepdim=False, *, out=None",
    "amin": "input, dim=(), keepdim=False, *, out=None",
    "argmax": "input, dim=None, keepdim~=False, *, out=None",
    "argmin": "input, dim=None, keepdim~=False, *, out=None",
    "all": "input, dim=None, keepdim~=False, *, out=None",
    "any": "input, dim=None, keepdim~=False, *, out=None",
    "max": "input, dim~=None, keepdim~=False, *, other~@dim=None, out=None",
    "min": "input, dim~=None, keepdim~=False, *, other~@dim=None, out=None",
    "median": "input, dim~=None, keepdim~=False, *, out=None",
    "count_nonzero": "input, dim=None",
    "nansum": "input, dim=None, keepdim=False, *, dtype=None, out=None",
    "sort": "input, dim~=-1, descending~=False, *, stable=False, out=None",   # (stable=None: PyTorch's bool?)
    "argsort": "input, dim~=-1, descending~=False, *, stable~=False, out=None",
    "kthvalue": "input, k, dim~=-1, keepdim~=False, *, out=None",
    "cumsum": "input, dim~, *, dtype=None, out=None",
    "cumprod": "input, dim~, *, dtype=None, out=None",
    "cummax": "input, dim, *, out=None",
    "cummin": "input, dim, *, out=None",
    "logsumexp": "input, dim~, keepdim~=False, *, out=None",
    "std": _STAT + ", out=None", "var": _STAT + ", out=None", "std_mean": _STAT, "var_mean": _STAT,
    "norm": "input, p='fro', dim=None, keepdim=False, out=None, dtype=None",
    "softmax": "input, dim~, dtype=None, *, out=None", "log_softmax": "input, dim~, dtype=None, *, out=None",
    # shapes and indexing
    "chunk": "input, chunks, dim=0",
    "flatten": "input, start_dim=0, end_dim=-1",
    "flip": "input, dims",
    "permute": "input, dims",
    "reshape": "input, shape",
    "squeeze": "input, dim~=None",
    "unsqueeze": "input, dim",
    "transpose": "input, dim0, dim1",
    "swapaxes": "input, axis0, axis1",
    "movedim": "input, source, destination",
    "diagonal": "input, offset=0, dim1=0, dim2=1",
    "unsafe_chunk": "input, chunks, dim=0", "unsafe_split": "input, split_size, dim=0",
    "unsafe_split_with_sizes": "input, split_sizes, dim=0",
    "swapdims": "input, dim0, dim1",
    "narrow": "input, dim, start, length",
    "select": "input, dim, index~",
    "tile": "input, dims",
    "unbind": "input, dim=0",
    "split": "tensor, split_size_or_sections, dim=0",
    "broadcast_to": "input, size",
    "cat": "tensors, dim=0, *, out=None",
    "concat": "tensors, dim=0, *, out=None",
    "concatenate": "tensors, dim=0, *, out=None",
    "stack": "tensors, dim=0, *, out=None",
    "hstack": "tensors, *, out=None",
    "vstack": "tensors, *, out=None",
    "gather": "input, dim, index, *, sparse_grad=False, out=None",
    "index_select": "input, dim, index, *, out=None",
    "masked_fill": "input, mask, value",
    "masked_select": "input, mask, *, out=None",
    "scatter": "input, dim, index, src=None, value=None, *, reduce=None, out=None",
    "scatter_add": "input, dim, index, src, *, out=None",
    "diff": "input, n=1, dim=-1, prepend=None, append=None, *, out=None",
    "take_along_dim": "input, indices, dim=None, *, out=None",
    "index_add": "input, dim, index, source, *, alpha=1, out=None",
    "index_copy": "input, dim, index, source, *, out=None",
    "index_fill": "input, dim, index, value",
    "scatter_reduce": "input, dim, index, src, reduce, *, include_self=True, out=None",
    "repeat_interleave": "input, repeats~=None, dim=None, *, output_size=None",
    "bucketize": "input, boundaries, *, out_int32=False, right=False, out=None",
    "searchsorted": "sorted_sequence, input@values, *, out_int32=False, right=False, side=None, out=None, "
                    "sorter=None",
    "histc": "input, bins=100, min=0, max=0, *, out=None",
    "kron": "input, other, *, out=None",
    "tril": "input, diagonal=0, *, out=None",
    "triu": "input, diagonal=0, *, out=None",
    "nonzero": "input, *, out=None, as_tuple~=False",
    "where": "condition, input~@a=None, other~@b=None, *, out=None",
    "clamp": "input, min=None, max=None, *, out=None",
    "clip": "input, min=None, max=None, *, out=None",
    "clone": "input, *, memory_format=None",
    "diag": "input, diagonal=0, *, out=None",
    "cdist": "x1, x2, p=2.0, compute_mode='use_mm_for_euclid_dist_if_necessary'",
    "topk": "input, k, dim~=-1, largest~=True, sorted~=True, *, out=None",
    # creation
    "zeros": _FILLED, "ones": _FILLED,
    "empty": _FILLED + ", memory_format=None",
    "full": "size, fill_value, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, "
            "pin_memory=False",
    "rand": _RANDOM, "randn": _RANDOM,
    "zeros_like": _LIKE, "ones_like": _LIKE, "empty_like": _LIKE,
    "full_like": "input, fill_value, *, dtype=None, layout=None, device=None, requires_grad=False, "
                 "memory_format=None, pin_memory=False",
    "rand_like": _RAND_LIKE, "randn_like": _RAND_LIKE,
    "bernoulli": "input, p~=None, *, generator=None, out=None",
    "arange": "start=0, end=None, step=1, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, "
              "pin_memory=False",
    "linspace": "start, end, steps, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, "
                "pin_memory=False",
    "eye": "n, m~=None, *, out=None, dtype=None, layout=None, device=None, requires_grad=False, pin_memory=False",
    "tensor": "data, *, dtype=None, device=None, requires_grad=False, pin_memory=False",
    "as_tensor": "data, *, dtype=None, device=None",
    "asarray": "obj@data, *, dtype=None, device=None, copy=None, requires_grad=False",
    "from_numpy": "ndarray",
    "from_dlpack": "ext_tensor, *, device=None, copy=None",
    "randint": "low=0, high~=None, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None, "
               "requires_grad=False, pin_memory=False",
    "randperm": "n, *, generator=None, out=None, dtype=None, layout=None, device=None, requires_grad=False, "
                "pin_memory=False",
    "randint_like": "input, low=0, high=None, *, dtype=None, layout=None, device=None, requires_grad=False, "
                    "memory_format=None, generator=None, pin_memory=False",
    "normal": "mean, std=1.0, size=None, *, generator=None, out=None, dtype=None, layout=None, device=None, "
              "pin_memory=False, requires_grad=False",
    "tril_indices": "row, col, offset=0, *, dtype=None, device=None, layout=None",
    "triu_indices": "row, col, offset=0, *, dtype=None, device=None, layout=None",
    # dtype and runtime queries
    "promote_types": "type1, type2",
    "result_type": "tensor, other",
    "set_default_device": "device",
    "multinomial": "input, num_samples, replacement~=False, *, generator=None, out=None",
}

# functions whose `out=` flowgrad writes (the rest refuse it with a clear error)
WRITES_OUT = frozenset((
    "add", "sub", "mul", "div", "pow", "matmul", "mm", "bmm", "exp", "log", "sin", "cos", "tanh", "sigmoid", "sqrt",
    "abs", "neg", "sum", "mean", "prod", "cat", "stack", "maximum", "minimum", "clamp", "where", "remainder",
    "floor_divide", "cumsum", "multiply", "subtract", "divide", "zeros", "ones", "cumprod", "logaddexp", "logaddexp2",
    "logcumsumexp"))

# Tensor methods: the parameters after `self`
_MEMORY_FORMAT = "*, memory_format=None"
METHODS = {
    **{name: "other" for name in (
        "mul", "multiply", "true_divide", "atan2", "eq", "ne", "not_equal", "ge", "greater_equal", "gt", "greater",
        "le", "less_equal", "lt", "less",
        "logical_and", "logical_or", "logical_xor", "maximum", "minimum",
        "remainder", "floor_divide", "matmul")},
    "add": "other, *, alpha=1", "sub": "other, *, alpha=1", "subtract": "other, *, alpha=1",
    "div": "other, *, rounding_mode=None", "divide": "other, *, rounding_mode=None",
    "dot": "tensor", "mm": "mat2", "bmm": "mat2", "mv": "vec", "outer": "vec2", "pow": "exponent", "xlogy": "other",
    "logaddexp": "other", "logaddexp2": "other", "logcumsumexp": "dim",
    "gather": "dim, index, *, sparse_grad=False",
    "where": "condition, other",
    "broadcast_to": "size",
    "permute": "*dims", "expand": "*size", "repeat": "*repeats", "view": "*size", "reshape": "*shape",
    "flip": "*dims", "tile": "*dims",
    **{name: _MEMORY_FORMAT for name in ("bool", "byte", "char", "double", "float", "half", "int", "long", "short",
                                         "cpu")},
    "cuda": "device=None, non_blocking=False, memory_format=None",
    "type": "dtype=None, non_blocking=False",
    "apply_": "callable",
    "max": "dim~=None, keepdim~=False, *, other~@dim=None", "min": "dim~=None, keepdim~=False, *, other~@dim=None",
    "prod": "dim~=None, keepdim~=False, *, dtype=None", "median": "dim~=None, keepdim~=False",
    "logsumexp": "dim~, keepdim~=False", "squeeze": "dim~=None", "select": "dim, index~",
    "std": _STAT.partition(", ")[2], "var": _STAT.partition(", ")[2],
    "argmax": "dim=None, keepdim~=False", "argmin": "dim=None, keepdim~=False",
    "sort": "dim~=-1, descending~=False, *, stable=False", "argsort": "dim~=-1, descending~=False, *, stable~=False",
    "kthvalue": "k, dim~=-1, keepdim~=False", "topk": "k, dim~=-1, largest~=True, sorted~=True",
    "copy_": "other@src, non_blocking=False",
    "clone": "*, memory_format=None",
    "mean": "dim=None, keepdim=False, *, dtype=None",
    "nansum": "dim=None, keepdim=False, *, dtype=None",
    "split": "split_size, dim=0",
    "swapaxes": "axis0, axis1", "swapaxes_": "axis0, axis1",
    "round": "*, decimals=0",
    "contiguous": "*, memory_format~=None", "is_contiguous": "*, memory_format~=None", "nonzero": "*, as_tuple~=False",
    "round_": "*, decimals=0",
    "sum_to_size": "*size",
    "new_empty": "*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False",
    "new_ones": "*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False",
    "new_zeros": "*size, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False",
    "new_full": "size, fill_value, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False",
    "new_tensor": "data, *, dtype=None, device=None, requires_grad=False, layout=None, pin_memory=False",
    "bernoulli": "p~=None, *, generator=None", "multinomial": "num_samples, replacement~=False, *, generator=None",
    "bernoulli_": "p=0.5, *, generator=None",
    "exponential_": "lambd=1.0, *, generator=None",
    "normal_": "mean=0.0, std=1.0, *, generator=None",
    "uniform_": "from_@a=0.0, to@b=1.0, *, generator=None",
    # in-place methods (the op hands its arguments on to the out-of-place function)
    **{name: "other" for name in ("mul_", "multiply_", "remainder_", "eq_", "ne_", "not_equal_", "lt_", "less_",
                                  "arctan2", "arctan2_", "atan2_",
                                  "le_", "less_equal_", "gt_", "greater_", "ge_", "greater_equal_")},
    "add_": "other, *, alpha=1", "sub_": "other, *, alpha=1", "subtract_": "other, *, alpha=1",
    "div_": "other, *, rounding_mode=None", "divide_": "other, *, rounding_mode=None",
    "pow_": "exponent", "clamp_": "min=None, max=None", "clip_": "min=None, max=None",
    "clamp_min_": "min", "clamp_max_": "max", "tril_": "diagonal=0", "triu_": "diagonal=0",
    "lerp_": "end, weight", "nan_to_num_": "nan=0.0, posinf=None, neginf=None",
    "addcmul_": "tensor1, tensor2, *, value=1", "addcdiv_": "tensor1, tensor2, *, value=1",
    "masked_fill_": "mask, value", "fill_": "value", "index_put_": "indices, values, accumulate=False!",
    "scatter_": "dim, index, src=None, value=None, *, reduce=None", "scatter_add_": "dim, index, src",
    "index_add": "dim, index, source, *, alpha=1", "index_add_": "dim, index, source, *, alpha=1",
    "index_copy_": "dim, index, source", "index_fill_": "dim, index, value",
    "scatter_reduce": "dim, index, src, reduce, *, include_self=True",
    "scatter_reduce_": "dim, index, src, reduce, *, include_self=True",
    "repeat_interleave": "repeats~, dim=None, *, output_size=None",
    "cumprod_": "dim, dtype=None", "cumsum_": "dim, dtype=None",
    **{name + suffix: params for name, params in (
        ("addmm", "mat1, mat2, *, beta=1, alpha=1"), ("addbmm", "batch1, batch2, *, beta=1, alpha=1"),
        ("baddbmm", "batch1, batch2, *, beta=1, alpha=1"), ("addmv", "mat, vec, *, beta=1, alpha=1"),
        ("addr", "vec1, vec2, *, beta=1, alpha=1")) for suffix in ("", "_")},
}

# torch.linalg's functions under their older top-level names (torch.det, torch.inverse, ...)
LINALG_TOP_LEVEL = {"det": "input", "inverse": "input, *, out=None", "logdet": "input", "matrix_exp": "input",
                    "matrix_power": "input, n, *, out=None"}

# torch.nn.functional and torch.linalg functions whose explicit None PyTorch refuses
FUNCTIONAL = {"adaptive_avg_pool1d": "input, output_size~", "adaptive_max_pool1d": "input, output_size~, return_indices=False"}
LINALG = {"vector_norm": "x, ord~=2, dim=None, keepdim=False, *, dtype=None",
          "matrix_rank": "A, tol~=None, hermitian=False, *, atol=None, rtol=None",
          "pinv": "A, rcond~=None, hermitian=False, *, atol=None, rtol=None"}
