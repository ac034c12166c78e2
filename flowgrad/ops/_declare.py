"""How a differentiable op is declared: one `derivative(...)` row beside its forward, naming the
node and giving one formula per input, in the spirit of PyTorch's derivatives.yaml and HIPS
autograd's `defvjp`:

    MulBackward0 = derivative("MulBackward0", paddle="MultiplyGradNode", oneflow="broadcast_mulBackward",
                              self=lambda grad, other: grad * other,
                              other=lambda grad, self: grad * self)

    def mul(a, b):
        ...
        if recording(ta, tb):
            MulBackward0.record((ta, tb), out)

The row:
- the torch name of the node (the class name), and paddle's and OneFlow's names where the naming
  table's rules get them wrong (`names.py`);
- one formula per input, as keyword arguments in input order (the node's `next_edges`); None for
  an input that gets no gradient, `identity` for one whose gradient is the output's.
  `variadic=True`: one formula for a list input (cat's `tensors`) that returns one gradient per
  tensor. `many_outputs=True`: the node belongs to several outputs and each formula's first
  argument is the list of their gradients;
- `save`: values the forward passes to `record` that are saved like inputs (a where's condition);
  `keep`: values that are not tensors of the graph (shapes, dims, scalars), kept on the node after
  its saved values are released; `operands=True`: `record` takes the operand of each input (a
  Python number where the input is None), saved in its place.

A formula's first parameter is the gradient of the output; each further parameter names what it
needs: an input, `result` (the op's output, saved without a reference cycle), a `save` or `keep`
value, or `grad_input_mask` (which inputs need a gradient). Only what a formula that will run
names is saved. Formulas are flowgrad tensor code, run with grad mode = create_graph, so higher
orders come for free; they never unbroadcast (the engine sums each gradient to its input's shape
and dtype). They return gradients they computed, views of them, or the incoming gradient itself,
never another live tensor: the engine may take over the memory of what they return.

Each row becomes a small `OpNode` subclass (its kept values as `__slots__`) with a generated
`record(inputs, out, ...)` that makes the node (every node of a declared op is made by the one
template `_MAKE_NODE`) and saves what the formulas name, a generated `backward` (or `apply`) that
calls them, the introspection PyTorch offers (`_saved_<name>`, `_raw_saved_<name>`), and its row
of the naming table, `names`. The generated source is kept as `record.__source__`.
"""
from __future__ import annotations

import sys
import traceback

from .. import backend
from ..autograd import mode
from ..autograd.graph import _METAS, FREED, Node, SavedTensor, SavedTensorRef, _next_seq, one_output_meta
from ..autograd.policy import TORCH
from ..parameters import names as parameter_names
from ..tensor import Tensor
from . import names as _names

_state = mode.state
_grad_enabled = mode.grad_enabled
_anomaly = mode.anomaly_enabled
_FORWARD_TRACES = mode.FORWARD_TRACES
_TRACING = mode.TRACING
_new = object.__new__

DECLARED: list[type] = []   # every node class made by `derivative`, in declaration order


# ------------------------------------------------------------------------------- recording

def edge(t: Tensor):
    """The gradient edge of a tensor: its grad_fn slot, or its leaf accumulator; None if it needs no grad."""
    if t is None or not t._requires_grad:
        return None
    fn = t._grad_fn
    if fn is not None:
        return (fn, t.output_nr)
    return (t._grad_accumulator(), 0)


_edge = edge


def _trace():
    """The forward stack of the op being recorded (anomaly mode, forward traces)."""
    return traceback.format_stack()[:-3]


def save(t: Tensor) -> SavedTensor:
    """Save an input tensor for backward (version-checked at unpack)."""
    if t._extra is not None and t._extra.inference and not _state.inference:
        raise t.policy.errors.inference_saved()
    return SavedTensor(t)


def save_output(t: Tensor) -> SavedTensor:
    """Save an op's own output (re-wrapped with its node at unpack: no reference cycle)."""
    return SavedTensor(t, is_output=True)


def recording(*tensors) -> bool:
    """Whether an op on these tensors records a node: grad mode on and one of them requires grad."""
    if not _grad_enabled():
        return False
    for t in tensors:
        if t is not None and t._requires_grad:
            return True
    return False


# ------------------------------------------------------------------------------- declaring

def identity(grad):
    """The formula of an input whose gradient is the output's, unchanged (an add's operands)."""
    return grad


class OpNode(Node):
    """The node of a declared op (see the module docstring): the engine runs its `backward` inline
    and may take over the memory of the gradients its formulas return."""

    __slots__ = ()
    fresh_grads = True
    _spec: dict = {}


# modules whose formulas are all linear with real coefficients (views, gathers, scatters): right
# for complex tensors as they stand
_LINEAR_MODULES = ("flowgrad.ops.shape", "flowgrad.ops.indexing", "flowgrad.ops.complex_numbers")


def derivative(torch: str, *, paddle: str | None = None, oneflow: str | None = None, keep: str = "",
               save: str = "", operands: bool = False, variadic: bool = False, many_outputs: bool = False,
               aliases: dict | None = None, complex: bool | str | None = None, **formulas) -> type[OpNode]:
    """Declare an op's node (see the module docstring): returns its generated class, named
    `torch` (without a `torch::autograd::` prefix). `aliases` renames saved values for PyTorch's
    introspection only (`_saved_mat2` for matmul's `other`). `complex=True` says the formulas are
    written for complex tensors (PyTorch's conjugate convention); recording any other node with a
    complex output is refused (the modules of linear ops default to True); a string names the op
    whose complex outputs PyTorch itself refuses to differentiate, and the refusal is PyTorch's."""
    module = sys._getframe(1).f_globals.get("__name__", __name__)
    spec = dict(torch=torch, paddle=paddle, oneflow=oneflow, keep=keep, save=save, operands=operands,
                variadic=variadic, many_outputs=many_outputs, aliases=aliases,
                complex=module in _LINEAR_MODULES if complex is None else complex, **formulas)
    return _build(spec, module)


def variant(base: type[OpNode], torch: str | None = None, *, paddle: str | None = None,
            oneflow: str | None = None, aliases: dict | None = None) -> type[OpNode]:
    """The same op recorded under other names (PyTorch names one formula differently by case:
    matmul's MmBackward0, DotBackward0, ...). Names not given follow the rules from `torch`."""
    spec = dict(base._spec, torch=torch or base._spec["torch"], paddle=paddle, oneflow=oneflow,
                aliases=aliases if aliases is not None else base._spec["aliases"])
    return _build(spec, sys._getframe(1).f_globals.get("__name__", __name__))


_OPTIONS = ("torch", "paddle", "oneflow", "keep", "save", "operands", "variadic", "many_outputs", "aliases",
            "complex")


def _build(spec: dict, module: str) -> type[OpNode]:
    formulas = {k: v for k, v in spec.items() if k not in _OPTIONS}
    inputs = list(formulas)
    keep, extras = spec["keep"].split(), spec["save"].split()
    multi = spec["many_outputs"]
    # what each formula names, after its gradient parameter
    wants = [None if f is None else list(parameter_names(f))[1:] for f in formulas.values()]
    known = set(inputs) | set(extras) | set(keep) | {"result", "grad_input_mask"}
    for name, w in zip(inputs, wants):
        unknown = [p for p in w or () if p not in known]
        if unknown:
            raise TORCH.errors.op_row_unknown_name(node=spec["torch"], input=name, unknown=unknown)
    # saved in PyTorch's order, which saved-tensor hooks observe: its generated nodes save their
    # inputs sorted by argument name (mul saves `other` before `self`, mm `mat2` before `self`)
    # and the op's result after them
    aliases = spec["aliases"] or {}
    named = {p for w in wants if w for p in w}
    saved = sorted((n for n in inputs + extras if n in named or n in extras), key=lambda n: aliases.get(n, n))
    saved += ["result"] if "result" in named else []
    users = {n: [i for i, w in enumerate(wants) if w and n in w] for n in saved}
    cls_name = spec["torch"].rsplit("::", 1)[-1]
    shown = tuple(aliases.get(n, n) for n in saved)
    ns = {"__slots__": tuple(keep), "__module__": module, "__qualname__": cls_name, "_spec": spec,
          "names": _names.row(spec["torch"], spec["paddle"], spec["oneflow"]), "_saved_names": shown}
    env = {"_FREED": FREED, "_SavedTensor": SavedTensor, "_freed": _freed, "_save": save, "_Tensor": Tensor,
           "_new": _new, "_edge": _edge, "_next_seq": _next_seq, "_trace": _trace, "_TRACING": _TRACING,
           "_FORWARD_TRACES": _FORWARD_TRACES, "_anomaly": _anomaly, "_METAS": _METAS,
           "_one_output_meta": one_output_meta, "_complex_refused": _complex_refused}
    env.update({f"_f{i}": f for i, f in enumerate(formulas.values())})
    method = "apply" if multi else "backward"
    ns[method] = _compiled_when_called(_backward_source(method, inputs, list(formulas.values()), wants, saved, keep,
                                                        spec["variadic"]), env, method)
    for i, name in enumerate(shown):
        ns[f"_saved_{name}"] = property(lambda node, i=i: _saved_value(node, i, False))
        ns[f"_raw_saved_{name}"] = property(lambda node, i=i: _saved_value(node, i, True))
    for k in keep:
        ns[f"_saved_{aliases.get(k, k)}"] = property(lambda node, k=k: getattr(node, k))
    cls = type(cls_name, (OpNode,), ns)
    env["_cls"] = cls
    cls.record = staticmethod(_recorder_when_called(_record_source(inputs, saved, users, extras, keep, spec["operands"],
                                                                   multi, spec["variadic"], spec["complex"] is True),
                                                    env))
    DECLARED.append(cls)
    return cls


# ------------------------------------------------------------------------------- generated code

# How a node is made: the opening of every generated `record` (see `_record_source`), the one
# place nodes of declared ops come from. `inputs` are Tensors or None; `out` is the op's output
# (`outs`, several outputs, for `many_outputs=True`). One- and two-input ops build the edge tuple
# without a list or a call per input.
_EDGES = {
    1: """\
    t = inputs[0]
    fn = t._grad_fn
    node.next_edges = edges = ((fn, t.output_nr) if fn is not None and t._requires_grad else _edge(t),)
""",
    2: """\
    a, b = inputs
    node.next_edges = edges = (None if a is None else _edge(a), None if b is None else _edge(b))
""",
    "n": """\
    node.next_edges = edges = tuple([_edge(t) for t in inputs])
"""}
_MAKE_NODE = """\
    node = _new(_cls)
{edges}\
{out_meta}\
    node.out_cls = type(out)
    node.seq = _next_seq()
    node._hooks = node._metadata = None
    node._trace = _trace() if _TRACING[0] and (_FORWARD_TRACES[0] or _anomaly()) else None
    out._requires_grad = True
    out._grad_fn = node
"""
_SAVE = "(_SavedTensor({t}) if {t}._extra is None else _save({t}))"   # save(t), inlined for the common case
_ONE_OUTPUT = """\
    data = out._data
    meta = _METAS.get((data.shape, data.dtype))
    node.out_meta = meta if meta is not None else _one_output_meta(data)
"""
_MANY_OUTPUTS = """\
    node.out_meta = tuple([(o._data.shape, o._data.dtype) for o in outs])
"""
_OUTPUT_NRS = """\
    for i, o in enumerate(outs):
        o._requires_grad = True
        o._grad_fn = node
        o.output_nr = i
"""


_CODE: dict[str, object] = {}    # generated source -> its code object (many ops generate the same source)


def _compile(source: str, env: dict, name: str):
    """The function `name` defined by `source`, with its source kept as `__source__`."""
    code = _CODE.get(source)
    if code is None:
        code = _CODE[source] = compile(source, f"<flowgrad.ops generated {name}>", "exec")
    out = {}
    exec(code, env, out)
    fn = out[name]
    fn.__source__ = source
    return fn


def _compiled_when_called(source: str, env: dict, name: str):
    """A stand-in for the node method `name` that compiles `source` on its first call and puts the
    compiled method on the class (`env["_cls"]`) in its place: a program runs the backward of few of
    the table's ops, so importing flowgrad compiles none of them."""
    def first_call(node, *args):
        method = _compile(source, env, name)
        setattr(env["_cls"], name, method)
        return method(node, *args)
    first_call.__name__ = first_call.__qualname__ = name
    first_call.__source__ = source
    return first_call


def _recorder_when_called(source: str, env: dict):
    """A stand-in for the node class's `record` (`env["_cls"]`) that compiles `source` on its first
    call and puts the compiled function on the class in its place: importing flowgrad compiles the
    `record` of no op."""
    compiled = []

    def record(*args):       # (a caller that kept this stand-in calls the compiled function after)
        if compiled:
            return compiled[0](*args)
        fn = _compile(source, env, "record")
        compiled.append(fn)
        env["_cls"].record = staticmethod(fn)
        return fn(*args)
    record.__source__ = source
    return record


def _record_source(inputs, saved, users, extras, keep, operands, multi, variadic, complex_ok) -> str:
    """`record(inputs, out, <operands>, <save values>, <kept values>)`: make the node, save what
    the formulas that will run name, keep the rest; refuse a complex output unless `complex_ok`."""
    params = ([f"v_{n}" for n in inputs] if operands else []) + [f"v_{n}" for n in extras] + list(keep)
    n = len(inputs)
    lines = [f"def record(inputs, {', '.join(['outs' if multi else 'out'] + params)}):"]
    if multi:
        lines.append("    out = outs[0]")
    if not complex_ok and multi:     # (any output: eigh's eigenvalues are real, its eigenvectors complex)
        lines.append("    for out in outs:\n        if out is not None and out._data.dtype.kind == 'c':\n"
                     "            raise _complex_refused(_cls, out)\n    out = outs[0]")
    elif not complex_ok:
        lines.append("    if out._data.dtype.kind == 'c':\n        raise _complex_refused(_cls, out)")
    body = _MAKE_NODE.format(edges=_EDGES["n" if variadic or n > 2 else n],
                             out_meta=_MANY_OUTPUTS if multi else _ONE_OUTPUT)
    if multi:
        body += _OUTPUT_NRS
    lines.append(body.rstrip("\n"))
    items = []
    for name in saved:
        if name == "result":
            value = "_SavedTensor(out, True)"
        elif name in extras or operands:   # a tensor, a Python number or None
            value = f"({_SAVE.format(t=f'v_{name}')} if isinstance(v_{name}, _Tensor) else v_{name})"
        else:                              # an input tensor
            i = inputs.index(name)
            value = _SAVE.format(t="t" if n == 1 else "ab"[i] if n == 2 and not variadic else f"inputs[{i}]")
        u = users[name]
        if not variadic and n > 1 and len(u) < n:   # only when an input whose formula names it needs a gradient
            value = f"({value} if {' or '.join(f'edges[{i}] is not None' for i in u) or 'False'} else None)"
        items.append(value)
    lines.append(f"    node._saved = ({', '.join(items)},)" if items else "    node._saved = None")
    lines += [f"    node.{k} = {k}" for k in keep]
    lines.append("    return node")
    return "\n".join(lines) + "\n"


def _backward_source(method, inputs, formulas, wants, saved, keep, variadic) -> str:
    """`backward(self, grad)` (`apply(self, grads)`): unpack the saved values (version-checked) and
    call the formula of each input that needs a gradient."""
    g = "grads" if method == "apply" else "grad"
    lines = [f"def {method}(self, {g}):"]
    if saved:
        lines += ["    _s = self._saved",
                  "    if _s is _FREED:",
                  "        raise _freed(self)",
                  f"    {', '.join(f'v_{n}' for n in saved)}, = _s"]
        lines += [f"    if type(v_{n}) is _SavedTensor:\n        v_{n} = v_{n}.unpack(self)" for n in saved]

    def arg(p):
        if p in keep:
            return f"self.{p}"
        if p == "grad_input_mask":
            return "tuple([_x is not None for _x in self.next_edges])"
        return f"v_{p}"

    calls = [None if w is None else g if formulas[i] is identity else
             f"_f{i}({', '.join([g] + [arg(p) for p in w])})" for i, w in enumerate(wants)]
    if variadic:
        lines.append(f"    return {calls[0]}")
    elif len(inputs) == 1:
        lines.append(f"    return ({calls[0] or 'None'},)")
    else:
        lines.append(f"    {', '.join(f'_e{i}' for i in range(len(calls)))}, = self.next_edges")
        items = ["None" if c is None else f"({c} if _e{i} is not None else None)" for i, c in enumerate(calls)]
        lines.append(f"    return ({', '.join(items)},)")
    return "\n".join(lines) + "\n"


# ------------------------------------------------------------------------------- introspection

def _complex_refused(cls, out) -> Exception:
    op = cls._spec["complex"]
    if isinstance(op, str):
        return out.policy.errors.complex_autograd(op=op)
    return out.policy.errors.complex_gradient(node=cls.__name__)


def _freed(node: Node) -> Exception:
    return node.policy.errors.second_backward(node=node.policy.node_name(node))


def _saved_value(node: Node, i: int, raw: bool):
    """PyTorch's `_saved_<name>` (`raw`: `_raw_saved_<name>`) of saved value i: unpacked and
    version-checked; None when it was not saved; a Python number as a 0-dim tensor. Raises the
    "backward through the graph a second time" error once the node has been released."""
    saved = node._saved
    if saved is FREED:
        raise _freed(node)
    v = saved[i] if saved is not None and i < len(saved) else None
    if type(v) is SavedTensor:
        return SavedTensorRef(node, v) if raw else v.unpack(node)
    if raw or v is None or not isinstance(v, (bool, int, float)):
        return None if raw else v
    dtype = "bool" if isinstance(v, bool) else "int64" if isinstance(v, int) else "float64"
    return node.out_cls._out_cls._make(backend.xp_for(None).asarray(v, dtype=dtype))
