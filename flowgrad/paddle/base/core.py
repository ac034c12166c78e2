"""paddle.base.core (also paddle.framework.core): what this build can run, and the places."""
from __future__ import annotations

import types

from ...facade import cuda_memory
from .._tensor import CPUPlace, Place, Tensor
from .._tensor import CUDAPlace as _CUDAPlace

eager = types.SimpleNamespace(Tensor=Tensor)


def is_compiled_with_cuda() -> bool:
    """Whether flowgrad can run on CUDA here (CuPy, its CUDA path, is importable)."""
    return cuda_memory.cupy() is not None


def CUDAPlace(device_id: int) -> Place:
    if not is_compiled_with_cuda():
        raise ValueError("(InvalidArgument) use wrong place, Please check. (at "
                         "/paddle/paddle/fluid/pybind/place.cc:451)\n")
    return _CUDAPlace(device_id)


def is_float16_supported(place: Place) -> bool:
    """float16 kernels: on CUDA (paddle's CPU build has none)."""
    return place.is_gpu_place()


def is_bfloat16_supported(place: Place) -> bool:
    """bfloat16: never (NumPy and CuPy have no bfloat16)."""
    return False


__all__ = ["eager", "is_compiled_with_cuda", "CPUPlace", "CUDAPlace", "is_float16_supported", "is_bfloat16_supported"]
