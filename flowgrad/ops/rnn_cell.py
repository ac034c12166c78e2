"""The fused LSTM cell the recurrent layers step with: pre-activation gates (B, 4H) and the cell
state (B, H) to the new hidden and cell states, one node instead of about fifteen.

The gradient arithmetic is written once (`_gates_grad`, `_state_grad`) and runs on the activations the forward
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


def _cell_state_grad(grads, o, tc):
    """The gradient reaching c' (directly and through h' = o tanh(c')), from those of h' and c'."""
    gh, gc = grads
    return gc + gh * o * (1 - tc * tc)


def _parts(grads, gates, c, act, tc):
    """(c, i, f, g, o, tanh(c'), the incoming grads): tensors recomputed from the inputs under
    create_graph (so the formulas differentiate again), else the arrays the forward saved."""
    if _grad_enabled():
        i, f, g, o = _activations(gates, sigmoid, tanh)
        return c, i, f, g, o, tanh(f * c + i * g), grads
    a, h = act._data, c._data.shape[1]
    return (c._data, a[:, :h], a[:, h:2 * h], a[:, 2 * h:3 * h], a[:, 3 * h:], tc._data,
            [x._data for x in grads])


def _gates_grad(grads, gates, c, act, tc):
    c, i, f, g, o, tc, grads = _parts(grads, gates, c, act, tc)
    dc = _cell_state_grad(grads, o, tc)
    parts = (dc * g * i * (1 - i), dc * c * f * (1 - f), dc * i * (1 - g * g), grads[0] * tc * o * (1 - o))
    if _grad_enabled():
        return S.cat(list(parts), 1)
    return gates._out_cls._make(backend.namespace(act._data).concatenate(parts, 1))


def _state_grad(grads, gates, c, act, tc):
    out_cls = c._out_cls
    _, _, f, _, o, tc, grads = _parts(grads, gates, c, act, tc)
    dc = _cell_state_grad(grads, o, tc) * f
    return dc if _grad_enabled() else out_cls._make(dc)


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
