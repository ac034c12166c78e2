"""torch.save / torch.load in flowgrad's own format: tensors, state dicts and containers round-trip;
pickled objects load only with weights_only=False; foreign files are refused, never unpickled."""
from __future__ import annotations

import io
import json
import math
import pickle
import zipfile
from collections import OrderedDict

import numpy as np
import pytest


def _round_trip(torch, obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw)


def test_tensor_round_trip_keeps_values_dtype_and_flags(torch):
    for t in (torch.tensor([1.5, -2.0]), torch.arange(6).reshape(2, 3), torch.tensor(True),
              torch.tensor([[1.0]], dtype=torch.float64, requires_grad=True), torch.zeros(0, 3),
              torch.tensor(3.0, dtype=torch.float16), torch.arange(12).reshape(3, 4)[:, ::2]):
        r = _round_trip(torch, t)
        assert type(r) is torch.Tensor and r.dtype == t.dtype and r.shape == t.shape
        assert r.requires_grad == t.requires_grad and torch.equal(r.detach(), t.detach())


def test_nested_containers_round_trip(torch):
    obj = {"a": [1, 2.5, "x", None, True], "b": (torch.ones(2), {3: "int key", "inf": math.inf}),
           "c": OrderedDict(z=1, y=2), "nan": float("nan"), "bytes": b"\x00\x01", "set": {1, 2}}
    r = _round_trip(torch, obj)
    assert r["a"] == [1, 2.5, "x", None, True] and type(r["b"]) is tuple and r["b"][1] == {3: "int key",
                                                                                           "inf": math.inf}
    assert type(r["c"]) is OrderedDict and list(r["c"]) == ["z", "y"] and math.isnan(r["nan"])
    assert r["bytes"] == b"\x00\x01" and r["set"] == {1, 2} and torch.equal(r["b"][0], torch.ones(2))


def test_module_and_optimizer_state_dicts_round_trip(torch):
    model = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    opt = torch.optim.Adam(model.parameters(), lr=0.01)
    model(torch.randn(4, 3)).sum().backward()
    opt.step()
    sd = _round_trip(torch, {"model": model.state_dict(), "opt": opt.state_dict()})
    model2 = torch.nn.Sequential(torch.nn.Linear(3, 2), torch.nn.BatchNorm1d(2))
    assert repr(model2.load_state_dict(sd["model"])) == "<All keys matched successfully>"
    assert all(torch.equal(a, b) for a, b in zip(model.state_dict().values(), model2.state_dict().values()))
    assert list(sd["model"]) == list(model.state_dict())
    assert sd["model"]["1.num_batches_tracked"].dtype == torch.int64
    opt2 = torch.optim.Adam(model2.parameters(), lr=0.5)
    opt2.load_state_dict(sd["opt"])
    assert opt2.param_groups[0]["lr"] == 0.01 and opt2.param_groups[0]["betas"] == (0.9, 0.999)
    assert opt2.state[model2[0].weight]["step"].shape == torch.Size([])


def test_same_tensor_twice_loads_as_one_object(torch):
    t = torch.ones(3)
    r = _round_trip(torch, [t, t, {"again": t}])
    assert r[0] is r[1] and r[0] is r[2]["again"]


def test_parameter_round_trip(torch):
    p = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    r = _round_trip(torch, {"p": p})["p"]
    assert type(r) is torch.nn.Parameter and r.requires_grad


def test_save_to_path(torch, tmp_path):
    path = tmp_path / "ckpt.pt"
    torch.save({"w": torch.tensor([1, 2])}, path)
    assert torch.load(path)["w"].tolist() == [1, 2]
    torch.save([torch.zeros(1)], str(path))
    assert torch.load(str(path), map_location="cpu")[0].tolist() == [0.0]


def test_file_format_is_a_zip_with_a_json_manifest_and_npy_arrays(ftorch, tmp_path):
    path = tmp_path / "f.pt"
    ftorch.save({"w": ftorch.tensor([1.0, 2.0]), "step": 3}, path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        manifest = json.loads(zf.read("flowgrad.json"))
        arr = np.load(io.BytesIO(zf.read("arrays/0.npy")), allow_pickle=False)
    assert "flowgrad.json" in names and not any(n.endswith(".pkl") for n in names)
    assert manifest["format"] == "flowgrad" and manifest["version"] == 1
    assert manifest["root"]["$"] == "dict" and arr.tolist() == [1.0, 2.0]


def test_arbitrary_objects_need_weights_only_false(ftorch):
    model = ftorch.nn.Linear(2, 1)
    buf = io.BytesIO()
    ftorch.save(model, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        ftorch.load(buf)
    buf.seek(0)
    loaded = ftorch.load(buf, weights_only=False)
    assert type(loaded) is ftorch.nn.Linear and ftorch.equal(loaded.weight, model.weight)


def test_foreign_files_are_refused_not_unpickled(ftorch):
    evil = io.BytesIO(pickle.dumps({"a": 1}))
    with pytest.raises(pickle.UnpicklingError, match="not a flowgrad save file"):
        ftorch.load(evil)
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("archive/data.pkl", pickle.dumps({"a": 1}))
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="no flowgrad.json manifest"):
        ftorch.load(buf)
