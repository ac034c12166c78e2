"""Messages of tensors and the facade kit: conversions, `.grad`, creation, devices and dtypes, saving
and loading, DLPack (flowgrad/tensor.py, backend.py, creation.py, serialization.py, dlpack.py,
facade/)."""
import pickle

_WEIGHTS_ONLY = (
    "Weights only load failed. This file can still be loaded, to do so you have two options, do those steps only if "
    "you trust the source of the checkpoint. \n\t(1) In PyTorch 2.6, we changed the default value of the "
    "`weights_only` argument in `torch.load` from `False` to `True`. Re-running `torch.load` with `weights_only` set "
    "to `False` will likely succeed, but it can result in arbitrary code execution. Do it only if you got the file "
    "from a trusted source.\n\t(2) The file holds pickled objects of types flowgrad's format cannot express: {types}."
)

MESSAGES: dict[str, tuple[type, str]] = {
    # conversions and in-place detach (flowgrad/tensor.py)
    "inference_version": (RuntimeError, "Inference tensors do not track version counter."),
    "data_int_requires_grad": (RuntimeError, "data set to a tensor that requires gradients must be floating point or "
                                             "complex dtype"),
    "detach_view_inplace": (RuntimeError, "Can't detach views in-place. Use detach() instead. If you are using "
                                          "DistributedDataParallel (DDP) for training, and gradient_as_bucket_view is "
                                          "set as True, gradients are views of DDP buckets, and hence detach_() "
                                          "cannot be called on these gradients. To fix this error, please refer to "
                                          "the Optimizer.zero_grad() function in torch/optim/optimizer.py as the "
                                          "solution."),
    "item_numel": (RuntimeError, "a Tensor with {numel} elements cannot be converted to Scalar"),
    "len_0d": (TypeError, "len() of a 0-d tensor"),
    "iter_0d": (TypeError, "iteration over a 0-d tensor"),
    "bool_ambiguous": (RuntimeError, "Boolean value of Tensor with more than one value is ambiguous"),
    "scalar_numel": (ValueError, "only one element tensors can be converted to Python scalars"),
    "index_not_integer": (TypeError, "only integer tensors of a single element can be converted to an index"),
    "dlpack_requires_grad": (BufferError, "Can't export tensors that require gradient, use tensor.detach()"),
    # Tensor.grad, Tensor.numpy, creation and functions of the facade kit (flowgrad/facade)
    "nonleaf_grad_access": (UserWarning, "The .grad attribute of a Tensor that is not a leaf Tensor is being "
                                         "accessed. Its .grad attribute won't be populated during "
                                         "autograd.backward(). If you indeed want the .grad field to be populated "
                                         "for a non-leaf Tensor, use .retain_grad() on the non-leaf Tensor. If you "
                                         "access the non-leaf Tensor by mistake, make sure you access the leaf "
                                         "Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
                                         "information. (Triggered internally at flowgrad/facade/tensor.py.)"),
    "grad_assign_type": (TypeError, "assigned grad expected to be a Tensor or None but got grad of type {type}"),
    "grad_assign_self": (RuntimeError, "can't assign Variable as its own grad"),
    "grad_assign_device": (RuntimeError, "assigned grad has data located on a different device"),
    "grad_assign_dtype": (RuntimeError, "attempting to assign a gradient with dtype '{got_ctype}' to a tensor with "
                                        "grad_dtype '{want_scalar}'. The gradient must match the tensor's grad_dtype "
                                        "(defaults to the tensor's dtype). You can set the tensor's grad_dtype "
                                        "attribute with a specific dtype, or None to allow any dtype. Set grad_dtype "
                                        "with caution. Diverging the dtypes of a tensor and its gradient may break "
                                        "downstream systems that assume they match."),
    "grad_assign_shape": (RuntimeError, "attempting to assign a gradient of size '{got}' to a tensor of size "
                                        "'{want}'. Please ensure that the gradient and the tensor are the same size"),
    "tensor_from_tensor": (UserWarning, "To copy construct from a tensor, it is recommended to use "
                                        "sourceTensor.detach().clone() or "
                                        "sourceTensor.detach().clone().requires_grad_(True), rather than "
                                        "torch.tensor(sourceTensor)."),
    "size_type": (TypeError, "{fn}(): argument 'size' (position 1) must be tuple of ints, not {type}"),
    "size_element": (TypeError, "{fn}(): argument 'size' (position 1) must be tuple of ints, but found element of "
                                "type {type} at pos {pos}"),
    "size_unpack": (TypeError, "{fn}(): argument 'size' failed to unpack the object at pos {pos} with error \"type "
                               "must be tuple of ints,but got {type}\""),
    "argument_unpack": (TypeError, "{fn}(): argument '{argument}' failed to unpack the object at pos {pos} with error "
                                   "\"type must be tuple of ints,but got {type}\""),
    "argument_type_at": (TypeError, "{fn}(): argument '{argument}' (position {position}) must be {expected}, not "
                                    "{type}"),
    "randint_like_bound": (RuntimeError, "high must be a scalar tensor and on CPU"),
    "tensor_type_arg": (TypeError, "dtype must be a type, str, or dtype object"),
    "tensor_type_name": (ValueError, "invalid type: {name!r}"),
    "topk_bool": (RuntimeError, "topk does not support bool dtypes on CPU"),
    "abs_complex_inplace": (RuntimeError, "In-place abs is not supported for complex tensors."),
    "int_type": (TypeError, "expected an int, but got {type}"),
    "dims_type": (TypeError, "dim must be an int or a tuple of ints, but got {type}"),
    "shape_type": (TypeError, "the sizes must be a tuple of ints, not {type}"),
    "unflatten_empty": (RuntimeError, "unflatten: sizes must be non-empty"),
    "shape_element": (TypeError, "the sizes must be a tuple of ints, but found an element of type {type}"),
    "data_type_str": (TypeError, "new(): invalid data type '{type}'"),
    "data_not_number": (TypeError, "must be real number, not {type}"),
    "data_dtype_infer": (RuntimeError, "Could not infer dtype of {type}"),
    "argument_missing": (TypeError, "{fn}() missing 1 required positional arguments: \"{argument}\""),
    "argument_type": (TypeError, "{fn}(): argument '{argument}' must be {expected}, not {type}"),
    "argument_none": (TypeError, "{fn}(): argument '{argument}' must not be None"),
    "argument_combination": (TypeError, "{fn}() received an invalid combination of arguments - got {got}, but "
                                        "expected one of:\n{options}"),
    "argument_combination_one": (TypeError, "{fn}() received an invalid combination of arguments - got {got}, but "
                                            "expected {option}"),
    "argument_element_at": (TypeError, "{fn}(): argument '{argument}' (position {position}) must be {expected}, but "
                                       "found element of type {type} at pos {pos}"),
    "argument_element": (TypeError, "{fn}(): argument '{argument}' must be {expected}, but found element of type "
                                    "{type} at pos {pos}"),
    "size_positional": (TypeError, "{fn}() takes 1 positional argument but {given} were given"),
    "size_negative_zeros": (RuntimeError, "zeros: Dimension size must be non-negative."),
    "size_negative": (RuntimeError, "Trying to create tensor with negative dimension {dim}: {shape}"),
    "strided_dims": (RuntimeError, "dimensionality of sizes ({sizes}) must match dimensionality of strides ({strides})"),
    "strided_overflow": (RuntimeError, "Storage size calculation overflowed with sizes={shape} and strides={strides}"),
    "random_range": (RuntimeError, "random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"),
    "random_out_of_bounds": (RuntimeError, "{name} is out of bounds for {dtype_ctype}"),
    "random_inexact": (UserWarning, "{name} is out of bounds [-(2^{digits}), 2^{digits}]. Due to precision limitations "
                                    "{dtype_ctype} can support discrete uniform distribution only within this range. "
                                    "This warning will become an error in version 1.7 release, please fix the code in "
                                    "advance (Triggered internally at flowgrad/facade/tensor.py.)"),
    "random_dtype": (RuntimeError, "check_random_bounds handles only integral, floating-point and boolean types"),
    "multinomial_dtype": (RuntimeError, "multinomial only supports floating-point dtypes for input, got: {dtype_scalar}"),
    "multinomial_dim": (RuntimeError, "prob_dist must be 1 or 2 dim"),
    "multinomial_count": (RuntimeError, "cannot sample n_sample <= 0 samples"),
    "multinomial_too_many": (RuntimeError, "cannot sample n_sample > prob_dist.size(-1) samples without replacement"),
    "multinomial_values": (RuntimeError, "probability tensor contains either `inf`, `nan` or element < 0"),
    "multinomial_sum": (RuntimeError, "invalid multinomial distribution (sum of probabilities <= 0)"),
    "eye_negative": (RuntimeError, "{name} must be greater or equal to 0, got {size}"),
    "linspace_steps": (RuntimeError, "number of steps must be non-negative"),
    "linspace_0d": (RuntimeError, "linspace only supports 0-dimensional start and end tensors, but got {name} with "
                                  "{ndim} dimension(s)."),
    "linspace_cast": (RuntimeError, "torch.linspace(): inferred dtype {inferred_ctype} can't be safely cast to passed "
                                    "dtype {dtype_scalar}"),
    "normal_std": (RuntimeError, "normal expects std >= 0.0, but found std {std:g}"),
    "normal_stds": (RuntimeError, "normal expects all elements of std >= 0.0"),
    "normal_std_complex": (RuntimeError, "normal expects standard deviation to be non-complex"),
    "bernoulli_p": (RuntimeError, "bernoulli_ expects p to be in [0, 1], but got p={p}"),
    "poisson_rate": (RuntimeError, "invalid Poisson rate, expected rate to be non-negative"),
    "bernoulli_probabilities": (RuntimeError, "Expected p_in >= 0 && p_in <= 1 to be true, but got false.  (Could "
                                              "this error message be improved?  If so, please report an enhancement "
                                              "request to PyTorch.)"),
    "exponential_dtype": (RuntimeError, "Exponential distribution is a continuous probability distribution. dtype must "
                                        "be a floating point but you specified {dtype_scalar}"),
    "arange_sign": (RuntimeError, "upper bound and lower bound inconsistent with step sign"),
    "arange_range": (RuntimeError, "unsupported range: {start} -> {end}"),
    "value_overflow": (RuntimeError, "value cannot be converted to type {dtype} without overflow"),
    "int_overflow": (ValueError, "Overflow when unpacking long long"),
    "from_numpy_type": (TypeError, "expected np.ndarray (got {type})"),
    "from_numpy_dtype": (TypeError, "can't convert np.ndarray of type numpy.{dtype}. The only supported types are: "
                                    "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, "
                                    "uint64, uint32, uint16, uint8, and bool."),
    "not_implemented_for": (NotImplementedError, "\"{op}\" not implemented for '{dtype_scalar}'"),
    "meshgrid_indexing_default": (UserWarning, "torch.meshgrid: in an upcoming release, it will be required to pass "
                                               "the indexing argument."),
    "meshgrid_indexing": (RuntimeError, "torch.meshgrid: indexing must be one of \"xy\" or \"ij\", but received: "
                                        "{indexing}"),
    "out_dtype_exact": (RuntimeError, "expected scalar_type {want_scalar} but found {got_scalar}"),
    "out_requires_grad": (RuntimeError, "{name}(): functions with out=... arguments don't support automatic "
                                        "differentiation, but one of the arguments requires grad."),
    "argument_unsupported": (NotImplementedError, "{name}(): flowgrad does not support {argument}={value!r} "
                                                  "(only the default, {argument}={default!r})"),
    "argument_given_twice": (TypeError, "{name}() got multiple values for argument '{argument}'"),
    "out_unsupported": (NotImplementedError, "{name}(): flowgrad does not support the out= argument of this "
                                             "function"),
    "numpy_bfloat16": (TypeError, "Got unsupported ScalarType BFloat16"),
    "numpy_requires_grad": (RuntimeError, "Can't call numpy() on Tensor that requires grad. Use "
                                          "tensor.detach().numpy() instead."),
    "format_spec_unsupported": (TypeError, "unsupported format string passed to Tensor.__format__"),
    "flip_lr_ud_dims": (RuntimeError, "Input must be >= {ndim}-d."),
    "positive_bool": (RuntimeError, "The `+` operator, on a bool tensor is not supported."),
    "tensor_adjoint_0d": (UserWarning, "{name} is deprecated on 0-D tensors. Consider using x.conj(). (Triggered "
                                       "internally at flowgrad/facade/surface.py.)"),
    "tensor_adjoint_ndim": (RuntimeError, "tensor.{name} is only supported on matrices or batches of matrices. Got "
                                          "{ndim}-D tensor."),
    "tensor_H_ndim": (RuntimeError, "tensor.H is only supported on matrices (2-D tensors). Got {ndim}-D tensor. For "
                                    "batches of matrices, consider using tensor.mH"),
    "diag_vector_offset": (NotImplementedError, "diag of a vector with a non-zero offset is not supported by flowgrad "
                                                "yet"),
    "size_concat_type": (TypeError, "can only concatenate tuple (not {type}) to {module}.Size"),
    # devices and dtypes (flowgrad/backend.py)
    "device_arg_type": (TypeError, "Device() received an invalid combination of arguments - got ({arg!r})"),
    "device_type_unknown": (RuntimeError, "Expected one of {types} device type at start of device string: {type}"),
    "cuda_needs_cupy": (RuntimeError, "device 'cuda' needs CuPy: install it with `pip install \"flowgrad[cuda]\"` (the "
                                      "cupy-cuda12x wheel) on a machine with an NVIDIA GPU"),
    "dtype_invalid": (TypeError, "invalid dtype {dtype!r}"),
    "dtype_unsupported": (TypeError, "unsupported dtype {dtype}"),
    "default_dtype_not_float": (TypeError, "only floating-point types are supported as the default type"),
    "bfloat16_needs_ml_dtypes": (RuntimeError, "bfloat16 tensors need the ml_dtypes package, which gives NumPy a "
                                               "bfloat16 dtype: install it with `pip install \"flowgrad[bfloat16]\"`"),
    "default_dtype_bfloat16": (NotImplementedError, "bfloat16 as the default dtype is not built in flowgrad"),
    "bfloat16_device": (RuntimeError, "bfloat16 tensors live on the cpu only: the {device} device's array library "
                                      "(CuPy) has no bfloat16 dtype"),
    # building tensors (flowgrad/creation.py)
    "array_dtype_unsupported": (TypeError, "can't convert np.ndarray of type {dtype}. The only supported types are: "
                                           "float64, float32, float16, int64, int32, int16, int8, uint8, and bool."),
    "array_bfloat16": (TypeError, "can't convert np.ndarray of type ml_dtypes.bfloat16. The only supported types are: "
                                  "float64, float32, float16, complex64, complex128, int64, int32, int16, int8, uint64, "
                                  "uint32, uint16, uint8, and bool."),
    "arange_zero_step": (RuntimeError, "step must be nonzero"),
    # DLPack (flowgrad/dlpack.py)
    "dlpack_not_producer": (TypeError, "from_dlpack expects an object supporting the DLPack protocol (__dlpack__ and "
                                       "__dlpack_device__), got {type}"),
    "dlpack_device_unsupported": (RuntimeError, "from_dlpack: unsupported DLPack device type {device_type}"),
    # loading (flowgrad/serialization.py)
    "load_not_zip": (pickle.UnpicklingError, "not a flowgrad save file (flowgrad never unpickles legacy or foreign "
                                             "checkpoints)"),
    "load_no_manifest": (pickle.UnpicklingError, "not a flowgrad save file: the archive has no flowgrad.json manifest "
                                                 "(checkpoints written by PyTorch itself are pickle-based; load them "
                                                 "with PyTorch and save the tensors again with flowgrad)"),
    "load_format_unsupported": (pickle.UnpicklingError, "unsupported flowgrad save format {format!r} version "
                                                        "{version!r}"),
    "load_weights_only": (pickle.UnpicklingError, _WEIGHTS_ONLY),
    "load_unknown_entry": (ValueError, "unknown entry type {tag!r} in a flowgrad save file"),
}
