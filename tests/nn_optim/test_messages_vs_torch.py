"""Errors and warnings of nn, optim and utils.data in PyTorch 2.13's words: each test runs on
flowgrad.torch and on real torch (the oracle), checking the exception class and the exact text."""
from __future__ import annotations

import re
import warnings

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def _param(torch):
    return torch.nn.Parameter(torch.ones(2))


# ------------------------------------------------------------------------------------ modules

def test_assigning_a_plain_tensor_to_a_parameter_attribute(torch):
    m = torch.nn.Linear(2, 2)
    with pytest.raises(TypeError, match=exact("cannot assign 'torch.FloatTensor' as parameter 'weight' "
                                              "(torch.nn.Parameter or None expected)")):
        m.weight = torch.ones(2, 2)
    with pytest.raises(TypeError, match=exact("cannot assign 'int' as parameter 'bias' (torch.nn.Parameter or None "
                                              "expected)")):
        m.bias = 3


def test_register_parameter_refuses_a_plain_tensor(torch):
    with pytest.raises(TypeError, match=exact("cannot assign 'torch.FloatTensor' object to parameter 'x' "
                                              "(torch.nn.Parameter or None required)")):
        torch.nn.Module().register_parameter("x", torch.ones(2))


def test_load_state_dict_lists_missing_keys(torch):
    with pytest.raises(RuntimeError, match=exact('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in '
                                                 'state_dict: "bias". ')):
        torch.nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2)})


def test_load_state_dict_lists_unexpected_keys(torch):
    m = torch.nn.Linear(2, 2)
    state = m.state_dict()
    state["extra"] = torch.ones(1)
    with pytest.raises(RuntimeError, match=exact('Error(s) in loading state_dict for Linear:\n\tUnexpected key(s) in '
                                                 'state_dict: "extra". ')):
        m.load_state_dict(state)


def test_load_state_dict_reports_missing_unexpected_and_sizes_together(torch):
    m = torch.nn.Sequential(torch.nn.Linear(2, 2))
    with pytest.raises(RuntimeError, match=exact(
            'Error(s) in loading state_dict for Sequential:\n\tMissing key(s) in state_dict: "0.bias". \n\t'
            'Unexpected key(s) in state_dict: "foo", "1.weight". \n\tsize mismatch for 0.weight: copying a param '
            "with shape torch.Size([3, 2]) from checkpoint, the shape in current model is torch.Size([2, 2]).")):
        m.load_state_dict({"0.weight": torch.ones(3, 2), "foo": torch.ones(1), "1.weight": torch.ones(1)})


def test_load_state_dict_non_strict_returns_the_keys(torch):
    keys = torch.nn.Linear(2, 2).load_state_dict({"weight": torch.ones(2, 2), "foo": torch.ones(1)}, strict=False)
    assert keys.missing_keys == ["bias"] and keys.unexpected_keys == ["foo"]


def test_module_dict_update_refuses_what_is_not_pairs(torch):
    with pytest.raises(TypeError, match=exact("ModuleDict.update should be called with an iterable of key/value "
                                              "pairs, but got int")):
        torch.nn.ModuleDict().update(3)
    with pytest.raises(TypeError, match=exact("ModuleDict update sequence element #0 should be Iterable; isint")):
        torch.nn.ModuleDict().update([3])
    with pytest.raises(ValueError, match=exact("ModuleDict update sequence element #0 has length 1; 2 is required")):
        torch.nn.ModuleDict().update([("a",)])


# ---------------------------------------------------------------------------------- functional

def test_conv2d_padding_string(torch):
    with pytest.raises(RuntimeError, match=exact("Invalid padding string: 'foo'")):
        torch.nn.functional.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 1, 1), padding="foo")


def test_conv2d_input_and_weight_dtypes(torch):
    F = torch.nn.functional
    with pytest.raises(RuntimeError, match=exact("expected scalar type Double but found Float")):
        F.conv2d(torch.ones(1, 1, 3, 3, dtype=torch.float64), torch.ones(1, 1, 1, 1))
    with pytest.raises(RuntimeError, match=exact("expected scalar type Float but found Double")):
        F.conv2d(torch.ones(1, 1, 3, 3), torch.ones(1, 1, 1, 1, dtype=torch.float64))


def test_conv2d_weight_not_divisible_by_groups(torch):
    with pytest.raises(RuntimeError, match=exact("Given groups=2, expected weight to be divisible by 2 at dimension "
                                                 "0, but got weight of size [[3, 1, 1, 1]] instead")):
        torch.nn.functional.conv2d(torch.ones(1, 2, 3, 3), torch.ones(3, 1, 1, 1), groups=2)


def test_adaptive_avg_pool2d_to_one_by_one_is_a_mean_over_the_last_two_dims(torch):
    F = torch.nn.functional
    assert F.adaptive_avg_pool2d(torch.ones(2, 2), 1).shape == (1, 1)
    assert F.adaptive_avg_pool2d(torch.ones(2, 2, 2, 2, 2), (1, 1)).shape == (2, 2, 2, 1, 1)
    with pytest.raises(IndexError, match=exact("Dimension out of range (expected to be in range of [-1, 0], but got "
                                               "-2)")):
        F.adaptive_avg_pool2d(torch.ones(2), 1)
    with pytest.raises(RuntimeError, match=exact("adaptive_avg_pool2d(): Expected 3D or 4D tensor, but got [2, 2]")):
        F.adaptive_avg_pool2d(torch.ones(2, 2), 2)


def test_adaptive_avg_pool2d_sizes(torch):
    F = torch.nn.functional
    assert F.adaptive_avg_pool2d(torch.ones(2, 3, 4), (None, 2)).shape == (2, 3, 2)
    with pytest.raises(RuntimeError, match=exact("adaptive_avg_pool2d(): Expected input to have non-zero size for "
                                                 "non-batch dimensions, but input has sizes [1, 0, 2] with dimension 1 "
                                                 "being empty")):
        F.adaptive_avg_pool2d(torch.ones(1, 0, 2), 2)


def test_label_smoothing_above_one_is_refused_in_cpp_number_format(torch):
    F = torch.nn.functional
    for value, shown in ((2.0, "2"), (1.25, "1.25")):
        with pytest.raises(RuntimeError, match=exact(f"label_smoothing must be between 0.0 and 1.0. Got: {shown}")):
            F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), label_smoothing=value)


def test_negative_label_smoothing_means_none(torch):
    F = torch.nn.functional
    x, y = torch.tensor([[0.5, 1.0, -1.0], [2.0, 0.0, 1.0]]), torch.tensor([0, 2])
    assert F.cross_entropy(x, y, label_smoothing=-0.25).item() == F.cross_entropy(x, y).item()


def test_init_mode_lists_the_valid_modes(torch):
    with pytest.raises(ValueError, match=exact("Mode foo not supported, please use one of ['fan_in', 'fan_out']")):
        torch.nn.init.kaiming_uniform_(torch.ones(2, 2), mode="foo")


# ---------------------------------------------------------------------------------- optimizers

@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_optimizer_with_an_empty_parameter_list(torch, name):
    with pytest.raises(ValueError, match=exact("optimizer got an empty parameter list")):
        getattr(torch.optim, name)([], lr=0.1)


@pytest.mark.parametrize("name", ["SGD", "Adam", "AdamW", "RMSprop", "Adagrad"])
def test_invalid_learning_rate(torch, name):
    with pytest.raises(ValueError, match=exact("Invalid learning rate: -0.5")):
        getattr(torch.optim, name)([_param(torch)], lr=-0.5)


def test_learning_rate_is_checked_before_the_parameters(torch):
    with pytest.raises(ValueError, match=exact("Invalid learning rate: -1")):
        torch.optim.SGD(iter([]), lr=-1)


def test_invalid_optimizer_hyper_parameters(torch):
    p = [_param(torch)]
    cases = [(lambda: torch.optim.Adam(p, betas=(1.0, 0.9)), "Invalid beta parameter at index 0: 1.0"),
             (lambda: torch.optim.Adam(p, betas=(0.9, 1.5)), "Invalid beta parameter at index 1: 1.5"),
             (lambda: torch.optim.RMSprop(p, alpha=-1), "Invalid alpha value: -1"),
             (lambda: torch.optim.Adagrad(p, initial_accumulator_value=-1),
              "Invalid initial_accumulator_value value: -1"),
             (lambda: torch.optim.SGD(p, lr=0.1, nesterov=True), "Nesterov momentum requires a momentum and zero "
                                                                 "dampening")]
    for make, msg in cases:
        with pytest.raises(ValueError, match=exact(msg)):
            make()


def test_params_given_as_a_tensor(torch):
    with pytest.raises(TypeError, match=exact("params argument given to the optimizer should be an iterable of "
                                              "Tensors or dicts, but got torch.FloatTensor")):
        torch.optim.SGD(_param(torch), lr=0.1)


def test_step_pre_hook_returning_a_value_names_the_step_function(torch):
    opt = torch.optim.SGD([_param(torch)], lr=0.1)
    opt.register_step_pre_hook(lambda *args: 5)
    with pytest.raises(RuntimeError, match=r"^<function \w+\.step at 0x[0-9a-f]+> must return None or a tuple of "
                                           r"\(new_args, new_kwargs\), but got 5\.$"):
        opt.step()


# ---------------------------------------------------------------------------------- schedulers

def _sgd(torch):
    return torch.optim.SGD([_param(torch)], lr=0.1)


def test_scheduler_of_something_that_is_not_an_optimizer(torch):
    with pytest.raises(TypeError, match=exact("int is not an Optimizer")):
        torch.optim.lr_scheduler.StepLR(3, 1)
    with pytest.raises(TypeError, match=exact("int is not an Optimizer")):
        torch.optim.lr_scheduler.ReduceLROnPlateau(3)


def test_scheduler_stepped_before_the_optimizer_warns(torch):
    sched = torch.optim.lr_scheduler.StepLR(_sgd(torch), 1)
    with pytest.warns(UserWarning) as record:
        sched.step()
    assert [str(w.message) for w in record] == [
        "Detected call of `lr_scheduler.step()` before `optimizer.step()`. In PyTorch 1.1.0 and later, you should "
        "call them in the opposite order: `optimizer.step()` before `lr_scheduler.step()`.  Failure to do this will "
        "result in PyTorch skipping the first value of the learning rate schedule. See more details at "
        "https://pytorch.org/docs/stable/optim.html#how-to-adjust-learning-rate"]


def test_scheduler_resumed_without_initial_lr(torch):
    with pytest.raises(KeyError) as info:
        torch.optim.lr_scheduler.StepLR(_sgd(torch), 1, last_epoch=3)
    assert info.value.args == (
        "param 'initial_lr' is not specified in param_groups[0] when resuming scheduler with last_epoch >= 0.\nThis "
        "typically happens when:\n1. You're trying to resume training from a checkpoint but haven't properly loaded "
        "the optimizer state\n2. You're using last_epoch >= 0 for a fresh training run (not recommended)",)


def test_scheduler_argument_checks(torch):
    S = torch.optim.lr_scheduler
    opt = _sgd(torch)
    cases = [(lambda: S.LinearLR(opt, start_factor=0), "Starting multiplicative factor expected to be greater than 0 "
                                                      "and less or equal to 1."),
             (lambda: S.ConstantLR(opt, factor=2), "Constant multiplicative factor expected to be between 0 and 1."),
             (lambda: S.SequentialLR(opt, [S.StepLR(opt, 1)], [1]),
              "Sequential Schedulers expects number of schedulers provided to be one more than the number of "
              "milestone points, but got number of schedulers 1 and the number of milestones to be equal to 1"),
             (lambda: S.ReduceLROnPlateau(opt, mode="foo"), "mode foo is unknown!")]
    for make, msg in cases:
        with pytest.raises(ValueError, match=exact(msg)):
            make()


# ------------------------------------------------------------------------------------- loaders

@pytest.mark.parametrize("batch_size", [0, -1, 1.5])
def test_dataloader_batch_size_must_be_a_positive_integer(torch, batch_size):
    with pytest.raises(ValueError, match=exact(f"batch_size should be a positive integer value, but got "
                                               f"batch_size={batch_size}")):
        torch.utils.data.DataLoader(range(3), batch_size=batch_size)


def test_iterable_dataset_without_iter_cannot_be_made(torch):
    import abc

    class IterableDataset(abc.ABC):      # Python words the message (3.12 words it differently from 3.11)
        @abc.abstractmethod
        def __iter__(self):
            ...
    with pytest.raises(TypeError) as python:
        IterableDataset()
    with pytest.raises(TypeError, match=exact(str(python.value))):
        torch.utils.data.IterableDataset()


def test_dataloader_attributes_are_frozen_after_construction(torch):
    loader = torch.utils.data.DataLoader(range(3))
    with pytest.raises(ValueError, match=exact("batch_size attribute should not be set after DataLoader is "
                                               "initialized")):
        loader.batch_size = 2
    loader.num_workers = 1
    assert loader.num_workers == 1


def test_random_split_warns_of_an_empty_split(torch):
    with warnings.catch_warnings(record=True) as record:
        warnings.simplefilter("always")
        parts = torch.utils.data.random_split(range(1), [0.5, 0.5])
    assert [len(p) for p in parts] == [1, 0]
    assert [str(w.message) for w in record] == ["Length of split at index 1 is 0. This might result in an empty "
                                                "dataset."]
