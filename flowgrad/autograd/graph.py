"""The backward graph: Node (one per recorded op), AccumulateGrad (one per leaf), SavedTensor
(version-checked, releasable, hookable) and the hook handles. Op nodes are declared in the op
table (`flowgrad/ops`); the engine (`engine.py`) runs them and does the accumulation."""
from __future__ import annotations

import itertools
import re
import traceback
import weakref

from . import mode

_saved_hooks = mode.saved_hooks

_seq = itertools.count()
_next_seq = _seq.__next__

# A node's `out_meta`, ((shape, dtype),) of its one output, is shared by all nodes with the same
# shape and dtype (most of a graph's nodes): one tuple instead of three per node. Bounded: cleared
# when it grows past _METAS_MAX distinct shapes.
_METAS: dict = {}
_METAS_MAX = 4096


def one_output_meta(data) -> tuple:
    """The shared `out_meta` of a node whose one output is the array `data`."""
    key = (data.shape, data.dtype)
    meta = _METAS.get(key)
    if meta is None:
        if len(_METAS) >= _METAS_MAX:
            _METAS.clear()
        meta = _METAS[key] = (key,)
    return meta


FREED = object()  # Node._saved after release: running or unpacking it again is an error


class RemovableHandle:
    """Handle returned by `register_*hook`: `remove()` takes the hook out (idempotent)."""

    _ids = itertools.count()
    next_id = 0

    def __init__(self, hooks_dict: dict, *, extra_dict=None):
        self.hooks_dict_ref = _ref(hooks_dict)
        self.id = next(RemovableHandle._ids)
        RemovableHandle.next_id = self.id + 1
        extra = [extra_dict] if isinstance(extra_dict, dict) else (extra_dict or [])
        self.extra_dict_ref = tuple(_ref(d) for d in extra)

    def remove(self) -> None:
        for ref in (self.hooks_dict_ref,) + self.extra_dict_ref:
            d = ref()
            if d is not None:
                d.pop(self.id, None)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.remove()


class _HookDict(dict):
    """A dict that weak references can point at."""
    __slots__ = ("__weakref__",)


def _ref(obj):
    """A weak reference where the object allows one (a plain dict does not: hold it strongly)."""
    try:
        return weakref.ref(obj)
    except TypeError:
        return lambda: obj


def add_hook(hooks: dict, fn, prepend: bool = False) -> RemovableHandle:
    """Register `fn` in `hooks` (first of all with `prepend`: an OrderedDict); the handle removes it."""
    handle = RemovableHandle(hooks)
    hooks[handle.id] = fn
    if prepend:
        hooks.move_to_end(handle.id, last=False)
    return handle


class NodeHooks:
    """Hooks attached to a node; created only when the first one is registered."""

    __slots__ = ("tensor_pre", "retains", "pre", "post")

    def __init__(self):
        self.tensor_pre: dict[int, _HookDict] = {}   # output_nr -> hooks of the tensor produced there
        self.retains: dict[int, weakref.ref] = {}    # output_nr -> tensor whose .grad is retained
        self.pre = _HookDict()
        self.post = _HookDict()


class Node:
    """A recorded operation. `next_edges[i]` is `(node, output_nr)` for input i, or None when that
    input needs no gradient. `out_meta[k]` is `(shape, dtype)` of output k: the engine sums and
    casts every incoming gradient to it (the one place broadcasting is undone). `_saved` is the
    tuple of saved values (SavedTensor, a Python number or None), FREED once released.

    `names` is the class's row of the naming table, its name in each facade: a declared op's row is
    a class attribute, any other class's is made from `_name` (a torch name such as
    `torch::autograd::AccumulateGrad`) or its class name by the table (`flowgrad/ops/names.py`,
    which installs `Node.names` when the op table is imported)."""

    __slots__ = ("next_edges", "seq", "out_meta", "out_cls", "_saved", "_hooks", "_metadata", "_trace",
                 "__weakref__")
    _name: str | None = None
    runs_without_grads = False   # custom Functions run even when every incoming gradient is None
    fresh_grads = False          # the gradients `apply` returns are new tensors the engine may own
    _plain = False               # a declared op's one-output node: the engine runs its `backward` inline

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        cls._plain = (cls.fresh_grads and cls.apply is Node.apply and cls.release is Node.release
                      and not cls.runs_without_grads)

    @property
    def policy(self):
        return self.out_cls.policy

    # ---- what subclasses implement
    def apply(self, grads: list) -> tuple:
        """Gradients for each input edge from the gradients of each output (None = zero)."""
        return self.backward(grads[0])

    def backward(self, grad):
        raise NotImplementedError

    # ---- saved tensors
    def release(self, every_node: bool = False) -> None:
        """Free saved values after a non-retained backward; with `every_node` (paddle's policy)
        even a node that saved nothing refuses to run again."""
        if self._saved is not None or every_node:
            self._saved = FREED

    # ---- introspection (PyTorch's names)
    def name(self) -> str:
        """The facade's name for this node (`MulBackward0` in torch, `MultiplyGradNode` in paddle)."""
        return self.policy.node_name(self)

    @property
    def next_functions(self) -> tuple | list:
        """`(node, output_nr)` per input, `(None, 0)` where none; with the policy's
        `compact_next_functions` a list of `(node, 0)` for the inputs that require grad only."""
        if self.policy.compact_next_functions:
            return [(e[0], 0) for e in self.next_edges if e is not None]
        return tuple(e if e is not None else (None, 0) for e in self.next_edges)

    @property
    def metadata(self) -> dict:
        if self._metadata is None:
            self._metadata = {}
        return self._metadata

    def _hooks_obj(self) -> NodeHooks:
        if self._hooks is None:
            self._hooks = NodeHooks()
        return self._hooks

    def register_hook(self, fn) -> RemovableHandle:
        """Post-hook `fn(grad_inputs, grad_outputs) -> tuple | None`."""
        return add_hook(self._hooks_obj().post, fn)

    def register_prehook(self, fn) -> RemovableHandle:
        """Pre-hook `fn(grad_outputs) -> tuple | None`."""
        return add_hook(self._hooks_obj().pre, fn)

    def __call__(self, *grads):
        n_out = len(self.out_meta)
        if len(grads) != n_out:
            raise self.policy.errors.node_call_arity(expected=n_out, got=len(grads))
        return tuple(self.apply(list(grads)))

    def __repr__(self):
        return self.policy.node_repr(self)


_FIRST = float("inf")   # an accumulator's place in the ready queue


class AccumulateGrad(Node):
    """The sink of a leaf: the engine adds the gradient reaching it into `variable.grad`, with its
    `accumulate`, which it sets here when imported (the engine imports this module, not the other
    way round) so that calling the node directly, as PyTorch allows, accumulates too."""

    __slots__ = ("variable",)
    _name = "torch::autograd::AccumulateGrad"
    accumulate = None   # engine.accumulate(variable, grad, owned, create_graph)

    def __init__(self, variable):
        self.variable = variable
        self.next_edges = ()
        self.out_meta = one_output_meta(variable._data)
        self.out_cls = type(variable)
        self._saved = None
        self.seq = _FIRST  # PyTorch runs accumulators first among ready nodes
        self._hooks = None
        self._metadata = None
        self._trace = traceback.format_stack()[:-3] if mode.FORWARD_TRACES[0] else None

    def apply(self, grads: list) -> tuple:
        """Called directly: accumulate `grads[0]` as a backward pass would."""
        AccumulateGrad.accumulate(self.variable, grads[0], False, mode.grad_enabled())
        return ()

    def release(self, every_node: bool = False) -> None:
        """A leaf's accumulator holds nothing to free and stays usable by later graphs."""


class SavedTensor:
    """A tensor saved for backward: the input object, or (for an op's own output) its array, which
    is re-wrapped with the node as grad_fn at unpack time so no reference cycle forms. The
    version at save time is checked on every unpack. Under saved-tensor hooks the pack hook's
    result is kept instead; unpacking reattaches the autograd identity of the original (its
    grad_fn, or for a leaf its accumulator), so double backward still reaches it."""

    __slots__ = ("tensor", "_data", "version_box", "version", "output_nr", "had_grad", "hooked")

    def __init__(self, tensor, is_output: bool = False):
        box = tensor._vc
        if box is None:
            box = tensor._vc = [0]
        self.version_box = box
        self.version = box[0]
        self.hooked = None            # (packed, unpack_hook, origin) under saved-tensor hooks
        if is_output:
            self.tensor = None
            self._data = tensor._data
            self.output_nr = tensor.output_nr
        else:
            self.tensor = tensor
            self._data = None
            self.output_nr = -1
            self.had_grad = tensor._requires_grad
        hooks = _saved_hooks()
        if hooks:
            self._pack(tensor, *hooks[-1])

    def _pack(self, tensor, pack_hook, unpack_hook) -> None:
        before = tensor._box()[0]
        packed = pack_hook(tensor)
        if tensor._box()[0] != before:
            raise tensor.policy.errors.pack_hook_inplace()
        origin = None
        if self.tensor is not None and tensor._requires_grad:   # an input: remember where its gradient goes
            origin = (tensor._grad_fn, tensor.output_nr) if tensor._grad_fn is not None else \
                tensor._grad_accumulator()
        self.hooked = (packed, unpack_hook, origin)
        self.tensor = self._data = None

    def register_hooks(self, node: Node, pack_hook, unpack_hook) -> None:
        """Pack this saved value now with `pack_hook` (PyTorch's `SavedTensor.register_hooks`)."""
        if not callable(pack_hook) or not callable(unpack_hook):
            raise node.policy.errors.saved_hooks_not_callable()
        if self.hooked is not None:
            raise node.policy.errors.saved_hooks_already_set()
        self._pack(self.unpack(node), pack_hook, unpack_hook)

    def unpack(self, node: Node):
        if self.hooked is not None:
            return self._unpack_hooked(node)
        if self.version_box[0] != self.version and node.policy.check_versions:
            raise _modified_error(node, self)
        if self.tensor is not None:
            if self.had_grad and not self.tensor._requires_grad:
                raise node.policy.errors.saved_detached()
            return self.tensor
        t = node.out_cls._out_cls._make(self._data)
        t._vc = self.version_box
        t._requires_grad = True
        t._grad_fn = node
        t.output_nr = self.output_nr
        return t

    def _unpack_hooked(self, node: Node):
        packed, unpack_hook, origin = self.hooked
        out = unpack_hook(packed)
        if not hasattr(out, "_version"):
            raise node.policy.errors.unpack_hook_type(type=type(out).__name__)
        if self.output_nr < 0 and origin is None:
            return out
        t = out._new(out._data)
        t._vc = out._box()
        t._requires_grad = True
        if self.output_nr >= 0:
            t._grad_fn, t.output_nr = node, self.output_nr
        elif type(origin) is tuple:
            t._grad_fn, t.output_nr = origin
        else:                      # a leaf: the alias accumulates into the original through its accumulator
            t._acc = weakref.ref(origin)
        return t


class SavedTensorRef:
    """What `grad_fn._raw_saved_<name>` returns: a saved value bound to its node."""

    __slots__ = ("node", "saved")

    def __init__(self, node: Node, saved: SavedTensor):
        self.node, self.saved = node, saved

    def register_hooks(self, pack_hook, unpack_hook) -> None:
        if self.node._saved is FREED:
            raise self.node.policy.errors.second_backward(node=self.node.policy.node_name(self.node))
        self.saved.register_hooks(self.node, pack_hook, unpack_hook)

    def unpack(self):
        if self.node._saved is FREED:
            raise self.node.policy.errors.second_backward(node=self.node.policy.node_name(self.node))
        return self.saved.unpack(self.node)


def _modified_error(node: Node, saved: SavedTensor) -> Exception:
    policy = node.policy
    t = saved.tensor
    if t is None:
        origin = f", which is output {saved.output_nr} of {_strip(node.name())},"
        shape, dtype = saved._data.shape, saved._data.dtype
    else:
        shape, dtype = t._data.shape, t._data.dtype
        origin = f", which is output {t.output_nr} of {_strip(t._grad_fn.name())}," if t._grad_fn is not None else ""
    hint = policy.hint_anomaly if mode.state.anomaly else policy.hint
    return policy.errors.modified_inplace(type_name=policy.type_name(dtype), shape_list=", ".join(map(str, shape)),
                        origin=origin, version=saved.version_box[0], expected=saved.version, hint=hint)


def _strip(name: str) -> str:
    return re.sub(r"Backward\d*$", "", name.rsplit("::", 1)[-1])


def shown_grad(policy, grad):
    """A gradient as user code (a hook, a custom function's backward) sees it: where the policy makes
    gradients require grad, a detached alias that does."""
    if grad is None or grad._requires_grad or not policy.grads_require_grad:
        return grad
    out = grad._new(grad._data)
    out._vc = grad._box()
    out._requires_grad = True
    return out
