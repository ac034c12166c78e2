"""nn.Module and nn.Parameter: registration, traversal, modes, repr, hooks, state dicts.
Each test runs on flowgrad.torch and on real torch (the oracle)."""
from __future__ import annotations

import copy
import os
import re
import warnings

import pytest

TEST_DEVICE = os.environ.get("FLOWGRAD_TEST_DEVICE", "cpu")

# printed text names the device, so text comparisons run on the cpu only
cpu_only = pytest.mark.skipif(TEST_DEVICE != "cpu", reason="compares printed text, which names the device")


def exact(msg: str) -> str:
    return "^" + re.escape(msg) + "$"


def _net(torch):
    nn = torch.nn

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1 = nn.Linear(3, 4)
            self.act = nn.ReLU()
            self.blocks = nn.Sequential(nn.Linear(4, 4), nn.Tanh())
            self.register_buffer("scale", torch.ones(4))
            self.register_buffer("scratch", torch.zeros(2), persistent=False)

        def forward(self, x):
            return self.blocks(self.act(self.fc1(x))) * self.scale

    return Net()


# ------------------------------------------------------------------------------ Parameter

def test_parameter_is_a_leaf_tensor_requiring_grad(torch):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    assert isinstance(p, torch.Tensor) and isinstance(p, torch.nn.Parameter)
    assert p.requires_grad and p.is_leaf and p.grad_fn is None


@cpu_only
def test_parameter_repr(torch):
    assert repr(torch.nn.Parameter(torch.tensor([1.0, 2.0]))) == \
        "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    assert repr(torch.nn.Parameter(torch.tensor([1.0, 2.0]), requires_grad=False)) == \
        "Parameter containing:\ntensor([1., 2.])"
    assert repr(torch.nn.Parameter()) == "Parameter containing:\ntensor([], requires_grad=True)"


def test_ops_on_parameters_give_plain_tensors(torch):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    for t in (p * 2, p.detach(), p.data, p + p, p.sum()):
        assert type(t) is torch.Tensor


def test_parameter_shares_memory_with_its_data(torch):
    t = torch.tensor([1.0, 2.0])
    p = torch.nn.Parameter(t)
    with torch.no_grad():
        p.mul_(3)
    assert t.tolist() == [3.0, 6.0]


def test_integer_parameter_requiring_grad_raises(torch):
    with pytest.raises(RuntimeError, match=exact("Only Tensors of floating point and complex dtype can require "
                                                 "gradients")):
        torch.nn.Parameter(torch.tensor([1, 2]))
    assert not torch.nn.Parameter(torch.tensor([1, 2]), requires_grad=False).requires_grad


def test_deepcopy_of_parameter_keeps_class_and_flag(torch):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    q = copy.deepcopy(p)
    assert type(q) is torch.nn.Parameter and q.requires_grad and q is not p
    assert q.tolist() == [1.0, 2.0]


# ------------------------------------------------------------------------- registration

def test_parameters_come_in_registration_order_with_dotted_names(torch):
    net = _net(torch)
    assert [n for n, _ in net.named_parameters()] == ["fc1.weight", "fc1.bias", "blocks.0.weight", "blocks.0.bias"]
    assert [tuple(p.shape) for p in net.parameters()] == [(4, 3), (4,), (4, 4), (4,)]


def test_sequential_names_are_indices(torch):
    nn = torch.nn
    m = nn.Sequential(nn.Linear(3, 2), nn.ReLU(), nn.Linear(2, 1))
    assert [n for n, _ in m.named_parameters()] == ["0.weight", "0.bias", "2.weight", "2.bias"]


def test_shared_parameter_is_listed_once(torch):
    nn = torch.nn
    lin = nn.Linear(2, 2)
    m = nn.Sequential(lin, nn.ReLU(), lin)
    assert len(list(m.parameters())) == 2
    assert len(list(m.modules())) == 3
    assert [n for n, _ in m.named_modules()] == ["", "0", "1"]


def test_buffers_and_children(torch):
    net = _net(torch)
    assert [n for n, _ in net.named_buffers()] == ["scale", "scratch"]
    assert [type(c).__name__ for c in net.children()] == ["Linear", "ReLU", "Sequential"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "blocks", "blocks.0", "blocks.1"]
    assert list(net.state_dict()) == ["scale", "fc1.weight", "fc1.bias", "blocks.0.weight", "blocks.0.bias"]


def test_replacing_a_submodule_and_deleting_attributes(torch):
    nn = torch.nn
    net = _net(torch)
    net.fc1 = nn.Linear(3, 4, bias=False)
    assert [n for n, _ in net.named_parameters()][:1] == ["fc1.weight"]
    del net.act
    assert "act" not in dict(net.named_children())
    with pytest.raises(AttributeError, match=exact("'Net' object has no attribute 'act'")):
        net.act


def test_assigning_parameter_before_init_raises(torch):
    class Bad(torch.nn.Module):
        def __init__(self):
            self.w = torch.nn.Parameter(torch.ones(1))

    with pytest.raises(AttributeError, match=exact("cannot assign parameters before Module.__init__() call")):
        Bad()


def test_assigning_a_tensor_to_a_parameter_slot_raises(torch):
    lin = torch.nn.Linear(2, 2)
    with pytest.raises(TypeError, match=exact("cannot assign 'torch.FloatTensor' as parameter 'weight' "
                                              "(torch.nn.Parameter or None expected)")):
        lin.weight = torch.ones(2, 2)


def test_register_buffer_name_errors(torch):
    m = torch.nn.Linear(1, 1)
    with pytest.raises(KeyError, match="attribute 'weight' already exists"):
        m.register_buffer("weight", torch.ones(1))
    with pytest.raises(KeyError) as info:
        m.register_buffer("a.b", torch.ones(1))
    assert info.value.args == ('buffer name can\'t contain "."',)
    with pytest.raises(TypeError, match=exact("cannot assign 'int' object to buffer 'x' (torch Tensor or None "
                                              "required)")):
        m.register_buffer("x", 3)


def test_getattr_of_missing_attribute(torch):
    with pytest.raises(AttributeError, match=exact("'Linear' object has no attribute 'nope'")):
        torch.nn.Linear(1, 1).nope


def test_forward_missing_raises(torch):
    with pytest.raises(NotImplementedError, match=exact('Module [Module] is missing the required "forward" '
                                                        'function')):
        torch.nn.Module()(torch.ones(1))


# -------------------------------------------------------------------------------- modes

def test_train_eval_propagate(torch):
    net = _net(torch)
    assert net.training and net.blocks[0].training
    assert net.eval() is net
    assert not any(m.training for m in net.modules())
    net.train()
    assert all(m.training for m in net.modules())
    with pytest.raises(ValueError, match=exact("training mode is expected to be boolean")):
        net.train(1)


def test_requires_grad_toggles_every_parameter(torch):
    net = _net(torch)
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())
    net.requires_grad_()
    assert all(p.requires_grad for p in net.parameters())


def test_zero_grad_sets_none_by_default(torch):
    net = _net(torch)
    net(torch.ones(2, 3)).sum().backward()
    assert all(p.grad is not None for p in net.parameters())
    net.zero_grad(set_to_none=False)
    assert all(p.grad is not None and p.grad.abs().sum().item() == 0 for p in net.parameters())
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())


def test_apply_visits_children_first(torch):
    seen = []
    _net(torch).apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Tanh", "Sequential", "Net"]


def test_to_double_keeps_parameter_identity(torch):
    net = _net(torch)
    w = net.fc1.weight
    assert net.double() is net
    assert net.fc1.weight is w and w.dtype == torch.float64 and net.scale.dtype == torch.float64
    assert net(torch.ones(1, 3, dtype=torch.float64)).dtype == torch.float64
    net.to(torch.float32)
    assert w.dtype == torch.float32
    net.to("cpu")
    with pytest.raises(TypeError, match=exact("nn.Module.to only accepts floating point or complex dtypes, but got "
                                              "desired dtype=torch.int64")):
        net.to(torch.int64)


def test_integer_buffers_keep_their_dtype_under_to(torch):
    bn = torch.nn.BatchNorm1d(3).double()
    assert bn.num_batches_tracked.dtype == torch.int64 and bn.running_mean.dtype == torch.float64


# --------------------------------------------------------------------------------- repr

def test_reprs_match_pytorch(torch):
    nn = torch.nn
    assert repr(nn.Linear(3, 2)) == "Linear(in_features=3, out_features=2, bias=True)"
    assert repr(nn.Sequential(nn.Linear(3, 2), nn.Flatten(0, 1))) == (
        "Sequential(\n  (0): Linear(in_features=3, out_features=2, bias=True)\n"
        "  (1): Flatten(start_dim=0, end_dim=1)\n)")
    assert repr(_net(torch)) == (
        "Net(\n  (fc1): Linear(in_features=3, out_features=4, bias=True)\n  (act): ReLU()\n"
        "  (blocks): Sequential(\n    (0): Linear(in_features=4, out_features=4, bias=True)\n    (1): Tanh()\n  )\n)")


@pytest.mark.parametrize("make", [
    lambda nn: nn.ReLU(True), lambda nn: nn.LeakyReLU(0.2, True), lambda nn: nn.GELU("tanh"), lambda nn: nn.SiLU(),
    lambda nn: nn.Softmax(1), lambda nn: nn.LogSoftmax(dim=-1), lambda nn: nn.Dropout(0.25),
    lambda nn: nn.Embedding(10, 3, padding_idx=-1), lambda nn: nn.LayerNorm((4, 5), elementwise_affine=False),
    lambda nn: nn.BatchNorm1d(3), lambda nn: nn.BatchNorm2d(3, momentum=None, affine=False),
    lambda nn: nn.Conv2d(3, 8, 3), lambda nn: nn.Conv2d(3, 8, (3, 5), stride=2, padding=1, dilation=2, bias=False),
    lambda nn: nn.Conv2d(4, 8, 3, padding="same", groups=2, padding_mode="reflect"), lambda nn: nn.MaxPool2d(2),
    lambda nn: nn.MaxPool2d(3, 2, 1, ceil_mode=True), lambda nn: nn.AvgPool2d(3, 1, 1),
    lambda nn: nn.AdaptiveAvgPool2d((1, 1)), lambda nn: nn.Unflatten(1, (2, 3)), lambda nn: nn.Identity(),
    lambda nn: nn.MSELoss(), lambda nn: nn.CrossEntropyLoss(label_smoothing=0.1), lambda nn: nn.ELU(),
    lambda nn: nn.Softplus(), lambda nn: nn.Hardtanh(), lambda nn: nn.Flatten(),
    lambda nn: nn.ModuleList([nn.Linear(2, 2) for _ in range(3)] + [nn.ReLU()]),
    lambda nn: nn.ModuleDict({"a": nn.ReLU(), "b": nn.Linear(1, 1)}),
], ids=lambda f: "")
def test_layer_reprs(make, real_torch):
    import flowgrad.torch as ft
    assert repr(make(ft.nn)) == repr(make(real_torch.nn))


@cpu_only
def test_parameter_list_repr(torch):
    pl = torch.nn.ParameterList([torch.nn.Parameter(torch.ones(3)), torch.zeros(2, 2)])
    assert repr(pl) == ("ParameterList(\n    (0): Parameter containing: [torch.float32 of size 3]\n"
                        "    (1): Parameter containing: [torch.float32 of size 2x2]\n)")
    assert all(isinstance(p, torch.nn.Parameter) for p in pl)
    assert len(list(torch.nn.Sequential().parameters())) == 0


# ---------------------------------------------------------------------------- containers

def test_sequential_indexing_slicing_len_iteration_append(torch):
    nn = torch.nn
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1))
    assert len(m) == 3 and isinstance(m[0], nn.Linear) and isinstance(m[-1], nn.Linear)
    sub = m[1:]
    assert type(sub) is nn.Sequential and len(sub) == 2 and sub[1] is m[2]
    assert [type(x).__name__ for x in m] == ["Linear", "ReLU", "Linear"]
    m.append(nn.Sigmoid())
    assert len(m) == 4 and m(torch.ones(5, 2)).shape == torch.Size([5, 1])
    del m[1]
    assert [n for n, _ in m.named_children()] == ["0", "1", "2"]
    with pytest.raises(IndexError, match=exact("index 7 is out of range")):
        m[7]


def test_sequential_from_ordered_dict(torch):
    from collections import OrderedDict
    nn = torch.nn
    m = nn.Sequential(OrderedDict([("fc", nn.Linear(2, 2)), ("act", nn.ReLU())]))
    assert [n for n, _ in m.named_parameters()] == ["fc.weight", "fc.bias"]
    assert isinstance(m.act, nn.ReLU)


def test_module_list_and_dict(torch):
    nn = torch.nn
    ml = nn.ModuleList([nn.Linear(1, 1)])
    ml.append(nn.ReLU())
    ml.extend([nn.Tanh()])
    ml.insert(0, nn.Identity())
    assert [type(m).__name__ for m in ml] == ["Identity", "Linear", "ReLU", "Tanh"]
    assert len(ml[1:]) == 3
    md = nn.ModuleDict({"a": nn.ReLU()})
    md["b"] = nn.Linear(2, 2)
    assert list(md.keys()) == ["a", "b"] and "b" in md and len(md) == 2
    assert [n for n, _ in md.named_parameters()] == ["b.weight", "b.bias"]
    with pytest.raises(NotImplementedError):
        ml(torch.ones(1))


# --------------------------------------------------------------------------------- hooks

def test_forward_pre_hook_and_forward_hook_can_replace_values(torch):
    lin = torch.nn.Linear(2, 2)
    calls = []

    def pre(mod, args):
        calls.append("pre")
        return (args[0] * 0,)

    def post(mod, args, out):
        calls.append("post")
        return out + 1

    h1 = lin.register_forward_pre_hook(pre)
    h2 = lin.register_forward_hook(post)
    out = lin(torch.ones(1, 2))
    assert calls == ["pre", "post"]
    assert torch.allclose(out, lin.bias.detach() + 1)
    h1.remove()
    h2.remove()
    assert torch.allclose(lin(torch.zeros(1, 2)), lin.bias.detach())


def test_forward_hook_with_kwargs_and_prepend_order(torch):
    lin = torch.nn.Linear(2, 2)
    order = []
    lin.register_forward_hook(lambda m, a, o: order.append("first"))
    lin.register_forward_hook(lambda m, a, o: order.append("second"), prepend=True)
    lin.register_forward_hook(lambda m, a, kw, o: order.append(sorted(kw)), with_kwargs=True)
    lin(input=torch.ones(1, 2))
    assert order == ["second", "first", ["input"]]


def test_hooks_on_submodules_see_intermediate_outputs(torch):
    nn = torch.nn
    m = nn.Sequential(nn.Linear(2, 3), nn.ReLU())
    shapes = []
    m[0].register_forward_hook(lambda mod, a, o: shapes.append(tuple(o.shape)))
    m(torch.ones(4, 2))
    assert shapes == [(4, 3)]


# ---------------------------------------------------------------------------- state dict

def test_state_dict_values_are_detached_plain_tensors_sharing_storage(torch):
    lin = torch.nn.Linear(2, 2)
    sd = lin.state_dict()
    assert list(sd) == ["weight", "bias"]
    assert type(sd["weight"]) is torch.Tensor and not sd["weight"].requires_grad
    with torch.no_grad():
        lin.weight.fill_(3)
    assert sd["weight"].tolist() == [[3.0, 3.0], [3.0, 3.0]]
    assert lin.state_dict(keep_vars=True)["weight"] is lin.weight


def test_load_state_dict_copies_and_reports(torch):
    a, b = _net(torch), _net(torch)
    res = b.load_state_dict(a.state_dict())
    assert repr(res) == "<All keys matched successfully>"
    assert res.missing_keys == [] and res.unexpected_keys == []
    assert all(torch.equal(x, y) for x, y in zip(a.parameters(), b.parameters()))


def test_load_state_dict_strict_errors_name_the_keys(torch):
    net = _net(torch)
    sd = net.state_dict()
    del sd["fc1.bias"]
    sd["extra.weight"] = torch.ones(1)
    sd["blocks.0.weight"] = torch.ones(3, 3)
    with pytest.raises(RuntimeError) as info:
        net.load_state_dict(sd)
    assert str(info.value) == (
        'Error(s) in loading state_dict for Net:\n\tMissing key(s) in state_dict: "fc1.bias". \n\t'
        'Unexpected key(s) in state_dict: "extra.weight". \n\t'
        "size mismatch for blocks.0.weight: copying a param with shape torch.Size([3, 3]) from checkpoint, the "
        "shape in current model is torch.Size([4, 4]).")


def test_load_state_dict_non_strict_returns_keys(torch):
    net = _net(torch)
    sd = {"fc1.weight": torch.zeros(4, 3), "other": torch.ones(1)}
    res = net.load_state_dict(sd, strict=False)
    assert res.missing_keys == ["scale", "fc1.bias", "blocks.0.weight", "blocks.0.bias"]
    assert res.unexpected_keys == ["other"]
    assert net.fc1.weight.abs().sum().item() == 0


def test_load_state_dict_rejects_non_mapping(torch):
    with pytest.raises(TypeError, match=exact("Expected state_dict to be dict-like, got <class 'list'>.")):
        torch.nn.Linear(1, 1).load_state_dict([])


def test_failed_strict_load_changes_nothing(ftorch):
    net = _net(ftorch)
    before = [p.detach().clone() for p in net.parameters()]
    sd = {k: v * 0 for k, v in net.state_dict().items()}
    sd["unexpected"] = ftorch.ones(1)
    with pytest.raises(RuntimeError):
        net.load_state_dict(sd)
    assert all(ftorch.equal(a, b) for a, b in zip(before, net.parameters()))


def test_batchnorm_state_dict_without_num_batches_tracked_loads(torch):
    bn = torch.nn.BatchNorm1d(2)
    sd = {k: v for k, v in bn.state_dict().items() if k != "num_batches_tracked"}
    assert repr(torch.nn.BatchNorm1d(2).load_state_dict(sd)) == "<All keys matched successfully>"


def test_state_dict_round_trip_through_deepcopy(torch):
    net = _net(torch)
    clone = copy.deepcopy(net)
    assert clone.fc1.weight is not net.fc1.weight
    assert type(clone.fc1.weight) is torch.nn.Parameter
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert torch.equal(clone(torch.ones(1, 3)), net(torch.ones(1, 3)))


def test_data_parallel_wraps_the_module(torch):
    m = torch.nn.DataParallel(torch.nn.Linear(2, 1))
    assert repr(m) == "DataParallel(\n  (module): Linear(in_features=2, out_features=1, bias=True)\n)"
    assert [n for n, _ in m.named_parameters()] == ["module.weight", "module.bias"]
    assert m(torch.ones(3, 2)).shape == torch.Size([3, 1])


def test_named_parameters_prefix_and_non_recursive(torch):
    net = _net(torch)
    assert [n for n, _ in net.named_parameters(prefix="m", recurse=False)] == []
    assert [n for n, _ in net.fc1.named_parameters(prefix="fc")] == ["fc.weight", "fc.bias"]
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "blocks"]
    assert net.get_submodule("blocks.0") is net.blocks[0]
    assert net.get_parameter("blocks.0.bias") is net.blocks[0].bias
