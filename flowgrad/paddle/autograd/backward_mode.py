"""paddle.autograd.backward, Tensor.backward and paddle.grad: paddle's signatures and its checks of
argument types, in front of flowgrad's one front end (`flowgrad/autograd/api.py`), which the
paddle policy steers: implicit seeds are ones for any shape, constant roots are skipped, duplicate
tensors are refused, `paddle.grad` leaves the graph usable and cuts at `no_grad_vars`, and
`dump_backward_graph_path` writes paddle's graph dump. Seed shapes are always checked (paddle
3.3.1 does not, and silently miscomputes or crashes)."""
from __future__ import annotations

from ...autograd import api
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


def _dump_to(path):
    _dump.check_and_create_dir(path)
    return (_dump, path)


def backward(tensors, grad_tensors=None, retain_graph: bool = False, *, dump_backward_graph_path=None) -> None:
    """paddle.autograd.backward: accumulate the gradients of `tensors` into the leaves' `.grad`."""
    tensors = _check_tensors(tensors, "tensors", "Elements of {name} must be paddle.Tensor")
    api._check_unique(PADDLE, tensors, "backward", "tensors")
    grads = _seed_list(grad_tensors, len(tensors),
                       "The argument 'grad_tensors' of paddle.autograd.backward is invalid, it can be 'None', "
                       "'paddle.Tensor' or 'list[None/paddle.Tensor]'.",
                       "The length of grad_tensors must be equal to tensors")
    _check(isinstance(retain_graph, bool), "retain_graph must be True or False")
    api.backward(tensors, grads, retain_graph, policy=PADDLE, dump=_dump_to(dump_backward_graph_path))


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
    api.backward([self], [grad_tensor], retain_graph, policy=PADDLE, dump=_dump_to(dump_path))


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
    _check(retain_graph is None or isinstance(retain_graph, bool), "retain_graph must be None, True or False")
    _check(isinstance(allow_unused, bool), "allow_unused must be True or False")
    _check(isinstance(only_inputs, bool), "only_inputs must be True or False")
    _check(only_inputs, "only_inputs=False is not supported yet")
    return api.grad(outputs, inputs, grads, retain_graph, create_graph, allow_unused=allow_unused, policy=PADDLE,
                    no_grad_vars=no_grad_vars, dump=_dump_to(dump_backward_graph_path))
