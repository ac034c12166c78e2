"""Losses (functional and modules) against real torch: values, gradients, second derivatives,
reductions, weights, ignore_index, label smoothing, probability targets, and the bad-input errors."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

from nn_compare import compare

rng = np.random.default_rng(1)


def R(*shape):
    return rng.standard_normal(shape)


def F(T):
    return T.nn.functional


TGT = np.array([0, 2, 1, 2])
W3 = np.array([0.2, 0.5, 1.3])

CASES = {
    "mse": (lambda T, x, t: F(T).mse_loss(x, t), [R(4, 3), R(4, 3)]),
    "mse_sum": (lambda T, x, t: F(T).mse_loss(x, t, reduction="sum"), [R(4, 3), R(4, 3)]),
    "mse_none": (lambda T, x, t: F(T).mse_loss(x, t, reduction="none"), [R(4, 3), R(4, 3)]),
    "l1": (lambda T, x, t: F(T).l1_loss(x, t), [R(4, 3), R(4, 3)]),
    "l1_none": (lambda T, x, t: F(T).l1_loss(x, t, reduction="none"), [R(4, 3), R(4, 3)]),
    "smooth_l1": (lambda T, x, t: F(T).smooth_l1_loss(x, t, beta=0.5), [R(4, 3), R(4, 3)]),
    "smooth_l1_module": (lambda T, x, t: T.nn.SmoothL1Loss(reduction="sum")(x, t), [R(4, 3), R(4, 3)]),
    "huber": (lambda T, x, t: F(T).huber_loss(x, t, delta=0.5), [R(4, 3), R(4, 3)]),
    "cross_entropy": (lambda T, x, t: F(T).cross_entropy(x, t), [R(4, 3), TGT]),
    "cross_entropy_module_sum": (lambda T, x, t: T.nn.CrossEntropyLoss(reduction="sum")(x, t), [R(4, 3), TGT]),
    "cross_entropy_weight": (lambda T, x, t, w: F(T).cross_entropy(x, t, weight=w.detach()), [R(4, 3), TGT, W3]),
    "cross_entropy_ignore": (lambda T, x, t: F(T).cross_entropy(x, t, ignore_index=2), [R(4, 3), TGT]),
    "cross_entropy_smoothing": (lambda T, x, t: F(T).cross_entropy(x, t, label_smoothing=0.1), [R(4, 3), TGT]),
    "cross_entropy_smoothing_weight_ignore": (
        lambda T, x, t, w: F(T).cross_entropy(x, t, weight=w.detach(), label_smoothing=0.2, ignore_index=1),
        [R(4, 3), TGT, W3]),
    "cross_entropy_smoothing_none": (lambda T, x, t: F(T).cross_entropy(x, t, label_smoothing=0.1, reduction="none"),
                                     [R(4, 3), TGT]),
    "cross_entropy_smoothing_sum": (lambda T, x, t: F(T).cross_entropy(x, t, label_smoothing=0.1, reduction="sum"),
                                    [R(4, 3), TGT]),
    "cross_entropy_probabilities": (lambda T, x, t: F(T).cross_entropy(x, t.softmax(1).detach()), [R(4, 3), R(4, 3)]),
    "cross_entropy_probabilities_smoothing_weight": (
        lambda T, x, t, w: F(T).cross_entropy(x, t.softmax(1).detach(), weight=w.detach(), label_smoothing=0.1),
        [R(4, 3), R(4, 3), W3]),
    "cross_entropy_probabilities_none": (
        lambda T, x, t: F(T).cross_entropy(x, t.softmax(1).detach(), reduction="none"), [R(4, 3), R(4, 3)]),
    "cross_entropy_unbatched": (lambda T, x, t: F(T).cross_entropy(x, t), [R(3), np.array(1)]),
    "cross_entropy_spatial": (lambda T, x, t: F(T).cross_entropy(x, t), [R(2, 3, 4, 5), rng.integers(0, 3, (2, 4, 5))]),
    "cross_entropy_spatial_none_weight": (
        lambda T, x, t, w: F(T).cross_entropy(x, t, weight=w.detach(), reduction="none"),
        [R(2, 3, 4), rng.integers(0, 3, (2, 4)), W3]),
    "nll": (lambda T, x, t: F(T).nll_loss(x, t), [R(4, 3), TGT]),
    "nll_module_weight_ignore": (lambda T, x, t, w: T.nn.NLLLoss(weight=w.detach(), ignore_index=0)(x, t),
                                 [R(4, 3), TGT, W3]),
    "bce": (lambda T, x, t: F(T).binary_cross_entropy(x.sigmoid(), t.sigmoid()), [R(4, 3), R(4, 3)]),
    "bce_weight": (lambda T, x, t, w: F(T).binary_cross_entropy(x.sigmoid(), t.sigmoid(), weight=w.detach()),
                   [R(4, 3), R(4, 3), R(3)]),
    "bce_none": (lambda T, x, t: F(T).binary_cross_entropy(x.sigmoid(), t.sigmoid(), reduction="none"),
                 [R(4, 3), R(4, 3)]),
    "bce_module": (lambda T, x, t: T.nn.BCELoss()(x.sigmoid(), t.sigmoid()), [R(4, 3), R(4, 3)]),
    "bce_with_logits": (lambda T, x, t: F(T).binary_cross_entropy_with_logits(x, t.sigmoid()), [R(4, 3), R(4, 3)]),
    "bce_with_logits_pos_weight": (
        lambda T, x, t, pw: F(T).binary_cross_entropy_with_logits(x, t.sigmoid(), pos_weight=pw.detach().abs()),
        [R(4, 3) * 5, R(4, 3), R(3)]),
    "bce_with_logits_module_weights_sum": (
        lambda T, x, t, pw, w: T.nn.BCEWithLogitsLoss(weight=w.detach(), pos_weight=pw.detach().abs(),
                                                      reduction="sum")(x, t.sigmoid()),
        [R(4, 3) * 5, R(4, 3), R(3), R(4, 1)]),
    "kl_div_batchmean": (lambda T, x, t: F(T).kl_div(x.log_softmax(1), t.softmax(1), reduction="batchmean"),
                         [R(4, 3), R(4, 3)]),
    "kl_div_log_target": (lambda T, x, t: F(T).kl_div(x.log_softmax(1), t.log_softmax(1), reduction="sum",
                                                       log_target=True), [R(4, 3), R(4, 3)]),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_loss_matches_torch(name, real_torch):
    fn, arrays = CASES[name]
    compare(real_torch, fn, arrays)


@pytest.mark.parametrize("name", ["mse", "cross_entropy", "cross_entropy_smoothing", "cross_entropy_probabilities",
                                  "bce", "bce_with_logits", "bce_with_logits_pos_weight", "smooth_l1", "nll"])
def test_loss_second_derivatives_match_torch(name, real_torch):
    fn, arrays = CASES[name]
    compare(real_torch, lambda T, x, *rest: fn(T, x * x, *rest), arrays, create_graph=True)


def test_target_gradients_match_torch(real_torch):
    def fn(T, x, t):
        return F(T).mse_loss(x, t) + F(T).binary_cross_entropy_with_logits(x, t.sigmoid(), pos_weight=None) + \
            F(T).binary_cross_entropy(x.sigmoid(), t.sigmoid())
    compare(real_torch, fn, [R(4, 3), R(4, 3)])


def test_float32_losses_stay_float32(torch):
    x = torch.randn(4, 3, requires_grad=True)
    t = torch.tensor([0, 1, 2, 0])
    for loss in (torch.nn.functional.cross_entropy(x, t), torch.nn.functional.mse_loss(x, x.detach() * 2)):
        assert loss.dtype == torch.float32 and loss.shape == torch.Size([])
        loss.backward()
    assert x.grad.dtype == torch.float32


# -------------------------------------------------------------------------------- errors

def _raises(exc, msg):
    return pytest.raises(exc, match="^" + re.escape(msg) + "$")


def test_cross_entropy_float_class_targets_raise(torch):
    with _raises(RuntimeError, "expected target dtype to be Long or Byte, but got Float"):
        torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.tensor([0.0, 1.0, 2.0, 1.0]))
    with _raises(RuntimeError, "expected target dtype to be Long or Byte, but got Int"):
        torch.nn.functional.nll_loss(torch.ones(4, 3), torch.tensor([0, 1, 2, 1], dtype=torch.int32))


def test_cross_entropy_batch_mismatch_and_out_of_range(torch):
    with _raises(ValueError, "Expected input batch_size (4) to match target batch_size (3)."):
        torch.nn.CrossEntropyLoss()(torch.ones(4, 3), torch.tensor([0, 1, 2]))
    with _raises(IndexError, "Target 5 is out of bounds."):
        torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.tensor([0, 1, 5, 1]))
    with _raises(IndexError, "Target -1 is out of bounds."):
        torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.tensor([0, 1, -1, 1]))
    with _raises(RuntimeError, "0D or 1D target tensor expected, multi-target not supported"):
        torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.ones(4, 4))
    with _raises(RuntimeError, "weight tensor should be defined either for all 3 classes or no classes but got "
                               "weight tensor of shape: [4]"):
        torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.tensor([0, 1, 2, 1]), weight=torch.ones(4))
    with _raises(RuntimeError, "size mismatch (got input: [2, 3, 4, 5] , target: [2, 4, 6]"):
        torch.nn.functional.nll_loss(torch.ones(2, 3, 4, 5), torch.zeros(2, 4, 6, dtype=torch.long))


def test_cross_entropy_probability_target_must_be_float(torch):
    with _raises(RuntimeError, "Expected floating point type for target with class probabilities, got Long"):
        torch.nn.functional.cross_entropy(torch.ones(4, 3), torch.ones(4, 3, dtype=torch.long))


def test_ignored_targets_may_be_out_of_range(torch):
    loss = torch.nn.functional.cross_entropy(torch.zeros(2, 3), torch.tensor([1, -100]))
    assert loss.item() == pytest.approx(np.log(3))


def test_mse_shape_mismatch_warns_then_broadcasts_or_raises(torch):
    with pytest.warns(UserWarning, match=re.escape(
            "Using a target size (torch.Size([4, 1])) that is different to the input size (torch.Size([4, 3])). "
            "This will likely lead to incorrect results due to broadcasting. Please ensure they have the same size.")):
        torch.nn.MSELoss()(torch.ones(4, 3), torch.ones(4, 1))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (5) at non-singleton "
                                   "dimension 1"):
            torch.nn.functional.mse_loss(torch.ones(4, 3), torch.ones(5))
        with _raises(RuntimeError, "The size of tensor a (3) must match the size of tensor b (5) at non-singleton "
                                   "dimension 1"):
            torch.nn.functional.l1_loss(torch.ones(4, 3), torch.ones(5))


def test_bce_errors(torch):
    with _raises(ValueError, "Using a target size (torch.Size([4])) that is different to the input size "
                             "(torch.Size([4, 3])) is deprecated. Please ensure they have the same size."):
        torch.nn.BCELoss()(torch.full((4, 3), 0.5), torch.ones(4))
    with _raises(RuntimeError, "all elements of input should be between 0 and 1"):
        torch.nn.functional.binary_cross_entropy(torch.full((4, 3), 1.5), torch.ones(4, 3))
    with _raises(RuntimeError, "Found dtype Double but expected Float"):
        torch.nn.functional.binary_cross_entropy(torch.full((4, 3), 0.5), torch.ones(4, 3, dtype=torch.float64))
    with _raises(ValueError, "Target size (torch.Size([4])) must be the same as input size (torch.Size([4, 3]))"):
        torch.nn.BCEWithLogitsLoss()(torch.ones(4, 3), torch.ones(4))


def test_weights_that_require_grad_are_rejected(torch):
    x = torch.ones(4, 3, requires_grad=True)
    w = torch.ones(3, requires_grad=True)
    with _raises(RuntimeError, "The function 'nll_loss_forward' is not differentiable with respect to argument "
                               "'weight'. This input cannot have requires_grad True."):
        torch.nn.functional.cross_entropy(x, torch.tensor([0, 1, 2, 0]), weight=w)
    with _raises(RuntimeError, "The function 'binary_cross_entropy_with_logits' is not differentiable with respect "
                               "to argument 'pos_weight'. This input cannot have requires_grad True."):
        torch.nn.functional.binary_cross_entropy_with_logits(x, torch.ones(4, 3), pos_weight=w)


def test_invalid_reduction(torch):
    with _raises(ValueError, "bogus is not a valid value for reduction"):
        torch.nn.functional.mse_loss(torch.ones(2), torch.ones(2), reduction="bogus")


def test_legacy_size_average_and_reduce(torch):
    x, t = torch.tensor([1.0, 3.0]), torch.tensor([0.0, 0.0])
    with pytest.warns(UserWarning, match="size_average and reduce args will be deprecated"):
        assert torch.nn.MSELoss(size_average=False)(x, t).item() == 10.0
    with pytest.warns(UserWarning):
        assert torch.nn.functional.l1_loss(x, t, reduce=False).tolist() == [1.0, 3.0]


def test_loss_module_buffers(torch):
    ce = torch.nn.CrossEntropyLoss(weight=torch.tensor([1.0, 2.0]))
    assert [n for n, _ in ce.named_buffers()] == ["weight"]
    assert list(ce.parameters()) == []
    bce = torch.nn.BCEWithLogitsLoss(pos_weight=torch.tensor([3.0]))
    assert [n for n, _ in bce.named_buffers()] == ["pos_weight"]
