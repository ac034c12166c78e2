"""Custom autograd functions: the framework-neutral `CustomFunction` and PyTorch's `Function`.

A subclass declares static `forward` and `backward` methods (PyTorch's may also split forward
into a ctx-less `forward` plus `setup_context`). `apply` runs forward with grad mode off and records
one node for all the outputs. The node's class is generated once per function class by the
metaclass, and the node IS the `ctx` that forward received: attributes set on ctx are readable on
`grad_fn`, PyTorch's `save_for_backward` goes through the same version-checked, releasable,
hookable SavedTensor as every op, and the engine runs the node like any other. What backward
returns is validated slot by slot (count, None for non-tensor inputs, shape summed down or
refused). Where frameworks differ, `CustomFunction`'s class attributes say how; facades set them
in their own subclass (paddle's PyLayer) and expose the classes under their framework's names.
"""
from __future__ import annotations

import functools
import inspect
import itertools
import traceback
import warnings

from .. import backend
from . import mode
from .graph import FREED, Node, _next_seq, shown_grad
from .policy import TORCH, policy_of
from ..tensor import Tensor

_function_ids = itertools.count()


class CustomFunctionCtx:
    """What every framework's ctx offers forward."""

    def mark_non_differentiable(self, *args) -> None:
        """Declare outputs that need no gradient (backward still receives zeros for them)."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """With False, backward receives None instead of zeros for outputs that got no gradient."""
        self.materialize_grads = bool(value)


class FunctionCtx(CustomFunctionCtx):
    """What `forward` / `setup_context` may call on ctx (PyTorch's)."""

    def save_for_backward(self, *tensors) -> None:
        """Save tensors (or None) for backward; only the last call counts."""
        self.to_save = tensors

    def save_for_forward(self, *tensors) -> None:
        for t in tensors:
            if not (isinstance(t, Tensor) or t is None):
                raise policy_of(self, tensors).errors.fn_save_for_forward_type()
        self.saved_for_forward = tensors

    def mark_dirty(self, *args) -> None:
        """Declare inputs that forward modified in place (they must be returned as outputs)."""
        self.dirty_tensors = args

    def mark_shared_storage(self, *pairs) -> None:
        warnings.warn(policy_of(self).errors.fn_mark_shared_storage(), stacklevel=2)


class CustomFunctionNode(Node):
    """The node of one custom-function application, and the ctx its forward saw. Subclassed per
    function class; instances carry a __dict__ for what forward stores on ctx. What differs between
    frameworks is read from the function class's knobs (`CustomFunction`)."""

    _forward_cls = None
    materialize_grads = True
    runs_without_grads = True  # backward is called even when no output received a gradient (as PyTorch)
    _xp = None                 # the array namespace of the outputs, to materialize zeros
    _fn_saved = None          # tuple of SavedTensor / None, filled after forward
    _released = False         # set when a non-retained backward has run this node
    _slots: tuple = ()        # per input argument: 0 not a tensor, None a tensor, n a list of n tensors
    _nondiff = frozenset()    # the output numbers marked non-differentiable

    # ---------------------------------------------------------------- saved tensors
    @property
    def saved_tensors(self) -> tuple:
        if self._released:
            raise self.policy.errors.second_backward(node=self.name())
        saved = self._fn_saved
        if saved is None:
            return ()
        return tuple(None if s is None else s.unpack(self) for s in saved)

    def _keep_for_backward(self, objects: tuple) -> None:
        """Keep any objects for backward as they are (paddle's save_for_backward); under saved-tensor
        hooks they must be tensors, packed now and unpacked at each `_kept()`."""
        hooks = mode.state.saved_hooks
        self._fn_unpack = hooks[-1][1] if hooks else None
        if hooks:
            for index, o in enumerate(objects):
                if not isinstance(o, Tensor):
                    raise self.policy.errors.fn_save_type(index=index, type=type(o).__name__)
            objects = tuple(hooks[-1][0](o) for o in objects)
        self._fn_saved = objects

    def _kept(self):
        """What `_keep_for_backward` kept (None when nothing was)."""
        saved, unpack = self._fn_saved, self.__dict__.get("_fn_unpack")
        return saved if saved is None or unpack is None else tuple(unpack(p) for p in saved)

    def release(self, every_node: bool = False) -> None:
        self._released = True
        self._fn_saved = None
        if every_node:
            self._saved = FREED

    # ---------------------------------------------------------------- running backward
    def _user_fn(self):
        return self._forward_cls.backward

    def apply(self, grads: list) -> tuple:
        fwd = self._forward_cls
        user_fn = self._user_fn()
        grads = list(grads)
        if self.materialize_grads and any(g is None for g in grads):
            grads = self._materialized(grads)
        if self._nondiff and self.policy.function_nondiff_grad_none:
            grads = [None if i in self._nondiff else g for i, g in enumerate(grads)]
        grads = [shown_grad(self.policy, g) for g in grads]
        if fwd.grads_for_non_tensor_outputs:
            it = iter(grads)
            grads = [next(it) if is_tensor else None for is_tensor in self._output_is_tensor]
        if not fwd.wraps_backward_errors:
            return self._validate(user_fn(self, *grads))
        try:
            result = user_fn(self, *grads)
        except Exception as exc:
            raise self.policy.errors.fn_backward_raised(name=self.name(), node=self, exc=exc) from exc
        return self._validate(result)

    def _materialized(self, grads: list) -> list:
        from ..ops import zeros_for
        like = next((g for g in grads if g is not None), None)
        out = []
        for g, (shape, dtype) in zip(grads, self.out_meta):
            if g is None:
                g = zeros_for(like, shape, dtype) if like is not None else \
                    self.out_cls._out_cls._make(self._xp.zeros(shape, dtype=dtype))
            out.append(g)
        return out

    def _validate(self, result) -> tuple:
        """One gradient per input edge from what the user's backward returned: one entry per slot
        (a list of gradients for a list argument), checked and summed down to the input's shape."""
        policy, fwd, slots = self.policy, self._forward_cls, self._slots
        name = self.name()
        if policy.function_strict_types and isinstance(result, list):
            raise policy.errors.fn_output_type()
        out = result if isinstance(result, tuple) else (result,)  # a list is one slot's gradients
        got = len(out)
        if got > len(slots) and fwd.extra_none_grads_dropped and all(r is None for r in out[len(slots):]):
            out = out[:len(slots)]
        if len(out) > len(slots) or (len(out) < len(slots) and not fwd.missing_grads_allowed):
            raise policy.errors.fn_grad_count(name=name, expected=len(slots), got=got)
        flat, start = [], 0
        for position, size in enumerate(slots):
            if size == 0:   # (OneFlow ignores a gradient for a non-tensor input)
                if position < len(out) and out[position] is not None and not policy.function_strict_types:
                    raise policy.errors.fn_grad_non_tensor(name=name, position=position + 1)
                continue
            n = 1 if size is None else size
            edges = self.next_edges[start:start + n]
            start += n
            if position >= len(out):
                if any(e is not None for e in edges):
                    raise policy.errors.fn_grad_missing(name=name, position=position)
                flat += [None] * n
                continue
            g = out[position]
            if size is None:
                g = [g]
            elif not isinstance(g, (list, tuple)):
                raise policy.errors.fn_grad_list(type=type(g).__name__)
            else:
                g = list(g)[:n] + [None] * (n - len(g))
            for item in g:
                if item is not None and not isinstance(item, Tensor):
                    raise policy.errors.fn_grad_type(name=name, type=type(item).__name__)
            flat += g
        grads = []
        for index, (edge, g, shape) in enumerate(zip(self.next_edges, flat, self._input_shapes)):
            if edge is None or g is None:
                if edge is not None and policy.function_none_grad_error:
                    raise policy.errors.fn_grad_none(cls=fwd.__name__, index=index)
                grads.append(None)
                continue
            gshape = g._data.shape
            if gshape != shape:
                if not _expandable(shape, gshape):
                    raise policy.errors.fn_grad_shape(name=name, index=index, got=_shape_list(gshape),
                                       expected=_shape_list(shape))
                from ..ops import sum_to
                g = sum_to(g, shape)
            grads.append(g)
        return tuple(grads)


class BackwardCFunction(CustomFunctionNode, FunctionCtx):
    """The node of one `Function.apply` call, and the ctx its forward saw (`<Name>Backward`)."""

    needs_input_grad: tuple = ()

    @property
    def saved_variables(self) -> tuple:
        warnings.warn(self.policy.errors.fn_saved_variables(), stacklevel=2)
        return self.saved_tensors

    def _user_fn(self):
        fwd = self._forward_cls
        backward, vjp = fwd.backward, fwd.vjp
        if backward is not Function.backward and vjp is not Function.vjp:
            raise self.policy.errors.fn_backward_and_vjp()
        return vjp if vjp is not Function.vjp else backward


class CustomFunctionMeta(type):
    """Generates the node class of each custom function (`cls._backward_cls`): a subclass of
    `cls._node_base` named by `cls._node_suffix`, with `cls._node_attrs(name)` set on it."""

    def __init__(cls, name, bases, attrs):
        node_base = cls._node_base
        backward_cls = type(name + cls._node_suffix, (node_base,),
                            {"_forward_cls": cls, "__module__": node_base.__module__, **cls._node_attrs(name)})
        backward_cls._autograd_function_id = next(_function_ids)
        cls._backward_cls = backward_cls
        super().__init__(name, bases, attrs)


class CustomFunction(metaclass=CustomFunctionMeta):
    """The framework-neutral custom function: static `forward(ctx, ...)` and `backward(ctx, ...)`,
    `apply(...)` runs forward with grad mode off and records one node (which is the ctx) for all
    the outputs. The class attributes below are the knobs a framework sets (PyTorch's values here)."""

    _node_base = CustomFunctionNode
    _node_suffix = "Backward"
    tensors_in_containers = False        # tensors inside list/tuple arguments get gradient slots (paddle)
    non_tensor_inputs_take_grads = True  # every argument is a slot of backward's result, tensor or not
    returned_inputs_inplace = False      # an input forward returns as is is an in-place result (paddle)
    needs_tensor_output = False          # forward must return a tensor (paddle)
    lists_are_outputs = False            # a list forward returns holds outputs (paddle), else is one object
    grads_for_non_tensor_outputs = True  # backward gets None for the non-tensor outputs too
    wraps_backward_errors = False        # an exception in backward is re-raised as `fn_backward_raised`
    extra_none_grads_dropped = True      # backward may return trailing Nones beyond its inputs
    missing_grads_allowed = False        # backward may return fewer results when the rest need none

    @classmethod
    def _node_attrs(cls, name: str) -> dict:
        return {}

    @classmethod
    def _forward_call(cls, args: tuple, kwargs: dict):
        """(the arguments whose tensors are inputs, a callable running forward on ctx)."""
        return tuple(args) + tuple(kwargs.values()), lambda ctx: cls.forward(ctx, *args, **kwargs)

    @classmethod
    def _prepare(cls, ctx, inputs: tuple) -> None:
        """Set what ctx shows before forward runs."""

    @classmethod
    def apply(cls, *args, **kwargs):
        """Run forward with grad mode off and, when an input needs a gradient, record the node."""
        _check_arg_types(args)
        trace = traceback.format_stack()[:-1] if mode.state.anomaly or getattr(mode.state, "forward_traces",
                                                                                 False) else None
        policy = policy_of(args)
        if policy.function_strict_types:
            for i, a in enumerate(args):
                if not (a is None or isinstance(a, Tensor)):
                    raise policy.errors.fn_apply_arg_type(index=i, type=type(a))
        inputs, run = cls._forward_call(args, kwargs)
        ctx, tensors = _new_ctx(cls, inputs, trace)
        cls._prepare(ctx, inputs)
        executable = mode.state.grad_enabled and any(t._requires_grad for t in tensors)
        with mode._GradModeGuard(False):
            output = run(ctx)
        return _wrap_outputs(ctx, tensors, output, executable)


class Function(FunctionCtx, CustomFunction):
    """Base class of custom autograd operations: subclass it, write static `forward` and
    `backward`, call `YourFunction.apply(...)`."""

    _node_base = BackwardCFunction
    generate_vmap_rule = False
    clear_saved_tensors_on_access = False

    def __init__(self, *args, **kwargs):
        warnings.warn(TORCH.errors.fn_instantiated(cls=self.__class__), stacklevel=2)

    def __call__(self, *args, **kwargs):
        raise policy_of(args, tuple(kwargs.values())).errors.fn_legacy_call()

    @staticmethod
    def forward(*args, **kwargs):
        raise policy_of(args, tuple(kwargs.values())).errors.fn_forward_missing()

    @staticmethod
    def setup_context(ctx, inputs: tuple, output):
        raise policy_of(ctx).errors.fn_setup_context_missing()

    @staticmethod
    def backward(ctx, *grad_outputs):
        raise policy_of(ctx).errors.fn_backward_missing()

    vjp = backward  # the two names are aliases; a Function defines one of them

    @staticmethod
    def jvp(ctx, *grad_inputs):
        raise policy_of(ctx).errors.fn_jvp_missing()

    @staticmethod
    def vmap(info, in_dims, *args):
        raise policy_of(args).errors.fn_vmap_missing()

    @classmethod
    def _forward_call(cls, args: tuple, kwargs: dict):
        if cls.setup_context is Function.setup_context:
            return super()._forward_call(args, kwargs)
        bound = inspect.signature(cls.forward).bind(*args, **kwargs)
        bound.apply_defaults()
        args, kwargs = bound.args, bound.kwargs

        def run(ctx):
            output = cls.forward(*args, **kwargs)
            cls.setup_context(ctx, tuple(args), output)
            return output

        return tuple(args), run

    @classmethod
    def _prepare(cls, ctx, inputs: tuple) -> None:
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a._requires_grad for a in inputs)


FunctionMeta = CustomFunctionMeta


class InplaceFunction(Function):
    """Kept for backward compatibility: a Function with an `inplace` flag."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace


# ------------------------------------------------------------------------------- recording

def _check_arg_types(args: tuple) -> None:
    """Under the policy's `function_strict_types` (OneFlow) each positional argument is a tensor or None."""
    policy = policy_of(args)
    if policy.function_strict_types:
        for i, a in enumerate(args):
            if not (a is None or isinstance(a, Tensor)):
                raise policy.errors.fn_apply_arg_type(index=i, type=type(a))


def _input_slots(cls, inputs: tuple) -> tuple[list, list]:
    """The tensor inputs, in order, and one slot per argument (`CustomFunctionNode._slots`)."""
    tensors, slots = [], []
    for a in inputs:
        if isinstance(a, Tensor):
            tensors.append(a)
            slots.append(None)
        elif cls.tensors_in_containers and isinstance(a, (list, tuple)) and \
                any(isinstance(t, Tensor) for t in a):
            inner = [t for t in a if isinstance(t, Tensor)]
            tensors += inner
            slots.append(len(inner))
        elif cls.non_tensor_inputs_take_grads:
            slots.append(0)
    return tensors, slots


def _new_ctx(cls, inputs: tuple, trace) -> tuple[CustomFunctionNode, list]:
    """The node that is also ctx, with edges to the tensor inputs as they are before forward, and
    those tensors."""
    from ..ops import edge
    node_cls = cls._backward_cls
    ctx = node_cls.__new__(node_cls)
    tensors, slots = _input_slots(cls, inputs)
    ctx._slots = tuple(slots)
    ctx._input_shapes = tuple(t._data.shape for t in tensors)
    ctx.next_edges = tuple(edge(t) for t in tensors) if mode.state.grad_enabled else (None,) * len(tensors)
    ctx.out_meta = ()
    ctx.out_cls = type(tensors[0]) if tensors else Tensor
    ctx._saved = None
    ctx.seq = _next_seq()
    ctx._hooks = None
    ctx._metadata = None
    ctx._trace = trace
    ctx._output_is_tensor = ()
    return ctx, tensors


_VIEW_KIND = "fn_view_inplace"


def _wrap_outputs(ctx: CustomFunctionNode, tensors: list, output, executable: bool):
    """Attach the node to forward's tensor outputs (PyTorch's `_wrap_outputs`): inputs returned
    as-is become new view objects (or, where the framework says so, in-place results), dirty inputs
    take the node as their history, views made inside forward may not be modified in place,
    non-differentiable outputs stay outside the graph."""
    policy, fwd = ctx.policy, ctx._forward_cls
    several = isinstance(output, (tuple, list) if fwd.lists_are_outputs else tuple)
    outs = tuple(output) if several else (output,)
    if policy.function_strict_types and not all(isinstance(o, Tensor) for o in outs):
        raise policy.errors.fn_output_type()
    if fwd.needs_tensor_output and not any(isinstance(o, Tensor) for o in outs):
        raise policy.errors.fn_no_tensor_output(name=fwd.__name__)
    input_ids = {id(t) for t in tensors}
    out_ids = {id(o) for o in outs}
    if fwd.returned_inputs_inplace:  # checked before anything changes
        kept = {id(t) for t in ctx.__dict__.pop("not_inplace_tensors", ())}
        dirty_list = [o for o in outs if isinstance(o, Tensor) and id(o) in input_ids and id(o) not in kept] \
            if executable else []
        for t in dirty_list:
            if t._grad_fn is None and t._requires_grad:
                raise policy.errors.fn_dirty_leaf(name=fwd.__name__, tensor=t)
    else:
        dirty_list = [t for t in ctx.__dict__.pop("dirty_tensors", ()) if t is not None]
        if any(id(d) not in out_ids for d in dirty_list):
            raise policy.errors.fn_dirty_not_output()
    dirty = {id(t) for t in dirty_list}
    non_diff = {id(t) for t in ctx.__dict__.get("non_differentiable", ()) if t is not None}
    marker = (_VIEW_KIND, fwd.__name__)
    grad_mode = mode.state.grad_enabled
    results, tensor_outs = [], []
    for o in outs:
        if not isinstance(o, Tensor):
            results.append(o)
            continue
        nr = len(tensor_outs)
        attach = executable and id(o) not in non_diff
        if id(o) in dirty:
            o._bump()
            res = o
            if executable:
                _attach_dirty(ctx, o, nr, attach, policy)
        else:
            if id(o) in input_ids:
                res = _alias(o, marker if grad_mode else None)
            else:
                res = o
                if executable and o._view is not None:
                    res._view = (o._view[0], o._view[1], marker)
            if attach:
                res._grad_fn, res.output_nr, res._requires_grad = ctx, nr, True
            elif executable:
                res._grad_fn, res.output_nr, res._requires_grad = None, 0, False
        tensor_outs.append(res)
        results.append(res)
    ctx.out_meta = tuple((t._data.shape, t._data.dtype) for t in tensor_outs)
    if tensor_outs:
        ctx.out_cls = type(tensor_outs[0])
        ctx._xp = backend.namespace(tensor_outs[0]._data)
    ctx._output_is_tensor = tuple(isinstance(o, Tensor) for o in outs)
    if non_diff:
        ctx._nondiff = frozenset(i for i, t in enumerate(o for o in outs if isinstance(o, Tensor)) if id(t) in non_diff)
    to_save = ctx.__dict__.pop("to_save", None)
    if executable and to_save is not None:
        ctx._fn_saved = _save(ctx, to_save)
    if not several:
        return results[0]
    return list(results) if isinstance(output, list) else tuple(results)


def _alias(t: Tensor, marker) -> Tensor:
    """A new tensor object sharing `t`'s array and version counter; a view of `t`'s base when
    `marker` is given (an input returned as-is by forward)."""
    out = t._new(t._data)
    out._vc = t._box()
    if marker is not None:
        base, fn = (t._view[0], t._view[1]) if t._view is not None else (t, _same)
        out._view = (base, fn, marker)
    return out


def _same(t: Tensor) -> Tensor:
    return t


def _attach_dirty(ctx, t: Tensor, nr: int, attach: bool, policy) -> None:
    """A dirty input: its history becomes the node (through CopySlices when it is a view)."""
    if t._grad_fn is None and t._requires_grad:
        raise policy.errors.fn_dirty_leaf(name=ctx._forward_cls.__name__, tensor=t)
    if not attach:
        return
    view = t._view
    if view is not None and view[0]._requires_grad:
        if view[0]._grad_fn is None:
            raise policy.errors.leaf_view_inplace(tensor=view[0])
        from ..ops.indexing import _rebase_view
        res = t._new(t._data)
        res._grad_fn, res.output_nr, res._requires_grad = ctx, nr, True
        _rebase_view(t, view, res)
        return
    t._grad_fn, t.output_nr, t._requires_grad = ctx, nr, True


def _save(ctx, to_save: tuple) -> tuple:
    from ..ops import save, save_output
    saved = []
    for i, t in enumerate(to_save):
        if t is None and not ctx.policy.function_strict_types:
            saved.append(None)
        elif not isinstance(t, Tensor):
            raise ctx.policy.errors.fn_save_type(index=i, type=type(t).__name__)
        elif t._grad_fn is ctx:
            saved.append(save_output(t))   # an output: re-wrapped at unpack, no reference cycle
        else:
            saved.append(save(t))
    return tuple(saved)


# ------------------------------------------------------------------------ once_differentiable

class DelayedError(Node):
    """Stands in for the graph of a backward marked @once_differentiable: differentiating through
    it raises. Its edges lead to detached stand-ins of the results, never to the real graph."""

    __slots__ = ()
    _name = "torch::autograd::Error"

    def apply(self, grads: list) -> tuple:
        raise self.policy.errors.once_differentiable()


DelayedError.__name__ = DelayedError.__qualname__ = "Error"


def once_differentiable(fn):
    """Decorate a Function's backward: it runs with grad mode off, and when a double backward is
    attempted through its results, that raises instead of silently giving zeros."""

    @functools.wraps(fn)
    def wrapper(ctx, *args, **kwargs):
        with mode._GradModeGuard(False):
            outputs = fn(ctx, *args, **kwargs)
        if not mode.state.grad_enabled:
            return outputs
        if not any(isinstance(a, Tensor) and a._requires_grad for a in args):
            return outputs
        outs = outputs if isinstance(outputs, tuple) else (outputs,)
        wrapped = _delayed_error(outs)
        return wrapped if len(wrapped) > 1 else wrapped[0]

    return wrapper


def _delayed_error(outs: tuple) -> tuple:
    from ..ops import edge
    fakes = []
    for v in outs:
        if isinstance(v, Tensor):
            v = v.detach()
            v._requires_grad = True
        fakes.append(v)
    tensors = [f for f in fakes if isinstance(f, Tensor)]
    if not tensors:
        return tuple(fakes)
    node = DelayedError.__new__(DelayedError)
    node.next_edges = tuple(edge(f) if isinstance(f, Tensor) else None for f in fakes)
    node.out_meta = tuple((f._data.shape, f._data.dtype) if isinstance(f, Tensor) else ((), tensors[0]._data.dtype)
                          for f in fakes)
    node.out_cls = type(tensors[0])
    node._saved = None
    node.seq = _next_seq()
    node._hooks = node._metadata = node._trace = None
    results = []
    for i, f in enumerate(fakes):
        if isinstance(f, Tensor):
            r = f._new(f._data)
            r._grad_fn, r.output_nr, r._requires_grad = node, i, True
            f = r
        results.append(f)
    return tuple(results)


# ------------------------------------------------------------------------------- helpers

def _expandable(shape: tuple, desired: tuple) -> bool:
    """Whether `shape` broadcasts to `desired` (then a gradient of `desired` sums down to it)."""
    if len(shape) > len(desired):
        return False
    for s, d in zip(reversed(shape), reversed(desired)):
        if s != d and s != 1:
            return False
    return True


def _shape_list(shape) -> str:
    return "[" + ", ".join(str(s) for s in shape) + "]"
