"""Recurrent layers: RNN (tanh / relu), LSTM (with projections), GRU and their single-step cells.

Parameters, their names, shapes, order and default initialisation are PyTorch's, so a real torch
state dict loads as is. The recurrences are composed from the op table (linear, split, sigmoid,
tanh, cat, ...), so they are differentiable to any order like everything else. As on PyTorch's
CPU path, each layer projects the whole input sequence at once and steps only the hidden-to-hidden
product. Every input is run in the packed layout (time-major rows, `batch_sizes[t]` of them at
step t); a padded input is the special case of equal batch sizes.
"""
from __future__ import annotations

import math
import numbers
import warnings

from .. import backend, ops
from ..ops._args import normalize_dim
from . import functional as F
from . import init
from .module import Module
from .rnn_utils import PackedSequence

_GATES = {"LSTM": 4, "GRU": 3, "RNN_TANH": 1, "RNN_RELU": 1}


def _zeros(like, shape: tuple):
    """Zeros of `like`'s facade, dtype and device."""
    d = like._data
    return like._new(backend.namespace(d).zeros(shape, dtype=d.dtype))


# ------------------------------------------------------------------------------------- one step

def _rnn_step(act):
    def step(xw, state, w_hh, b_hh, w_hr):
        return (act(xw + F.linear(state[0], w_hh, b_hh)),)
    return step


def _lstm_step(xw, state, w_hh, b_hh, w_hr):
    h, c = state
    i, f, g, o = ops.unsafe_chunk(xw + F.linear(h, w_hh, b_hh), 4, 1)
    c = ops.sigmoid(f) * c + ops.sigmoid(i) * ops.tanh(g)
    h = ops.sigmoid(o) * ops.tanh(c)
    return (h if w_hr is None else F.linear(h, w_hr), c)


def _gru_step(xw, state, w_hh, b_hh, w_hr):
    # PyTorch's CPU cell: unsafe chunks, the hidden gates first in each sum (its graph, node for node)
    h = state[0]
    xr, xz, xn = ops.unsafe_chunk(xw, 3, 1)
    hr, hz, hn = ops.unsafe_chunk(F.linear(h, w_hh, b_hh), 3, 1)
    r = ops.sigmoid(hr + xr)
    z = ops.sigmoid(hz + xz)
    n = ops.tanh(xn + hn * r)
    return ((h - n) * z + n,)


def _fused_lstm_step(xw, state, w_hh, b_hh, w_hr):
    h, c = ops.lstm_cell(xw + F.linear(state[0], w_hh, b_hh), state[1])
    return (h if w_hr is None else F.linear(h, w_hr), c)


# the cells compose their step from the op table, as PyTorch's do (its graph shows the same nodes);
# the layers step with the fused cell, as PyTorch's layers run one fused kernel
_STEPS = {"RNN_TANH": _rnn_step(ops.tanh), "RNN_RELU": _rnn_step(ops.relu), "LSTM": _lstm_step, "GRU": _gru_step}
_LAYER_STEPS = dict(_STEPS, LSTM=_fused_lstm_step)


def _permute(states: tuple, permutation) -> tuple:
    """The states with their batch (dimension 1) reordered by `permutation` (None: unchanged)."""
    if permutation is None:
        return states
    return tuple(ops.index_select(s, 1, permutation) for s in states)


def _rows(state, start: int, stop: int) -> tuple:
    return tuple(ops.getitem(s, slice(start, stop)) for s in state)


def _direction(step, rows, batch_sizes: list, state0: tuple, weights: tuple, reverse: bool, padded: bool):
    """One layer in one direction over packed `rows`: (its output rows, its final state). As the
    batch shrinks the finished sequences' states are set aside (forward); running backwards the
    sequences join with their initial state as the batch grows. A padded batch's projected input is
    unbound by time step, as PyTorch's padded layers do (a packed one is split by batch size)."""
    w_ih, w_hh, b_ih, b_hh, w_hr = weights
    xw = F.linear(rows, w_ih, b_ih)
    if padded:
        xs = ops.unbind(ops.view(xw, (len(batch_sizes), batch_sizes[0], xw._data.shape[1])), 0)
    else:
        xs = ops.split(xw, batch_sizes, 0) if len(batch_sizes) > 1 else (xw,)
    outs = [None] * len(batch_sizes)
    if not reverse:
        state, done, last = state0, [], batch_sizes[0]
        for t, b in enumerate(batch_sizes):
            if b < last:
                done.append(_rows(state, b, last))
                state = _rows(state, 0, b)
            state = step(xs[t], state, w_hh, b_hh, w_hr)
            outs[t], last = state[0], b
        if done:
            done.append(state)
            state = tuple(ops.cat(list(parts)) for parts in zip(*reversed(done)))
        return outs, state
    last = batch_sizes[-1]
    state = state0 if last == batch_sizes[0] else _rows(state0, 0, last)
    for t in range(len(batch_sizes) - 1, -1, -1):
        b = batch_sizes[t]
        if b > last:
            state = tuple(ops.cat([s, s0]) for s, s0 in zip(state, _rows(state0, last, b)))
        state = step(xs[t], state, w_hh, b_hh, w_hr)
        outs[t], last = state[0], b
    return outs, state


# ---------------------------------------------------------------------------------------- layers

class RNNBase(Module):
    """What RNN, LSTM and GRU share: the parameters (`weight_ih_l{k}`, `weight_hh_l{k}`,
    `bias_ih_l{k}`, `bias_hh_l{k}`, `weight_hr_l{k}`, `_reverse` for the backward direction), their
    checks and the multi-layer, bidirectional, packed recurrence."""

    def __init__(self, mode: str, input_size: int, hidden_size: int, num_layers: int = 1, bias: bool = True,
                 batch_first: bool = False, dropout: float = 0.0, bidirectional: bool = False, proj_size: int = 0,
                 device=None, dtype=None) -> None:
        super().__init__()
        policy = self._tensor_cls.policy
        self.mode = mode
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if not isinstance(dropout, numbers.Number) or not 0 <= dropout <= 1 or isinstance(dropout, bool):
            raise policy.errors.rnn_dropout_range()
        if dropout > 0 and num_layers == 1:
            warnings.warn(policy.errors.rnn_dropout_one_layer(dropout=dropout, num_layers=num_layers), stacklevel=2)
        for arg, value, kind in (("bias", bias, bool), ("batch_first", batch_first, bool),
                                 ("input_size", input_size, int), ("hidden_size", hidden_size, int)):
            if not isinstance(value, kind):
                raise policy.errors.rnn_arg_type(arg=arg, expected=kind.__name__, got=type(value).__name__)
            if kind is int and value <= 0:
                raise policy.errors.rnn_arg_positive(arg=arg)
        if num_layers <= 0:
            raise policy.errors.rnn_arg_positive(arg="num_layers")
        if proj_size < 0:
            raise policy.errors.rnn_proj_negative()
        if proj_size >= hidden_size:
            raise policy.errors.rnn_proj_too_big()
        if mode not in _GATES:
            raise policy.errors.rnn_mode(mode=mode)
        gate_size = _GATES[mode] * hidden_size
        real_hidden = proj_size if proj_size > 0 else hidden_size
        num_directions = 2 if bidirectional else 1
        self._flat_weights_names = []
        self._all_weights = []
        for layer in range(num_layers):
            for direction in range(num_directions):
                layer_input = input_size if layer == 0 else real_hidden * num_directions
                shapes = [("weight_ih_l{}{}", (gate_size, layer_input)), ("weight_hh_l{}{}", (gate_size, real_hidden))]
                if bias:
                    shapes += [("bias_ih_l{}{}", (gate_size,)), ("bias_hh_l{}{}", (gate_size,))]
                if proj_size > 0:
                    shapes += [("weight_hr_l{}{}", (proj_size, hidden_size))]
                suffix = "_reverse" if direction == 1 else ""
                names = []
                for pattern, shape in shapes:
                    name = pattern.format(layer, suffix)
                    setattr(self, name, self._new_parameter(shape, dtype, device))
                    names.append(name)
                self._flat_weights_names.extend(names)
                self._all_weights.append(names)
        self.reset_parameters()

    @property
    def _flat_weights(self) -> list:
        return [getattr(self, n) for n in self._flat_weights_names]

    @property
    def all_weights(self) -> list:
        """The parameters per layer and direction, in PyTorch's order."""
        return [[getattr(self, n) for n in names] for names in self._all_weights]

    def flatten_parameters(self) -> None:
        """Nothing to do: PyTorch compacts the weights for cuDNN only and is a no-op elsewhere."""

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if self.proj_size != 0:
            s += ", proj_size={proj_size}"
        if self.num_layers != 1:
            s += ", num_layers={num_layers}"
        if self.bias is not True:
            s += ", bias={bias}"
        if self.batch_first is not False:
            s += ", batch_first={batch_first}"
        if self.dropout != 0:
            s += ", dropout={dropout}"
        if self.bidirectional is not False:
            s += ", bidirectional={bidirectional}"
        return s.format(**self.__dict__)

    # ------------------------------------------------------------------------ checks
    def check_input(self, input, batch_sizes) -> None:
        policy = self._tensor_cls.policy
        weight = self._flat_weights[0]
        if input._data.dtype != weight._data.dtype:
            raise policy.errors.rnn_input_dtype(input_dtype=input.dtype, weight_dtype=weight.dtype)
        want = 2 if batch_sizes is not None else 3
        if input._data.ndim != want:
            raise policy.errors.rnn_input_ndim(want=want, ndim=input._data.ndim)
        if self.input_size != input._data.shape[-1]:
            raise policy.errors.rnn_input_size(want=self.input_size, got=input._data.shape[-1])

    def get_expected_hidden_size(self, input, batch_sizes) -> tuple:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input._data.shape[0] if self.batch_first else input._data.shape[1]
        num_directions = 2 if self.bidirectional else 1
        return (self.num_layers * num_directions, mini_batch, self.proj_size if self.proj_size > 0 else
                self.hidden_size)

    def check_hidden_size(self, hx, expected_hidden_size: tuple, which: str = "hidden") -> None:
        if tuple(hx._data.shape) != tuple(expected_hidden_size):
            raise self._tensor_cls.policy.errors.rnn_hidden_size(which=which, want=tuple(expected_hidden_size),
                                                got=list(hx._data.shape))

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden, self.get_expected_hidden_size(input, batch_sizes))

    def permute_hidden(self, hx, permutation):
        return _permute((hx,), permutation)[0]

    # ---------------------------------------------------------------------- forward
    def _state_sizes(self) -> tuple:
        return (self.hidden_size,)

    def _zero_state(self, input, batch: int) -> tuple:
        layers = self.num_layers * (2 if self.bidirectional else 1)
        return tuple(_zeros(input, (layers, batch, size)) for size in self._state_sizes())

    def _recur(self, input, batch_sizes, state: tuple):
        """Run every layer and direction: output rows (packed layout, or (T, B, *) for a padded
        input) and the final states stacked like the initial ones."""
        padded = batch_sizes is None
        if padded:
            if self.batch_first:
                input = ops.transpose(input, 0, 1)
            steps, batch = input._data.shape[0], input._data.shape[1]
            if steps == 0:
                raise self._tensor_cls.policy.errors.rnn_empty_sequence()
            sizes = [batch] * steps
            rows = ops.reshape(input, (steps * batch, input._data.shape[2]))
        else:
            sizes = [int(b) for b in batch_sizes._host()]
            rows = input
        step = _LAYER_STEPS[self.mode]
        num_directions = 2 if self.bidirectional else 1
        weights = iter(self.all_weights)
        initial = [ops.unbind(s, 0) for s in state]
        finals = [[] for _ in state]
        for layer in range(self.num_layers):
            outputs = []
            for direction in range(num_directions):
                w = next(weights)
                w_ih, w_hh = w[0], w[1]
                b_ih, b_hh = (w[2], w[3]) if self.bias else (None, None)
                w_hr = w[-1] if self.proj_size > 0 else None
                k = layer * num_directions + direction
                outs, last = _direction(step, rows, sizes, tuple(s[k] for s in initial),
                                        (w_ih, w_hh, b_ih, b_hh, w_hr), reverse=direction == 1, padded=padded)
                # a padded batch's steps are stacked (T, B, H), a packed one's rows concatenated
                outputs.append(ops.stack(outs) if padded else ops.cat(outs) if len(outs) > 1 else outs[0])
                for f, s in zip(finals, last):
                    f.append(s)
            out = ops.cat(outputs, -1) if num_directions == 2 else outputs[0]
            if self.dropout and self.training and layer < self.num_layers - 1:
                out = F.dropout(out, self.dropout, True)
            rows = ops.reshape(out, (steps * batch, out._data.shape[-1])) if padded else out
        if padded and self.batch_first:
            out = ops.transpose(out, 0, 1)
        return out, tuple(ops.stack(f) for f in finals)

    def _forward(self, input, hx, name: str):
        """The shared forward of RNN, LSTM and GRU: `hx` a tuple of states (one for RNN and GRU,
        (h, c) for LSTM) or None."""
        policy = self._tensor_cls.policy
        lstm = self.mode == "LSTM"
        if isinstance(input, PackedSequence):
            data, batch_sizes, sorted_indices, unsorted_indices = input
            if hx is None:
                hx = self._zero_state(data, int(batch_sizes._host()[0]))
            else:
                hx = _permute(hx, sorted_indices)
            self._check_state(data, hx, batch_sizes)
            rows, state = self._recur(data, batch_sizes, hx)
            state = _permute(state, unsorted_indices)
            return PackedSequence(rows, batch_sizes, sorted_indices, unsorted_indices), state
        ndim = input._data.ndim
        if ndim not in (2, 3):
            if name == "RNN":
                raise policy.errors.rnn_input_dims(ndim=ndim)
            raise policy.errors.rnn_lstm_gru_input_dims(name=name, ndim=ndim)
        batched = ndim == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = ops.unsqueeze(input, batch_dim)
        if hx is None:
            hx = self._zero_state(input, input._data.shape[batch_dim])
        else:
            dims = [h._data.ndim for h in hx]
            want = 3 if batched else 2
            if any(d != want for d in dims):
                where = "batched 3-D" if batched else "unbatched 2-D"
                if lstm:
                    raise policy.errors.rnn_lstm_hx_dims(batched=where, want=f"{want}-D", h=dims[0], c=dims[1])
                raise policy.errors.rnn_hx_dims(batched=where, want=f"{want}-D", ndim=dims[0])
            if not batched:
                hx = tuple(ops.unsqueeze(h, 1) for h in hx)
        self._check_state(input, hx, None)
        output, state = self._recur(input, None, hx)
        if not batched:
            output = ops.squeeze(output, batch_dim)
            state = tuple(ops.squeeze(s, 1) for s in state)
        return output, state

    def _check_state(self, input, hx: tuple, batch_sizes) -> None:
        self.check_forward_args(input, hx[0], batch_sizes)


class RNN(RNNBase):
    """Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu). Arguments as
    PyTorch's: input_size, hidden_size, num_layers=1, nonlinearity='tanh', bias=True,
    batch_first=False, dropout=0.0, bidirectional=False, device=None, dtype=None."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise self._tensor_cls.policy.errors.rnn_proj_not_lstm()
        if len(args) > 3:
            self.nonlinearity = args[3]
            args = args[:3] + args[4:]
        else:
            self.nonlinearity = kwargs.pop("nonlinearity", "tanh")
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise self._tensor_cls.policy.errors.rnn_nonlinearity(nonlinearity=self.nonlinearity)
        super().__init__(mode, *args, **kwargs)

    def forward(self, input, hx=None):
        output, state = self._forward(input, None if hx is None else (hx,), "RNN")
        return output, state[0]


class LSTM(RNNBase):
    """Long short-term memory, gates (i, f, g, o) in PyTorch's order; with proj_size > 0 the hidden
    state is projected by `weight_hr_l{k}`. Arguments as PyTorch's: input_size, hidden_size,
    num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False, proj_size=0,
    device=None, dtype=None. `hx` is the pair (h_0, c_0)."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__("LSTM", *args, **kwargs)

    def get_expected_cell_size(self, input, batch_sizes) -> tuple:
        if batch_sizes is not None:
            mini_batch = int(batch_sizes[0])
        else:
            mini_batch = input._data.shape[0] if self.batch_first else input._data.shape[1]
        return (self.num_layers * (2 if self.bidirectional else 1), mini_batch, self.hidden_size)

    def check_forward_args(self, input, hidden, batch_sizes) -> None:
        self.check_input(input, batch_sizes)
        self.check_hidden_size(hidden[0], self.get_expected_hidden_size(input, batch_sizes), "hidden[0]")
        self.check_hidden_size(hidden[1], self.get_expected_cell_size(input, batch_sizes), "hidden[1]")

    def permute_hidden(self, hx, permutation):
        return tuple(_permute(hx, permutation))

    def _state_sizes(self) -> tuple:
        return (self.proj_size if self.proj_size > 0 else self.hidden_size, self.hidden_size)

    def _check_state(self, input, hx: tuple, batch_sizes) -> None:
        self.check_forward_args(input, hx, batch_sizes)

    def forward(self, input, hx=None):
        output, state = self._forward(input, None if hx is None else (hx[0], hx[1]), "LSTM")
        return output, state


class GRU(RNNBase):
    """Gated recurrent unit, gates (r, z, n) in PyTorch's order. Arguments as PyTorch's: input_size,
    hidden_size, num_layers=1, bias=True, batch_first=False, dropout=0.0, bidirectional=False,
    device=None, dtype=None."""

    def __init__(self, *args, **kwargs) -> None:
        if "proj_size" in kwargs:
            raise self._tensor_cls.policy.errors.rnn_proj_not_lstm()
        super().__init__("GRU", *args, **kwargs)

    def forward(self, input, hx=None):
        output, state = self._forward(input, None if hx is None else (hx,), "GRU")
        return output, state[0]


# ----------------------------------------------------------------------------------------- cells

class RNNCellBase(Module):
    """What the cells share: `weight_ih`, `weight_hh`, `bias_ih`, `bias_hh` of `num_chunks` gates."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool, num_chunks: int, device=None,
                 dtype=None) -> None:
        super().__init__()
        self.input_size = input_size
        self.hidden_size = hidden_size
        self.bias = bias
        self.weight_ih = self._new_parameter((num_chunks * hidden_size, input_size), dtype, device)
        self.weight_hh = self._new_parameter((num_chunks * hidden_size, hidden_size), dtype, device)
        if bias:
            self.bias_ih = self._new_parameter((num_chunks * hidden_size,), dtype, device)
            self.bias_hh = self._new_parameter((num_chunks * hidden_size,), dtype, device)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def extra_repr(self) -> str:
        s = "{input_size}, {hidden_size}"
        if "bias" in self.__dict__ and self.bias is not True:
            s += ", bias={bias}"
        if "nonlinearity" in self.__dict__ and self.nonlinearity != "tanh":
            s += ", nonlinearity={nonlinearity}"
        return s.format(**self.__dict__)

    def reset_parameters(self) -> None:
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            init.uniform_(weight, -stdv, stdv)

    def _prepare(self, input, hx, name: str, which: list):
        """Check the dimensions (PyTorch's cell forward), lift an unbatched input and state to a
        batch of one, default the state to zeros; returns (input, states, batched)."""
        policy = self._tensor_cls.policy
        if input._data.ndim not in (1, 2):
            raise policy.errors.rnn_cell_input_dims(name=name, ndim=input._data.ndim)
        if hx is not None:
            for label, h in zip(which, hx):
                if h._data.ndim not in (1, 2):
                    raise policy.errors.rnn_cell_hidden_dims(name=name, which=label, ndim=h._data.ndim)
        batched = input._data.ndim == 2
        if not batched:
            input = ops.unsqueeze(input, 0)
        if hx is None:
            zeros = _zeros(input, (input._data.shape[0], self.hidden_size))
            hx = (zeros,) * len(which)
        elif not batched:
            hx = tuple(ops.unsqueeze(h, 0) for h in hx)
        if input._data.shape[1] != self.input_size:
            raise policy.errors.rnn_cell_input_size(got=input._data.shape[1], want=self.input_size)
        for index, h in enumerate(hx):
            if h._data.shape[0] != input._data.shape[0]:
                raise policy.errors.rnn_cell_batch(batch=input._data.shape[0], index=index, got=h._data.shape[0])
            normalize_dim(1, h._data.ndim)
            if h._data.shape[1] != self.hidden_size:
                raise policy.errors.rnn_cell_hidden_size(index=index, got=h._data.shape[1], want=self.hidden_size)
        return input, hx, batched

    def _step(self, mode: str, input, state: tuple) -> tuple:
        xw = F.linear(input, self.weight_ih, self.bias_ih)
        return _STEPS[mode](xw, state, self.weight_hh, self.bias_hh, None)


class RNNCell(RNNCellBase):
    """One step of an Elman RNN: h' = tanh(x W_ih^T + b_ih + h W_hh^T + b_hh) (or relu)."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, nonlinearity: str = "tanh",
                 device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=1, device=device, dtype=dtype)
        self.nonlinearity = nonlinearity

    def forward(self, input, hx=None):
        input, (h,), batched = self._prepare(input, None if hx is None else (hx,), "RNNCell", ["hidden"])
        if self.nonlinearity == "tanh":
            mode = "RNN_TANH"
        elif self.nonlinearity == "relu":
            mode = "RNN_RELU"
        else:
            raise self._tensor_cls.policy.errors.rnn_cell_nonlinearity(nonlinearity=self.nonlinearity)
        (out,) = self._step(mode, input, (h,))
        return out if batched else ops.squeeze(out, 0)


class LSTMCell(RNNCellBase):
    """One LSTM step; `hx` is the pair (h, c) and so is the result."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=4, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, state, batched = self._prepare(input, None if hx is None else tuple(hx), "LSTMCell",
                                              ["hx[0]", "hx[1]"])
        h, c = self._step("LSTM", input, state)
        return (h, c) if batched else (ops.squeeze(h, 0), ops.squeeze(c, 0))


class GRUCell(RNNCellBase):
    """One GRU step."""

    def __init__(self, input_size: int, hidden_size: int, bias: bool = True, device=None, dtype=None) -> None:
        super().__init__(input_size, hidden_size, bias, num_chunks=3, device=device, dtype=dtype)

    def forward(self, input, hx=None):
        input, (h,), batched = self._prepare(input, None if hx is None else (hx,), "GRUCell", ["hidden"])
        (out,) = self._step("GRU", input, (h,))
        return out if batched else ops.squeeze(out, 0)
