"""Messages of the probability distributions (flowgrad/distributions, PyTorch's torch.distributions)."""

MESSAGES: dict[str, tuple[type, str]] = {
    "dist_dependent_static": (NotImplementedError, ".{attribute} cannot be determined statically"),
    "dist_dependent_check": (ValueError, "Cannot determine validity of dependent constraint"),
    "dist_independent_ndim": (ValueError, "Expected value.dim() >= {ndim} but got {got}"),
    "dist_broadcast_types": (ValueError, "Input arguments must all be instances of Number, torch.Tensor or "
                                         "objects implementing __torch_function__."),
    "dist_param_constraint": (ValueError, "Expected parameter {param} ({type} of shape {shape}) of distribution "
                                          "{dist} to satisfy the constraint {constraint}, but found invalid values:\n"
                                          "{value}"),
    "dist_probs_positive": (ValueError, "Expected parameter probs ({type} of shape {shape}) of distribution {dist} to "
                                        "be positive but found invalid values:\n{value}"),
    "dist_value_not_tensor": (ValueError, "The value argument to log_prob must be a Tensor"),
    "dist_value_event_shape": (ValueError, "The right-most size of value must match event_shape: {size} vs "
                                           "{event}."),
    "dist_value_broadcast": (ValueError, "Value is not broadcastable with batch_shape+event_shape: {size} vs "
                                         "{expected}."),
    "dist_value_support": (ValueError, "Expected value argument ({type} of shape {shape}) to be within the support "
                                       "({support}) of the distribution {dist}, but found invalid values:\n{value}"),
    "dist_probs_or_logits": (ValueError, "Either `probs` or `logits` must be specified, but not both."),
    "dist_param_ndim": (ValueError, "`{param}` parameter must be at least one-dimensional."),
    "dist_mvn_one_of": (ValueError, "Exactly one of covariance_matrix or precision_matrix or scale_tril may be "
                                    "specified."),
    "dist_mvn_loc_ndim": (ValueError, "loc must be at least one-dimensional."),
    "dist_mvn_matrix_ndim": (ValueError, "{name} must be at least two-dimensional, with optional leading batch "
                                         "dimensions"),
    "dist_expand_custom_init": (NotImplementedError, "Subclass {sub} of {cls} that defines a custom __init__ method "
                                                     "must also define a custom .expand() method."),
    "dist_independent_ndims": (ValueError, "Expected reinterpreted_batch_ndims <= len(base_distribution.batch_shape), "
                                           "actual {ndims} vs {batch}"),
    "dist_enumerate_product": (NotImplementedError, "Enumeration over cartesian product is not implemented"),
    "transform_cache_size": (ValueError, "cache_size must be 0 or 1"),
    "transform_event_dim": (ValueError, "Please use either .domain.event_dim or .codomain.event_dim"),
    "transform_with_cache": (NotImplementedError, "{cls}.with_cache is not implemented"),
    "transform_too_few_dims": (ValueError, "Too few dimensions on input"),
    "transform_reshape_numel": (ValueError, "in_shape, out_shape have different numbers of elements"),
    "transform_reshape_mismatch": (ValueError, "Shape mismatch: expected {got} but got {expected}"),
    "transformed_list_items": (ValueError, "transforms must be a Transform or a list of Transforms"),
    "transformed_not_list": (ValueError, "transforms must be a Transform or list, but was {transforms}"),
    "transformed_base_shape": (ValueError, "base_distribution needs to have shape with size at least {ndim}, but got "
                                           "{shape}."),
    "constraint_register_type": (TypeError, "Expected constraint to be either a Constraint subclass or instance, but "
                                            "got {constraint}"),
    "constraint_no_transform": (NotImplementedError, "Cannot transform {name} constraints"),
    "dist_inhomogeneous_count": (NotImplementedError, "Inhomogeneous total count not supported by `{fn}`."),
    "dist_multinomial_count": (NotImplementedError, "inhomogeneous total_count is not supported"),
    "dist_cb_probs": (ValueError, "The parameter probs has invalid values"),
    "dist_lowrank_factor_ndim": (ValueError, "cov_factor must be at least two-dimensional, with optional leading "
                                             "batch dimensions"),
    "dist_lowrank_factor_shape": (ValueError, "cov_factor must be a batch of matrices with shape {n} x m"),
    "dist_lowrank_diag_shape": (ValueError, "cov_diag must be a batch of vectors with shape {shape}"),
    "dist_lowrank_batch": (ValueError, "Incompatible batch shapes: loc {loc}, cov_factor {factor}, cov_diag {diag}"),
    "dist_mixture_type": (ValueError, " The Mixture distribution needs to be an  instance of "
                                      "torch.distributions.Categorical"),
    "dist_component_type": (ValueError, "The Component distribution needs to be an instance of "
                                        "torch.distributions.Distribution"),
    "dist_mixture_batch": (ValueError, "`mixture_distribution.batch_shape` ({mixture}) is not compatible with "
                                       "`component_distribution.batch_shape`({component})"),
    "dist_mixture_count": (ValueError, "`mixture_distribution component` ({km}) does not equal "
                                       "`component_distribution.batch_shape[-1]` ({kc})"),
    "dist_items_type": (AssertionError, "All elements of {what} must be {expected} instances"),
    "dist_lengths": (AssertionError, "lengths ({lengths}) must match {what} ({count})"),
    "dist_dim_range": (AssertionError, "dim {dim} out of range for {what} with {ndim} dimensions"),
    "dist_size_length": (AssertionError, "{name}.size({dim}) = {size} must equal length {length}"),
    "dist_size_count": (AssertionError, "{name}.size({dim}) = {size} must equal len(transforms) {count}"),
    "dist_tril_size": (ValueError, "The size of last dimension is {size} which cannot be expressed as the lower "
                                   "triangular part of a square D x D matrix."),
    "dist_tril_diag": (ValueError, "diag ({diag}) provided is outside [{low}, {high}]."),
    "dist_not_tril_number": (ValueError, "Input is not a flattened lower-diagonal number"),
    "dist_not_square": (ValueError, "Input is not square"),
    "dist_lkj_dim": (ValueError, "Expected dim to be an integer greater than or equal to 2. Found dim={dim}."),
    "dist_wishart_one_of": (AssertionError, "Exactly one of covariance_matrix or precision_matrix or scale_tril may "
                                            "be specified."),
    "dist_wishart_df": (ValueError, "Value of df={df} expected to be greater than ndim - 1 = {bound}."),
    "dist_wishart_low_df": (UserWarning, "Low df values detected. Singular samples are highly likely to occur for "
                                         "ndim - 1 < df < ndim."),
    "dist_wishart_singular": (UserWarning, "Singular sample detected."),
    "dist_mvdigamma_domain": (AssertionError, "Wrong domain for multivariate digamma function."),
    "dist_sample_n_deprecated": (FutureWarning, "`sample_n(n)` will be deprecated. Use `sample((n,))` instead."),
    "kl_not_implemented": (NotImplementedError, "No KL(p || q) is implemented for p type {p} and q type {q}"),
    "kl_cross_exponential_family": (NotImplementedError, "The cross KL-divergence between different exponential "
                                                         "families cannot                             be computed "
                                                         "using Bregman divergences"),
    "kl_mvn_event_shapes": (ValueError, "KL-divergence between two Multivariate Normals with                        "
                                        "  different event shapes cannot be computed"),
    "kl_lowrank_event_shapes": (ValueError, "KL-divergence between two {which} with                          "
                                            "different event shapes cannot be computed"),
    "kl_binomial_counts": (NotImplementedError, "KL between Binomials where q.total_count > p.total_count is not "
                                                "implemented"),
    "kl_register_type": (TypeError, "Expected type_{which} to be a Distribution subclass but got {value}"),
    "kl_ambiguous": (RuntimeWarning, "Ambiguous kl_divergence({p}, {q}). Please register_kl({left}, {right})"),
}
