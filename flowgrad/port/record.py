"""The worker behind `flowgrad port --verify`: run one script on one facade and record, in order,
the gradient of every leaf a backward pass reached (after each pass: one step) and every tensor the
script printed. A layer's parameters that table.PARAMETER_LAYOUTS lays out as known are recorded in
PyTorch's layout (paddle's q / k / v projections as one `in_proj_weight`, a Linear weight as
`[out, in]`). `python -m flowgrad.port.record FRAMEWORK SCRIPT OUT [FOLDER]` (FOLDER: also on the import path) writes OUT (a pickle of
{"records": [(step, label, array), ...], "error": traceback text or None})."""
from __future__ import annotations

import builtins
import importlib
import importlib.abc
import pickle
import random
import sys
import traceback
import weakref

import numpy as np

from .. import runner, shim
from ..autograd import api, engine
from ..messages.port import text
from ..nn.module import Module
from ..tensor import Tensor
from . import layouts


class Recorder:
    def __init__(self, framework: str):
        self.layouts = layouts.layer_layouts(framework, importlib.import_module(shim.FACADES[framework]))
        self.layers: list[weakref.ref] = []     # every layer of a class in self.layouts, made while recording
        self.records: list[tuple[int, str, np.ndarray]] = []
        self.step = 0
        self.leaves: dict[int, tuple[str, Tensor]] = {}   # id -> (label, leaf), in first-reached order
        self.touched: list[int] = []
        self.prints = 0

    def _record_step(self) -> None:
        """The gradients of the leaves this pass reached; a layout group's once, joined, where the pass
        reached all its parts (else each part alone)."""
        alive = [m for m in (r() for r in self.layers) if m is not None]
        self.layers = [weakref.ref(m) for m in alive]
        groups = layouts.parameter_groups(alive, self.layouts)
        touched = dict.fromkeys(self.touched)
        done = set()
        for key in touched:
            label, leaf = self.leaves[key]
            group = groups.get(key)
            if group is not None and all(id(p) in touched and p._grad is not None for p in group.parts):
                if group in done:
                    continue
                done.add(group)
                array = group.join([np.array(p._grad._data) for p in group.parts])
                label = f"{label.split(' (')[0]} {group.name} of {group.layer} {array.shape}"
                self.records.append((self.step, label, array))
            elif leaf._grad is not None:
                self.records.append((self.step, label, np.array(leaf._grad._data, copy=True)))

    def install(self) -> None:
        run, accumulate, emit, init = engine.run_backward, engine.accumulate, builtins.print, Module.__init__
        rec = self
        classes = tuple(cls for cls, _ in self.layouts)

        def run_backward(*args, **kwargs):
            rec.touched = []
            out = run(*args, **kwargs)
            rec.step += 1
            rec._record_step()
            return out

        def module_init(self, *args, **kwargs):
            init(self, *args, **kwargs)
            if isinstance(self, classes):
                rec.layers.append(weakref.ref(self))

        def accumulate_(var, grad, owned, create_graph):
            accumulate(var, grad, owned, create_graph)
            if id(var) not in rec.leaves:
                rec.leaves[id(var)] = (f"leaf #{len(rec.leaves)} {tuple(var._data.shape)}", var)
            rec.touched.append(id(var))

        def print_(*args, **kwargs):
            for i, a in enumerate(args):
                for j, t in enumerate(a if isinstance(a, (list, tuple)) else (a,)):
                    if isinstance(t, Tensor):
                        rec.records.append((rec.step, f"print #{rec.prints} argument {i}.{j}",
                                            np.array(t._data, copy=True)))
            rec.prints += 1
            return emit(*args, **kwargs)

        engine.run_backward = api.run_backward = run_backward
        engine.accumulate = engine.AccumulateGrad.accumulate = accumulate_
        engine.AccumulateGrad.accumulate = staticmethod(accumulate_)
        builtins.print = print_
        Module.__init__ = module_init


class _OnlyOne(importlib.abc.MetaPathFinder):
    """The other frameworks are not importable: the run is on one facade (a left-in-place use of
    the source framework fails, as it would with the target framework alone)."""

    def __init__(self, framework: str):
        self.others = frozenset(shim.FACADES) - {framework}
        self.framework = framework

    def find_spec(self, fullname, path=None, target=None):
        if fullname.partition(".")[0] in self.others:
            raise ModuleNotFoundError(text("verify_foreign_import", module=fullname, framework=self.framework),
                                      name=fullname)
        return None


def run(framework: str, script: str, folder: str | None = None) -> dict:
    """Run `script` under `framework`'s facade with the recorder; the records and the error, if any."""
    from .. import creation
    random.seed(0)
    np.random.seed(0)
    creation.default_generator.manual_seed(0)
    shim.install(framework)
    sys.meta_path.insert(0, _OnlyOne(framework))
    rec = Recorder(framework)
    rec.install()
    sys.argv = [script]
    if folder is not None:
        sys.path.insert(1, folder)     # run_path makes sys.path[0] the script's own folder
    error = None
    try:
        runner.run_path(script)
    except SystemExit as exc:
        if exc.code not in (None, 0):
            error = f"SystemExit: {exc.code}"
    except BaseException as exc:   # noqa: B036  (reported to the parent with its traceback)
        tb = runner.user_traceback(exc.__traceback__)
        error = "".join(traceback.format_exception(type(exc), exc.with_traceback(tb), tb))
    return {"records": rec.records, "error": error}


def main(argv: list[str]) -> int:
    framework, script, out, *folder = argv
    result = run(framework, script, *folder)
    with open(out, "wb") as f:
        pickle.dump(result, f)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
