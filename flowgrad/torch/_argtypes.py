"""The types PyTorch's argument parser expects, by parameter name, for the torch facade's functions
and Tensor methods (the kit's `facade/argtypes.py` checks them when a call fails). `OVERRIDES`
("function.parameter" -> kind, or None for no check) covers the names PyTorch uses for two types."""
from __future__ import annotations

_TENSOR = ("input", "tensor", "tensor1", "tensor2", "mat1", "mat2", "vec", "vec2", "mask", "src", "condition",
           "target", "x1", "x2", "input1", "input2", "A", "B", "LU", "pivots", "query", "key", "values", "index",
           "indices", "x", "y", "a", "b", "self", "boundaries", "sorted_sequence")
_OPTIONAL_TENSOR = ("weight", "bias", "weights", "running_mean", "running_var", "pos_weight", "offsets",
                    "per_sample_weights", "attn_mask", "append", "prepend")
_TENSOR_OR_NUMBER = ("other", "exponent", "end", "mean", "std")
_OPTIONAL_TENSOR_OR_NUMBER = ("min", "max")
_INTS = ("dims", "shape", "size", "output_size", "pad", "sizes", "shifts", "repeats", "kernel_size", "stride",
         "dilation", "output_padding", "normalized_shape", "source", "destination", "split_size",
         "split_size_or_sections")
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

_WEIGHT_REQUIRED = ("conv1d", "conv2d", "conv3d", "conv_transpose1d", "conv_transpose2d", "conv_transpose3d",
                    "linear", "prelu", "embedding", "bilinear", "embedding_bag")

OVERRIDES: dict[str, str | None] = {
    "complex.real": "Tensor", "complex.imag": "Tensor", "logaddexp.other": "Tensor", "logaddexp2.other": "Tensor",
    "is_same_size.other": "Tensor", "tensorsolve.other": "Tensor",
    **{f"{fn}.other": "Tensor" for fn in ("allclose", "cross", "equal", "isclose", "kron", "matmul", "expand_as",
                                          "reshape_as", "type_as", "view_as")},
    **{f"{fn}.other": "Tensor" for fn in ("logical_and", "logical_or", "logical_xor")},
    "logcumsumexp.dim": "int", "unsafe_split.split_size": "int", "squeeze_.dim": "tuple of ints",
    # a Tensor or a number
    **dict.fromkeys(("lerp.weight", "result_type.tensor", "pow.input", "bernoulli_.p", "scatter.src", "scatter_.src",
                     "clamp_min.min", "clamp_max.max", "clamp_min_.min", "clamp_max_.max", "searchsorted.input",
                     "bucketize.input"), "Tensor|Number"),
    **{f"{fn}.weight": "Tensor" for fn in _WEIGHT_REQUIRED},
    **dict.fromkeys(("index_add.source", "index_add_.source", "index_copy.source", "index_copy_.source"), "Tensor"),
    "scaled_dot_product_attention.value": "Tensor", "multi_head_attention_forward.value": "Tensor",
    # numbers
    **dict.fromkeys(("arange.start", "arange.end", "arange.step", "linspace.end", "normalize.p", "dropout.p",
                     "uniform_.from_", "uniform_.to", "normal_.mean", "normal_.std", "exponential_.lambd"), "Number"),
    "bernoulli.p": "Number?", "vector_norm.ord": "Number", "matrix_norm.ord": "Number|str",
    **dict.fromkeys(("norm.p", "norm.ord", "cond.p"), "Number|str?"),
    # ints and dtypes
    **dict.fromkeys(("select.index", "random_.from_", "randint.low", "multinomial.num_samples", "randperm.n",
                     "histc.bins"), "int"),
    "random_.to": "int?", "randint.high": "int?",
    **dict.fromkeys(("can_cast.from_", "can_cast.to", "promote_types.type1", "promote_types.type2"), "torch.dtype"),
    "pin_memory.device": "torch.device?", "view.size": "tuple of ints|torch.dtype", "repeat_interleave.repeats": "Tensor|int",
    **{f"{fn}.dim": "int" for fn in ("cumsum", "cumprod", "softmax", "log_softmax", "topk", "kthvalue", "select",
                                     "cat", "concat", "concatenate", "stack", "narrow", "index_select", "gather",
                                     "scatter", "scatter_add", "index_add", "index_copy", "index_fill", "unbind",
                                     "unsqueeze", "chunk", "split", "cummax", "cummin", "unsafe_chunk",
                                     "unsafe_split")},
    **{f"{fn}.dim": "int?" for fn in ("argmax", "argmin", "take_along_dim")},
    # checked by the function itself, in PyTorch's order (its Python layer first)
    **dict.fromkeys(("index_put_.indices", "index_put.indices", "max.dim", "min.dim", "use_deterministic_algorithms.mode", "compile.mode",
                     "randint_like.low", "randint_like.high", "type.dtype", "einsum.equation", "tensordot.dims",
                     "embedding_bag.offsets", "matrix_rank.input"), None),
    **{f"adaptive_{kind}_pool{nd}d.output_size": None for kind in ("avg", "max") for nd in (2, 3)},
}

# PyTorch's overloads (as its parser prints them) of the functions and methods whose explicit None a
# signature adapter refuses (`~` in _signatures.py): the TypeError is the parser's, chosen and worded
# from these as PyTorch's parser does
_MAX = ("(Tensor input, *, Tensor out = None)", "(Tensor input, Tensor other, *, Tensor out = None)",
        "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)")
_STD = ("(Tensor input, tuple of ints dim, bool unbiased = True, bool keepdim = False, *, Tensor out = None)",
        "(Tensor input, tuple of ints dim = None, *, Number correction = None, bool keepdim = False, Tensor out = None)",
        "(Tensor input, bool unbiased = True)")
_STD_MEAN = tuple(o.replace(", *, Tensor out = None)", ")").replace(", Tensor out = None)", ")") for o in _STD)
_CREATION = ("Tensor out = None, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
             "bool pin_memory = False, bool requires_grad = False")
_SORT = ("(Tensor input, *, bool stable, int dim = -1, bool descending = False, {out} out = None)",
         "(Tensor input, int dim = -1, bool descending = False{rest})")
OVERLOADS: dict[str, tuple[str, ...]] = {
    "max": _MAX, "min": _MAX,
    "prod": ("(Tensor input, *, torch.dtype dtype = None)",
             "(Tensor input, int dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"),
    "median": ("(Tensor input)", "(Tensor input, int dim, bool keepdim = False, *, tuple of Tensors out = None)"),
    "squeeze": ("(Tensor input)", "(Tensor input, int dim)", "(Tensor input, tuple of ints dim)"),
    "where": ("(Tensor condition)", "(Tensor condition, Tensor input, Tensor other, *, Tensor out = None)",
              "(Tensor condition, Number self, Tensor other)", "(Tensor condition, Tensor input, Number other)",
              "(Tensor condition, Number self, Number other)"),
    "bernoulli": ("(Tensor input, *, torch.Generator generator = None, Tensor out = None)",
                  "(Tensor input, float p, *, torch.Generator generator = None)"),
    "repeat_interleave": ("(Tensor input, Tensor repeats, int dim = None, *, int output_size = None)",
                          "(Tensor repeats, *, int output_size = None)",
                          "(Tensor input, int repeats, int dim = None, *, int output_size = None)"),
    "std": _STD, "var": _STD, "std_mean": _STD_MEAN, "var_mean": _STD_MEAN,
    "eye": (f"(int n, *, {_CREATION})", f"(int n, int m, *, {_CREATION})"),
    "randint": tuple(f"({low}int high, tuple of ints size, *, {gen}{_CREATION})" for low in ("", "int low, ")
                     for gen in ("torch.Generator generator, ", "")),
    "mean": ("(Tensor input, *, torch.dtype dtype = None, Tensor out = None)",
             "(Tensor input, tuple of ints dim, bool keepdim = False, *, torch.dtype dtype = None, Tensor out = None)"),
    **dict.fromkeys(("all", "any"), ("(Tensor input, *, Tensor out = None)",
                                     "(Tensor input, tuple of ints dim = None, bool keepdim = False, *, Tensor out = None)",
                                     "(Tensor input, int dim, bool keepdim = False, *, Tensor out = None)")),
    "float_power": ("(Tensor input, Tensor exponent, *, Tensor out = None)",
                    "(Number self, Tensor exponent, *, Tensor out = None)",
                    "(Tensor input, Number exponent, *, Tensor out = None)"),
    "lerp": ("(Tensor input, Tensor end, Tensor weight, *, Tensor out = None)",
             "(Tensor input, Tensor end, Number weight, *, Tensor out = None)"),
    **dict.fromkeys(("fmod", "eq", "ne", "not_equal", "ge", "greater_equal", "gt", "greater", "le", "less_equal",
                     "lt", "less"), ("(Tensor input, Tensor other, *, Tensor out = None)",
                                     "(Tensor input, Number other, *, Tensor out = None)")),
    "sort": (_SORT[0].format(out="tuple of Tensors"), _SORT[1].format(rest=", *, tuple of Tensors out = None")),
    "argsort": (_SORT[0].format(out="Tensor"), _SORT[1].format(rest="")),
}


# methods whose int list PyTorch also takes as several positional ints (`x.permute(1, 0)`)
UNPACKING = {"squeeze": "dim", "permute": "dims", "view": "size", "reshape": "shape", "flip": "dims",
             "repeat": "repeats", "expand": "size", "tile": "dims", "sum_to_size": "size"}

METHOD_OVERLOADS: dict[str, tuple[str, ...]] = {
    "max": ("()", "(Tensor other)", "(int dim, bool keepdim = False)"),
    "prod": ("(*, torch.dtype dtype = None)", "(int dim, bool keepdim = False, *, torch.dtype dtype = None)"),
    "median": ("()", "(int dim, bool keepdim = False)"),
    "squeeze": ("()", "(int dim)", "(tuple of ints dim)"),
    "std": ("(tuple of ints dim, bool unbiased = True, bool keepdim = False)",
            "(tuple of ints dim = None, *, Number correction = None, bool keepdim = False)", "(bool unbiased = True)"),
    "repeat_interleave": ("(Tensor repeats, int dim = None, *, int output_size = None)",
                          "(int repeats, int dim = None, *, int output_size = None)"),
    "bernoulli": ("(*, torch.Generator generator = None)", "(float p, *, torch.Generator generator = None)"),
    **dict.fromkeys(("sort", "argsort"), ("(*, bool stable, int dim = -1, bool descending = False)",
                                          "(int dim = -1, bool descending = False)")),
    **dict.fromkeys(("lerp", "lerp_"), ("(Tensor end, Tensor weight)", "(Tensor end, Number weight)")),
    "random_": ("(*, torch.Generator generator = None)", "(int from, int to, *, torch.Generator generator = None)",
                "(int to, *, torch.Generator generator = None)"),
    **dict.fromkeys(("contiguous", "is_contiguous"),
                    ("(*, torch.memory_format memory_format = torch.contiguous_format)",)),
}
METHOD_OVERLOADS["min"], METHOD_OVERLOADS["var"] = METHOD_OVERLOADS["max"], METHOD_OVERLOADS["std"]
OVERLOADS["masked_fill"] = ("(Tensor input, Tensor mask, Tensor value)", "(Tensor input, Tensor mask, Number value)")
OVERLOADS["arange"] = (f"(Number end, *, {_CREATION})", f"(Number start, Number end, *, {_CREATION.partition(', ')[2]})",
                       f"(Number start, Number end, Number step = 1, *, {_CREATION})")
OVERLOADS["narrow"] = ("(Tensor input, int dim, Tensor start, int length)",
                       "(Tensor input, int dim, int start, int length)")
METHOD_OVERLOADS["narrow"] = ("(int dim, Tensor start, int length)", "(int dim, int start, int length)")
OVERLOADS["scatter"] = tuple(f"(Tensor input, int dim, Tensor index, {src}, *, {reduce}Tensor out = None)"
                            for src in ("Tensor src", "Number value") for reduce in ("", "str reduce, "))
METHOD_OVERLOADS["scatter"] = METHOD_OVERLOADS["scatter_"] = tuple(
    f"(int dim, Tensor index, {src}{reduce})" for src in ("Tensor src", "Number value") for reduce in ("", ", *, str reduce"))
for _name in ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_left_shift", "bitwise_right_shift"):
    OVERLOADS[_name] = ("(Tensor input, Tensor other, *, Tensor out = None)", "(Number self, Tensor other)",
                        "(Tensor input, Number other, *, Tensor out = None)")
    METHOD_OVERLOADS[_name] = ("(Tensor other)", "(Number other)")
for _name in ("clamp", "clip"):
    OVERLOADS[_name] = tuple(f"(Tensor input, {k} min = None, {k} max = None, *, Tensor out = None)"
                             for k in ("Tensor", "Number"))
    METHOD_OVERLOADS[_name] = METHOD_OVERLOADS[_name + "_"] = tuple(f"({k} min = None, {k} max = None)"
                                                                   for k in ("Tensor", "Number"))
METHOD_OVERLOADS.update({**dict.fromkeys(("masked_fill", "masked_fill_"), ("(Tensor mask, Tensor value)",
                                                                           "(Tensor mask, Number value)")),
                         "where": ("(Tensor condition, Tensor other)", "(Tensor condition, Number other)")})

# torch.linalg's
LINALG_OVERLOADS: dict[str, tuple[str, ...]] = {
    name: ("(Tensor input, *, Tensor atol = None, Tensor rtol = None, bool hermitian = False, Tensor out = None)",
           "(Tensor input, *, float atol = None, float rtol = None, bool hermitian = False, Tensor out = None)",
           f"(Tensor input, Tensor {tol}, bool hermitian = False, *, Tensor out = None)",
           f"(Tensor input, float {tol}, bool hermitian = False, *, Tensor out = None)")
    for name, tol in (("matrix_rank", "tol"), ("pinv", "rcond"))}

# the fused products, cov, put and the other array functions (ops/products.py, statistics.py, arrangement.py)
KINDS.update({"batch1": "Tensor", "batch2": "Tensor", "vec1": "Tensor", "mat": "Tensor", "fweights": "Tensor?",
              "aweights": "Tensor?", "window_length": "int", "periodic": "bool", "r": "int", "with_replacement": "bool",
              "N": "int?", "increasing": "bool"})
_WINDOW_OPTIONS = ("*, torch.dtype dtype = None, torch.layout layout = None, torch.device device = None, "
                   "bool pin_memory = False, bool requires_grad = False)")
_WINDOWS = [f"(int window_length, {extra}{_WINDOW_OPTIONS}"
            for extra in ("", "bool periodic, ", "bool periodic, float alpha, ", "bool periodic, float alpha, float beta, ")]
_TRAPEZOID = ("(Tensor y, Tensor x, *, int dim = -1)", "(Tensor y, *, Number dx = 1, int dim = -1)")
OVERLOADS.update({
    **dict.fromkeys(("hann_window", "blackman_window", "bartlett_window"), tuple(_WINDOWS[:2])),
    "hamming_window": tuple(_WINDOWS), "kaiser_window": (*_WINDOWS[:2], _WINDOWS[2].replace("alpha", "beta")),
    "histogram": ("(Tensor input, Tensor bins, *, Tensor weight = None, bool density = False, tuple of Tensors out = "
                  "None)", "(Tensor input, int bins = 100, *, tuple of floats range = None, Tensor weight = None, "
                  "bool density = False, tuple of Tensors out = None)"),
    "trapezoid": _TRAPEZOID, "cumulative_trapezoid": _TRAPEZOID,
})
OVERRIDES.update({**{f"{fn}.{arg}": "Number" for fn in ("rrelu", "rrelu_") for arg in ("lower", "upper")},
                  **{f"{fn}.{arg}": "Number" for fn in ("threshold", "threshold_") for arg in ("threshold", "value")}})
OVERRIDES.update({"put.source": "Tensor", "put_.source": "Tensor", "put.accumulate": "bool", "put_.accumulate": "bool"})
OVERRIDES.update({f"{fn}.{arg}": "Tensor" for fn in ("masked_scatter", "masked_scatter_") for arg in ("mask", "source")})


def guard(namespace, names, method: bool = False, prefix: str = "", overloads: dict | None = None) -> dict:
    """The kit's argument-type guard over the public functions of `namespace` named in `names`, with
    this table (PyTorch's top-level overloads unless `overloads` is given); {function: guarded}."""
    from ..facade.argtypes import guard_all
    from ._tensor import Tensor, dtype
    return guard_all(namespace, [n for n in names if not n.startswith("_")], KINDS, Tensor.policy, Tensor, dtype,
                     method, OVERRIDES, OVERLOADS if overloads is None else overloads, prefix,
                     UNPACKING if method else None)
