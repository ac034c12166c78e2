"""The types PyTorch's argument parser expects, by parameter name, for the torch facade's functions
and Tensor methods (the kit's `facade/argtypes.py` checks them when a call fails). `OVERRIDES`
("function.parameter" -> kind, or None for no check) covers the names PyTorch uses for two types."""
from __future__ import annotations

_TENSOR = ("input", "tensor", "tensor1", "tensor2", "mat1", "mat2", "vec", "vec2", "mask", "src", "condition",
           "target", "x1", "x2", "input1", "input2", "A", "B", "LU", "pivots", "query", "key", "values", "index",
           "indices", "x", "y", "a", "b", "self")
_OPTIONAL_TENSOR = ("weight", "bias", "weights", "running_mean", "running_var", "pos_weight", "offsets",
                    "per_sample_weights", "attn_mask", "append", "prepend")
_TENSOR_OR_NUMBER = ("other", "exponent", "end", "mean", "std")
_OPTIONAL_TENSOR_OR_NUMBER = ("min", "max")
_INTS = ("dims", "shape", "size", "output_size", "pad", "sizes", "shifts", "repeats", "kernel_size", "stride", "dilation", "output_padding",
         "normalized_shape", "source", "destination", "split_size", "split_size_or_sections")
_OPTIONAL_INTS = ("dim",)
_INT = ("k", "diagonal", "chunks", "n", "num_samples", "row", "col", "offset", "groups", "num_classes",
        "num_groups", "minlength", "length", "ignore_index", "upscale_factor", "downscale_factor", "steps", "dim0",
        "dim1", "dim2", "start_dim", "end_dim", "axis0", "axis1", "ind")
_NUMBER = ("alpha", "beta", "eps", "negative_slope", "lambd", "fill_value", "momentum", "rtol", "atol",
           "delta", "label_smoothing", "min_val", "max_val", "norm_type", "dropout_p", "step")
_OPTIONAL_NUMBER = ("nan", "posinf", "neginf", "max_norm", "rcond")
_BOOL = ("keepdim", "descending", "stable", "largest", "sorted", "inplace", "training", "ceil_mode",
         "count_include_pad", "return_indices", "as_tuple", "equal_nan", "left", "upper", "unitriangular", "hermitian",
         "full_matrices", "pivot", "check_errors", "adjoint", "sparse", "scale_grad_by_freq", "return_inverse",
         "return_counts", "replacement", "log_target", "is_causal", "need_weights", "include_last_offset",
         "sparse_grad", "requires_grad", "non_blocking", "enable_gqa")
_OPTIONAL_BOOL = ("align_corners", "unbiased")
_STR = ("reduction", "equation", "approximate", "UPLO", "mode")
_OPTIONAL_STR = ("rounding_mode", "driver")

KINDS: dict[str, str] = {
    **dict.fromkeys(_TENSOR, "Tensor"), **dict.fromkeys(_OPTIONAL_TENSOR, "Tensor?"),
    **dict.fromkeys(_TENSOR_OR_NUMBER, "Tensor|Number"), **dict.fromkeys(_OPTIONAL_TENSOR_OR_NUMBER, "Tensor|Number?"),
    **dict.fromkeys(_INTS, "tuple of ints"), **dict.fromkeys(_OPTIONAL_INTS, "tuple of ints?"),
    **dict.fromkeys(_INT, "int"), **dict.fromkeys(_NUMBER, "Number"), **dict.fromkeys(_OPTIONAL_NUMBER, "Number?"),
    **dict.fromkeys(_BOOL, "bool"), **dict.fromkeys(_OPTIONAL_BOOL, "bool?"), **dict.fromkeys(_STR, "str"),
    **dict.fromkeys(_OPTIONAL_STR, "str?"), "dtype": "torch.dtype?", "out_dtype": "torch.dtype?",
    "value": "Tensor|Number", "tensors": "tuple of Tensors",
}

OVERRIDES: dict[str, str | None] = {
    "lerp.weight": "Tensor|Number", "select.index": "int", "result_type.tensor": "Tensor|Number",
    "pow.input": "Tensor|Number", "scaled_dot_product_attention.value": "Tensor",
    "multi_head_attention_forward.value": "Tensor", "index_put_.indices": None,
    "max.dim": None, "min.dim": None, "arange.end": "Number", "linspace.end": "Number",
    "can_cast.from_": "torch.dtype", "can_cast.to": "torch.dtype", "promote_types.type1": "torch.dtype",
    "promote_types.type2": "torch.dtype", "norm.p": "Number|str?", "norm.ord": "Number|str?", "vector_norm.ord": "Number",
    "matrix_norm.ord": "Number|str", "cond.p": "Number|str?", "normalize.p": "Number", "bernoulli_.p": "Tensor|Number",
    "dropout.p": "Number", "conv1d.weight": "Tensor", "conv2d.weight": "Tensor", "conv3d.weight": "Tensor",
    "conv_transpose1d.weight": "Tensor", "conv_transpose2d.weight": "Tensor", "conv_transpose3d.weight": "Tensor",
    "linear.weight": "Tensor", "prelu.weight": "Tensor", "embedding.weight": "Tensor", "bilinear.weight": "Tensor",
    "use_deterministic_algorithms.mode": None, "random_.from_": "int", "random_.to": "int?",
    "uniform_.from_": "Number", "uniform_.to": "Number", "randint.low": "int", "randint.high": "int?",
    "randint_like.low": None, "randint_like.high": None, "normal_.mean": "Number", "normal_.std": "Number",
    "arange.start": "Number", "arange.step": "Number", "clamp_min.min": "Tensor|Number",
    "clamp_max.max": "Tensor|Number", "clamp_min_.min": "Tensor|Number", "clamp_max_.max": "Tensor|Number",
    "bernoulli.p": "Number?", "multinomial.num_samples": "int", "randperm.n": "int", "exponential_.lambd": "Number",
    "type.dtype": None, "einsum.equation": None, "embedding_bag.weight": "Tensor", "scatter_.src": "Tensor|Number", "scatter.src": "Tensor|Number",
    "view.size": "tuple of ints|torch.dtype", "compile.mode": None, "embedding_bag.offsets": None,
}
