"""What ordinary OneFlow programs touch: the print format, dtype and device names, flow.Size, and
the tensor / nn / nn.functional / optim / utils.data surface (reference: OneFlow's tensor_str and
naming; values against PyTorch through `alike`)."""
from __future__ import annotations

import numpy as np
import pytest

from same_program import alike


@pytest.mark.parametrize("make, text", [
    (lambda f: f.tensor([1., 2., 3.]), "tensor([1., 2., 3.], dtype=oneflow.float32)"),
    (lambda f: f.tensor([1, 2, 3]), "tensor([1, 2, 3], dtype=oneflow.int64)"),
    (lambda f: f.tensor(3.), "tensor(3., dtype=oneflow.float32)"),
    (lambda f: f.tensor(3.5), "tensor(3.5000, dtype=oneflow.float32)"),
    (lambda f: f.tensor(3), "tensor(3, dtype=oneflow.int64)"),
    (lambda f: f.tensor([[1., 2.5], [3., -4.]]), "tensor([[ 1.0000,  2.5000],\n        [ 3.0000, -4.0000]], "
                                                 "dtype=oneflow.float32)"),
    (lambda f: f.tensor([1.5, 2.], dtype=f.float64), "tensor([1.5000, 2.0000], dtype=oneflow.float64)"),
    (lambda f: f.tensor([True, False, True]), "tensor([ True, False,  True], dtype=oneflow.bool)"),
    (lambda f: f.zeros(0), "tensor([], dtype=oneflow.float32)"),
    (lambda f: f.zeros(0, 3), "tensor([], size=(0, 3), dtype=oneflow.float32)"),
    (lambda f: f.tensor([1e-5, 1.]), "tensor([1.0000e-05, 1.0000e+00], dtype=oneflow.float32)"),
    (lambda f: f.tensor([1., float("inf")]), "tensor([1.0000e+00,        inf], dtype=oneflow.float32)"),
    (lambda f: f.arange(8.).reshape(2, 2, 2), "tensor([[[0., 1.],\n         [2., 3.]],\n\n        [[4., 5.],\n"
                                              "         [6., 7.]]], dtype=oneflow.float32)"),
    (lambda f: f.arange(20.) / 3, "tensor([0.0000, 0.3333, 0.6667, 1.0000, 1.3333, 1.6667, 2.0000, 2.3333, 2.6667,\n"
                                  "        3.0000, 3.3333, 3.6667, 4.0000, 4.3333, 4.6667, 5.0000, 5.3333, 5.6667,\n"
                                  "        6.0000, 6.3333], dtype=oneflow.float32)"),
    (lambda f: f.arange(2000.), "tensor([0.0000e+00, 1.0000e+00, 2.0000e+00,  ..., 1.9970e+03, 1.9980e+03,\n"
                                "        1.9990e+03], dtype=oneflow.float32)"),
    (lambda f: f.ones(2, requires_grad=True) * 2, "tensor([2., 2.], dtype=oneflow.float32, "
                                                  "grad_fn=<scalar_mulBackward>)"),
])
def test_print_format(flow, make, text):
    assert repr(make(flow)) == text == str(make(flow))


def test_a_long_suffix_wraps(flow):
    x = flow.tensor([[[[1., -0.5], [3., 4.]]]], requires_grad=True)
    y = x * x
    assert repr(y) == ("tensor([[[[ 1.0000,  0.2500],\n          [ 9.0000, 16.0000]]]], dtype=oneflow.float32,\n"
                       "       grad_fn=<broadcast_mulBackward>)")


def test_parameters_print_as_tensors(flow):
    p = flow.nn.Parameter(flow.tensor([1., 2.]))
    assert repr(p) == "tensor([1., 2.], dtype=oneflow.float32, requires_grad=True)"


def test_dtype_names_and_aliases(flow):
    assert [repr(d) for d in (flow.float32, flow.float64, flow.float16, flow.int8, flow.int16, flow.int32,
                              flow.int64, flow.uint8, flow.bool)] == [
        "oneflow.float32", "oneflow.float64", "oneflow.float16", "oneflow.int8", "oneflow.int16", "oneflow.int32",
        "oneflow.int64", "oneflow.uint8", "oneflow.bool"]
    assert (flow.float, flow.double, flow.half, flow.int, flow.long, flow.short) == (
        flow.float32, flow.float64, flow.float16, flow.int32, flow.int64, flow.int16)
    assert str(flow.float32) == "oneflow.float32" and flow.get_default_dtype() == flow.float32
    assert flow.float32.is_floating_point and flow.int8.is_signed and not flow.uint8.is_signed
    assert flow.tensor(np.ones(2)).dtype == flow.float64       # keeps a NumPy array's dtype
    assert flow.Tensor(2, 3).dtype == flow.float32


def test_device(flow):
    d = flow.device("cpu")
    assert repr(d) == "device(type='cpu', index=0)" and str(d) == "cpu:0"
    assert (d.type, d.index) == ("cpu", 0)
    x = flow.ones(2)
    assert x.device == d and repr(x.device) == "device(type='cpu', index=0)"


def test_size(flow):
    x = flow.ones(2, 3)
    assert isinstance(x.shape, flow.Size) and repr(x.shape) == "oneflow.Size([2, 3])" and x.shape == (2, 3)
    assert x.size() == flow.Size([2, 3]) and x.size(1) == 3 and x.shape.numel() == 6


def test_tensor_basics(flow):
    x = flow.tensor([[1., 2.], [3., 4.]])
    assert x.numpy().tolist() == [[1., 2.], [3., 4.]] and x.tolist() == [[1., 2.], [3., 4.]]
    assert x.sum().item() == 10. and x.ndim == 2 and x.numel() == 4 and x.dim() == 2
    assert x.t().tolist() == [[1., 3.], [2., 4.]] and x.view(4).tolist() == [1., 2., 3., 4.]
    assert x.to(flow.int32).dtype == flow.int32 and x.float().dtype == flow.float32
    assert flow.is_tensor(x) and isinstance(x, flow.Tensor)
    assert flow.from_numpy(np.zeros(2, dtype=np.float32)).dtype == flow.float32


def test_layers_and_functional_agree_with_pytorch():
    def program(fw, x, w):
        fw.manual_seed(0)
        conv = fw.nn.functional.conv2d(x, w, padding=1)
        h = fw.nn.functional.max_pool2d(fw.nn.functional.relu(conv), 2)
        return (h, fw.nn.functional.log_softmax(h.flatten(1), dim=1),
                fw.nn.functional.mse_loss(h, fw.zeros_like(h)),
                fw.nn.functional.cross_entropy(h.flatten(1), fw.tensor([0, 1])))
    alike(program, np.arange(32.).reshape(2, 1, 4, 4) / 10, np.ones((2, 1, 3, 3)) / 9)


def test_training_loop_agrees_with_pytorch():
    def program(fw, x):
        net = fw.nn.Sequential(fw.nn.Linear(3, 4), fw.nn.Tanh(), fw.nn.Linear(4, 1))
        with fw.no_grad():
            for i, p in enumerate(net.parameters()):
                values = np.linspace(-0.5, 0.5, p.numel()).reshape(tuple(p.shape)) * (i + 1)
                p.copy_(fw.tensor(values.astype(np.float32)))
        opt = fw.optim.SGD(net.parameters(), lr=0.1, momentum=0.9)
        sched = fw.optim.lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
        data = fw.utils.data.TensorDataset(x.detach(), x.detach().sum(1, keepdim=True))
        losses = []
        for _ in range(3):
            for xb, yb in fw.utils.data.DataLoader(data, batch_size=2):
                loss = fw.nn.functional.mse_loss(net(xb), yb)
                opt.zero_grad()
                loss.backward()
                opt.step()
                losses.append(loss.detach())
            sched.step()
        return fw.stack(losses), net[0].weight.detach()
    alike(program, np.arange(12.).reshape(4, 3) / 12, requires_grad=False)


def test_module_classes_are_oneflows(flow):
    net = flow.nn.Linear(2, 3)
    assert isinstance(net, flow.nn.Module) and type(net).__module__ == "flowgrad.oneflow.nn"
    assert isinstance(net.weight, flow.nn.Parameter) and isinstance(net.weight, flow.Tensor)
    assert type(net(flow.ones(1, 2))) is flow.Tensor
    assert isinstance(flow.nn.LSTM(2, 3), flow.nn.RNNBase)
    batch = next(iter(flow.utils.data.DataLoader([np.ones(2, dtype=np.float32)] * 2, batch_size=2)))
    assert type(batch) is flow.Tensor and batch.shape == (2, 2)


def test_save_load_cuda_and_clipping(flow, tmp_path):
    net = flow.nn.Linear(2, 1)
    flow.save(net.state_dict(), str(tmp_path / "net.of"))
    state = flow.load(str(tmp_path / "net.of"))
    assert type(state["weight"]) is flow.Tensor and state["weight"].tolist() == net.weight.tolist()
    other = flow.nn.Linear(2, 1)
    other.load_state_dict(state)
    assert other.bias.tolist() == net.bias.tolist()
    assert flow.cuda.is_available() is (flow.cuda.device_count() > 0)
    net(flow.ones(3, 2)).sum().backward()
    total = flow.nn.utils.clip_grad_norm_(net.parameters(), 0.1)
    assert abs(total.item() - float(np.sqrt(3 * 3 * 2 + 9))) < 1e-5
    norm = np.sqrt(sum(float((p.grad ** 2).sum().item()) for p in net.parameters()))
    assert abs(norm - 0.1) < 1e-4


def test_numpy_of_a_tensor_that_requires_grad(flow):
    x = flow.tensor([1., 2.], requires_grad=True)
    y = x * 3
    assert y.numpy().tolist() == [3., 6.] and x.numpy().tolist() == [1., 2.]   # PyTorch refuses both
    assert y.grad_fn is not None                                                # the graph is untouched


def test_nn_utils_rnn_packs_as_pytorch(flow):
    """oneflow.nn.utils.rnn is PyTorch's interface (OneFlow's documentation says so): pad, pack,
    run an LSTM on the packed batch and unpack, against real torch."""
    torch = pytest.importorskip("torch")
    rnn = flow.nn.utils.rnn
    assert sorted(rnn.__all__) == ["PackedSequence", "pack_padded_sequence", "pack_sequence",
                                   "pad_packed_sequence", "pad_sequence"]
    rows = [[1., 2., 3.], [4.], [5., 6.]]
    padded = rnn.pad_sequence([flow.tensor(r) for r in rows], batch_first=True, padding_value=-1.)
    expected = torch.nn.utils.rnn.pad_sequence([torch.tensor(r) for r in rows], batch_first=True, padding_value=-1.)
    assert padded.tolist() == expected.tolist()
    packed = rnn.pack_padded_sequence(padded.unsqueeze(-1), [3, 1, 2], batch_first=True, enforce_sorted=False)
    reference = torch.nn.utils.rnn.pack_padded_sequence(expected.unsqueeze(-1), [3, 1, 2], batch_first=True,
                                                        enforce_sorted=False)
    assert isinstance(packed, rnn.PackedSequence)
    assert packed.data.tolist() == reference.data.tolist()
    assert packed.batch_sizes.tolist() == reference.batch_sizes.tolist()
    out, lengths = rnn.pad_packed_sequence(packed, batch_first=True)
    assert out.squeeze(-1).tolist() == [[1., 2., 3.], [4., 0., 0.], [5., 6., 0.]]
    assert lengths.tolist() == [3, 1, 2]
    assert rnn.pack_sequence([flow.tensor(r) for r in rows], enforce_sorted=False).data.tolist() == \
        torch.nn.utils.rnn.pack_sequence([torch.tensor(r) for r in rows], enforce_sorted=False).data.tolist()
