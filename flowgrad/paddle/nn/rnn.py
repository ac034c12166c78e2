"""paddle.nn.SimpleRNN, LSTM and GRU over flowgrad's neutral recurrent layers, whose gates and
formulas paddle shares: paddle's arguments (`direction`, `time_major`, `activation`), its
`forward(inputs, initial_states=None, sequence_length=None)` and parameter names
(`lstm_cell_0.w_0`, ...); `sequence_length` runs a packed batch. The state dict holds the flat `weight_ih_l0` ... entries; paddle's
per-cell duplicates of them (`0.cell.weight_ih`) are not listed."""
from __future__ import annotations

from ... import nn as _nn
from ...nn import rnn_utils as _packing
from .layer import Layer, _unique

_DIRECTIONS = {"forward": False, "bidirect": True, "bidirectional": True}


def _check(layer_name: str, direction: str, attrs: tuple, proj_size: int = 0) -> bool:
    if direction not in _DIRECTIONS:
        raise ValueError(f"direction should be forward or bidirect (or bidirectional), received direction = "
                         f"{direction}")
    if any(a is not None for a in attrs):
        raise NotImplementedError(f"flowgrad's paddle {layer_name} does not support weight_ih_attr / weight_hh_attr / "
                                  "bias_ih_attr / bias_hh_attr")
    return _DIRECTIONS[direction]


class _PaddleRNN:
    """What the three share: paddle's names for the parameters, and forward's signature."""

    _cell = ""

    def _name_parameters(self) -> None:
        for names in self._all_weights:
            cell = _unique(self._cell)
            counts = {"w": 0, "b": 0}
            for n in names:
                kind = "b" if n.startswith("bias") else "w"
                getattr(self, n).name = f"{cell}.{kind}_{counts[kind]}"
                counts[kind] += 1

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
        if self.bidirectional:
            text += ", direction=bidirect"
        if self.dropout:
            text += f", dropout={self.dropout}"
        return text


class SimpleRNN(_PaddleRNN, _nn.RNN, Layer):
    """h_t = activation(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh), activation 'tanh' or 'relu'."""

    _cell = "simple_rnn_cell"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, activation: str = "tanh", weight_ih_attr=None,
                 weight_hh_attr=None, bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        bidirectional = _check("SimpleRNN", direction, (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        if activation not in ("tanh", "relu"):
            raise ValueError(f"Unknown activation '{activation}'")
        _nn.RNN.__init__(self, input_size, hidden_size, num_layers, activation, batch_first=not time_major,
                         dropout=dropout, bidirectional=bidirectional)
        self._name_parameters()

    def forward(self, inputs, initial_states=None, sequence_length=None):
        return self._run(_nn.RNN, inputs, initial_states, sequence_length)


class LSTM(_PaddleRNN, _nn.LSTM, Layer):
    """Gates (i, f, c, o); `initial_states` and the final states are the pair (h, c)."""

    _cell = "lstm_cell"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, proj_size: int = 0, name=None) -> None:
        bidirectional = _check("LSTM", direction, (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        _nn.LSTM.__init__(self, input_size, hidden_size, num_layers, batch_first=not time_major, dropout=dropout,
                          bidirectional=bidirectional, proj_size=proj_size)
        self._name_parameters()

    def forward(self, inputs, initial_states=None, sequence_length=None):
        return self._run(_nn.LSTM, inputs, initial_states, sequence_length)


class GRU(_PaddleRNN, _nn.GRU, Layer):
    """Gates (r, z, c): h = z * h_prev + (1 - z) * tanh(x_c + r * h_c)."""

    _cell = "gru_cell"

    def __init__(self, input_size: int, hidden_size: int, num_layers: int = 1, direction: str = "forward",
                 time_major: bool = False, dropout: float = 0.0, weight_ih_attr=None, weight_hh_attr=None,
                 bias_ih_attr=None, bias_hh_attr=None, name=None) -> None:
        bidirectional = _check("GRU", direction, (weight_ih_attr, weight_hh_attr, bias_ih_attr, bias_hh_attr))
        _nn.GRU.__init__(self, input_size, hidden_size, num_layers, batch_first=not time_major, dropout=dropout,
                         bidirectional=bidirectional)
        self._name_parameters()

    def forward(self, inputs, initial_states=None, sequence_length=None):
        return self._run(_nn.GRU, inputs, initial_states, sequence_length)


__all__ = ["SimpleRNN", "LSTM", "GRU"]
