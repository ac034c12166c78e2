"""Saving and loading tensors and containers of them, in flowgrad's own format (no pickled code).

A save file is a zip archive:

    flowgrad.json        {"format": "flowgrad", "version": 1, "root": <value>}
    arrays/<n>.npy       one array per distinct tensor (NumPy's .npy, written without pickle)
    pickles/<n>.pkl      only for objects the format cannot express (see below)

`<value>` is JSON: null, true/false, strings, ints, finite floats and lists stand for themselves;
everything else is an object tagged with "$": {"$": "tensor", "array": "arrays/0.npy",
"requires_grad": false, "parameter": false, "device": "cpu"}, {"$": "dict", "items": [[key, value],
...]} (keys of any supported type, e.g. the int keys of an optimizer state dict), "odict" (with its
"metadata", as Module.state_dict carries), "counter", "tuple", "set", "frozenset", "size", "float"
(inf/nan as text), "bytes" (base64), "dtype", "device", "ndarray" and "pickle". A tensor that
appears twice is stored once and loads as one object.

Objects outside this list (a whole Module, a custom class) are pickled into `pickles/`. Loading
them runs arbitrary code, so `load` refuses unless it is called with `weights_only=False`, the
rule PyTorch follows since 2.6.
"""
from __future__ import annotations

import base64
import io
import json
import os
import pickle
import zipfile
from collections import Counter, OrderedDict

import numpy as np

from . import backend
from .tensor import Tensor

MANIFEST = "flowgrad.json"
FORMAT_VERSION = 1


class _Writer:
    def __init__(self, zf: zipfile.ZipFile):
        self.zf = zf
        self.tensors: dict[int, str] = {}
        self.n_arrays = 0
        self.n_pickles = 0
        self.keep_alive: list = []

    def array(self, arr) -> str:
        host = arr if isinstance(arr, np.ndarray) else backend.to_device(arr, backend.CPU)
        name = f"arrays/{self.n_arrays}.npy"
        self.n_arrays += 1
        if host.dtype == backend.BFLOAT16:   # (.npy has no bfloat16: its bits, as uint16, named so)
            host, name = host.view(np.uint16), name[:-4] + ".bfloat16.npy"
        buf = io.BytesIO()
        np.save(buf, host if host.flags.c_contiguous else np.array(host, order="C"), allow_pickle=False)
        self.zf.writestr(name, buf.getvalue())
        return name

    def encode(self, obj):
        if obj is None or isinstance(obj, (bool, str)):
            return obj
        if isinstance(obj, int) and type(obj) is int:
            return obj
        if type(obj) is float:
            return obj if np.isfinite(obj) else {"$": "float", "value": repr(obj)}
        if isinstance(obj, Tensor):
            return self.tensor(obj)
        if isinstance(obj, (np.bool_, np.integer, np.floating)):
            return self.encode(obj.item())
        if isinstance(obj, np.ndarray) and obj.dtype in backend.DTYPES:
            return {"$": "ndarray", "array": self.array(obj)}
        if isinstance(obj, backend.DType):
            return {"$": "dtype", "name": obj.name}
        if isinstance(obj, backend.Device):
            return {"$": "device", "name": str(obj)}
        t = type(obj)
        if t is list:
            return [self.encode(v) for v in obj]
        if t is tuple:
            return {"$": "tuple", "items": [self.encode(v) for v in obj]}
        if isinstance(obj, tuple) and t.__name__ == "Size":
            return {"$": "size", "items": list(obj)}
        if t in (set, frozenset):
            return {"$": t.__name__, "items": [self.encode(v) for v in obj]}
        if t is bytes:
            return {"$": "bytes", "b64": base64.b64encode(obj).decode("ascii")}
        if t is dict:
            return {"$": "dict", "items": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
        if t is OrderedDict:
            out = {"$": "odict", "items": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
            meta = getattr(obj, "_metadata", None)
            if meta is not None:
                out["metadata"] = self.encode(meta)
            return out
        if t is Counter:
            return {"$": "counter", "items": [[self.encode(k), self.encode(v)] for k, v in obj.items()]}
        return self.pickled(obj)

    def tensor(self, t: Tensor):
        key = id(t)
        if key not in self.tensors:
            self.keep_alive.append(t)
            self.tensors[key] = self.array(t._data)
        from .nn.parameter import Parameter
        dev = t.device
        return {"$": "tensor", "array": self.tensors[key], "id": self.tensors[key],
                "requires_grad": bool(t._requires_grad), "parameter": isinstance(t, Parameter),
                "device": str(dev)}

    def pickled(self, obj):
        name = f"pickles/{self.n_pickles}.pkl"
        self.n_pickles += 1
        self.zf.writestr(name, pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL))
        return {"$": "pickle", "entry": name, "type": f"{type(obj).__module__}.{type(obj).__qualname__}"}


def save(obj, f) -> None:
    """Write `obj` to a path or a binary file object."""
    if isinstance(f, (str, os.PathLike)):
        with open(f, "wb") as fh:
            _save(obj, fh)
    else:
        _save(obj, f)


def _save(obj, fh) -> None:
    with zipfile.ZipFile(fh, "w", compression=zipfile.ZIP_STORED) as zf:
        w = _Writer(zf)
        root = w.encode(obj)
        zf.writestr(MANIFEST, json.dumps({"format": "flowgrad", "version": FORMAT_VERSION, "root": root}))


class _Reader:
    def __init__(self, zf: zipfile.ZipFile, map_location, weights_only: bool, tensor_cls, param_cls):
        self.zf = zf
        self.map_location = map_location
        self.weights_only = weights_only
        self.tensor_cls = tensor_cls
        self.param_cls = param_cls
        self.tensors: dict[str, Tensor] = {}

    def array(self, name):
        arr = np.load(io.BytesIO(self.zf.read(name)), allow_pickle=False)
        if name.endswith(".bfloat16.npy"):
            if backend.BFLOAT16 is None:
                raise self.tensor_cls.policy.errors.bfloat16_needs_ml_dtypes()
            arr = arr.view(backend.BFLOAT16)
        return arr

    def device_for(self, saved: str):
        loc = self.map_location
        if loc is None:
            return saved
        if isinstance(loc, dict):
            return str(loc.get(saved, saved))
        if isinstance(loc, (str, backend.Device)):
            return str(loc)
        return saved

    def decode(self, v):
        if v is None or isinstance(v, (bool, str, int, float)):
            return v
        if isinstance(v, list):
            return [self.decode(x) for x in v]
        tag = v["$"]
        if tag == "tensor":
            return self.tensor(v)
        if tag == "dict":
            return {self.decode(k): self.decode(x) for k, x in v["items"]}
        if tag == "odict":
            out = OrderedDict((self.decode(k), self.decode(x)) for k, x in v["items"])
            if "metadata" in v:
                out._metadata = self.decode(v["metadata"])
            return out
        if tag == "counter":
            return Counter({self.decode(k): self.decode(x) for k, x in v["items"]})
        if tag == "tuple":
            return tuple(self.decode(x) for x in v["items"])
        if tag == "size":
            return getattr(self.tensor_cls, "_size", tuple)(v["items"])
        if tag in ("set", "frozenset"):
            return (set if tag == "set" else frozenset)(self.decode(x) for x in v["items"])
        if tag == "float":
            return float(v["value"])
        if tag == "bytes":
            return base64.b64decode(v["b64"])
        if tag == "ndarray":
            return self.array(v["array"])
        if tag == "dtype":
            return self.tensor_cls._dtypes[backend.to_np_dtype(v["name"])]
        if tag == "device":
            return backend.Device(v["name"])
        if tag == "pickle":
            return pickle.loads(self.zf.read(v["entry"]))
        raise self.tensor_cls.policy.errors.load_unknown_entry(tag=tag)

    def tensor(self, v):
        key = v["id"] + ("/p" if v["parameter"] else "") + ("/g" if v["requires_grad"] else "")
        t = self.tensors.get(key)
        if t is not None:
            return t
        arr = self.array(v["array"])
        dev = self.device_for(v["device"])
        if dev != "cpu":
            arr = backend.to_device(arr, backend.Device(dev))
        base = self.tensors.get(v["id"])
        if base is not None:
            arr = base._data
        if v["parameter"]:
            t = self.param_cls(self.tensor_cls._make(arr), requires_grad=v["requires_grad"])
        else:
            t = self.tensor_cls._make(arr)
            t._requires_grad = v["requires_grad"]
        self.tensors.setdefault(v["id"], t)
        self.tensors[key] = t
        return t


def _pickled_types(node, out: list) -> None:
    stack = [node]
    while stack:
        v = stack.pop()
        if isinstance(v, list):
            stack.extend(v)
        elif isinstance(v, dict):
            if v.get("$") == "pickle":
                out.append(v["type"])
            for key in ("items", "metadata"):
                if key in v:
                    stack.append(v[key])


def load(f, map_location=None, *, weights_only=None, tensor_cls=None, param_cls=None):
    """Read what `save` wrote. Pickled entries load only with `weights_only=False`."""
    if tensor_cls is None:
        tensor_cls = Tensor
    if param_cls is None:
        from .nn.parameter import Parameter as param_cls
    if isinstance(f, (str, os.PathLike)):
        with open(f, "rb") as fh:
            return _load(fh, map_location, weights_only, tensor_cls, param_cls)
    return _load(f, map_location, weights_only, tensor_cls, param_cls)


def _load(fh, map_location, weights_only, tensor_cls, param_cls):
    try:
        zf = zipfile.ZipFile(fh, "r")
    except zipfile.BadZipFile:
        raise tensor_cls.policy.errors.load_not_zip() from None
    with zf:
        if MANIFEST not in zf.namelist():
            raise tensor_cls.policy.errors.load_no_manifest()
        manifest = json.loads(zf.read(MANIFEST))
        if manifest.get("format") != "flowgrad" or manifest.get("version", 0) > FORMAT_VERSION:
            raise tensor_cls.policy.errors.load_format_unsupported(format=manifest.get("format"),
                                          version=manifest.get("version"))
        if weights_only is not False:
            types: list = []
            _pickled_types(manifest["root"], types)
            if types:
                raise tensor_cls.policy.errors.load_weights_only(types=", ".join(sorted(set(types))))
        return _Reader(zf, map_location, weights_only is not False, tensor_cls, param_cls).decode(manifest["root"])
