"""The op table's messages (flowgrad/messages/ops.py), each triggered and compared with real
torch 2.13's exception type and text."""
from __future__ import annotations

import re

import pytest


def _raises(fn, cls, msg: str) -> None:
    with pytest.raises(cls, match="^" + re.escape(msg) + "$"):
        fn()


CASES = {
    # shapes (ops/shape.py)
    "dim_range": (lambda T: T.zeros(2, 3).sum(2), IndexError,
                  "Dimension out of range (expected to be in range of [-2, 1], but got 2)"),
    "shape_invalid": (lambda T: T.zeros(6).reshape(4, 2), RuntimeError, "shape '[4, 2]' is invalid for input of size 6"),
    "shape_infer_twice": (lambda T: T.zeros(6).view(-1, -1), RuntimeError, "only one dimension can be inferred"),
    "shape_dim_invalid": (lambda T: T.zeros(6).reshape(2, -3), RuntimeError,
                          "invalid shape dimension -3 at index 1 of shape [2, -3]"),
    "view_stride": (lambda T: T.zeros(2, 3).t().view(6), RuntimeError,
                    "view size is not compatible with input tensor's size and stride (at least one dimension spans "
                    "across two contiguous subspaces). Use .reshape(...) instead."),
    "flatten_dims": (lambda T: T.zeros(2, 3).flatten(1, 0), RuntimeError,
                     "flatten() has invalid args: start_dim cannot come after end_dim"),
    "permute_dims": (lambda T: T.zeros(2, 3).permute(0), RuntimeError,
                     "permute(sparse_coo): number of dimensions in the tensor input does not match the length of the "
                     "desired ordering of dimensions i.e. input.dim() = 2 is not equal to len(dims) = 1"),
    "t_dims": (lambda T: T.zeros(2, 3, 4).t(), RuntimeError, "t() expects a tensor with <= 2 dimensions, but self is 3D"),
    "expand_sizes": (lambda T: T.zeros(2, 3).expand(3), RuntimeError,
                     "expand(torch.FloatTensor{[2, 3]}, size=[3]): the number of sizes provided (1) must be greater or "
                     "equal to the number of dimensions in the tensor (2)"),
    "expand_size": (lambda T: T.zeros(2, 3).expand(4, 3), RuntimeError,
                    "The expanded size of the tensor (4) must match the existing size (2) at non-singleton dimension 0."
                    "  Target sizes: [4, 3].  Tensor sizes: [2, 3]"),
    "tensors_arg_type": (lambda T: T.cat(T.zeros(2)), TypeError,
                         "cat(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor"),
    "stack_empty": (lambda T: T.stack([]), RuntimeError, "stack expects a non-empty TensorList"),
    "cat_empty": (lambda T: T.cat(()), ValueError, "torch.cat(): expected a non-empty list of Tensors"),
    "cat_ndim": (lambda T: T.cat([T.zeros(2, 2), T.zeros(2)]), RuntimeError,
                 "Tensors must have same number of dimensions: got 2 and 1"),
    "cat_sizes": (lambda T: T.cat([T.zeros(2, 2), T.zeros(2, 3)]), RuntimeError,
                  "Sizes of tensors must match except in dimension 0. Expected size 2 but got size 3 for tensor number "
                  "1 in the list."),
    "stack_sizes": (lambda T: T.stack([T.zeros(2), T.zeros(3)]), RuntimeError,
                    "stack expects each tensor to be equal size, but got [2] at entry 0 and [3] at entry 1"),
    "split_sizes": (lambda T: T.zeros(5).split([2, 2]), RuntimeError,
                    "split_with_sizes expects split_sizes to sum exactly to 5 (input tensor's size at dimension 0), but "
                    "got split_sizes=[2, 2]"),
    "chunk_count": (lambda T: T.ones(2).chunk(0), RuntimeError, "chunk expects `chunks` to be greater than 0, got: 0"),
    "dims_repeated": (lambda T: T.ones(2, 2).flip(0, -2), RuntimeError,
                      "dim 0 appears multiple times in the list of dims"),
    "split_negative": (lambda T: T.ones(2).split(-1), RuntimeError,
                       "split expects split_size be non-negative, but got split_size=-1"),
    "split_zero": (lambda T: T.ones(2).split(0), RuntimeError,
                   "split_size can only be 0 if dimension size is 0, but got dimension size of 2"),
    "split_sizes_negative": (lambda T: T.ones(2).split([3, -1]), RuntimeError,
                             "split_with_sizes expects split_sizes have only non-negative entries, but got "
                             "split_sizes=[3, -1]"),
    "repeat_dims": (lambda T: T.zeros(2, 3).repeat(2), RuntimeError,
                    "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"),
    "slice_step": (lambda T: T.zeros(3)[::-1], ValueError, "step must be greater than zero"),
    # products (ops/linalg.py)
    "matmul_0d": (lambda T: T.matmul(T.zeros(()), T.zeros(2)), RuntimeError,
                  "both arguments to matmul need to be at least 1D, but they are 0D and 1D"),
    "dot_sizes": (lambda T: T.zeros(2) @ T.zeros(3), RuntimeError,
                  "inconsistent tensor size, expected tensor [2] and src [3] to have the same number of elements, but "
                  "got 2 and 3 elements respectively"),
    "mv_sizes": (lambda T: T.zeros(2, 3) @ T.zeros(2), RuntimeError, "size mismatch, got input (2), mat (2x3), vec (2)"),
    "mm_shapes": (lambda T: T.zeros(2, 3) @ T.zeros(2, 3), RuntimeError,
                  "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x3)"),
    "mm_shapes_batched": (lambda T: T.zeros(4, 2, 3) @ T.zeros(2, 3), RuntimeError,
                          "mat1 and mat2 shapes cannot be multiplied (8x3 and 2x3)"),
    "linear_shapes": (lambda T: T.nn.functional.linear(T.zeros(2, 3), T.zeros(4, 2)), RuntimeError,
                      "mat1 and mat2 shapes cannot be multiplied (2x3 and 2x4)"),
    "not_a_matrix": (lambda T: T.mm(T.zeros(2), T.zeros(2, 2)), RuntimeError, "self must be a matrix"),
    "not_a_matrix_2": (lambda T: T.mm(T.zeros(2, 2), T.zeros(2)), RuntimeError, "mat2 must be a matrix"),
    "not_3d": (lambda T: T.bmm(T.zeros(2, 2), T.zeros(1, 2, 2)), RuntimeError, "batch1 must be a 3D tensor"),
    "bmm_sizes": (lambda T: T.bmm(T.zeros(1, 2, 3), T.zeros(2, 3, 2)), RuntimeError,
                  "Expected size for first two dimensions of batch2 tensor to be: [1, 3] but got: [2, 3]."),
    "dot_dims": (lambda T: T.dot(T.zeros(2, 2), T.zeros(2)), RuntimeError, "1D tensors expected, but got 2D and 1D tensors"),
    "einsum_operands": (lambda T: T.einsum("i,i->", T.zeros(2)), RuntimeError,
                        "einsum(): fewer operands were provided than specified in the equation"),
    "einsum_no_operands": (lambda T: T.einsum(T.zeros(2)), ValueError,
                           "einsum(): must specify the equation string and at least one operand, or at least one "
                           "operand and its subscripts list"),
    "unique_flag": (lambda T: T.unique(T.zeros(2), "yes"), TypeError,
                    "_unique2(): argument 'sorted' must be bool, not str"),
    "unique_dim_flag": (lambda T: T.unique(T.zeros(2), return_counts=1, dim=0), TypeError,
                        "unique_dim(): argument 'return_counts' must be bool, not int"),
    "unique_consecutive_flag": (lambda T: T.zeros(2).unique_consecutive(None), TypeError,
                                "unique_consecutive(): argument 'return_inverse' must be bool, not NoneType"),
    "einsum_subscripts": (lambda T: T.einsum("ij->", T.zeros(2)), RuntimeError,
                          "einsum(): the number of subscripts in the equation (2) does not match the number of "
                          "dimensions (1) for operand 0 and no ellipsis was given"),
    # elementwise (ops/elementwise.py)
    "sub_bool": (lambda T: T.tensor([True]) - T.tensor([False]), RuntimeError,
                 "Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                 "`logical_xor()` operator instead."),
    "div_rounding_mode": (lambda T: T.div(T.ones(1), 2, rounding_mode="round"), RuntimeError,
                          "div expected rounding_mode to be one of None, 'trunc', or 'floor' but found 'round'"),
    "pow_negative_int": (lambda T: T.tensor([2]) ** -1, RuntimeError, "Integers to negative integer powers are not allowed."),
    "neg_bool": (lambda T: -T.tensor([True]), RuntimeError,
                 "Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a mask, "
                 "use the `~` or `logical_not()` operator instead."),
    "abs_bool": (lambda T: abs(T.tensor([True])), NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"),
    "clamp_no_bounds": (lambda T: T.clamp(T.ones(1)), RuntimeError,
                        "torch.clamp: At least one of 'min' or 'max' must not be None"),
    # writes (ops/indexing.py)
    "masked_fill_mask": (lambda T: T.zeros(2).masked_fill(T.tensor([1, 0]), 1.), RuntimeError,
                         "masked_fill_ only supports boolean masks, but got mask with dtype long int"),
    "inplace_shape": (lambda T: T.zeros(2).add_(T.zeros(2, 2)), RuntimeError,
                      "output with shape [2] doesn't match the broadcast shape [2, 2]"),
    "inplace_overlap": (lambda T: T.zeros(1).expand(3).add_(1), RuntimeError,
                        "unsupported operation: more than one element of the written-to tensor refers to a single memory "
                        "location. Please clone() the tensor before performing the operation."),
    "result_type_cast": (lambda T: T.zeros(2, dtype=T.int64).add_(1.5), RuntimeError,
                         "result type Float can't be cast to the desired output type Long"),
    # reductions (ops/reduction.py)
    "mean_dtype": (lambda T: T.tensor([1, 2]).mean(), RuntimeError,
                   "mean(): could not infer output dtype. Input dtype must be either a floating point or complex dtype. "
                   "Got: Long"),
    "mean_dtype_arg": (lambda T: T.ones(2).mean(dtype=T.int64), RuntimeError,
                       "mean(): could not infer output dtype. Optional dtype must be either a floating point or complex "
                       "dtype. Got: Long"),
    "reduce_empty": (lambda T: T.zeros(0, 3).max(), RuntimeError,
                     "max(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim "
                     "with the 'dim' argument."),
    "reduce_empty_amax": (lambda T: T.zeros(0, 3).amax(), RuntimeError,
                          "amax(): Expected reduction dim to be specified for input.numel() == 0. Specify the "
                          "reduction dim with the 'dim' argument."),
    "reduce_empty_dim": (lambda T: T.zeros(0, 3).amin(-2), IndexError,
                         "amin(): Expected reduction dim -2 to have non-zero size."),
    "reduce_empty_dims": (lambda T: T.zeros(0, 3).amax((1, 0)), IndexError,
                          "amax(): Expected reduction dim 0 to have non-zero size."),
    "reduce_empty_max_dim": (lambda T: T.zeros(0, 3).max(0), IndexError,
                             "max(): Expected reduction dim 0 to have non-zero size."),
    "reduce_empty_arg": (lambda T: T.zeros(0, 3).argmax(), IndexError,
                         "argmax(): Expected reduction dim to be specified for input.numel() == 0."),
    "reduce_empty_arg_dim": (lambda T: T.zeros(0, 3).argmin(0), IndexError,
                             "argmin(): Expected reduction dim 0 to have non-zero size."),
    # argument checks of more ops
    "where_condition": (lambda T: T.where(T.tensor([1., 0.]), T.ones(2), T.zeros(2)), RuntimeError,
                        "where expected condition to be a boolean tensor, but got a tensor with dtype Float"),
    "where_condition_int": (lambda T: T.where(T.tensor([1, 0]), T.ones(2), T.zeros(2)), RuntimeError,
                            "where expected condition to be a boolean tensor, but got a tensor with dtype Long"),
    "masked_select_mask": (lambda T: T.ones(2).masked_select(T.tensor([1, 0])), RuntimeError,
                           "masked_select: expected BoolTensor for mask"),
    "masked_fill_uint8": (lambda T: T.ones(2).masked_fill(T.tensor([1, 0], dtype=T.uint8), 0.), RuntimeError,
                          "masked_fill_ only supports boolean masks, but got mask with dtype unsigned char"),
    "tril_dims": (lambda T: T.tril(T.ones(2)), RuntimeError, "tril: input tensor must have at least 2 dimensions"),
    "triu_dims": (lambda T: T.ones(()).triu(), RuntimeError, "triu: input tensor must have at least 2 dimensions"),
    "outer_dims": (lambda T: T.outer(T.ones(2, 2), T.ones(2)), RuntimeError,
                   "outer: Expected 1-D argument self, but got 2-D"),
    "outer_dims_2": (lambda T: T.outer(T.ones(2), T.ones(2, 2)), RuntimeError,
                     "outer: Expected 1-D argument vec2, but got 2-D"),
    "norm_dtype": (lambda T: T.tensor([3, 4]).norm(), RuntimeError,
                   "linalg.vector_norm: Expected a floating point or complex tensor as input. Got Long"),
    "diag_dims": (lambda T: T.diag(T.ones(2, 2, 2)), RuntimeError, "diag(): Supports 1D or 2D tensors. Got 3D"),
    "trace_dims": (lambda T: T.trace(T.ones(2)), RuntimeError, "trace: expected a matrix, but got tensor with dim 1"),
    # pooling and constant padding (ops/conv.py)
    "pool_output_small": (lambda T: T.nn.functional.max_pool2d(T.ones(1, 1, 2, 2), 3), RuntimeError,
                          "Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"),
    "avg_pool_output_small": (lambda T: T.nn.functional.avg_pool2d(T.ones(1, 1, 2, 2), 3), RuntimeError,
                              "Given input size: (1x2x2). Calculated output size: (1x0x0). Output size is too small"),
    "pad_length_dims": (lambda T: T.nn.functional.pad(T.ones(2), (1, 1, 1, 1)), RuntimeError,
                        "Padding length should be less than or equal to two times the input dimension but got padding "
                        "length 4 and input of dimension 1"),
    "pad_negative_output": (lambda T: T.nn.functional.pad(T.ones(1, 2), (-2, -1)), RuntimeError,
                            "narrow(): length must be non-negative."),
    # layers and losses (ops/layers.py)
    "embedding_indices_dtype": (lambda T: T.nn.functional.embedding(T.tensor([0.]), T.ones(2, 2)), RuntimeError,
                                "Expected tensor for argument #1 'indices' to have one of the following scalar types: "
                                "Long, Int; but got torch.FloatTensor instead (while checking arguments for embedding)"),
    "embedding_range": (lambda T: T.nn.functional.embedding(T.tensor([2]), T.ones(2, 2)), IndexError,
                        "index out of range in self"),
    "nll_input_dims": (lambda T: T.nn.functional.nll_loss(T.tensor(1.), T.tensor(0)), ValueError,
                       "Expected 1 or more dimensions (got 0)"),
    "nll_batch_size": (lambda T: T.nn.functional.nll_loss(T.zeros(2, 3), T.tensor([0])), ValueError,
                       "Expected input batch_size (2) to match target batch_size (1)."),
    "nll_target_dtype": (lambda T: T.nn.functional.nll_loss(T.zeros(1, 3), T.tensor([0.])), RuntimeError,
                         "expected target dtype to be Long or Byte, but got Float"),
    "nll_target_bounds": (lambda T: T.nn.functional.nll_loss(T.zeros(1, 3), T.tensor([5])), IndexError,
                          "Target 5 is out of bounds."),
    "nll_target_size": (lambda T: T.nn.functional.nll_loss(T.zeros(2, 3, 4), T.zeros(2, 5, dtype=T.int64)),
                        RuntimeError, "Expected target size [2, 4], got [2, 5]"),
    "nll_weight_shape": (lambda T: T.nn.functional.nll_loss(T.zeros(1, 3), T.tensor([0]), weight=T.ones(2)),
                         RuntimeError, "weight tensor should be defined either for all 3 classes or no classes but got "
                                       "weight tensor of shape: [2]"),
    "bce_target_size": (lambda T: T.nn.functional.binary_cross_entropy(T.zeros(2), T.zeros(3)), ValueError,
                        "Using a target size (torch.Size([3])) that is different to the input size (torch.Size([2])) is "
                        "deprecated. Please ensure they have the same size."),
    "found_dtype": (lambda T: T.nn.functional.binary_cross_entropy(T.zeros(2), T.zeros(2, dtype=T.float64)),
                    RuntimeError, "Found dtype Double but expected Float"),
    "bce_input_range": (lambda T: T.nn.functional.binary_cross_entropy(T.full((2,), 2.), T.zeros(2)), RuntimeError,
                        "all elements of input should be between 0 and 1"),
    "bce_logits_target_size": (lambda T: T.nn.functional.binary_cross_entropy_with_logits(T.zeros(2), T.zeros(3)),
                               ValueError, "Target size (torch.Size([3])) must be the same as input size "
                                           "(torch.Size([2]))"),
    "not_differentiable": (lambda T: T.nn.functional.binary_cross_entropy(
        T.full((2,), .5), T.zeros(2), weight=T.ones(2, requires_grad=True)), RuntimeError,
        "The function 'binary_cross_entropy' is not differentiable with respect to argument 'weight'. This input "
        "cannot have requires_grad True."),
}


def test_integer_powers_with_negative_exponents(torch):
    r = torch.tensor([0, 1, -1, 2, -2, 3, -1]) ** torch.tensor([-1, -1, -1, -1, -1, -2, -2])
    assert r.dtype == torch.int64 and r.tolist() == [0, 1, -1, 0, 0, 0, 1]
    assert (2 ** torch.tensor([-1, 2])).tolist() == [0, 4]
    assert torch.ones(0).split(0)[0].shape == (0,)


def test_uint8_index_is_a_mask(torch):
    import warnings
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        out = torch.arange(3.)[torch.tensor([1, 0, 1], dtype=torch.uint8)]
    assert out.tolist() == [0., 2.]
    assert [str(w.message).split(" (Triggered")[0] for w in seen] == [
        "indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead."]


@pytest.mark.parametrize("kind", list(CASES))
def test_op_message(torch, kind):
    fn, cls, msg = CASES[kind]
    _raises(lambda: fn(torch), cls, msg)
