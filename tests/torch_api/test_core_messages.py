"""Messages of the core that no other test pins down (conversions, custom Function defaults, the
front end, grad modes, gradcheck's argument rules), each against real torch as the oracle; and
flowgrad's own messages (devices, dtypes, DLPack, loading), which no framework words."""
from __future__ import annotations

import collections
import io
import json
import pickle
import re
import warnings
import zipfile

import pytest


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def _raises(fn, cls, msg: str) -> None:
    with pytest.raises(cls, match=exact(msg)):
        fn()


def _warns(fn, cls, msg: str) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        fn()
    assert [(w.category, str(w.message)) for w in seen if w.category is cls] == [(cls, msg)]


# ----------------------------------------------------------------------------- conversions

def test_0d_tensor_has_no_length_nor_iteration(torch):
    _raises(lambda: len(torch.tensor(1.)), TypeError, "len() of a 0-d tensor")
    _raises(lambda: iter(torch.tensor(1.)), TypeError, "iteration over a 0-d tensor")


def test_index_needs_an_integer_element(torch):
    _raises(lambda: [1, 2][torch.tensor([1.])], TypeError,
            "only integer tensors of a single element can be converted to an index")


def test_format_spec_of_a_non_scalar(torch):
    _raises(lambda: format(torch.tensor([1., 2.]), ".2f"), TypeError,
            "unsupported format string passed to Tensor.__format__")


def test_H_of_more_than_two_dims(torch):
    _raises(lambda: torch.zeros(2, 2, 2).H, RuntimeError, "tensor.H is only supported on matrices (2-D tensors). "
            "Got 3-D tensor. For batches of matrices, consider using tensor.mH")


def test_size_concatenates_only_tuples(torch):
    _raises(lambda: torch.Size([1]) + [2], TypeError, "can only concatenate tuple (not list) to torch.Size")


def test_arange_zero_step(torch):
    _raises(lambda: torch.arange(0, 5, 0), RuntimeError, "step must be nonzero")


def test_default_dtype_must_be_floating(torch):
    before = torch.get_default_dtype()
    try:
        _raises(lambda: torch.set_default_dtype(torch.int64), TypeError,
                "only floating-point types are supported as the default type")
    finally:
        torch.set_default_dtype(before)


def test_data_of_a_tensor_requiring_grad_stays_floating(torch):
    t = torch.tensor([1.], requires_grad=True)
    _raises(lambda: setattr(t, "data", torch.tensor([1])), RuntimeError,
            "data set to a tensor that requires gradients must be floating point or complex dtype")


def test_dlpack_export_of_a_tensor_requiring_grad(torch):
    _raises(lambda: torch.tensor([1.], requires_grad=True).__dlpack__(), BufferError,
            "Can't export tensors that require gradient, use tensor.detach()")


# ----------------------------------------------------------------------------- custom Functions

def test_function_defaults_say_what_is_missing(torch):
    Function = torch.autograd.Function
    _raises(lambda: Function.setup_context(None, (), None), NotImplementedError, "setup_context is not implemented.")
    _raises(lambda: Function.jvp(None), NotImplementedError, "You must implement the jvp function for custom "
            "autograd.Function to use it with forward mode AD.")
    _raises(lambda: Function.vmap(None, None), NotImplementedError, "To use autograd.Function with vmap, you must "
            "either override the vmap staticmethod or set generate_vmap_rule=True.")
    Empty = type("Empty", (Function,), {})
    _raises(lambda: Empty.apply(torch.tensor([1.])), NotImplementedError,
            "You must implement the forward function for custom autograd.Function.")


def test_function_instantiated_and_called(torch):
    Empty = type("Empty", (torch.autograd.Function,), {})
    _warns(Empty, DeprecationWarning, f"{Empty} should not be instantiated. Methods on autograd functions are all "
           "static, so you should invoke them on the class itself. Instantiating an autograd function will raise an "
           "error in a future version of PyTorch.")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        fn = Empty()
    _raises(lambda: fn(torch.tensor([1.])), RuntimeError, "Legacy autograd function with non-static forward method "
            "is deprecated. Please use new-style autograd function with static forward method. (Example: "
            "https://pytorch.org/docs/stable/autograd.html#torch.autograd.Function)")


def test_save_for_forward_takes_tensors_only(torch):
    class Save(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_forward(x, 3)
            return x * 2

    _raises(lambda: Save.apply(torch.tensor([1.], requires_grad=True)), AssertionError,
            "save_for_forward expects all arguments to be tensors; you should save non-tensors as attributes on ctx.")


def test_deprecated_ctx_members_warn(torch):
    class Old(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.mark_shared_storage()
            return x * 2

        @staticmethod
        def backward(ctx, g):
            ctx.saved_variables
            return g

    x = torch.tensor([1.], requires_grad=True)
    _warns(lambda: Old.apply(x), FutureWarning, "`mark_shared_storage` is deprecated. Tensors with shared storages "
           "are automatically tracked. Note that calls to `set_()` are not tracked")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)   # seen above; here only the graph is wanted
        y = Old.apply(x).sum()
    _warns(y.backward, DeprecationWarning, "'saved_variables' is deprecated; use 'saved_tensors'")


# ----------------------------------------------------------------------------- front end and modes

def test_gradient_edge_of_a_tensor_without_grad(torch):
    _raises(lambda: torch.autograd.graph.get_gradient_edge(torch.tensor([1.])), RuntimeError,
            "It is not possible to get the gradient edge for a Tensor that does not require gradients")


def test_grad_inputs_mapping_must_be_a_dict(torch):
    x = torch.tensor([1.], requires_grad=True)
    _raises(lambda: torch.autograd.grad(x * 2, collections.OrderedDict(a=x)), TypeError,
            "`inputs` argument to `grad()` must be a dict, not OrderedDict. Other Mapping types are not supported.")


def test_deprecated_front_end_arguments_warn(torch):
    x = torch.tensor([1.], requires_grad=True)
    _warns(lambda: torch.autograd.backward(x * 2, grad_variables=[torch.ones(1)]), FutureWarning,
           "`grad_variables` is deprecated. Use `grad_tensors` instead.")
    _warns(lambda: torch.autograd.grad(x * 2, x, torch.ones(1), only_inputs=False), FutureWarning,
           "only_inputs argument is deprecated and is ignored now (defaults to True). To accumulate gradient for "
           "other parts of the graph, please use torch.autograd.backward.")


def test_set_grad_enabled_takes_a_bool(torch):
    _raises(lambda: torch.set_grad_enabled(1), TypeError,
            "set_grad_enabled(): argument 'enabled' (position 1) must be bool, not int")


def test_decorating_a_class_with_a_grad_mode_warns(torch):
    def decorate():
        @torch.no_grad()
        class C:
            def __init__(self):
                pass

    _warns(decorate, FutureWarning, "Decorating classes is deprecated and will be disabled in future versions. You "
           "should only decorate functions or methods. To preserve the current behavior of class decoration, you can "
           "directly decorate the `__init__` method and nothing else.")


def test_multi_grad_hook_mode_and_tensors(torch):
    x = torch.tensor([1.], requires_grad=True)
    register = torch.autograd.graph.register_multi_grad_hook
    _raises(lambda: register((x,), lambda g: None, mode="x"), ValueError,
            "Expects mode to be one of ('all', 'any') but got x")
    _raises(lambda: register((torch.tensor([1.]),), lambda g: None), AssertionError,
            "Expected gradient function to be set")


# ----------------------------------------------------------------------------- gradcheck's arguments

def test_gradcheck_option_rules(torch):
    x = torch.tensor([1.], dtype=torch.float64, requires_grad=True)
    gradcheck, gradgradcheck = torch.autograd.gradcheck, torch.autograd.gradgradcheck
    _raises(lambda: gradcheck(torch.sin, (x,), check_batched_forward_grad=True), AssertionError,
            "Setting check_batched_forward_grad=True requires check_forward_ad to be True")
    _raises(lambda: gradgradcheck(torch.sin, (x,), check_rev_over_rev=False, check_fwd_over_rev=True),
            AssertionError, "Setting check_undefined_grad=True requires check_rev_over_rev to be True")


# ----------------------------------------------------------------------------- flowgrad's own

def test_unknown_device_and_dtype(ftorch):
    from flowgrad import backend
    known = ", ".join(sorted(backend._BACKENDS))   # cpu, cuda and any registered since (a test's fake device)
    _raises(lambda: ftorch.device("abc"), RuntimeError,
            f"Expected one of {known} device type at start of device string: abc")
    _raises(lambda: ftorch.zeros(2, dtype="abc"), TypeError, "invalid dtype 'abc'")


def test_from_dlpack_of_a_non_producer(ftorch):
    _raises(lambda: ftorch.from_dlpack(3), TypeError, "from_dlpack expects an object supporting the DLPack protocol "
            "(__dlpack__ and __dlpack_device__), got int")


def _archive(**members) -> io.BytesIO:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, text in members.items():
            zf.writestr(name.replace("_", "."), text)
    buf.seek(0)
    return buf


def test_load_refuses_what_flowgrad_did_not_write(ftorch):
    _raises(lambda: ftorch.load(io.BytesIO(b"not a zip")), pickle.UnpicklingError,
            "not a flowgrad save file (flowgrad never unpickles legacy or foreign checkpoints)")
    _raises(lambda: ftorch.load(_archive(data_pkl="x")), pickle.UnpicklingError,
            "not a flowgrad save file: the archive has no flowgrad.json manifest (checkpoints written by PyTorch "
            "itself are pickle-based; load them with PyTorch and save the tensors again with flowgrad)")
    _raises(lambda: ftorch.load(_archive(flowgrad_json=json.dumps({"format": "flowgrad", "version": 99}))),
            pickle.UnpicklingError, "unsupported flowgrad save format 'flowgrad' version 99")
    _raises(lambda: ftorch.load(_archive(flowgrad_json=json.dumps({"format": "flowgrad", "version": 1,
                                                                   "root": {"$": "mystery"}}))),
            ValueError, "unknown entry type 'mystery' in a flowgrad save file")
