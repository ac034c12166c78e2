"""paddle.base and paddle.framework: what paddle's own autograd tests import from them
(`core`'s build queries and places, `framework.Variable`, `dygraph.guard`), and
paddle.incubate.autograd.utils.as_tensors, on flowgrad's facade and real paddle 3.3.1."""
from __future__ import annotations

import importlib
import re

import pytest


def test_base_core_and_framework(paddle):
    core = importlib.import_module(paddle.__name__ + ".base.core")
    framework = importlib.import_module(paddle.__name__ + ".base.framework")
    assert paddle.base.core is core and paddle.framework.core is core and framework.core is core
    assert core.is_compiled_with_cuda() is False and paddle.is_compiled_with_cuda() is False
    assert core.is_float16_supported(core.CPUPlace()) is False
    assert repr(core.CPUPlace()) == "Place(cpu)"
    assert core.eager.Tensor is paddle.Tensor
    with pytest.raises(ValueError, match=re.escape("(InvalidArgument) use wrong place, Please check.")):
        core.CUDAPlace(0)  # a build without CUDA
    assert isinstance(paddle.to_tensor([1.]), framework.Variable)
    assert isinstance(paddle.nn.Linear(1, 1).weight, framework.Variable)
    assert not isinstance(3, framework.Variable) and not isinstance([1.], framework.Variable)
    assert framework.in_dygraph_mode() and paddle.base.in_dygraph_mode() and paddle.framework.in_dynamic_mode()


def test_base_dygraph_guard_and_framework_names(paddle):
    dygraph = importlib.import_module(paddle.__name__ + ".base.dygraph")
    with dygraph.guard():
        x = paddle.to_tensor([1., 2.], stop_gradient=False)
        with dygraph.no_grad():
            y = x * 2
        assert y.stop_gradient
        g, = dygraph.grad((x * x).sum(), x)
        assert g.tolist() == [2., 4.]
    assert paddle.framework.ParamAttr is paddle.ParamAttr
    assert paddle.framework.get_default_dtype() == "float32"


def test_incubate_autograd_as_tensors(paddle):
    utils = importlib.import_module(paddle.__name__ + ".incubate.autograd.utils")
    t = paddle.to_tensor([1.])
    assert len(utils.as_tensors(t)) == 1 and utils.as_tensors(t)[0] is t
    assert type(utils.as_tensors([t, t])) is tuple and len(utils.as_tensors((t,))) == 1
