"""Functions a port writes into the ported file: where the target framework has no counterpart of a
source API but its public API computes the same in a few lines, the call is kept and the function is
defined after the imports, under a comment saying flowgrad port added it. Each is written in the
target's public API only, so the ported script runs on the real framework as on flowgrad's facade.
`{root}` in a helper's code is the name the ported script binds the target framework to."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Helper:
    name: str
    code: str
    needs: tuple[str, ...] = ()      # the helpers this one calls
    why: str = "added_helper"        # the message kind of the comment above it


_PAD_SEQUENCE_PADDLE = Helper("pad_sequence", '''\
def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    """torch.nn.utils.rnn.pad_sequence: the sequences stacked, each padded to the longest with
    padding_value (on the right, or on the left), time-major unless batch_first."""
    if padding_side not in ("left", "right"):
        raise RuntimeError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    longest = max(s.shape[0] for s in sequences)
    rows = []
    for s in sequences:
        fill = {root}.full([longest - s.shape[0], *s.shape[1:]], padding_value, dtype=s.dtype)
        rows.append({root}.concat([s, fill] if padding_side == "right" else [fill, s]))
    out = {root}.stack(rows)
    return out if batch_first else out.transpose([1, 0, *range(2, out.ndim)])
''')

_SUBSEQUENT_MASK_PADDLE = Helper("generate_square_subsequent_mask", '''\
def generate_square_subsequent_mask(sz, dtype=None):
    """torch.nn.Transformer.generate_square_subsequent_mask, a static method (paddle's is a method of
    a Transformer): -inf above the diagonal, 0 elsewhere, in the default dtype unless given one."""
    return {root}.triu({root}.full([sz, sz], -float("inf"), dtype=dtype or {root}.get_default_dtype()), 1)
''')

_OPTIMIZER_PARAMETERS_PADDLE = Helper("optimizer_parameters", '''\
def optimizer_parameters(optimizer):
    """The parameters of a paddle optimizer in the order it was given them (groups flattened)."""
    return [p for entry in optimizer._parameter_list for p in (entry["params"] if isinstance(entry, dict) else [entry])]
''')

_OPTIMIZER_STATE_DICT_PADDLE = Helper("optimizer_state_dict", '''\
def optimizer_state_dict(optimizer):
    """torch's optimizer.state_dict(): paddle names each accumulator after its parameter
    (`linear_0.w_0_moment1_0`), torch keys a parameter's state by its place in the optimizer; here the
    accumulators are under "state" by place, so that an optimizer over other parameters (another
    model's) loads them with load_optimizer_state_dict. paddle's other entries stay as they are."""
    params = optimizer_parameters(optimizer)
    by_length = sorted(range(len(params)), key=lambda i: -len(params[i].name))
    out = {"state": {}}
    for key, value in optimizer.state_dict().items():
        place = next((i for i in by_length if key.startswith(params[i].name + "_")), None)
        if place is None:
            out[key] = value
        else:
            out["state"].setdefault(place, {})[key[len(params[place].name) + 1:]] = value
    return out
''', needs=("optimizer_parameters",), why="added_by_place")

_LOAD_OPTIMIZER_STATE_DICT_PADDLE = Helper("load_optimizer_state_dict", '''\
def load_optimizer_state_dict(optimizer, state_dict):
    """torch's optimizer.load_state_dict(): the accumulators saved by optimizer_state_dict, each
    given to the parameter at its place in this optimizer."""
    params = optimizer_parameters(optimizer)
    named = {key: value for key, value in state_dict.items() if key != "state"}
    for place, accumulators in state_dict["state"].items():
        for name, value in accumulators.items():
            named[f"{params[place].name}_{name}"] = value
    optimizer.set_state_dict(named)
''', needs=("optimizer_parameters",), why="added_by_place")

_OPTIMIZER_STATE_PADDLE = Helper("optimizer_state", '''\
def optimizer_state(optimizer):
    """torch's optimizer.state: each parameter's buffers under torch's names, read from paddle's
    accumulators (in optimizer.state_dict(), named after the parameter). Only the buffers both keep
    alike are there: Momentum's velocity (momentum_buffer), Adam's and AdamW's moments (exp_avg,
    exp_avg_sq); torch's `step` and the others' buffers have no paddle counterpart."""
    names = {"velocity": "momentum_buffer", "moment1": "exp_avg", "moment2": "exp_avg_sq"}
    params = optimizer_parameters(optimizer)
    by_length = sorted(params, key=lambda p: -len(p.name))
    state = {p: {} for p in params}
    for key, value in optimizer.state_dict().items():
        param = next((p for p in by_length if key.startswith(p.name + "_")), None)
        accumulator = key[len(param.name) + 1:].rsplit("_", 1)[0] if param is not None else None
        if accumulator in names:
            state[param][names[accumulator]] = value
    return state
''', needs=("optimizer_parameters",), why="added_state")

#: (source, target, the source API's relative path) -> the helper written into the port.
HELPERS: dict[tuple[str, str, str], Helper] = {
    **{(source, "paddle", "nn.utils.rnn.pad_sequence"): _PAD_SEQUENCE_PADDLE for source in ("torch", "oneflow")},
    **{(source, "paddle", "nn.Transformer.generate_square_subsequent_mask"): _SUBSEQUENT_MASK_PADDLE
       for source in ("torch", "oneflow")},
}


#: (source, target, class role, method or attribute) -> the helper written into the port, called
#: with the receiver first (an attribute: with the receiver alone).
METHOD_HELPERS: dict[tuple[str, str, str, str], Helper] = {
    **{(source, "paddle", "optimizer", "state_dict"): _OPTIMIZER_STATE_DICT_PADDLE for source in ("torch", "oneflow")},
    **{(source, "paddle", "optimizer", "load_state_dict"): _LOAD_OPTIMIZER_STATE_DICT_PADDLE
       for source in ("torch", "oneflow")},
    **{(source, "paddle", "optimizer", "state"): _OPTIMIZER_STATE_PADDLE for source in ("torch", "oneflow")},
}
#: Every helper by name (what a helper needs is written with it).
BY_NAME: dict[str, Helper] = {h.name: h for h in (*HELPERS.values(), *METHOD_HELPERS.values(),
                                                   _OPTIMIZER_PARAMETERS_PADDLE)}


def helper(source: str, target: str, path: str) -> Helper | None:
    """The function the port writes for `path` going from `source` to `target`, if any."""
    return HELPERS.get((source, target, path))


def method_helper(source: str, target: str, role: str, method: str) -> Helper | None:
    """The function the port writes for a method of a framework object (`<optimizer>.state_dict`)."""
    return METHOD_HELPERS.get((source, target, role, method))
