"""Messages of attention and the transformer layers (flowgrad/nn/functional.py's attention block,
flowgrad/nn/attention.py, flowgrad/nn/transformer.py)."""

_SDPA = "scaled_dot_product_attention(): argument '{arg}'"

MESSAGES: dict[str, tuple[type, str]] = {
    # scaled_dot_product_attention: argument types, then PyTorch's input validation in its order
    "sdpa_input_type": (TypeError, _SDPA + " (position {position}) must be Tensor, not {type}"),
    "sdpa_arg_type": (TypeError, _SDPA + " must be {expected}, not {type}"),
    "sdpa_dtype": (RuntimeError, "Expected query, key, and value to have the same dtype, but got query.dtype: "
                                 "{query_ctype} key.dtype: {key_ctype} and value.dtype: {value_ctype} instead."),
    "sdpa_device": (RuntimeError, "Expected query, key, and value to have the same device type, but got "
                                  "query.device: {query} key.device: {key} and value.device: {value} instead."),
    "sdpa_dims": (RuntimeError, "Expected query, key, and value to all be  at least 2 dimensional, but got "
                                "query.dim: {query} key.dim: {key} and value.dim: {value} instead."),
    "sdpa_mask_dtype": (RuntimeError, "Expected attn_mask dtype to be bool or float or to match query dtype, but "
                                      "got attn_mask.dtype: {mask_ctype} and  query.dtype: {query_ctype} instead."),
    "sdpa_dim_range": (IndexError, "Dimension out of range (expected to be in range of [{low}, {high}], but got "
                                   "{dim})"),
    "sdpa_dim_scalar": (IndexError, "Dimension specified as {dim} but tensor has no dimensions"),
    "sdpa_causal_with_mask": (RuntimeError, "_scaled_dot_product_attention: Explicit attn_mask should not be set "
                                            "when is_causal=True"),
    "sdpa_not_float": (RuntimeError, "expected scalar type Float but found {found_scalar}"),
    "sdpa_gqa_heads": (RuntimeError, "Number of heads in key and value must divide the number of heads in "),
    "sdpa_mask_grows": (RuntimeError, "output with shape {out} doesn't match the broadcast shape {wide}"),
    "sdpa_dropout_p": (RuntimeError, "dropout probability has to be between 0 and 1, but got {p}"),
}
