"""The fused LSTM cell the recurrent layers step with: pre-activation gates (B, 4H) and the cell
state (B, H) to the new hidden and cell states, one node instead of about fifteen.

The gradient arithmetic is written once (`_cell_grads`) and runs on the activations the forward
saved (arrays) when nothing records, and on tensors recomputed from the saved inputs under
create_graph, so higher orders are exact. Gate order is PyTorch's: input, forget, cell, output.
"""
from __future__ import annotations

from .. import backend
from ._declare import _grad_enabled, derivative
from .elementwise import _sigmoid_array, sigmoid, tanh
from . import shape as S

__all__ = ["lstm_cell"]


def _activations(gates, sig, th):
    """(i, f, g, o): sigmoid of the input, forget and output gates, tanh of the cell gate."""
    h = gates.shape[1] // 4
    a = sig(gates)
    return a[:, :h], a[:, h:2 * h], th(gates[:, 2 * h:3 * h]), a[:, 3 * h:]


def _cell_grads(grads, c, i, f, g, o, tc):
    """The gradient of the cell state and the four gate gradients, from those of h' and c'."""
    gh, gc = grads
    dc = gc + gh * o * (1 - tc * tc)
    return dc * f, (dc * g * i * (1 - i), dc * c * f * (1 - f), dc * i * (1 - g * g), gh * tc * o * (1 - o))


def _grads(grads, gates, c, act, tc):
    """`_cell_grads` on tensors recomputed from the inputs under create_graph (differentiable
    again), else on the arrays the forward saved."""
    if _grad_enabled():
        i, f, g, o = _activations(gates, sigmoid, tanh)
        return _cell_grads(grads, c, i, f, g, o, tanh(f * c + i * g))
    a, h = act._data, c._data.shape[1]
    return _cell_grads([x._data for x in grads], c._data, a[:, :h], a[:, h:2 * h], a[:, 2 * h:3 * h], a[:, 3 * h:],
                       tc._data)


def _gates_grad(grads, gates, c, act, tc):
    parts = _grads(grads, gates, c, act, tc)[1]
    if _grad_enabled():
        return S.cat(list(parts), 1)
    return gates._out_cls._make(backend.namespace(act._data).concatenate(parts, 1))


def _state_grad(grads, gates, c, act, tc):
    dc = _grads(grads, gates, c, act, tc)[0]
    return dc if _grad_enabled() else c._out_cls._make(dc)


LstmCellBackward = derivative("ThnnFusedLstmCellBackward0", many_outputs=True, save="act tc",
                              gates=_gates_grad, c=_state_grad)


def lstm_cell(gates, c) -> tuple:
    """(h', c') of an LSTM cell from pre-activation gates (B, 4H) and the cell state (B, H)."""
    gd, cd = gates._data, c._data
    xp = backend.namespace(gd)
    i, f, g, o = _activations(gd, lambda a: _sigmoid_array(xp, a), xp.tanh)
    c_new = f * cd + i * g
    tc = xp.tanh(c_new)
    make = gates._out_cls._make
    outs = [make(o * tc), make(c_new)]
    outs[1].output_nr = 1
    if _grad_enabled() and (gates._requires_grad or c._requires_grad):
        act = xp.concatenate((i, f, g, o), 1)   # the activations backward needs, one array
        LstmCellBackward.record((gates, c), outs, make(act), make(tc))
    return tuple(outs)
