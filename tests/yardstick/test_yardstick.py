"""The yardstick of the torch facade: model code as people copy it from well-known example
repositories (`models/*.py`, plain `import torch`), run unchanged on real torch and on flowgrad
(`import torch` answered by compat/), each in its own interpreter (`driver.py`). Real torch's
initial state dict is loaded into flowgrad's model; the forward outputs, the loss, every
parameter's gradient, the losses of the following steps and the whole state dict after three
optimizer steps must be real torch's.

float64 is compared tightly, first step and trajectory. The float32 run checks dtypes and the first
step (outputs, loss, gradients) to float32 tolerances; it does not compare the trajectory, which
adaptive optimizers make ill-conditioned in float32: a gradient entry at rounding level (a conv bias
in front of a normalisation, RMSprop's first step dividing by |g|) moves its parameter by an amount
set by that rounding, in real torch's float32 against its own float64 as much as in flowgrad's."""
from __future__ import annotations

import importlib.util
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MODELS = sorted(p.stem for p in (HERE / "models").glob("*.py"))
HAVE_TORCH = importlib.util.find_spec("torch") is not None
# rtol, then an absolute tolerance: a fraction of the array's largest magnitude plus a floor
TOLERANCE = {"float64": (1e-8, 1e-10, 1e-12), "float32": (1e-4, 1e-5, 1e-7)}

pytestmark = pytest.mark.skipif(not HAVE_TORCH, reason="real torch is not installed")


def _drive(out: pathlib.Path, dtype: str, *, on_flowgrad: bool, state: pathlib.Path | None = None) -> None:
    import flowgrad.torch
    out.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("FLOWGRAD_SHIM", "PYTHONPATH")}
    env["PYTHONPATH"] = os.pathsep.join(([str(ROOT / "compat")] if on_flowgrad else []) + [str(ROOT)])
    args = [sys.executable, "-W", "ignore", str(HERE / "driver.py"), str(out), *MODELS, "--dtype", dtype]
    if not hasattr(flowgrad.torch.optim, "LBFGS"):
        args.append("--no-lbfgs")
    if state is not None:
        args += ["--state", str(state)]
    res = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert res.returncode == 0, res.stderr


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """{dtype: (real torch's directory, flowgrad's directory)}, each holding one result per model."""
    base = tmp_path_factory.mktemp("yardstick")
    out = {}
    for dtype in TOLERANCE:
        real, ours = base / f"real-{dtype}", base / f"flowgrad-{dtype}"
        _drive(real, dtype, on_flowgrad=False)
        _drive(ours, dtype, on_flowgrad=True, state=real)
        out[dtype] = real, ours
    return out


def _load(directory: pathlib.Path, model: str, who: str):
    err = directory / f"{model}.err"
    assert not err.exists(), f"{model} failed on {who}:\n{err.read_text()}"
    path = directory / f"{model}.npz"
    if not path.exists():
        return None
    with np.load(path) as f:
        arrays = {k: f[k] for k in f.files}
    return json.loads(str(arrays.pop("meta"))), arrays


def _compared(key: str, dtype: str) -> bool:
    if key.startswith("init/"):
        return False                          # flowgrad's own initialisation, replaced by real torch's
    return dtype == "float64" or key.startswith(("out/", "grad/")) or key == "loss/0"


@pytest.mark.parametrize("dtype", list(TOLERANCE))
@pytest.mark.parametrize("model", MODELS)
def test_flowgrad_trains_the_model_as_real_torch_does(runs, model, dtype):
    real_dir, ours_dir = runs[dtype]
    real = _load(real_dir, model, "real torch")
    ours = _load(ours_dir, model, "flowgrad")
    if real is None:
        assert ours is None
        pytest.skip(f"{model} runs in float64 only")
    (real_meta, want), (our_meta, got) = real, ours
    assert (real_meta["framework"], our_meta["framework"]) == ("torch", "flowgrad.torch")
    for field in ("params", "state", "dtypes", "no_grad"):
        assert our_meta[field] == real_meta[field], field
    assert sorted(got) == sorted(want)
    assert any(k.startswith("grad/") for k in want) and "loss/2" in want
    for key, expected in want.items():
        actual = got[key]
        assert (actual.shape, actual.dtype) == (expected.shape, expected.dtype), key
        if not _compared(key, dtype):
            continue
        if expected.dtype.kind == "f":
            rtol, of_scale, floor = TOLERANCE[dtype]
            scale = float(np.abs(expected).max()) if expected.size else 0.0
            np.testing.assert_allclose(actual, expected, rtol=rtol, atol=floor + of_scale * scale, err_msg=key)
        else:
            np.testing.assert_array_equal(actual, expected, err_msg=key)


def test_orthogonal_init_gives_orthogonal_rows_scaled_by_the_gain(runs):
    """Loading real torch's weights hides flowgrad's own initialisation: check it here (the
    super-resolution net's convolutions: ReLU's gain sqrt(2), the last one gain 1)."""
    gains = {"conv1.weight": 2 ** 0.5, "conv2.weight": 2 ** 0.5, "conv3.weight": 2 ** 0.5, "conv4.weight": 1.0}
    for directory, who in zip(runs["float64"], ("real torch", "flowgrad")):
        _, arrays = _load(directory, "super_resolution", who)
        for name, gain in gains.items():
            w = arrays[f"init/{name}"]
            w = w.reshape(w.shape[0], -1)
            assert w.shape[0] <= w.shape[1]
            np.testing.assert_allclose(w @ w.T, gain ** 2 * np.eye(w.shape[0]), atol=1e-10, err_msg=f"{who} {name}")
