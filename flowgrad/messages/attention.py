"""Messages of attention and the transformer layers (flowgrad/nn/functional.py's attention block,
flowgrad/nn/attention.py, flowgrad/nn/transformer.py)."""

_SDPA = "scaled_dot_product_attention(): argument '{arg}'"
_NESTED = "enable_nested_tensor is True, but self.use_nested_tensor is False because "

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
    # multi_head_attention_forward and MultiheadAttention (nn/attention.py)
    "mha_sizes_positive": (ValueError, "embed_dim and num_heads must be greater than 0, got embed_dim={embed_dim} "
                                       "and num_heads={num_heads} instead"),
    "mha_embed_dim_divisible": (AssertionError, "embed_dim must be divisible by num_heads"),
    "mha_query_dims": (AssertionError, "query should be unbatched 2D or batched 3D tensor but received {ndim}-D "
                                       "query tensor"),
    "mha_kv_dims": (AssertionError, "For {rank} `query`, expected `key` and `value` to be {want}-D but found "
                                    "{key}-D and {value}-D tensors respectively"),
    "mha_key_padding_mask_dims": (AssertionError, "For {rank} `query`, expected `key_padding_mask` to be `None` or "
                                                  "{want}-D but found {ndim}-D tensor instead"),
    "mha_attn_mask_dims": (AssertionError, "For {rank} `query`, expected `attn_mask` to be `None`, 2-D or 3-D but "
                                           "found {ndim}-D tensor instead"),
    "mha_unbatched_attn_mask_shape": (AssertionError, "Expected `attn_mask` shape to be {want} but got {got_shape}"),
    "mha_mask_type": (AssertionError, "only bool and floating types of {name} are supported"),
    "mha_mask_mismatch": (UserWarning, "Support for mismatched {name} and {other} is deprecated. Use same type for "
                                       "both instead."),
    "mha_causal_needs_mask": (RuntimeError, "Need attn_mask if specifying the is_causal hint. You may use the "
                                            "Transformer module method `generate_square_subsequent_mask` to create "
                                            "this mask."),
    "mha_embed_dim": (AssertionError, "was expecting embedding dimension of {want}, but got {got}"),
    "mha_embed_dim_heads": (AssertionError, "embed_dim {embed_dim} not divisible by num_heads {num_heads}"),
    "mha_key_value_dims": (AssertionError, "key's sequence and batch dims {key_shape} do not match value's "
                                           "{value_shape}"),
    "mha_key_value_shape": (AssertionError, "key shape {key_shape} does not match value shape {value_shape}"),
    "mha_no_in_proj_weight": (AssertionError, "use_separate_proj_weight is False but in_proj_weight is None"),
    "mha_no_proj_weight": (AssertionError, "use_separate_proj_weight is True but {name}_proj_weight is None"),
    "mha_proj_weight_shape": (AssertionError, "expecting {which} weights shape of {want}, but got {got_shape}"),
    "mha_proj_bias_shape": (AssertionError, "expecting {which} bias shape of {want}, but got {got_shape}"),
    "mha_attn_mask_shape": (RuntimeError, "The shape of the {ndim}D attn_mask is {got_shape}, but should be {want}."),
    "mha_bias_static": (AssertionError, "bias cannot be added to static {which}."),
    "mha_bias_pair": (AssertionError, "{given} is set but {missing} is None"),
    "mha_static_size": (AssertionError, "expecting {name}.size({dim}) of {want}, but got {got}"),
    "mha_key_padding_mask_shape": (AssertionError, "Expected key_padded_mask.shape[{dim}] to be {want}, but got {got}"),
    # the Transformer layers (nn/transformer.py)
    "transformer_activation": (RuntimeError, "activation should be relu/gelu, not {activation}"),
    "transformer_batch": (RuntimeError, "the batch number of src and tgt must be equal"),
    "transformer_features": (RuntimeError, "the feature number of src and tgt must be equal to d_model"),
    "transformer_mask_overflow": (RuntimeError, "value cannot be converted to type {ctype} without overflow"),
    "transformer_nested_layer_type": (UserWarning, _NESTED + "encoder_layer was not TransformerEncoderLayer"),
    "transformer_nested_norm_first": (UserWarning, _NESTED + "encoder_layer.norm_first was True"),
    "transformer_nested_batch_first": (UserWarning, _NESTED + "encoder_layer.self_attn.batch_first was not True(use "
                                                              "batch_first for better inference performance)"),
    "transformer_nested_qkv_dim": (UserWarning, _NESTED + "encoder_layer.self_attn._qkv_same_embed_dim was not True"),
    "transformer_nested_no_bias": (UserWarning, _NESTED + "encoder_layer.self_attn was passed bias=False"),
    "transformer_nested_activation": (UserWarning, _NESTED + "encoder_layer.activation_relu_or_gelu was not True"),
    "transformer_nested_eps": (UserWarning, _NESTED + "encoder_layer.norm1.eps was not equal to "
                                                      "encoder_layer.norm2.eps"),
    "transformer_nested_odd_heads": (UserWarning, _NESTED + "encoder_layer.self_attn.num_heads is odd"),
}
