"""paddle.autograd.PyLayer: flowgrad's neutral custom function (`flowgrad/autograd/function.py`)
with paddle's knobs and names. The node recorded for one `apply` is also the `ctx` forward
receives (class `<Cls>_backward`, node name `GradNodePyLayer_<Cls>`); `ctx.save_for_backward`
keeps any objects and `ctx.saved_tensor()` returns them (or None); tensors inside list/tuple
arguments get gradient slots; a non-leaf input returned as is is an in-place result, a leaf one an
error, one marked with `mark_not_inplace` a new output; backward sees gradients with
stop_gradient=False, and its results and exceptions are reported with paddle's messages.
"""
from __future__ import annotations

from ...autograd.function import CustomFunction, CustomFunctionCtx, CustomFunctionNode


class PyLayerContext(CustomFunctionCtx):
    """What forward may call on `ctx` (besides mark_non_differentiable and set_materialize_grads)."""

    not_inplace_tensors: tuple = ()
    non_differentiable: tuple = ()
    grad_in_dtype_consistent = True

    def save_for_backward(self, *tensors) -> None:
        """Keep `tensors` (any objects; tensors only under saved-tensor hooks, which pack them) for
        backward; a second call replaces them."""
        self._keep_for_backward(tensors)

    def saved_tensor(self):
        """The saved tuple (unpacked by the hooks it was saved under), or None when nothing was saved."""
        return self._kept()

    def mark_not_inplace(self, *args) -> None:
        """An input that forward returns unchanged becomes a new output instead of an in-place result."""
        self.not_inplace_tensors = args

    def set_grad_in_dtype_consistent(self, flag: bool) -> None:
        self.grad_in_dtype_consistent = flag


class PyLayerBackward(PyLayerContext, CustomFunctionNode):
    """The node of one PyLayer application and its ctx; subclassed per layer as `<Cls>_backward`."""

    def backward(self, *args):
        return self._forward_cls.backward(self, *args)


class PyLayer(PyLayerContext, CustomFunction):
    """Subclass with static `forward(ctx, *args, **kwargs)` and `backward(ctx, *grads)`, then call
    `Cls.apply(...)`."""

    _node_base = PyLayerBackward
    _node_suffix = "_backward"
    tensors_in_containers = True
    non_tensor_inputs_take_grads = False
    returned_inputs_inplace = True
    needs_tensor_output = True
    lists_are_outputs = True
    grads_for_non_tensor_outputs = False
    wraps_backward_errors = True
    extra_none_grads_dropped = False
    missing_grads_allowed = True

    @classmethod
    def _node_attrs(cls, name: str) -> dict:
        return {"_name": f"GradNodePyLayer_{name}"}

    @staticmethod
    def forward(ctx, *args, **kwargs):
        raise NotImplementedError("You must implement the forward function for PyLayer.")

    @staticmethod
    def backward(ctx, *args):
        raise NotImplementedError("You must implement the backward function for PyLayer.")
