"""paddle.nn.SimpleRNN, LSTM and GRU over flowgrad's neutral recurrent layers, whose gates and
formulas paddle shares: paddle's arguments (`direction`, `time_major`, `activation`, the
`weight_ih_attr` ... ParamAttrs), its `forward(inputs, initial_states=None, sequence_length=None)`
and parameter names (`lstm_cell_0.w_0`, ...); `sequence_length` runs a packed batch. As in paddle,
each layer and direction is also a sublayer (`0` an RNN of `cell`, or a BiRNN of `cell_fw` and
`cell_bw`) whose cell holds the same parameters, so the state dict lists them twice (`weight_ih_l0`
and `0.cell.weight_ih`; an LSTM's projection is also listed flat, as `weight_hr_l0`, which paddle
lists only in the cell). The cells (SimpleRNNCell, LSTMCell, GRUCell) and the RNN / BiRNN runners
over them are public too."""
from __future__ import annotations

from ... import nn as _nn
from ... import ops
from ...nn import rnn_utils as _packing
from .layer import Layer, ParamAttr, _unique, configure_parameter

_DIRECTIONS = {"forward": False, "bidirect": True, "bidirectional": True}


_KINDS = ("weight_ih", "weight_hh", "bias_ih", "bias_hh")


def _check(layer_name: str, direction: str, attrs: tuple) -> bool:
    if direction not in _DIRECTIONS:
        raise ValueError(f"direction should be forward or bidirect (or bidirectional), received direction = "
                         f"{direction}")
    _check_attrs(layer_name, attrs)
    return _DIRECTIONS[direction]


def _check_attrs(layer_name: str, attrs: tuple) -> None:
    if any(a is False for a in attrs):
        raise NotImplementedError(f"flowgrad's paddle {layer_name} keeps both biases: bias_ih_attr / bias_hh_attr "
                                  "False (no bias) is not built")


def _configure(params: list, attrs: tuple, cell: str) -> None:
    """paddle's names for one cell's parameters (`<cell>_N.w_0`, ...), then what each ParamAttr in
    `attrs` (weight_ih, weight_hh, bias_ih, bias_hh) says: its initializer, name, learning rate,
    trainability, regularizer."""
    cell = _unique(cell)
    counts = {"w": 0, "b": 0}
    for p, kind in zip(params, _KINDS):
        short = "b" if kind.startswith("bias") else "w"
        p.name = f"{cell}.{short}_{counts[short]}"
        counts[short] += 1
    for p, attr in zip(params, attrs):
        if attr is not None:
            attr = ParamAttr._to_attr(attr)
            configure_parameter(p, attr, attr.initializer, lambda: p.name)


class _PaddleCell:
    """paddle's cell forward: `(inputs, states=None) -> (outputs, new_states)`."""

    _cell = ""

    def _paddle_init(self, attrs: tuple, name) -> None:
        self._name = name
        _configure([self.weight_ih, self.weight_hh, self.bias_ih, self.bias_hh], attrs, self._cell)

    @classmethod
    def _sharing(cls, params: list, input_size: int, hidden_size: int, **extra):
        """A cell holding existing parameters (a recurrent layer's, in weight_ih, weight_hh, bias_ih,
        bias_hh order), made without creating any."""
        cell = cls.__new__(cls)
        Layer.__init__(cell)
        cell.input_size, cell.hidden_size, cell.bias = input_size, hidden_size, True
        for key, value in extra.items():
            setattr(cell, key, value)
        for kind, p in zip(_KINDS, params):
            cell.register_parameter(kind, p)
        return cell

    def extra_repr(self) -> str:
        return f"{self.input_size}, {self.hidden_size}"


class SimpleRNNCell(_PaddleCell, _nn.RNNCell, Layer):
    """h' = activation(x W_ih^T + b_ih + h W_hh^T + b_hh); returns (h', h')."""

    _cell = "simple_rnn_cell"

    def __init__(self, input_size: int, hidden_size: int, activation: str = "tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        if activation not in ("tanh", "relu"):
            raise ValueError(f"activation for SimpleRNNCell should be tanh or relu, but get {activation}")
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        _check_attrs("SimpleRNNCell", attrs)
        _nn.RNNCell.__init__(self, input_size, hidden_size, True, activation)
        self._paddle_init(attrs, name)

    @property
    def activation(self) -> str:
        return self.nonlinearity

    def forward(self, inputs, states=None):
        h = _nn.RNNCell.forward(self, inputs, states)
        return h, h

    def extra_repr(self) -> str:
        text = _PaddleCell.extra_repr(self)
        return text if self.nonlinearity == "tanh" else f"{text}, activation={self.nonlinearity}"


class LSTMCell(_PaddleCell, _nn.LSTMCell, Layer):
    """One LSTM step, gates (i, f, c, o); `states` is (h, c); returns (h', (h', c'))."""

    _cell = "lstm_cell"

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size: int = 0, name=None) -> None:
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        _check_attrs("LSTMCell", attrs)
        if proj_size:
            raise NotImplementedError("flowgrad's paddle LSTMCell does not build proj_size (use paddle.nn.LSTM)")
        _nn.LSTMCell.__init__(self, input_size, hidden_size, True)
        self._paddle_init(attrs, name)

    def forward(self, inputs, states=None):
        h, c = _nn.LSTMCell.forward(self, inputs, states)
        return h, (h, c)


class GRUCell(_PaddleCell, _nn.GRUCell, Layer):
    """One GRU step, gates (r, z, c): h' = z * h + (1 - z) * c; returns (h', h')."""

    _cell = "gru_cell"

    def __init__(self, input_size: int, hidden_size: int, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        _check_attrs("GRUCell", attrs)
        _nn.GRUCell.__init__(self, input_size, hidden_size, True)
        self._paddle_init(attrs, name)

    def forward(self, inputs, states=None):
        h = _nn.GRUCell.forward(self, inputs, states)
        return h, h


def _no_lengths(sequence_length, kwargs) -> None:
    if sequence_length is not None or kwargs:
        raise NotImplementedError("flowgrad's paddle RNN / BiRNN run whole sequences: sequence_length (and extra "
                                  "cell arguments) are not built; paddle.nn.SimpleRNN / LSTM / GRU take "
                                  "sequence_length")


class RNN(Layer):
    """Runs `cell` over the time steps (`is_reverse`: last to first); returns (outputs, final states)."""

    def __init__(self, cell, is_reverse: bool = False, time_major: bool = False) -> None:
        super().__init__()
        self.cell, self.is_reverse, self.time_major = cell, is_reverse, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        _no_lengths(sequence_length, kwargs)
        axis = 0 if self.time_major else 1
        steps = ops.unbind(inputs, axis)
        states, outputs = initial_states, []
        for x in (reversed(steps) if self.is_reverse else steps):
            y, states = self.cell(x, states)
            outputs.append(y)
        if self.is_reverse:
            outputs.reverse()
        return ops.stack(outputs, axis), states


class BiRNN(Layer):
    """`cell_fw` over the steps forward and `cell_bw` backward; outputs concatenated on the last axis,
    final states as the pair (forward's, backward's)."""

    def __init__(self, cell_fw, cell_bw, time_major: bool = False) -> None:
        super().__init__()
        self.cell_fw, self.cell_bw, self.time_major = cell_fw, cell_bw, time_major

    def forward(self, inputs, initial_states=None, sequence_length=None, **kwargs):
        _no_lengths(sequence_length, kwargs)
        fw_states, bw_states = (None, None) if initial_states is None else initial_states
        fw, fw_final = RNN(self.cell_fw, False, self.time_major)(inputs, fw_states)
        bw, bw_final = RNN(self.cell_bw, True, self.time_major)(inputs, bw_states)
        return ops.cat([fw, bw], -1), (fw_final, bw_final)


class _PaddleRNN:
    """What the three share: paddle's names for the parameters, the cells as sublayers, forward's
    signature."""

    _cell_cls: type = SimpleRNNCell
    could_use_cudnn = True  # paddle's flag of the fused whole-sequence kernel, which flowgrad's layers always run

    def _paddle_init(self, attrs: tuple, **cell_extra) -> None:
        directions = 2 if self.bidirectional else 1
        for layer in range(self.num_layers):
            cells = []
            for d, names in enumerate(self._all_weights[layer * directions:(layer + 1) * directions]):
                params = [getattr(self, n) for n in names]
                _configure(params, attrs, self._cell_cls._cell)
                width = self.input_size if layer == 0 else (self.proj_size or self.hidden_size) * directions
                cell = self._cell_cls._sharing(params[:4], width, self.hidden_size, **cell_extra)
                if len(params) > 4:  # the projection, paddle's `weight_ho`
                    cell.register_parameter("weight_ho", params[4])
                cells.append(cell)
            runner = BiRNN(*cells, time_major=not self.batch_first) if directions == 2 else \
                RNN(cells[0], time_major=not self.batch_first)
            self.add_sublayer(str(layer), runner)

    def _run(self, neutral: type, inputs, initial_states, sequence_length):
        """With `sequence_length`, each sequence runs over its own steps (a packed batch): outputs past
        its end are zeros and its final states are those of its last step."""
        if sequence_length is None:
            return neutral.forward(self, inputs, initial_states)
        steps = inputs.shape[0 if not self.batch_first else 1]
        packed = _packing.pack_padded_sequence(inputs, sequence_length._host(), self.batch_first,
                                               enforce_sorted=False)
        outputs, final = neutral.forward(self, packed, initial_states)
        outputs, _ = _packing.pad_packed_sequence(outputs, self.batch_first, total_length=steps)
        return outputs, final

    def extra_repr(self) -> str:
        text = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            text += f", num_layers={self.num_layers}"
        if not self.batch_first:
            text += ", time_major=True"
        if self.dropout:
            text += f", dropout={self.dropout}"
        return text


class SimpleRNN(_PaddleRNN, _nn.RNN, Layer):
    """h_t = activation(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), activation 'tanh' or 'relu'."""

    _cell_cls = SimpleRNNCell

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, activation: str = "tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        bidirectional = _check("SimpleRNN", direction, attrs)
        if activation not in ("tanh", "relu"):
            raise ValueError(f"Unknown activation '{activation}'")
        _nn.RNN.__init__(self, input_size, hidden_size, num_layers, activation, batch_first=not time_major,
                         dropout=dropout, bidirectional=bidirectional)
        self._paddle_init(attrs, nonlinearity=activation)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        return self._run(_nn.RNN, inputs, initial_states, sequence_length)


class LSTM(_PaddleRNN, _nn.LSTM, Layer):
    """Gates (i, f, c, o); `initial_states` and the final states are the pair (h, c)."""

    _cell_cls = LSTMCell

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size: int = 0, name=None) -> None:
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        bidirectional = _check("LSTM", direction, attrs)
        _nn.LSTM.__init__(self, input_size, hidden_size, num_layers, batch_first=not time_major, dropout=dropout,
                          bidirectional=bidirectional, proj_size=proj_size)
        self._paddle_init(attrs)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        return self._run(_nn.LSTM, inputs, initial_states, sequence_length)


class GRU(_PaddleRNN, _nn.GRU, Layer):
    """Gates (r, z, c): h = z * h_prev + (1 - z) * tanh(x_c + r * h_c)."""

    _cell_cls = GRUCell

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        attrs = (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr)
        bidirectional = _check("GRU", direction, attrs)
        _nn.GRU.__init__(self, input_size, hidden_size, num_layers, batch_first=not time_major, dropout=dropout,
                         bidirectional=bidirectional)
        self._paddle_init(attrs)

    def forward(self, inputs, initial_states=None, sequence_length=None):
        return self._run(_nn.GRU, inputs, initial_states, sequence_length)


__all__ = ["SimpleRNNCell", "LSTMCell", "GRUCell", "RNN", "BiRNN", "SimpleRNN", "LSTM", "GRU"]
