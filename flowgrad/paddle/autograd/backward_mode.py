"""paddle.autograd.backward, Tensor.backward and paddle.grad: paddle's argument checks and
messages in front of flowgrad's engine. Implicit seeds are ones for any shape; constant roots are
skipped; `paddle.grad` leaves the graph usable (it runs with retain_graph) and treats
`no_grad_vars` as cut points. Seed shapes are always checked (paddle 3.3.1 does not, and
silently miscomputes or crashes)."""
from __future__ import annotations

from ...autograd.api import make_grads
from ...autograd.engine import run_backward
from ...autograd.record import BackwardRecord
from ...ops import edge
from ...tensor import Tensor as _CoreTensor
from .. import _dump
from .._policy import PADDLE


def _check(cond: bool, message: str) -> None:
    if not cond:
        raise AssertionError(message)


def _check_tensors(values, name: str, element_message: str) -> list:
    _check(values is not None, f"{name} should not be None")
    if isinstance(values, (list, tuple)):
        _check(len(values) > 0, f"{name} cannot be empty")
        for v in values:
            _check(isinstance(v, _CoreTensor), element_message.format(name=name))
        return list(values)
    _check(isinstance(values, _CoreTensor), f"{name} must be Tensor or list of Tensor")
    return [values]


def _seed_list(grads, n: int, type_message: str, length_message: str) -> list:
    if grads is None:
        return [None] * n
    if not isinstance(grads, (list, tuple)):
        grads = [grads]
    for g in grads:
        if g is not None:
            _check(isinstance(g, _CoreTensor), type_message)
    if len(grads) == 0:
        return [None] * n
    _check(len(grads) == n, length_message)
    return list(grads)


def _run(roots: list, seeds: list, dump_path: str | None, **kw):
    """The engine, writing paddle's three dump files when asked (also when it fails part-way;
    nothing when no node ran)."""
    if dump_path is None:
        return run_backward(PADDLE, roots, seeds, **kw)
    record = BackwardRecord()
    try:
        return run_backward(PADDLE, roots, seeds, observer=record, **kw)
    finally:
        if record.nodes:
            _dump.write(dump_path, list(dict.fromkeys(node for node, _ in roots)), record)


def _backward(tensors: list, grads: list, retain_graph: bool, dump_path) -> None:
    _dump.check_and_create_dir(dump_path)
    seeds = make_grads(PADDLE, tensors, grads)
    live = [i for i, t in enumerate(tensors) if t._requires_grad]  # stop_gradient roots are skipped silently
    if not live:
        return
    _run([edge(tensors[i]) for i in live], [_detached(seeds[i]) for i in live], dump_path,
         retain_graph=retain_graph, create_graph=False)


def _detached(g):
    return g.detach() if g is not None and g._requires_grad else g


def backward(tensors, grad_tensors=None, retain_graph: bool = False, *, dump_backward_graph_path=None) -> None:
    """paddle.autograd.backward: accumulate the gradients of `tensors` into the leaves' `.grad`."""
    tensors = _check_tensors(tensors, "tensors", "Elements of {name} must be paddle.Tensor")
    _check(len(tensors) == len({id(t) for t in tensors}),
           "The argument 'tensors' of paddle.autograd.backward contains duplicate paddle.Tensor object.")
    grads = _seed_list(grad_tensors, len(tensors),
                       "The argument 'grad_tensors' of paddle.autograd.backward is invalid, it can be 'None', "
                       "'paddle.Tensor' or 'list[None/paddle.Tensor]'.",
                       "The length of grad_tensors must be equal to tensors")
    _check(isinstance(retain_graph, bool), "retain_graph must be True or False")
    _backward(tensors, grads, retain_graph, dump_backward_graph_path)


def tensor_backward(self, grad_tensor, retain_graph, dump_path) -> None:
    """Tensor.backward(grad_tensor=None, retain_graph=False, *, dump_backward_graph_path=None)."""
    if grad_tensor is not None:
        _check(isinstance(grad_tensor, _CoreTensor), "The type of grad_tensor must be paddle.Tensor")
        _check(grad_tensor._data.shape == self._data.shape,
               f"Tensor shape not match, Tensor of grad_tensor [ {grad_tensor.name} ] with shape "
               f"{grad_tensor.shape} mismatch Tensor [ {self.name} ] with shape {self.shape}")
    if not isinstance(retain_graph, bool):
        raise TypeError(f"(InvalidType) argument (position 3) must be bool, but got {type(retain_graph).__name__} "
                        "(at /paddle/paddle/fluid/pybind/eager_utils.cc:286)\n")
    _backward([self], [grad_tensor], retain_graph, dump_path)


def _duplicate_error(tensors: list, what: str) -> None:
    seen = set()
    for t in tensors:
        key = id(t)
        if key in seen:
            name = t.name if t.grad_fn is None else ""
            raise RuntimeError(f"(AlreadyExists) {what} contain duplicate tensor {name}, please check {what} "
                               "carefully.\n  [Hint: Expected visited_ins.count(auto_grad_meta) == 0, but received "
                               "visited_ins.count(auto_grad_meta):1 != 0:0.] (at "
                               "/paddle/paddle/fluid/eager/backward.cc:220)\n")
        seen.add(key)


def grad(outputs, inputs, grad_outputs=None, retain_graph: bool | None = None, create_graph: bool = False,
         only_inputs: bool = True, allow_unused: bool = False, no_grad_vars=None, *,
         dump_backward_graph_path=None) -> list:
    """paddle.grad: the gradients of `outputs` with respect to `inputs`, as a list; no `.grad` of
    a leaf changes and the graph stays usable."""
    outputs = _check_tensors(outputs, "outputs", "Elements of {name} must be Tensor")
    inputs = _check_tensors(inputs, "inputs", "Elements of {name} must be Tensor")
    grads = _seed_list(grad_outputs, len(outputs),
                       "grad_outputs must be None, a Variable or a list containing None or Variables",
                       "The length of grad_outputs must be equal to outputs")
    if no_grad_vars is None:
        no_grad_vars = []
    elif isinstance(no_grad_vars, _CoreTensor):
        no_grad_vars = [no_grad_vars]
    elif isinstance(no_grad_vars, (list, tuple, set)):
        no_grad_vars = list(no_grad_vars)
        for v in no_grad_vars:
            _check(isinstance(v, _CoreTensor), "no_grad_vars can only contains Tensor")
    else:
        raise AssertionError("no_grad_vars must be None, Tensor or list/tuple/set of Tensors")
    _check(isinstance(create_graph, bool), "create_graph must be True or False")
    if retain_graph is None:
        retain_graph = create_graph
    _check(isinstance(retain_graph, bool), "retain_graph must be None, True or False")
    _check(isinstance(allow_unused, bool), "allow_unused must be True or False")
    _check(isinstance(only_inputs, bool), "only_inputs must be True or False")
    _check(only_inputs, "only_inputs=False is not supported yet")
    _dump.check_and_create_dir(dump_backward_graph_path)
    _duplicate_error(inputs, "inputs")
    _duplicate_error(outputs, "outputs")

    cuts = {e for e in map(edge, no_grad_vars) if e is not None}
    targets = [edge(x) for x in inputs]
    for i, e in enumerate(targets):
        if e is not None and e in cuts:
            raise ValueError(f"(InvalidArgument) The {i}-th input is also in no_grad_vars, so no gradient can reach "
                             "it. (paddle 3.3.1 crashes here; flowgrad refuses it.)")
    seeds = make_grads(PADDLE, outputs, grads)
    live = [i for i, t in enumerate(outputs) if t._requires_grad]
    result = [None] * len(inputs)
    wanted = [i for i, e in enumerate(targets) if e is not None]
    if live and wanted:
        got = _run([edge(outputs[i]) for i in live],
                   [seeds[i] if create_graph else _detached(seeds[i]) for i in live], dump_backward_graph_path,
                   retain_graph=True, create_graph=create_graph, targets=[targets[i] for i in wanted],
                   capture=True, cuts=cuts or None)
        for i, g in zip(wanted, got):
            result[i] = g
    out = []
    for i, g in enumerate(result):
        if g is None:
            if not allow_unused:
                raise PADDLE.error("input_unused", index=i)
        elif not create_graph or g.grad_fn is None:
            g = g.detach()
            g._requires_grad = create_graph
        out.append(g)
    return out
