"""paddle.autograd.PyLayer on flowgrad's custom-Function core (`flowgrad/autograd/function.py`):
the node recorded for one `apply` is also the `ctx` forward receives (class `<Cls>_backward`, node
name `GradNodePyLayer_<Cls>`), built and attached to the outputs by the core. Paddle's side:
`ctx.save_for_backward` keeps any objects and `ctx.saved_tensor()` returns them (or None); tensors
inside list/tuple arguments get gradient slots; a non-leaf input returned as is is an in-place
result, a leaf one an error, one marked with `mark_not_inplace` a new output; backward's results
and exceptions are checked and reported with paddle's messages. The engine runs the node like any
other: a second run needs `retain_graph=True` (paddle 3.3.1 crashes there).
"""
from __future__ import annotations

import traceback

from ...autograd import mode
from ...autograd.function import BackwardCFunction, _expandable, _new_ctx, _wrap_outputs
from ...tensor import Tensor as _CoreTensor


class PyLayerContext:
    """What forward may call on `ctx`."""

    container = None
    not_inplace_tensors: tuple = ()
    non_differentiable: tuple = ()
    materialize_grads = True
    grad_in_dtype_consistent = True

    def save_for_backward(self, *tensors) -> None:
        """Keep `tensors` (any objects) for backward; a second call replaces them."""
        self.container = tensors

    def saved_tensor(self):
        """The saved tuple, or None when nothing was saved."""
        return self.container

    def mark_not_inplace(self, *args) -> None:
        """An input that forward returns unchanged becomes a new output instead of an in-place result."""
        self.not_inplace_tensors = args

    def mark_non_differentiable(self, *args) -> None:
        """These outputs get stop_gradient=True; backward still receives (zero) gradients for them."""
        self.non_differentiable = args

    def set_materialize_grads(self, value: bool) -> None:
        """False: outputs without an incoming gradient arrive in backward as None instead of zeros."""
        self.materialize_grads = value

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        self.grad_in_dtype_consistent = flag


class PyLayerBackward(PyLayerContext, BackwardCFunction):
    """The node of one PyLayer application and its ctx; subclassed per layer as `<Cls>_backward`."""

    def backward(self, *args):
        return self._forward_cls.backward(self, *args)

    def release(self, every_node: bool = False) -> None:
        super().release(every_node)
        self.__dict__.pop("container", None)

    def apply(self, grads: list) -> tuple:
        name = self._name
        grads = list(grads)
        if self.materialize_grads and any(g is None for g in grads):
            grads = self._materialized(grads)
        try:
            result = self.backward(*grads)
        except Exception as exc:
            raise _external(name, self, exc) from exc
        out = result if isinstance(result, tuple) else (result,)  # a list is one slot's gradients
        slots = self._slots
        if len(out) > len(slots):
            raise ValueError(f"(InvalidArgument) {name} : The number of outputs of `PyLayer.backward` should be "
                             f"{len(slots)}, but received {len(out)}. (at "
                             "/paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:196)\n")
        flat, start = [], 0
        for i, size in enumerate(slots):
            n = 1 if size is None else size
            edges = self.next_edges[start:start + n]
            start += n
            if i >= len(out):
                if any(e is not None for e in edges):
                    raise ValueError(f"(InvalidArgument) {name}'s backward function should not return empty at {i} "
                                     "position.\n  [Hint: Expected this->OutputMeta()[i][0].IsStopGradient() == true, "
                                     "but received this->OutputMeta()[i][0].IsStopGradient():0 != true:1.] (at "
                                     "/paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:243)\n")
                flat += [None] * n
                continue
            g = out[i]
            if size is not None:
                if not isinstance(g, (list, tuple)):
                    raise ValueError(f"(InvalidArgument) argument must be list or tuple, but got {type(g).__name__} "
                                     "(at /paddle/paddle/fluid/pybind/eager_utils.cc:2122)\n")
                g = list(g)[:n] + [None] * (n - len(g))
            else:
                g = [g]
            for item in g:
                if item is not None and not isinstance(item, _CoreTensor):
                    raise ValueError(f"(InvalidArgument) {name} : We can only support Tensor or None for backward "
                                     f"output, , but got {type(item).__name__}, please check your PyLayer code and "
                                     "make it fits (at /paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:234)\n")
            flat += g
        return tuple(self._checked(i, e, g, name) for i, (e, g) in enumerate(zip(self.next_edges, flat)))

    def _checked(self, i: int, edge, g, name: str):
        """The gradient for input edge i: None where no gradient flows, summed down when it was broadcast."""
        if edge is None or g is None:
            return None
        shape = self._input_shapes[i]
        if g._data.shape != shape:
            if not _expandable(shape, g._data.shape):  # paddle 3.3.1 accepts it and corrupts .grad
                raise ValueError(f"(InvalidArgument) {name} : backward returned a gradient of shape "
                                 f"{list(g._data.shape)} for input {i} of shape {list(shape)}.")
            from ...ops import sum_to
            g = sum_to(g, shape)
        return g


def _external(name: str, node, exc: Exception) -> OSError:
    """An exception raised by a PyLayer's backward, wrapped the way paddle reports it."""
    frames = traceback.extract_tb(exc.__traceback__)[1:]
    at = "".join(f"      {f.filename}({f.lineno}): {f.name}\n" for f in reversed(frames))
    bar = "=" * 28
    return OSError(f"(External) \n{{\n    {bar} Error message in backward of {name}(0x{id(node):x}){bar}\n"
                   f"    {type(exc).__name__}: {exc}\n    \n    At:\n{at}    \n    {'=' * 112}\n    \n}}\n"
                   " (at /paddle/paddle/fluid/eager/pylayer/py_layer_node.cc:177)\n")


class PyLayerMeta(type):
    """Generates `<Cls>_backward`, the node-and-ctx class of each PyLayer."""

    def __init__(cls, name, bases, attrs):
        cls._backward_cls = type(name + "_backward", (PyLayerBackward,),
                                 {"_forward_cls": cls, "_name": f"GradNodePyLayer_{name}"})
        cls._backward_function = cls._backward_cls
        super().__init__(name, bases, attrs)


def _tensor_inputs(args, kwargs) -> tuple[list, list]:
    """The tensors among the arguments (positional, then keyword) and the gradient slots they make:
    None for a tensor argument, the number of tensors for a list or tuple holding tensors (whose
    slot takes a list of gradients)."""
    found, slots = [], []
    for a in list(args) + list(kwargs.values()):
        if isinstance(a, _CoreTensor):
            found.append(a)
            slots.append(None)
        elif isinstance(a, (list, tuple)):
            inner = [t for t in a if isinstance(t, _CoreTensor)]
            if inner:
                found += inner
                slots.append(len(inner))
    return found, slots


class PyLayer(PyLayerContext, metaclass=PyLayerMeta):
    """Subclass with static `forward(ctx, *args, **kwargs)` and `backward(ctx, *grads)`, then call
    `Cls.apply(...)`."""

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("You must implement the backward function for PyLayer.")

    @classmethod
    def apply(cls, *args, **kwargs):
        state = mode.state
        trace = traceback.format_stack()[:-1] if state.anomaly or state.forward_traces else None
        inputs, slots = _tensor_inputs(args, kwargs)
        inputs = tuple(inputs)
        ctx = _new_ctx(cls, inputs, trace)
        ctx._slots = slots
        executable = state.grad_enabled and any(ctx.needs_input_grad)
        with mode._GradModeGuard(False):
            result = cls.forward(ctx, *args, **kwargs)
        outs = tuple(result) if isinstance(result, (tuple, list)) else (result,)
        if not any(isinstance(o, _CoreTensor) for o in outs):
            raise ValueError(f"(InvalidArgument) {cls.__name__} : At least one output of `PyLayer.forward` is a "
                             "`Tensor`. (at /paddle/paddle/fluid/pybind/eager_py_layer.cc:524)\n")
        if executable:
            ctx.dirty_tensors = _inplace_outputs(cls, ctx, inputs, outs)
        wrapped = _wrap_outputs(ctx, inputs, outs, executable)
        if not isinstance(result, (tuple, list)):
            return wrapped[0]
        return list(wrapped) if isinstance(result, list) else wrapped


def _inplace_outputs(cls, ctx, inputs: tuple, outs: tuple) -> tuple:
    """Inputs that forward returned as is: in-place results (paddle's rule), except those marked
    not-inplace; a leaf that needs a gradient cannot be one."""
    input_ids = {id(t) for t in inputs}
    keep = {id(t) for t in ctx.not_inplace_tensors}
    dirty = []
    for o in outs:
        if not isinstance(o, _CoreTensor) or id(o) not in input_ids or id(o) in keep:
            continue
        if o._requires_grad and o._grad_fn is None:
            raise ValueError(f"(InvalidArgument) {cls.__name__} : Leaf Var ({o.name}) that doesn't stop gradient "
                             "can't use inplace strategy.\n  [Hint: Expected !inplace_tensor_autograd_meta->"
                             "StopGradient() && egr::EagerUtils::IsLeafTensor(*inplace_tensor) == false, but received "
                             "!inplace_tensor_autograd_meta->StopGradient() && "
                             "egr::EagerUtils::IsLeafTensor(*inplace_tensor):1 != false:0.] (at "
                             "/paddle/paddle/fluid/pybind/eager_py_layer.cc:550)\n")
        dirty.append(o)
    return tuple(dirty)
