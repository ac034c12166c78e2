"""torch.jit: `script` / `trace` return what they are given (flowgrad has no TorchScript; `trace`
runs the function once on its example inputs), `is_scripting` / `is_tracing` are False, and
`ignore` / `unused` leave functions as they are. See the facade kit's `compiling` for the details."""
from __future__ import annotations

from ..facade.compiling import build_jit
from ._tensor import Tensor
from .nn import Module

_jit = build_jit(Tensor.policy, Module, __name__)
script, trace, is_scripting, is_tracing = _jit["script"], _jit["trace"], _jit["is_scripting"], _jit["is_tracing"]
ignore, unused = _jit["ignore"], _jit["unused"]
