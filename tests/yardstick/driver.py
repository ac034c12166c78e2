"""Runs yardstick models under whatever `import torch` answers (real torch, or flowgrad's facade
when compat/ leads PYTHONPATH) and writes what a comparison needs, one `.npz` per model:

    python driver.py OUT_DIR [--state DIR] [--steps N] [--dtype float32] [--no-lbfgs] MODEL...

`init/<key>`: the state dict as built (before `--state` replaces it with the one in
`DIR/<MODEL>.npz`); `out/<i>`, `grad/<name>`: the first training step's outputs and gradients;
`loss/<step>`; `final/<key>`: the state dict after the steps; `eval/<i>`: `evaluate()` of a model
built with the recipe's default dropout, loaded with the trained state. A model that raises leaves
`<MODEL>.err` (its traceback) instead. Models run in float64 (the default dtype too) unless
`--dtype float32` is given; a recipe with `FLOAT64_ONLY` is then left out."""
import argparse
import importlib
import json
import pathlib
import sys
import traceback

import numpy as np
import torch

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent / "models"))


def tensors(obj):
    """The tensors of a nested tuple / list, in order."""
    if isinstance(obj, (tuple, list)):
        return [t for item in obj for t in tensors(item)]
    return [obj] if isinstance(obj, torch.Tensor) else []


def array(t):
    return t.detach().cpu().numpy().copy()


def run(name, out_dir, state_dir, steps, lbfgs, dtype):
    recipe = importlib.import_module(name)
    dtype_np = np.float32 if dtype == torch.float32 else np.float64
    if dtype == torch.float32 and getattr(recipe, "FLOAT64_ONLY", False):
        return
    if hasattr(recipe, "USE_LBFGS"):
        recipe.USE_LBFGS = lbfgs
    torch.manual_seed(0)
    model = recipe.make_model(**getattr(recipe, "DETERMINISTIC", {})).to(dtype)
    res = {f"init/{k}": array(v) for k, v in model.state_dict().items()}
    if state_dir is not None:
        with np.load(pathlib.Path(state_dir) / f"{name}.npz") as given:
            model.load_state_dict({k[5:]: torch.from_numpy(given[k]) for k in given.files if k.startswith("init/")})
    batches = [tuple(torch.from_numpy(np.ascontiguousarray(a, dtype=dtype_np if a.dtype.kind == "f" else None))
                     for a in map(np.asarray, batch))
               for batch in recipe.make_batches(np.random.default_rng(0), steps)]
    optimizer = recipe.make_optimizer(model)
    carry, no_grad = None, []
    for step, batch in enumerate(batches):
        output, loss, carry = recipe.train_step(model, optimizer, batch, carry)
        res[f"loss/{step}"] = array(loss)
        if step == 0:
            res.update({f"out/{i}": array(t) for i, t in enumerate(tensors(output))})
            for pname, p in model.named_parameters():
                if p.grad is None:
                    no_grad.append(pname)
                else:
                    res[f"grad/{pname}"] = array(p.grad)
    res.update({f"final/{k}": array(v) for k, v in model.state_dict().items()})
    if hasattr(recipe, "evaluate"):
        fresh = recipe.make_model().to(dtype)
        fresh.load_state_dict(model.state_dict())
        res.update({f"eval/{i}": array(t) for i, t in enumerate(tensors(recipe.evaluate(fresh, batches[0])))})
    meta = {"framework": torch.__name__, "params": [n for n, _ in model.named_parameters()], "no_grad": no_grad,
            "state": list(model.state_dict()), "dtypes": {k: str(v.dtype) for k, v in model.state_dict().items()}}
    np.savez(pathlib.Path(out_dir) / f"{name}.npz", meta=np.array(json.dumps(meta)), **res)


def main(argv=None):
    parser = argparse.ArgumentParser()
    parser.add_argument("out_dir")
    parser.add_argument("models", nargs="+")
    parser.add_argument("--state")
    parser.add_argument("--steps", type=int, default=3)
    parser.add_argument("--dtype", choices=("float32", "float64"), default="float64")
    parser.add_argument("--no-lbfgs", dest="lbfgs", action="store_false")
    args = parser.parse_args(argv)
    dtype = getattr(torch, args.dtype)
    torch.set_default_dtype(dtype)
    for name in args.models:
        try:
            run(name, args.out_dir, args.state, args.steps, args.lbfgs, dtype)
        except Exception:
            (pathlib.Path(args.out_dir) / f"{name}.err").write_text(traceback.format_exc())


if __name__ == "__main__":
    main()
