"""GPU workloads: the MLP step on CUDA. flowgrad runs on CuPy arrays, torch on its CUDA tensors, and
the hand-written reference is the NumPy MLP's code on CuPy arrays. Each step ends by waiting for the
device, and the wall clock times it (the CPU clock does not see the GPU's work). They run where CuPy
sees a CUDA device and torch is a CUDA build; elsewhere they report 'not available'."""
from __future__ import annotations

import importlib

import numpy as np

from .harness import NotAvailable, Unsupported
from .mlp import MLP, hand_written_step


def cuda_missing() -> str:
    """Why no CUDA workload can run here ('' when CuPy sees a device)."""
    try:
        import cupy
    except ImportError:
        return "CuPy is not installed (no GPU work is measured without it)"
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as e:  # noqa: BLE001  (CuPy raises its own runtime errors without a driver)
        return f"CuPy sees no CUDA device ({type(e).__name__}: {e})"
    return "" if count else "CuPy sees no CUDA device"


def gpu_description() -> str:
    """The GPU and the CUDA stack the numbers were measured with."""
    import cupy
    props = cupy.cuda.runtime.getDeviceProperties(0)
    name = props["name"].decode() if isinstance(props["name"], bytes) else props["name"]
    runtime = cupy.cuda.runtime.runtimeGetVersion()
    words = [f"GPU: {name} ({props['totalGlobalMem'] / 2 ** 30:.0f} GiB)",
             f"CUDA runtime {runtime // 1000}.{runtime % 1000 // 10}", f"CuPy {cupy.__version__}"]
    try:
        torch = importlib.import_module("torch")
        words.append(f"torch {torch.__version__} (CUDA {torch.version.cuda})")
    except ImportError:
        pass
    return ", ".join(words)


class MLPCuda(MLP):
    name = "mlp-cuda"
    title = "MLP 4096-4096-4096-4096, batch 1024, fwd+bwd, float32, on the GPU (hand-written: CuPy)"
    section = "GPU"
    device = "cuda"
    clock = "wall"
    target_x_torch = 1.2
    dtype = np.float32
    rtol, atol = 2e-3, 2e-5
    sizes = {"full": dict(batch=1024, dims=(4096, 4096, 4096, 4096)),
             "quick": dict(batch=1024, dims=(4096, 4096, 4096, 4096)),
             "tiny": dict(batch=8, dims=(32, 16, 16, 4))}

    def unavailable(self) -> str:
        return cuda_missing()

    def describe_device(self) -> str:
        return gpu_description()

    def impl_numpy(self, d):
        import cupy
        x, y = cupy.asarray(d["x"]), cupy.asarray(d["y"])
        inner = hand_written_step(cupy, x, y, [cupy.asarray(p) for p in d["params"]])
        stream = cupy.cuda.get_current_stream()

        def step():
            grads = inner()
            stream.synchronize()
            return grads
        return step

    def torchlike(self, torch, d):
        if not torch.cuda.is_available():
            raise NotAvailable(f"{torch.__name__} has no CUDA device here")
        return super().torchlike(torch, d)

    def impl_mygrad(self, d):
        raise Unsupported("MyGrad runs on NumPy only")

    def impl_autograd(self, d):
        raise Unsupported("HIPS autograd runs on NumPy only")


WORKLOADS = [MLPCuda()]
