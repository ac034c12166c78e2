"""paddle.nn.SimpleRNN / LSTM / GRU against real paddle with equal weights: outputs, final states,
input and weight gradients, parameter shapes and names, state-dict keys."""
from __future__ import annotations

import re

import numpy as np
import pytest

RNG = np.random.default_rng(3)
X = RNG.standard_normal((2, 5, 3)).astype(np.float32)

CASES = {
    "lstm": lambda nn: nn.LSTM(3, 4),
    "lstm_bidirect_2": lambda nn: nn.LSTM(3, 4, num_layers=2, direction="bidirect"),
    "lstm_time_major": lambda nn: nn.LSTM(3, 4, time_major=True),
    "gru": lambda nn: nn.GRU(3, 4),
    "gru_bidirectional": lambda nn: nn.GRU(3, 4, direction="bidirectional"),
    "simple_rnn": lambda nn: nn.SimpleRNN(3, 4),
    "simple_rnn_relu_2": lambda nn: nn.SimpleRNN(3, 4, num_layers=2, activation="relu"),
}


def _run(paddle, name, weights=None, with_state=False, lengths=None):
    layer = CASES[name](paddle.nn)
    params = dict(layer.named_parameters())
    if weights is None:
        weights = {k: v.numpy() for k, v in params.items()}
    for k, v in weights.items():
        params[k].set_value(v)
    x = paddle.to_tensor(X, stop_gradient=False)
    layers = layer.num_layers if hasattr(layer, "num_layers") else 1
    states = None
    if with_state:
        d = 2 if "bi" in name else 1
        h0 = paddle.to_tensor(np.full((layers * d, 2 if "time_major" not in name else 5, 4), 0.3, np.float32))
        states = (h0, h0 * 2) if name.startswith("lstm") else h0
    y, final = layer(x, states, None if lengths is None else paddle.to_tensor(lengths))
    finals = list(final) if isinstance(final, (tuple, list)) else [final]
    (y.sum() + sum((f * f).sum() for f in finals)).backward()
    grads = {k: p.grad.numpy() for k, p in params.items()}
    return weights, y.numpy(), [f.numpy() for f in finals], x.grad.numpy(), grads, \
        {k: list(p.shape) for k, p in params.items()}, [p.name.split(".")[-1] for p in params.values()], \
        list(layer.state_dict()), repr(layer), [type(m).__name__ for m in layer.sublayers()]


@pytest.mark.parametrize("with_state", [False, True])
@pytest.mark.parametrize("name", sorted(CASES))
def test_rnn_matches_real_paddle(fpaddle, real_paddle, name, with_state):
    got = _run(fpaddle, name, with_state=with_state)
    want = _run(real_paddle, name, got[0], with_state)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    for g, w in zip(got[2], want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-5, atol=1e-5)
    assert sorted(got[4]) == sorted(want[4])
    for k in want[4]:
        np.testing.assert_allclose(got[4][k], want[4][k], rtol=1e-4, atol=1e-5, err_msg=k)
    assert got[5:] == want[5:]


@pytest.mark.parametrize("name", ["lstm", "lstm_bidirect_2", "gru_bidirectional", "simple_rnn_relu_2",
                                  "lstm_time_major"])
def test_sequence_length(fpaddle, real_paddle, name):
    lengths = [2, 1, 1, 2, 2] if name == "lstm_time_major" else [3, 5]
    got = _run(fpaddle, name, lengths=lengths)
    want = _run(real_paddle, name, got[0], lengths=lengths)
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    for g, w in zip(got[2], want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got[3], want[3], rtol=1e-5, atol=1e-5)
    for k in want[4]:
        np.testing.assert_allclose(got[4][k], want[4][k], rtol=1e-4, atol=1e-5, err_msg=k)


@pytest.mark.parametrize("name", ["gru_bidirectional", "lstm_bidirect_2", "lstm"])
def test_sequence_length_with_initial_states(fpaddle, real_paddle, name):
    """Values as paddle's; gradients by finite differences: with initial states, a bidirectional layer
    and sequence_length, paddle 3.3.1's own backward disagrees with its forward's finite differences."""
    got = _run(fpaddle, name, with_state=True, lengths=[3, 5])
    want = _run(real_paddle, name, got[0], True, [3, 5])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-5, atol=1e-6)
    for g, w in zip(got[2], want[2]):
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)

    def loss(x):
        layer = CASES[name](fpaddle.nn)
        params = dict(layer.named_parameters())
        for k, v in got[0].items():
            params[k].set_value(v)
        d = 2 if "bi" in name else 1
        layers = layer.num_layers
        h0 = fpaddle.to_tensor(np.full((layers * d, 2, 4), 0.3, np.float32))
        y, final = layer(fpaddle.to_tensor(x), (h0, h0 * 2) if name.startswith("lstm") else h0,
                         fpaddle.to_tensor([3, 5]))
        finals = list(final) if isinstance(final, (tuple, list)) else [final]
        return float(y.sum() + sum((f * f).sum() for f in finals))
    x, eps = X, 1e-2  # float32: a central difference over 1e-2 is good to about 1e-4 here
    for idx in [(0, 2, 0), (0, 2, 1), (0, 0, 2), (1, 4, 0), (1, 3, 2)]:
        xp, xm = x.copy(), x.copy()
        xp[idx] += eps
        xm[idx] -= eps
        np.testing.assert_allclose(got[3][idx], (loss(xp) - loss(xm)) / (2 * eps), rtol=2e-3, atol=2e-3)


def test_parameter_names_and_init(paddle):
    lstm = paddle.nn.LSTM(3, 4, direction="bidirect")
    names = [p.name for p in lstm.parameters()]
    cells = sorted({n.split(".")[0] for n in names})
    assert len(cells) == 2 and all(c.startswith("lstm_cell_") for c in cells)
    assert [n.split(".")[1] for n in names[:4]] == ["w_0", "w_1", "b_0", "b_1"]
    assert max(abs(p.numpy()).max() for p in lstm.parameters()) <= 0.5


def test_rnn_argument_errors(paddle):
    with pytest.raises(ValueError, match="direction should be forward or bidirect"):
        paddle.nn.LSTM(3, 4, direction="backward")
    with pytest.raises(ValueError, match=re.escape("Unknown activation 'sigmoid'")):
        paddle.nn.SimpleRNN(3, 4, activation="sigmoid")


def test_state_dict_round_trip_from_real_paddle(fpaddle, real_paddle):
    want = real_paddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    got = fpaddle.nn.LSTM(3, 4, num_layers=2, direction="bidirect")
    state = {k: v.numpy() for k, v in want.state_dict().items()}
    assert list(got.state_dict()) == list(state)
    assert got.set_state_dict({k: fpaddle.to_tensor(v) for k, v in state.items()}) == ([], [])
    got.weight_hh_l0_reverse.set_value(np.zeros([16, 4], np.float32))
    assert not got.state_dict()["0.cell_bw.weight_hh"].numpy().any()
    got.set_state_dict({k: fpaddle.to_tensor(v) for k, v in state.items()})
    np.testing.assert_array_equal(got.weight_hh_l1_reverse.numpy(), state["weight_hh_l1_reverse"])
    y_got, _ = got(fpaddle.to_tensor(X))
    y_want, _ = want(real_paddle.to_tensor(X))
    np.testing.assert_allclose(y_got.numpy(), y_want.numpy(), rtol=1e-5, atol=1e-6)
    assert len(got.parameters()) == 16


def _attr_layer(paddle, kind):
    I = paddle.nn.initializer
    attrs = dict(weight_ih_attr=paddle.ParamAttr(initializer=I.Constant(0.5), learning_rate=0.1),
                 weight_hh_attr=paddle.ParamAttr(name=f"hh_weight_{kind}", trainable=False),
                 bias_hh_attr=I.Constant(0.25))
    return getattr(paddle.nn, kind)(3, 4, **attrs)


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "SimpleRNN", "LSTMCell", "GRUCell", "SimpleRNNCell"])
def test_weight_and_bias_attrs(paddle, kind):
    layer = _attr_layer(paddle, kind)
    params = dict(layer.named_parameters())
    ih, hh, bias_hh = (params[k + ("" if "Cell" in kind else "_l0")] for k in ("weight_ih", "weight_hh", "bias_hh"))
    assert (ih.numpy() == 0.5).all() and ih.optimize_attr == {"learning_rate": 0.1} and ih.trainable
    assert hh.name == f"hh_weight_{kind}" and not hh.trainable and hh.stop_gradient
    assert (bias_hh.numpy() == 0.25).all()
    assert all(abs(p.numpy()).max() <= 0.5 for p in params.values())


@pytest.mark.parametrize("kind", ["LSTM", "GRU", "GRUCell"])
def test_bias_attr_false_is_refused(fpaddle, kind):
    with pytest.raises(NotImplementedError, match="bias_ih_attr / bias_hh_attr False"):
        getattr(fpaddle.nn, kind)(3, 4, bias_ih_attr=False)


def _with_weights(paddle, layer, weights):
    for (n, p), w in zip(layer.named_parameters(), weights):
        p.set_value(w)
    return layer


@pytest.mark.parametrize("kind", ["LSTMCell", "GRUCell", "SimpleRNNCell"])
def test_cells_match_real_paddle(fpaddle, real_paddle, kind):
    weights = [p.numpy() for p in getattr(real_paddle.nn, kind)(3, 4).parameters()]
    results = []
    for m in (fpaddle, real_paddle):
        cell = _with_weights(m, getattr(m.nn, kind)(3, 4), weights)
        x = m.to_tensor(X[:, 0], stop_gradient=False)
        y, states = cell(x)
        y2, states2 = cell(x, states)
        flat = [y2] + (list(states2) if kind == "LSTMCell" else [states2])
        sum((t * t).sum() for t in flat).backward()
        results.append([t.numpy() for t in flat] + [x.grad.numpy(), repr(cell), list(cell.state_dict())])
    for g, w in zip(*results):
        if isinstance(w, np.ndarray):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            assert g == w
    assert repr(fpaddle.nn.SimpleRNNCell(2, 3, activation="relu")) == "SimpleRNNCell(2, 3, activation=relu)"


@pytest.mark.parametrize("runner", ["RNN", "RNN_reverse", "BiRNN"])
def test_rnn_runners_match_real_paddle(fpaddle, real_paddle, runner):
    weights = [[p.numpy() for p in real_paddle.nn.GRUCell(3, 4).parameters()] for _ in range(2)]
    results = []
    for m in (fpaddle, real_paddle):
        cells = [_with_weights(m, m.nn.GRUCell(3, 4), w) for w in weights]
        layer = m.nn.BiRNN(*cells) if runner == "BiRNN" else m.nn.RNN(cells[0], is_reverse=runner == "RNN_reverse")
        x = m.to_tensor(X, stop_gradient=False)
        y, final = layer(x)
        finals = list(final) if runner == "BiRNN" else [final]
        (y.sum() + sum((f * f).sum() for f in finals)).backward()
        results.append([y.numpy(), *[f.numpy() for f in finals], x.grad.numpy()])
        results[-1].append(repr(layer))
    for g, w in zip(*results):
        if isinstance(w, np.ndarray):
            np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)
        else:
            assert g == w


def test_rnn_runner_refuses_sequence_length(fpaddle):
    with pytest.raises(NotImplementedError, match="sequence_length"):
        fpaddle.nn.RNN(fpaddle.nn.GRUCell(3, 4))(fpaddle.to_tensor(X), sequence_length=fpaddle.to_tensor([5, 5]))


def test_cell_activation_error(paddle):
    with pytest.raises(ValueError, match="activation for SimpleRNNCell should be tanh or relu, but get sigmoid"):
        paddle.nn.SimpleRNNCell(3, 4, activation="sigmoid")


def test_summary_of_a_recurrent_layer(paddle, capsys):
    assert paddle.summary(paddle.nn.GRU(3, 4), (2, 5, 3)) == {"total_params": 108, "trainable_params": 108}
    assert "[[2, 5, 3]]" in capsys.readouterr().out
