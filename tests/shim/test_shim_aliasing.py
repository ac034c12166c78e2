"""flowgrad.shim: `import torch` / `paddle` / `oneflow` answered by the facades through one meta-path
finder. Each test runs in a fresh interpreter (aliasing changes the process's import state)."""
from __future__ import annotations

import pytest

from shim_helpers import HAVE_ONEFLOW_FACADE, HAVE_REAL_TORCH, ok, python


def test_install_loads_nothing_until_imported_and_find_spec_tells_the_truth():
    ok("""
        import importlib.util, sys
        from flowgrad import shim
        assert shim.install("torch") == ("torch",)
        spec = importlib.util.find_spec("torch")
        assert spec.name == "torch" and spec.origin.endswith("flowgrad/torch/__init__.py"), spec
        assert spec.submodule_search_locations, "a package"
        assert "flowgrad.torch" not in sys.modules and "torch" not in sys.modules   # lazy
        assert importlib.util.find_spec("torch.nn") is not None                      # loads torch itself
        assert importlib.util.find_spec("torch.utils.data") is not None
        assert importlib.util.find_spec("torch._dynamo") is None                     # flowgrad has none
        assert importlib.util.find_spec("torch.nn.no_such_module") is None
        assert "flowgrad.paddle" not in sys.modules                                  # only what was imported
    """)


def test_the_alias_and_the_facade_are_one_module_object():
    ok("""
        import pickle, sys
        from flowgrad import shim
        shim.install("torch", "paddle")
        import torch
        import torch.nn.functional as F
        from torch import nn
        from torch.utils.data import DataLoader
        import flowgrad.torch
        assert torch is sys.modules["torch"] is sys.modules["flowgrad.torch"] is flowgrad.torch
        assert torch.nn is sys.modules["torch.nn"] is nn is sys.modules["flowgrad.torch.nn"]
        assert F is torch.nn.functional is sys.modules["torch.nn.functional"]
        assert torch.Tensor is flowgrad.torch.Tensor and isinstance(torch.ones(2), flowgrad.torch.Tensor)
        assert DataLoader is flowgrad.torch.utils.data.DataLoader is sys.modules["torch.utils.data"].DataLoader
        import torch as again
        assert again is torch
        loaded = [m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == flowgrad.torch.__file__]
        assert len(set(map(id, loaded))) == 1, "the facade is loaded once"
        import paddle, flowgrad.paddle
        assert paddle is flowgrad.paddle and paddle.nn is sys.modules["paddle.nn"]
        assert paddle.to_tensor([1.0, 2.0]).sum().item() == 3.0
    """)


def test_a_missing_submodule_is_a_module_not_found_error_that_names_flowgrad():
    out = ok("""
        import importlib
        from flowgrad import shim
        shim.install("torch")
        import torch
        for attempt in (lambda: __import__("torch._dynamo"), lambda: importlib.import_module("torch.nn.no_such")):
            try:
                attempt()
            except ModuleNotFoundError as e:
                assert type(e) is shim.FlowgradModuleNotFoundError
                print(e.name, "|", e)
        try:
            import torch.distributed as dist   # the probe libraries write
        except ImportError:
            dist = None
        assert dist is None
    """)
    assert out.splitlines() == [
        "torch._dynamo | No module named 'torch._dynamo': flowgrad's torch facade (flowgrad.torch) does not provide it",
        "torch.nn.no_such | No module named 'torch.nn.no_such': flowgrad's torch facade (flowgrad.torch) does not "
        "provide it"]


def test_a_missing_attribute_is_an_attribute_error_that_names_flowgrad_and_hasattr_probes_work():
    out = ok("""
        from flowgrad import shim
        shim.install("torch")
        import torch
        for get in (lambda: torch.export, lambda: torch.nn.functional.no_such, lambda: torch.utils.no_such):
            try:
                get()
            except AttributeError as e:
                assert type(e) is shim.FlowgradAttributeError
                print(e)
        assert not hasattr(torch, "export") and getattr(torch, "export", None) is None
        assert hasattr(torch, "zeros") and hasattr(torch.nn, "Linear")
    """)
    assert out.splitlines() == [
        "module 'torch' has no attribute 'export': flowgrad's torch facade (flowgrad.torch) does not provide it",
        "module 'torch.nn.functional' has no attribute 'no_such': flowgrad's torch facade "
        "(flowgrad.torch.nn.functional) does not provide it",
        "module 'torch.utils' has no attribute 'no_such': flowgrad's torch facade (flowgrad.torch.utils) does not "
        "provide it"]


def test_version_gates_pass():
    ok("""
        from flowgrad import shim
        shim.install("torch", "paddle")
        import torch, paddle
        assert torch.__version__.split("+")[0] == "2.13.0" and paddle.__version__.split("+")[0] == "3.3.1"
        assert tuple(int(p) for p in torch.__version__.split("+")[0].split(".")[:2]) >= (2, 0)
        try:
            from packaging.version import Version
        except ImportError:
            pass
        else:
            assert Version(torch.__version__) >= Version("2.0") and Version(paddle.__version__) >= Version("2.5")
    """)


def test_what_is_missing_is_recorded_with_its_first_place():
    out = ok("""
        from flowgrad import shim
        shim.install("torch")
        import torch
        hasattr(torch, "export")
        try:
            torch.export
        except AttributeError:
            pass
        try:
            import torch._dynamo
        except ImportError:
            pass
        hasattr(torch.ones(1), "refine_names")          # tensors are only watched when asked
        for m in shim.missing():
            print(m.api, m.kind, m.count, m.first)
    """)
    assert out.splitlines() == ["torch.export attribute 2 <string>:5", "torch._dynamo module 1 <string>:11"]


def test_watch_tensors_records_missing_tensor_attributes_until_uninstall():
    ok("""
        import flowgrad.torch
        from flowgrad import shim
        shim.install("torch", watch_tensors=True)
        import torch
        x = torch.ones(2)
        try:
            x.refine_names("n")
        except AttributeError as e:
            assert type(e) is shim.FlowgradAttributeError and "flowgrad" in str(e)
        assert x.sum().item() == 2.0
        missing = [(m.api, m.kind, m.count) for m in shim.missing()]
        assert missing == [("torch.Tensor.refine_names", "tensor attribute", 1)]
        shim.uninstall()
        assert "__getattr__" not in flowgrad.torch.Tensor.__dict__
        try:
            x.refine_names("n")
        except AttributeError as e:
            assert type(e) is AttributeError
    """)


def test_uninstall_restores_sys_modules_sys_meta_path_and_the_facades():
    ok("""
        import importlib.util, sys, types
        from flowgrad import shim
        meta_path, modules = list(sys.meta_path), set(sys.modules)
        shim.install("torch", "paddle")
        assert sys.meta_path[0] is shim._FINDER and sys.meta_path[1:] == meta_path
        import torch, torch.nn.functional, torch.utils.data, paddle
        import flowgrad.torch
        assert type(flowgrad.torch) is not types.ModuleType     # the flowgrad-naming class while aliased
        shim.uninstall()
        assert sys.meta_path == meta_path and shim.installed() == ()
        added = set(sys.modules) - modules
        assert not {m for m in added if m.partition(".")[0] in ("torch", "paddle", "oneflow")}, added
        assert not {m for m in modules - set(sys.modules)}, "nothing that was there went away"
        assert type(flowgrad.torch) is types.ModuleType
        try:
            flowgrad.torch.export
        except AttributeError as e:
            assert type(e) is AttributeError
        spec = importlib.util.find_spec("torch")
        assert spec is None or not isinstance(spec.loader, shim._Loader)
        assert torch.ones(2).sum().item() == 2.0                 # what was imported keeps working
    """)


def test_enabled_scopes_the_alias_and_removes_only_what_it_added():
    ok("""
        import sys
        from flowgrad import shim
        shim.install("paddle")
        with shim.enabled("torch", "paddle") as added:
            assert added == ("torch",)
            import torch, paddle
            assert torch.__name__ == "flowgrad.torch"
        assert shim.installed() == ("paddle",) and "torch" not in sys.modules and "paddle" in sys.modules
        try:
            with shim.enabled("torch"):
                raise KeyError("boom")
        except KeyError:
            pass
        assert shim.installed() == ("paddle",)
        shim.uninstall()
        assert shim._FINDER not in sys.meta_path
    """)


def test_unknown_and_unavailable_names_are_refused_and_install_nothing():
    out = ok("""
        import sys
        from flowgrad import shim
        meta_path = list(sys.meta_path)
        try:
            shim.install("torch", "jax")
        except ValueError as e:
            print(e)
        assert sys.meta_path == meta_path and shim.installed() == ()
    """)
    assert out.strip() == "unknown framework 'jax': flowgrad's shim aliases torch, oneflow, paddle"


@pytest.mark.skipif(HAVE_ONEFLOW_FACADE, reason="flowgrad.oneflow exists: the unavailable-facade error cannot occur")
def test_installing_oneflow_without_its_facade_is_a_clear_error():
    out = ok("""
        import sys
        from flowgrad import shim
        meta_path = list(sys.meta_path)
        try:
            shim.install("torch", "oneflow")
        except ModuleNotFoundError as e:
            assert type(e) is shim.FacadeUnavailableError
            print(e)
        assert sys.meta_path == meta_path and shim.installed() == ()
        assert not shim.available("oneflow") and shim.available("torch")
    """)
    assert out.strip() == ("cannot alias 'oneflow': flowgrad's oneflow facade (flowgrad.oneflow) is not available in "
                           "this flowgrad")


def test_oneflow_aliases_to_its_facade():
    pytest.importorskip("flowgrad.oneflow", reason="flowgrad.oneflow is not part of this flowgrad yet")
    ok("""
        import sys, importlib.util
        from flowgrad import shim
        shim.install("oneflow")
        import oneflow as flow
        import oneflow.nn
        import flowgrad.oneflow
        assert flow is flowgrad.oneflow is sys.modules["oneflow"]
        assert flow.nn is sys.modules["oneflow.nn"] and flow.Tensor is flowgrad.oneflow.Tensor
        assert importlib.util.find_spec("oneflow.no_such_module") is None
        try:
            flow.no_such_api
        except AttributeError as e:
            assert type(e) is shim.FlowgradAttributeError
        shim.uninstall()
        assert not [k for k in sys.modules if k.partition(".")[0] == "oneflow"]
    """)


@pytest.mark.skipif(not HAVE_REAL_TORCH, reason="real torch is not installed")
def test_installing_over_an_imported_real_torch_is_refused():
    out = ok("""
        import sys
        import torch
        real = torch
        from flowgrad import shim
        meta_path = list(sys.meta_path)
        try:
            shim.install("torch")
        except shim.ShimError as e:
            print(e)
        assert sys.modules["torch"] is real and sys.meta_path == meta_path and shim.installed() == ()
        shim.install("paddle")                      # another name is fine
        assert shim.installed() == ("paddle",)
    """)
    assert out.startswith("cannot alias 'torch' to flowgrad.torch: the real torch is already imported (torch from ")
    assert "never mixes it with its facade" in out and "FLOWGRAD_SHIM=0" in out


def test_flowgrad_shim_0_turns_aliasing_off():
    ok("""
        import importlib.util, sys
        from flowgrad import shim
        assert shim.disabled()
        assert shim.install("torch") == () and shim.install() == ()
        assert shim._FINDER not in sys.meta_path
        with shim.enabled("paddle") as added:
            assert added == ()
        spec = importlib.util.find_spec("torch")
        assert spec is None or "flowgrad" not in (spec.origin or "")
    """, FLOWGRAD_SHIM="0")


def test_pickles_made_under_the_alias_load_without_it(tmp_path):
    ok(f"""
        import pickle
        from flowgrad import shim
        shim.install("torch")
        import torch
        layer = torch.nn.Linear(2, 1)
        with open({str(tmp_path / "saved.pkl")!r}, "wb") as f:
            pickle.dump((torch.tensor([1.0, 2.0]), layer.state_dict()), f)
        assert type(torch.ones(1)).__module__.startswith("flowgrad.torch")
    """)
    ok(f"""
        import pickle, sys
        with open({str(tmp_path / "saved.pkl")!r}, "rb") as f:
            t, state = pickle.load(f)
        import flowgrad.torch
        assert type(t) is flowgrad.torch.Tensor and t.tolist() == [1.0, 2.0] and "weight" in state
        assert "torch" not in sys.modules
    """)


def test_a_probe_for_a_missing_submodule_inside_the_import_system_is_an_import_error():
    res = python("""
        from flowgrad import shim
        shim.install("torch")
        import torch._dynamo
    """)
    assert res.returncode == 1
    assert res.stderr.splitlines()[-1] == ("flowgrad.shim.FlowgradModuleNotFoundError: No module named "
                                           "'torch._dynamo': flowgrad's torch facade (flowgrad.torch) does not "
                                           "provide it")
