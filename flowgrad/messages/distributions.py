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
    "random_grad_not_differentiable": (NotImplementedError, "the derivative for '{op}' is not implemented."),
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
