"""RNN, LSTM, GRU, their cells and nn.utils.rnn against real torch: the same weights (a real torch
module's state dict loaded into flowgrad's), the same inputs and initial states, then outputs,
final states and the gradients of the input, the initial states and every parameter, over a grid of
configurations in float32 and float64; plus construction, repr, init and the error messages."""
from __future__ import annotations

import re
import warnings

import numpy as np
import pytest

import flowgrad.torch as ft

TOL = {"float32": 2e-5, "float64": 1e-10}
pytestmark = pytest.mark.filterwarnings("ignore:LSTM with projections is not supported with oneDNN")


def _weights(shape, salt):
    """Fixed loss weights for an output of `shape` (the same in both frameworks)."""
    return np.random.default_rng([*shape, salt]).standard_normal(shape)


def _loss(T, tensors):
    total = 0
    for i, t in enumerate(tensors):
        total = total + (t * T.tensor(_weights(tuple(t.shape), i), dtype=t.dtype)).sum()
    return total


def _flat(state):
    return list(state) if isinstance(state, tuple) else [state]


def _module(T, cls, args, kwargs, state_dict, dtype):
    m = getattr(T.nn, cls)(*args, **kwargs).to(getattr(T, dtype))
    m.load_state_dict({k: T.tensor(v.astype(dtype)) for k, v in state_dict.items()})
    return m


def _run_layer(T, cls, args, kwargs, state_dict, dtype, x, hx, packed):
    """Forward + backward of one layer; returns every array to compare."""
    m = _module(T, cls, args, kwargs, state_dict, dtype)
    xt = T.tensor(x.astype(dtype), requires_grad=True)
    ht = None if hx is None else tuple(T.tensor(h.astype(dtype), requires_grad=True) for h in hx)
    arg = ht if ht is None or cls == "LSTM" else ht[0]
    results = []
    if packed is not None:
        lengths, enforce_sorted = packed
        seq = T.nn.utils.rnn.pack_padded_sequence(xt, lengths, batch_first=m.batch_first,
                                                  enforce_sorted=enforce_sorted)
        out_seq, state = m(seq, arg)
        results += [f.numpy() for f in (out_seq.batch_sizes, out_seq.sorted_indices, out_seq.unsorted_indices)
                    if f is not None]
        results.append(out_seq.data.detach().numpy())
        out, out_lengths = T.nn.utils.rnn.pad_packed_sequence(out_seq, batch_first=m.batch_first)
        results.append(out_lengths.numpy())
    else:
        out, state = m(xt, arg)
    _loss(T, [out] + _flat(state)).backward()
    results += [out.detach().numpy()] + [s.detach().numpy() for s in _flat(state)] + [xt.grad.numpy()]
    results += [] if ht is None else [h.grad.numpy() for h in ht]
    results += [(name, p.grad.numpy()) for name, p in m.named_parameters()]
    return results


def _compare(a, b, tol):
    assert len(a) == len(b)
    for i, (x, y) in enumerate(zip(a, b)):
        name = f"result {i}"
        if isinstance(x, tuple):
            assert x[0] == y[0]
            name, x, y = x[0], x[1], y[1]
        assert x.shape == y.shape, f"{name}: shapes {x.shape} vs {y.shape}"
        assert x.dtype == y.dtype, f"{name}: dtypes {x.dtype} vs {y.dtype}"
        np.testing.assert_allclose(x, y, rtol=tol, atol=tol, err_msg=name)


# name: (class, positional args, keyword args, input layout, with initial state, packed)
# layouts: "TBF" (batch second), "BTF" (batch_first), "TF" (unbatched)
LAYER_CASES = {}
for _cls, _extra in (("RNN", {}), ("RNN-relu", {"nonlinearity": "relu"}), ("LSTM", {}), ("GRU", {})):
    for _layers in (1, 2):
        for _bidi in (False, True):
            for _bf in (False, True):
                _kw = dict(_extra, num_layers=_layers, bidirectional=_bidi, batch_first=_bf)
                LAYER_CASES[f"{_cls}-l{_layers}{'-bi' if _bidi else ''}{'-bf' if _bf else ''}"] = (
                    _cls.split("-")[0], _kw, "BTF" if _bf else "TBF", _layers == 2, None)
    _cls0 = _cls.split("-")[0]
    LAYER_CASES[f"{_cls}-nobias"] = (_cls0, dict(_extra, num_layers=2, bias=False), "TBF", True, None)
    LAYER_CASES[f"{_cls}-unbatched"] = (_cls0, dict(_extra, num_layers=2, bidirectional=True), "TF", True, None)
    LAYER_CASES[f"{_cls}-unbatched-bf"] = (_cls0, dict(_extra, batch_first=True), "TF", False, None)
    LAYER_CASES[f"{_cls}-packed"] = (_cls0, dict(_extra, num_layers=2, bidirectional=True), "TBF", True,
                                     ([5, 4, 4, 2], True))
    LAYER_CASES[f"{_cls}-packed-unsorted-bf"] = (_cls0, dict(_extra, num_layers=2, bidirectional=True,
                                                             batch_first=True), "BTF", True, ([2, 5, 1, 4], False))
    LAYER_CASES[f"{_cls}-packed-no-state"] = (_cls0, dict(_extra), "TBF", False, ([3, 5, 1, 3], False))
for _name, _kw in (("proj", dict(proj_size=2)), ("proj-l2-bi", dict(proj_size=3, num_layers=2, bidirectional=True)),
                   ("proj-nobias-bf", dict(proj_size=2, bias=False, batch_first=True))):
    LAYER_CASES[f"LSTM-{_name}"] = ("LSTM", _kw, "BTF" if _kw.get("batch_first") else "TBF", True, None)
    LAYER_CASES[f"LSTM-{_name}-packed"] = ("LSTM", _kw, "BTF" if _kw.get("batch_first") else "TBF", True,
                                           ([2, 5, 1, 4], False))
LAYER_CASES["LSTM-proj-unbatched"] = ("LSTM", dict(proj_size=2, num_layers=2), "TF", True, None)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(LAYER_CASES))
def test_layer_matches_torch(name, dtype, real_torch):
    cls, kwargs, layout, with_state, packed = LAYER_CASES[name]
    input_size, hidden_size, steps, batch = 3, 5, 5, 4
    real_torch.manual_seed(0)
    reference = getattr(real_torch.nn, cls)(input_size, hidden_size, **kwargs)
    state_dict = {k: v.detach().numpy() for k, v in reference.state_dict().items()}
    rng = np.random.default_rng(1)
    shape = {"TBF": (steps, batch, input_size), "BTF": (batch, steps, input_size), "TF": (steps, input_size)}[layout]
    x = rng.standard_normal(shape)
    hx = None
    if with_state:
        layers = kwargs.get("num_layers", 1) * (2 if kwargs.get("bidirectional") else 1)
        lead = (layers,) if layout == "TF" else (layers, batch)
        h_size = kwargs.get("proj_size") or hidden_size
        hx = (rng.standard_normal(lead + (h_size,)),)
        if cls == "LSTM":
            hx += (rng.standard_normal(lead + (hidden_size,)),)
    args = (input_size, hidden_size)
    a = _run_layer(ft, cls, args, kwargs, state_dict, dtype, x, hx, packed)
    b = _run_layer(real_torch, cls, args, kwargs, state_dict, dtype, x, hx, packed)
    _compare(a, b, TOL[dtype])


CELL_CASES = {
    "RNNCell": ("RNNCell", {}), "RNNCell-relu": ("RNNCell", {"nonlinearity": "relu"}),
    "RNNCell-nobias": ("RNNCell", {"bias": False}), "LSTMCell": ("LSTMCell", {}),
    "LSTMCell-nobias": ("LSTMCell", {"bias": False}), "GRUCell": ("GRUCell", {}),
    "GRUCell-nobias": ("GRUCell", {"bias": False}),
}


def _run_cell(T, cls, kwargs, state_dict, dtype, xs, hx):
    """Three steps of a cell from `hx` (or zeros), then backward."""
    m = _module(T, cls, (3, 4), kwargs, state_dict, dtype)
    xt = [T.tensor(x.astype(dtype), requires_grad=True) for x in xs]
    ht = None if hx is None else tuple(T.tensor(h.astype(dtype), requires_grad=True) for h in hx)
    state = ht if ht is None or cls == "LSTMCell" else ht[0]
    outs = []
    for x in xt:
        state = m(x, state)
        outs += _flat(state)
    _loss(T, outs).backward()
    results = [o.detach().numpy() for o in outs] + [x.grad.numpy() for x in xt]
    results += [] if ht is None else [h.grad.numpy() for h in ht]
    return results + [(name, p.grad.numpy()) for name, p in m.named_parameters()]


@pytest.mark.parametrize("batched", [True, False], ids=["batched", "unbatched"])
@pytest.mark.parametrize("with_state", [True, False], ids=["state", "zeros"])
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", sorted(CELL_CASES))
def test_cell_matches_torch(name, dtype, with_state, batched, real_torch):
    cls, kwargs = CELL_CASES[name]
    real_torch.manual_seed(0)
    state_dict = {k: v.detach().numpy() for k, v in getattr(real_torch.nn, cls)(3, 4, **kwargs).state_dict().items()}
    rng = np.random.default_rng(2)
    lead = (2,) if batched else ()
    xs = [rng.standard_normal(lead + (3,)) for _ in range(3)]
    hx = None
    if with_state:
        hx = tuple(rng.standard_normal(lead + (4,)) for _ in range(2 if cls == "LSTMCell" else 1))
    a = _run_cell(ft, cls, kwargs, state_dict, dtype, xs, hx)
    b = _run_cell(real_torch, cls, kwargs, state_dict, dtype, xs, hx)
    _compare(a, b, TOL[dtype])


def test_second_derivative_of_lstm_matches_torch(real_torch):
    def run(T):
        real_torch.manual_seed(0)
        sd = real_torch.nn.LSTM(2, 3).double().state_dict()
        m = T.nn.LSTM(2, 3).double()
        m.load_state_dict({k: T.tensor(v.numpy()) for k, v in sd.items()})
        x = T.tensor(np.linspace(-1, 1, 12).reshape(3, 2, 2), requires_grad=True)
        out, _ = m(x)
        (g,) = T.autograd.grad((out ** 2).sum(), x, create_graph=True)
        (gg,) = T.autograd.grad((g ** 2).sum(), x)
        return g.detach().numpy(), gg.numpy()
    for a, b in zip(run(ft), run(real_torch)):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


# ------------------------------------------------------------------------- structure and state

@pytest.mark.parametrize("cls, args, kwargs", [
    ("RNN", (3, 4), dict(num_layers=2, bidirectional=True, nonlinearity="relu")),
    ("LSTM", (3, 4), dict(num_layers=2, bidirectional=True, proj_size=2)),
    ("LSTM", (3, 4), dict(bias=False, proj_size=1)),
    ("GRU", (3, 4), dict(num_layers=3, bias=False)),
    ("RNNCell", (3, 4), dict(bias=False)), ("LSTMCell", (3, 4), {}), ("GRUCell", (3, 4), {}),
])
def test_parameter_names_shapes_and_state_dict_match_torch(cls, args, kwargs, real_torch):
    theirs = getattr(real_torch.nn, cls)(*args, **kwargs)
    ours = getattr(ft.nn, cls)(*args, **kwargs)
    assert [(n, tuple(p.shape)) for n, p in ours.named_parameters()] == \
        [(n, tuple(p.shape)) for n, p in theirs.named_parameters()]
    assert list(ours.state_dict()) == list(theirs.state_dict())
    result = ours.load_state_dict({k: ft.tensor(v.numpy()) for k, v in theirs.state_dict().items()})
    assert not result.missing_keys and not result.unexpected_keys
    for (_, p), (_, q) in zip(ours.named_parameters(), theirs.named_parameters()):
        np.testing.assert_array_equal(p.detach().numpy(), q.detach().numpy())
    assert repr(ours) == repr(theirs)


def test_all_weights_flatten_parameters_and_bases(torch):
    m = torch.nn.LSTM(3, 4, num_layers=2, bidirectional=True, proj_size=2)
    names = [[n for n, _ in m.named_parameters()][i:i + 5] for i in range(0, 20, 5)]
    assert [[id(p) for p in ws] for ws in m.all_weights] == [[id(getattr(m, n)) for n in ns] for ns in names]
    assert [len(ws) for ws in m.all_weights] == [5, 5, 5, 5]
    assert m.flatten_parameters() is None
    assert isinstance(m, torch.nn.RNNBase) and isinstance(torch.nn.GRUCell(2, 3), torch.nn.RNNCellBase)
    # load_state_dict(assign=True) swaps the parameters; all_weights and forward see the new ones
    new = {k: torch.zeros_like(v) for k, v in m.state_dict().items()}
    m.load_state_dict(new, assign=True)
    assert all(p is m.state_dict(keep_vars=True)[n] for ns, ws in zip(names, m.all_weights) for n, p in zip(ns, ws))
    out, (h, c) = m(torch.randn(2, 1, 3))
    assert out.abs().sum().item() == 0 and h.abs().sum().item() == 0


def test_default_init_is_uniform_within_one_over_sqrt_hidden(torch):
    torch.manual_seed(0)
    for m in (torch.nn.LSTM(6, 16, num_layers=2), torch.nn.GRUCell(5, 16), torch.nn.RNN(4, 16, bias=False)):
        for p in m.parameters():
            assert p.abs().max().item() <= 0.25 and p.abs().max().item() > 0.2
            assert p.requires_grad


def test_factory_kwargs_and_dtype(torch):
    m = torch.nn.GRU(3, 4, dtype=torch.float64)
    assert all(p.dtype == torch.float64 for p in m.parameters())
    out, h = m(torch.randn(2, 1, 3, dtype=torch.float64))
    assert out.dtype == torch.float64 and h.shape == (1, 1, 4)
    c = torch.nn.LSTMCell(3, 4, device="cpu", dtype=torch.float64)
    assert c.weight_ih.dtype == torch.float64


def test_output_shapes(torch):
    m = torch.nn.LSTM(3, 6, num_layers=2, bidirectional=True, proj_size=2, batch_first=True)
    out, (h, c) = m(torch.randn(4, 5, 3))
    assert out.shape == (4, 5, 4) and h.shape == (4, 4, 2) and c.shape == (4, 4, 6)
    out, (h, c) = m(torch.randn(5, 3))
    assert out.shape == (5, 4) and h.shape == (4, 2) and c.shape == (4, 6)
    out, h = torch.nn.GRU(3, 6)(torch.randn(5, 0, 3))
    assert out.shape == (5, 0, 6) and h.shape == (1, 0, 6)


def test_dropout_between_layers_only_in_training(torch):
    torch.manual_seed(0)
    m = torch.nn.GRU(3, 50, num_layers=2, dropout=0.5)
    x = torch.randn(4, 2, 3)
    m.eval()
    a, _ = m(x)
    b, _ = m(x)
    assert torch.equal(a, b)
    m.train()
    c, _ = m(x)
    assert not torch.equal(a, c)
    m.dropout = 0.0
    d, _ = m(x)
    assert torch.allclose(a, d)
    # dropout never applies after the last layer: a one-layer module ignores it
    with pytest.warns(UserWarning):
        one = torch.nn.RNN(3, 5, dropout=0.5)
    one.train()
    e, _ = one(x)
    one.eval()
    f, _ = one(x)
    assert torch.equal(e, f)


# -------------------------------------------------------------------------------------- errors

def _raises(torch, exc, message, fn):
    with pytest.raises(exc, match="^" + re.escape(message) + "$"):
        fn()


CONSTRUCTION_ERRORS = [
    (lambda nn: nn.LSTM(3, 4, dropout=1.5), ValueError,
     "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"),
    (lambda nn: nn.LSTM(3, 4, dropout=True), ValueError,
     "dropout should be a number in range [0, 1] representing the probability of an element being zeroed"),
    (lambda nn: nn.LSTM(3, 4, bias=1), TypeError, "bias should be of type bool, got: int"),
    (lambda nn: nn.GRU(3, 4, batch_first="yes"), TypeError, "batch_first should be of type bool, got: str"),
    (lambda nn: nn.RNN(3.0, 4), TypeError, "input_size should be of type int, got: float"),
    (lambda nn: nn.RNN(0, 4), ValueError, "input_size must be greater than zero"),
    (lambda nn: nn.RNN(3, 4.0), TypeError, "hidden_size should be of type int, got: float"),
    (lambda nn: nn.RNN(3, -1), ValueError, "hidden_size must be greater than zero"),
    (lambda nn: nn.LSTM(3, 4, num_layers=0), ValueError, "num_layers must be greater than zero"),
    (lambda nn: nn.LSTM(3, 4, proj_size=-1), ValueError,
     "proj_size should be a positive integer or zero to disable projections"),
    (lambda nn: nn.LSTM(3, 4, proj_size=4), ValueError, "proj_size has to be smaller than hidden_size"),
    (lambda nn: nn.RNN(3, 4, proj_size=2), ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda nn: nn.GRU(3, 4, proj_size=2), ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    (lambda nn: nn.RNN(3, 4, nonlinearity="sigmoid"), ValueError,
     "Unknown nonlinearity 'sigmoid'. Select from 'tanh' or 'relu'."),
    (lambda nn: nn.RNN(3, 4, 1, "gelu"), ValueError, "Unknown nonlinearity 'gelu'. Select from 'tanh' or 'relu'."),
    (lambda nn: nn.RNNBase("CELL", 3, 4), ValueError, "Unrecognized RNN mode: CELL"),
    (lambda nn: nn.LSTM(3, 4, foo=1), TypeError, "RNNBase.__init__() got an unexpected keyword argument 'foo'"),
]


@pytest.mark.parametrize("case", range(len(CONSTRUCTION_ERRORS)))
def test_construction_errors(case, torch):
    fn, exc, message = CONSTRUCTION_ERRORS[case]
    _raises(torch, exc, message, lambda: fn(torch.nn))


def test_dropout_with_one_layer_warns(torch):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        torch.nn.LSTM(3, 4, dropout=0.5)
        torch.nn.LSTM(3, 4, num_layers=2, dropout=0.5)
    assert [(w.category, str(w.message)) for w in caught] == [
        (UserWarning, "dropout option adds dropout after all but last recurrent layer, so non-zero dropout expects "
                      "num_layers greater than 1, but got dropout=0.5 and num_layers=1")]


def _forward_errors(torch):
    lstm, rnn, gru = torch.nn.LSTM(3, 4), torch.nn.RNN(3, 4), torch.nn.GRU(3, 4)
    pack = torch.nn.utils.rnn.pack_sequence
    r = torch.randn
    return [
        (lambda: lstm(r(1, 2, 3, 3)), ValueError, "LSTM: Expected input to be 2D or 3D, got 4D instead"),
        (lambda: lstm(r(3)), ValueError, "LSTM: Expected input to be 2D or 3D, got 1D instead"),
        (lambda: rnn(r(1, 2, 3, 3)), ValueError, "RNN: Expected input to be 2D or 3D, got 4D tensor instead"),
        (lambda: gru(r(1, 2, 3, 3)), ValueError, "GRU: Expected input to be 2D or 3D, got 4D instead"),
        (lambda: lstm(r(5, 2, 6)), RuntimeError, "input.size(-1) must be equal to input_size. Expected 3, got 6"),
        (lambda: gru(r(5, 6)), RuntimeError, "input.size(-1) must be equal to input_size. Expected 3, got 6"),
        (lambda: lstm(r(5, 2, 3, dtype=torch.float64)), ValueError,
         "RNN input dtype (torch.float64) does not match weight dtype (torch.float32). Convert input: "
         "input.to(torch.float32), or convert model: model.to(torch.float64)"),
        (lambda: lstm(r(5, 2, 3), (r(2, 4), r(1, 2, 4))), RuntimeError,
         "For batched 3-D input, hx and cx should also be 3-D but got (2-D, 3-D) tensors"),
        (lambda: lstm(r(5, 3), (r(1, 1, 4), r(1, 4))), RuntimeError,
         "For unbatched 2-D input, hx and cx should also be 2-D but got (3-D, 2-D) tensors"),
        (lambda: lstm(r(5, 2, 3), (r(1, 3, 4), r(1, 2, 4))), RuntimeError,
         "Expected hidden[0] size (1, 2, 4), got [1, 3, 4]"),
        (lambda: lstm(r(5, 2, 3), (r(1, 2, 4), r(2, 2, 4))), RuntimeError,
         "Expected hidden[1] size (1, 2, 4), got [2, 2, 4]"),
        (lambda: torch.nn.LSTM(3, 4, proj_size=2)(r(5, 2, 3), (r(1, 2, 4), r(1, 2, 4))), RuntimeError,
         "Expected hidden[0] size (1, 2, 2), got [1, 2, 4]"),
        (lambda: rnn(r(5, 2, 3), r(2, 4)), RuntimeError,
         "For batched 3-D input, hx should also be 3-D but got 2-D tensor"),
        (lambda: gru(r(5, 3), r(1, 2, 4)), RuntimeError,
         "For unbatched 2-D input, hx should also be 2-D but got 3-D tensor"),
        (lambda: rnn(r(5, 2, 3), r(2, 2, 4)), RuntimeError, "Expected hidden size (1, 2, 4), got [2, 2, 4]"),
        (lambda: gru(pack([r(3, 3), r(2, 3)]), r(1, 3, 4)), RuntimeError,
         "Expected hidden size (1, 2, 4), got [1, 3, 4]"),
        (lambda: gru(pack([r(3, 5), r(2, 5)])), RuntimeError,
         "input.size(-1) must be equal to input_size. Expected 3, got 5"),
        (lambda: lstm(r(0, 2, 3)), RuntimeError, "Expected sequence length to be larger than 0 in RNN"),
        (lambda: torch.nn.RNNCell(3, 4, nonlinearity="x")(r(2, 3)), RuntimeError, "Unknown nonlinearity: x"),
    ]


def _cell_errors(torch):
    lstm, rnn, gru = torch.nn.LSTMCell(3, 4), torch.nn.RNNCell(3, 4), torch.nn.GRUCell(3, 4)
    r = torch.randn
    return [
        (lambda: lstm(r(1, 2, 3)), ValueError, "LSTMCell: Expected input to be 1D or 2D, got 3D instead"),
        (lambda: lstm(r(2, 3), (r(1, 2, 4), r(2, 4))), ValueError,
         "LSTMCell: Expected hx[0] to be 1D or 2D, got 3D instead"),
        (lambda: lstm(r(2, 3), (r(2, 4), r(1, 2, 4))), ValueError,
         "LSTMCell: Expected hx[1] to be 1D or 2D, got 3D instead"),
        (lambda: lstm(r(2, 5)), RuntimeError, "input has inconsistent input_size: got 5 expected 3"),
        (lambda: lstm(r(2, 3), (r(3, 4), r(3, 4))), RuntimeError,
         "Input batch size 2 doesn't match hidden0 batch size 3"),
        (lambda: lstm(r(2, 3), (r(2, 5), r(2, 4))), RuntimeError,
         "hidden0 has inconsistent hidden_size: got 5, expected 4"),
        (lambda: lstm(r(2, 3), (r(2, 4), r(2, 5))), RuntimeError,
         "hidden1 has inconsistent hidden_size: got 5, expected 4"),
        (lambda: lstm(r(2, 3), (r(2, 4), r(1, 4))), RuntimeError,
         "Input batch size 2 doesn't match hidden1 batch size 1"),
        (lambda: lstm(r(3), (r(2, 4), r(2, 4))), RuntimeError,
         "hidden0 has inconsistent hidden_size: got 2, expected 4"),
        (lambda: lstm(r(2, 3, dtype=torch.float64)), RuntimeError,
         "mat1 and mat2 must have the same dtype, but got Double and Float"),
        (lambda: rnn(r(1, 2, 3)), ValueError, "RNNCell: Expected input to be 1D or 2D, got 3D instead"),
        (lambda: rnn(r(2, 3), r(1, 2, 4)), ValueError, "RNNCell: Expected hidden to be 1D or 2D, got 3D instead"),
        (lambda: rnn(r(2, 5)), RuntimeError, "input has inconsistent input_size: got 5 expected 3"),
        (lambda: rnn(r(2, 3), r(4)), RuntimeError, "Input batch size 2 doesn't match hidden0 batch size 4"),
        (lambda: rnn(r(4, 3), r(4)), IndexError, "Dimension out of range (expected to be in range of [-1, 0], but "
                                                 "got 1)"),
        (lambda: gru(r(1, 2, 3)), ValueError, "GRUCell: Expected input to be 1D or 2D, got 3D instead"),
        (lambda: gru(r(2, 3), r(1, 2, 4)), ValueError, "GRUCell: Expected hidden to be 1D or 2D, got 3D instead"),
        (lambda: gru(r(2, 3), r(2, 5)), RuntimeError, "hidden0 has inconsistent hidden_size: got 5, expected 4"),
    ]


@pytest.mark.parametrize("case", range(19))
def test_forward_errors(case, torch):
    fn, exc, message = _forward_errors(torch)[case]
    _raises(torch, exc, message, fn)


@pytest.mark.parametrize("case", range(18))
def test_cell_errors(case, torch):
    fn, exc, message = _cell_errors(torch)[case]
    _raises(torch, exc, message, fn)


def test_error_tables_are_fully_parametrized():
    assert len(_forward_errors(ft)) == 19 and len(_cell_errors(ft)) == 18


# ----------------------------------------------------------------------------- nn.utils.rnn

def _seqs(T, lengths, trailing=(2,), dtype="float64", seed=3):
    rng = np.random.default_rng(seed)
    return [T.tensor(rng.standard_normal((n,) + trailing).astype(dtype), requires_grad=True) for n in lengths]


@pytest.mark.parametrize("batch_first", [False, True])
@pytest.mark.parametrize("padding_side", ["right", "left"])
@pytest.mark.parametrize("trailing", [(), (2,), (2, 3)])
def test_pad_sequence_matches_torch(batch_first, padding_side, trailing, real_torch):
    def run(T):
        seqs = _seqs(T, [3, 5, 1, 5], trailing)
        out = T.nn.utils.rnn.pad_sequence(seqs, batch_first=batch_first, padding_value=-1.5,
                                          padding_side=padding_side)
        _loss(T, [out]).backward()
        return [out.detach().numpy()] + [s.grad.numpy() for s in seqs]
    _compare(run(ft), run(real_torch), 0)


def test_pad_sequence_casts_to_the_first_dtype_broadcasts_and_takes_any_iterable(torch):
    pad = torch.nn.utils.rnn.pad_sequence
    out = pad([torch.tensor([1.5, 2.5]), torch.tensor([1, 2, 3])])
    assert out.dtype == torch.float32 and out.tolist() == [[1.5, 1.0], [2.5, 2.0], [0.0, 3.0]]
    out = pad([torch.ones(2, 3), torch.full((1, 1), 2.0)])
    assert out.tolist() == [[[1.0] * 3, [2.0] * 3], [[1.0] * 3, [0.0] * 3]]
    assert pad((torch.ones(2) * k for k in range(3)), batch_first=True).shape == (3, 2)
    assert pad(torch.ones(3, 2, 4)).shape == (2, 3, 4)


def test_pad_sequence_errors(torch):
    pad = torch.nn.utils.rnn.pad_sequence
    _raises(torch, RuntimeError, "received an empty list of sequences", lambda: pad([]))
    _raises(torch, RuntimeError, "received an empty list of sequences", lambda: pad([], padding_side="mid"))
    _raises(torch, RuntimeError, "Expected padding_side to be one of left or right, but got mid.",
            lambda: pad([torch.ones(2)], padding_side="mid"))
    _raises(torch, RuntimeError, "pad_sequence: Expected iterable for input sequences, but got arg of type: "
                                 "<class 'int'>", lambda: pad(5))
    _raises(torch, RuntimeError, "The size of tensor a (3) must match the size of tensor b (4) at non-singleton "
                                 "dimension 1", lambda: pad([torch.ones(2, 3), torch.ones(2, 4)]))
    _raises(torch, RuntimeError, "output with shape [2, 1] doesn't match the broadcast shape [2, 3]",
            lambda: pad([torch.ones(2, 1), torch.ones(2, 3)]))


@pytest.mark.parametrize("enforce_sorted, lengths", [(True, [5, 3, 3, 1]), (False, [2, 5, 1, 4]),
                                                     (False, [3, 3, 3, 3]), (True, [4, 4, 4, 4])])
@pytest.mark.parametrize("batch_first", [False, True])
def test_pack_and_pad_packed_match_torch(enforce_sorted, lengths, batch_first, real_torch):
    def run(T):
        rng = np.random.default_rng(4)
        shape = (4, 6, 2) if batch_first else (6, 4, 2)
        x = T.tensor(rng.standard_normal(shape), requires_grad=True)
        packed = T.nn.utils.rnn.pack_padded_sequence(x, T.tensor(lengths, device="cpu"), batch_first=batch_first,
                                                     enforce_sorted=enforce_sorted)
        padded, out_lengths = T.nn.utils.rnn.pad_packed_sequence(packed, batch_first=batch_first,
                                                                 padding_value=7.0, total_length=7)
        _loss(T, [packed.data, padded]).backward()
        fields = [f.numpy() for f in (packed.batch_sizes, packed.sorted_indices, packed.unsorted_indices)
                  if f is not None]
        assert (packed.sorted_indices is None) == enforce_sorted
        return fields + [packed.data.detach().numpy(), padded.detach().numpy(), out_lengths.numpy(),
                         x.grad.numpy()]
    _compare(run(ft), run(real_torch), 0)


def test_unsorted_ties_are_ordered_as_torch_orders_them(real_torch):
    rng = np.random.default_rng(5)
    for n in (17, 40, 129):
        lengths = rng.integers(1, 5, n).tolist()

        def run(T):
            seqs = [T.ones(k, 1) for k in lengths]
            packed = T.nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)
            return packed.sorted_indices.tolist(), packed.unsorted_indices.tolist(), packed.batch_sizes.tolist()
        assert run(ft) == run(real_torch)


def test_sort_descending_heapsort_fallback_sorts():
    from flowgrad.ops.tie_order import sort_row
    keys = np.random.default_rng(6).integers(0, 9, 300).tolist()
    order = sort_row(keys, largest=True, depth=0)
    assert sorted(order) == list(range(300))
    assert [keys[i] for i in order] == sorted(keys, reverse=True)


def test_pack_sequence_and_packed_sequence_fields(torch):
    rnn_utils = torch.nn.utils.rnn
    a, b, c = torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0, 5.0]), torch.tensor([6.0])
    packed = rnn_utils.pack_sequence([a, b, c])
    assert packed._fields == ("data", "batch_sizes", "sorted_indices", "unsorted_indices")
    assert packed.data.tolist() == [1.0, 4.0, 6.0, 2.0, 5.0, 3.0]
    assert packed.batch_sizes.tolist() == [3, 2, 1] and packed.batch_sizes.dtype == torch.int64
    assert packed.sorted_indices is None and packed.unsorted_indices is None
    packed = rnn_utils.pack_sequence([c, a, b], enforce_sorted=False)
    assert packed.sorted_indices.tolist() == [1, 2, 0] and packed.unsorted_indices.tolist() == [2, 0, 1]
    assert repr(rnn_utils.PackedSequence(torch.tensor([1.0], device="cpu"), torch.tensor([1], device="cpu"))) == (
        "PackedSequence(data=tensor([1.]), batch_sizes=tensor([1]), sorted_indices=None, unsorted_indices=None)")
    built = rnn_utils.PackedSequence((packed.data, packed.batch_sizes), sorted_indices=packed.sorted_indices)
    assert built.unsorted_indices.tolist() == [2, 0, 1]
    assert packed.double().data.dtype == torch.float64 and packed.to(torch.float64).sorted_indices is not None
    assert packed.to(torch.float32) is packed and packed.is_cuda is False
    padded, lengths = rnn_utils.pad_packed_sequence(packed, batch_first=True)
    assert padded.tolist() == [[6.0, 0.0, 0.0], [1.0, 2.0, 3.0], [4.0, 5.0, 0.0]] and lengths.tolist() == [1, 3, 2]
    assert rnn_utils.invert_permutation(torch.tensor([2, 0, 1])).tolist() == [1, 2, 0]
    assert rnn_utils.invert_permutation(None) is None


def test_packing_errors(torch):
    rnn_utils = torch.nn.utils.rnn
    pack = rnn_utils.pack_padded_sequence
    x = torch.randn(3, 2, 1)
    _raises(torch, RuntimeError, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                                 "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                                 "pack_sequence to sidestep this requirement if you do not need ONNX exportability.",
            lambda: pack(x, [2, 3]))
    _raises(torch, RuntimeError, "Length of all samples has to be greater than 0, but found an element in 'lengths' "
                                 "that is <= 0", lambda: pack(x, [3, 0]))
    _raises(torch, RuntimeError, "Expected `len(lengths)` to be equal to batch_size, but got 3 (batch_size=2)",
            lambda: pack(x, [3, 2, 1]))
    _raises(torch, RuntimeError, "'lengths' argument should be a 1D CPU int64 tensor, but got 2D cpu Long tensor",
            lambda: pack(x, torch.tensor([[3, 2]], device="cpu")))
    _raises(torch, RuntimeError, "Cannot pack empty tensors.", lambda: pack(torch.randn(3, 2, 0), [3, 2]))
    packed = rnn_utils.pack_sequence([torch.randn(3, 2), torch.randn(2, 2)])
    _raises(torch, ValueError, "Expected total_length to be at least the length of the longest sequence in input, "
                               "but got total_length=2 and max sequence length being 3",
            lambda: rnn_utils.pad_packed_sequence(packed, total_length=2))
    _raises(torch, AssertionError, "Expected data to be a list or tuple of length 2",
            lambda: rnn_utils.PackedSequence(torch.randn(3)))


def test_float_lengths_are_truncated_like_torch(torch):
    packed = torch.nn.utils.rnn.pack_padded_sequence(torch.ones(3, 2), torch.tensor([3.0, 2.9], device="cpu"))
    assert packed.batch_sizes.tolist() == [2, 2, 1]


# ------------------------------------------------------------------------- recorded graphs

def _graph(root) -> list:
    """The node names reachable from `root`, breadth first; PyTorch's TBackward0 (the transposed
    weight its linear passes to addmm) left out: flowgrad's linear is one AddmmBackward0 node, whose
    inputs come in another order (so the graphs compare as the root and the sorted names)."""
    out, seen, queue = [], set(), [root]
    while queue:
        node = queue.pop(0)
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if node.name() != "TBackward0":
            out.append(node.name())
        queue += [n for n, _ in node.next_functions]
    return out[:1] + sorted(out[1:])


@pytest.mark.parametrize("build, run", [
    (lambda T: T.nn.GRU(3, 4, dtype=T.float64), lambda T, m, x: m(x)[0]),
    (lambda T: T.nn.GRU(3, 4, num_layers=2, dtype=T.float64), lambda T, m, x: m(x)[0]),
    (lambda T: T.nn.GRU(3, 4, dtype=T.float64), lambda T, m, x: m(x)[1]),
    (lambda T: T.nn.RNN(3, 4, dtype=T.float64), lambda T, m, x: m(x)[0]),
    (lambda T: T.nn.GRUCell(3, 4, dtype=T.float64), lambda T, m, x: m(x[0])),
    (lambda T: T.nn.LSTMCell(3, 4, dtype=T.float64), lambda T, m, x: m(x[0])[0]),
], ids=["gru", "gru_two_layers", "gru_final_state", "rnn", "gru_cell", "lstm_cell"])
def test_recurrent_graphs_are_torchs(build, run, real_torch):
    """PyTorch records its CPU GRU and the cells as composed ops (no fused node, so flowgrad's GRU
    composes its step too): the same nodes in the same order, the unsafe chunks of the gates included."""
    graphs = []
    for T in (ft, real_torch):
        T.manual_seed(0)
        m = build(T)
        x = T.ones(3, 2, 3, dtype=T.float64, requires_grad=True)
        graphs.append(_graph(run(T, m, x).grad_fn))
    assert graphs[0] == graphs[1]


def test_unpad_and_unpack_sequence(real_torch):
    """unpad_sequence cuts each padded row to its length through a mask (transposing a time-major
    batch in place first, as PyTorch does); unpack_sequence undoes pack_sequence, sorted or not."""
    import importlib

    def program(T):
        R = importlib.import_module(T.__name__ + ".nn.utils.rnn")
        a = T.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = T.tensor([4.0, 5.0], requires_grad=True)
        padded = R.pad_sequence([a, b])
        parts = R.unpad_sequence(padded, T.tensor([3, 2]))
        out = [[p.tolist() for p in parts], tuple(padded.shape), padded.grad_fn.name(),
               [p.grad_fn.name() for p in parts], parts[0].grad_fn.next_functions[0][0].name()]
        sum(p.sum() for p in parts).backward()
        out.append((a.grad.tolist(), b.grad.tolist()))
        out.append([p.tolist() for p in R.unpack_sequence(R.pack_sequence([a, b]))])
        out.append([p.tolist() for p in R.unpack_sequence(R.pack_sequence([b, a], enforce_sorted=False))])
        batch_major = R.pad_sequence([a, b], batch_first=True)
        out.append([p.tolist() for p in R.unpad_sequence(batch_major, T.tensor([3, 2]), batch_first=True)])
        out.append(tuple(batch_major.shape))
        leaf = T.zeros(3, 2, requires_grad=True)
        with pytest.raises(RuntimeError, match="^a leaf Variable that requires grad is being used in an in-place"):
            R.unpad_sequence(leaf, T.tensor([3, 2]))
        return out

    assert program(ft) == program(real_torch)
