"""torch.backends: the cudnn, cuda, mps, opt_einsum and mha flags with PyTorch's checks and the values a
CPU build of PyTorch reports (the facade kit's `backends`; none of them changes a computation)."""
from __future__ import annotations

from ...facade import backends as _kit
from .._tensor import Tensor as _Tensor

cudnn = _kit.cudnn(__name__, _Tensor.policy)
cuda = _kit.cuda(__name__, _Tensor.policy)
mps = _kit.mps(__name__)
opt_einsum = _kit.opt_einsum(__name__)
mha = _kit.mha(__name__)
