"""What port needs that the facades' code cannot tell it: each row names one thing in every
framework (None: the framework has no counterpart). Everything else is derived (see naming.py)."""
from __future__ import annotations

FRAMEWORKS = ("torch", "paddle", "oneflow")

#: The namespaces of a facade that scripts reach, searched for an API's counterpart.
NAMESPACES: dict[str, tuple[str, ...]] = {
    "torch": ("", "nn", "nn.functional", "optim", "optim.lr_scheduler", "autograd", "utils.data", "linalg"),
    "oneflow": ("", "nn", "nn.functional", "optim", "optim.lr_scheduler", "autograd", "utils.data"),
    "paddle": ("", "nn", "nn.functional", "optimizer", "optimizer.lr", "autograd", "io", "linalg"),
}

#: Submodules under another name (longest first when matching).
MODULES: tuple[dict[str, str | None], ...] = (
    {"torch": "optim.lr_scheduler", "oneflow": "optim.lr_scheduler", "paddle": "optimizer.lr"},
    {"torch": "optim", "oneflow": "optim", "paddle": "optimizer"},
    {"torch": "utils.data", "oneflow": "utils.data", "paddle": "io"},
)

#: Names whose code reaches no shared core callable (or reaches one under another role).
NAMES: tuple[dict[str, str | None], ...] = (
    {"torch": "nn.Module", "oneflow": "nn.Module", "paddle": "nn.Layer"},
    {"torch": "autograd.Function", "oneflow": "autograd.Function", "paddle": "autograd.PyLayer"},
    {"torch": "manual_seed", "oneflow": "manual_seed", "paddle": "seed"},
    {"torch": "equal", "oneflow": "equal", "paddle": "equal_all"},   # paddle's `equal` compares elementwise
    {"torch": "nn.ModuleList", "oneflow": "nn.ModuleList", "paddle": "nn.LayerList"},
    {"torch": "nn.ModuleDict", "oneflow": "nn.ModuleDict", "paddle": "nn.LayerDict"},
)

#: Keyword arguments under another name, per framework (name, polarity): a value is negated
#: where the polarities differ (`requires_grad=True` is `stop_gradient=False`).
KEYWORDS: tuple[dict[str, tuple[str, bool]], ...] = (
    {"torch": ("requires_grad", True), "oneflow": ("requires_grad", True), "paddle": ("stop_gradient", False)},
    {"torch": ("bias", True), "oneflow": ("bias", True), "paddle": ("bias_attr", True)},   # a layer's bias=False
    {"torch": ("set_to_none", True), "oneflow": ("set_to_none", True), "paddle": ("set_to_zero", False)},
    {"torch": ("batch_first", True), "oneflow": ("batch_first", True), "paddle": ("time_major", False)},
    {"torch": ("norm_first", True), "oneflow": ("norm_first", True), "paddle": ("normalize_before", True)},
)

#: Layers a framework builds in one layout only, with no argument for it: (the other frameworks'
#: argument, the value that layout is). The port drops the argument where it says so, adds it going
#: the other way, and leaves the call flagged where the source takes the other layout.
LAYOUT_ONLY: dict[str, dict[str, tuple[str, object]]] = {
    "paddle": {"nn.TransformerEncoderLayer": ("batch_first", True), "nn.MultiHeadAttention": ("batch_first", True),
               "nn.TransformerEncoder": ("enable_nested_tensor", False)},   # paddle's stack runs padded tensors
}

#: Layers whose parameters the frameworks lay out differently in a known, exact way, outermost first:
#: per framework the layer's class and, for each parameter in PyTorch's layout, the layer's own
#: parameters it is made of (joined along the first axis) and whether each is kept transposed
#: (paddle's Linear weights are `[in, out]`). `--verify` compares gradients in PyTorch's layout
#: (layouts.in_torch_layout); a script copying weights across applies the same mapping.
_LINEAR = {"weight": (("weight",), False), "bias": (("bias",), False)}
_LINEAR_T = {"weight": (("weight",), True), "bias": (("bias",), False)}
_ATTENTION = {"in_proj_weight": (("in_proj_weight",), False), "in_proj_bias": (("in_proj_bias",), False),
              "out_proj.weight": (("out_proj.weight",), False), "out_proj.bias": (("out_proj.bias",), False)}
PARAMETER_LAYOUTS: tuple[dict[str, tuple[str, dict[str, tuple[tuple[str, ...], bool]]]], ...] = (
    {"torch": ("nn.MultiheadAttention", _ATTENTION), "oneflow": ("nn.MultiheadAttention", _ATTENTION),
     "paddle": ("nn.MultiHeadAttention", {
         "in_proj_weight": (("q_proj.weight", "k_proj.weight", "v_proj.weight"), True),
         "in_proj_bias": (("q_proj.bias", "k_proj.bias", "v_proj.bias"), False),
         "out_proj.weight": (("out_proj.weight",), True), "out_proj.bias": (("out_proj.bias",), False)})},
    {"torch": ("nn.Linear", _LINEAR), "oneflow": ("nn.Linear", _LINEAR), "paddle": ("nn.Linear", _LINEAR_T)},
)

#: Methods of framework objects (not tensors) under another name: (class role, names).
METHODS: tuple[tuple[str, dict[str, str | None]], ...] = (
    ("optimizer", {"torch": "zero_grad", "oneflow": "zero_grad", "paddle": "clear_grad"}),
    ("module", {"torch": "zero_grad", "oneflow": "zero_grad", "paddle": "clear_gradients"}),
    ("module", {"torch": "load_state_dict", "oneflow": "load_state_dict", "paddle": "set_state_dict"}),
    ("optimizer", {"torch": "load_state_dict", "oneflow": "load_state_dict", "paddle": "set_state_dict"}),
    ("scheduler", {"torch": "load_state_dict", "oneflow": "load_state_dict", "paddle": "set_state_dict"}),
    ("function_ctx", {"torch": "saved_tensors", "oneflow": "saved_tensors", "paddle": "saved_tensor()"}),
    ("optimizer", {"torch": "state", "oneflow": "state", "paddle": None}),     # an attribute: paddle has none
)

#: Learning-rate schedulers: PyTorch's and OneFlow's take the optimizer and rewrite its rate, paddle's
#: is a schedule the optimizer reads as its `learning_rate`. The port builds paddle's from the
#: optimizer's rate (`Sched(opt.get_lr(), ...)`) and hands it over (`opt.set_lr_scheduler(sched)`);
#: the other arguments keep their place, keywords renamed by SCHEDULER_KEYWORDS.
SCHEDULERS: tuple[dict[str, str], ...] = tuple(
    {"torch": f"optim.lr_scheduler.{a}", "oneflow": f"optim.lr_scheduler.{a}", "paddle": f"optimizer.lr.{b}"}
    for a, b in (("StepLR", "StepDecay"), ("MultiStepLR", "MultiStepDecay"), ("ExponentialLR", "ExponentialDecay"),
                 ("CosineAnnealingLR", "CosineAnnealingDecay"), ("LambdaLR", "LambdaDecay"),
                 ("ReduceLROnPlateau", "ReduceOnPlateau")))
SCHEDULER_KEYWORDS: dict[str, str] = {"eps": "epsilon"}

#: Which class roles an API path of a framework belongs to (a subclass of these).
ROLES: dict[str, dict[str, str]] = {
    "optimizer": {"torch": "optim.Optimizer", "oneflow": "optim.Optimizer", "paddle": "optimizer.Optimizer"},
    "module": {"torch": "nn.Module", "oneflow": "nn.Module", "paddle": "nn.Layer"},
    "scheduler": {"torch": "optim.lr_scheduler.LRScheduler", "oneflow": "optim.lr_scheduler.LRScheduler",
                  "paddle": "optimizer.lr.LRScheduler"},
}

#: Tensor methods with no counterpart of the same shape, written as the target's idiom
#: (source, target, method) -> expression ({receiver}, {root}: the target module's name, {args}).
IDIOMS: dict[tuple[str, str, str], str] = {
    ("paddle", "torch", "set_value"): "{receiver}.data.copy_({root}.as_tensor({args}))",
    ("paddle", "oneflow", "set_value"): "{receiver}.data.copy_({root}.as_tensor({args}))",
    ("paddle", "torch", "astype"): "{receiver}.to({args})",
    ("paddle", "oneflow", "astype"): "{receiver}.to({args})",
    ("torch", "paddle", "<scheduler>.get_last_lr"): "[{receiver}.last_lr]",
    ("oneflow", "paddle", "<scheduler>.get_last_lr"): "[{receiver}.last_lr]",
    ("torch", "paddle", "numel"): "{receiver}.size",        # paddle's numel() is a Tensor, its size the int
    ("oneflow", "paddle", "numel"): "{receiver}.size",
    **{("torch", "paddle", method): f'{{receiver}}.astype("{dtype}")' for method, dtype in (
        ("float", "float32"), ("double", "float64"), ("half", "float16"), ("long", "int64"), ("int", "int32"),
        ("bool", "bool"))},
}

#: flowgrad's own calls that name a framework in a string (`shim.install("torch")`).
SHIM_CALLS = frozenset({"install", "enabled", "uninstall"})


def renamed(rows, source: str, target: str, name: str) -> str | None:
    """The target's name in the first row naming `name` for the source; `name` when no row does."""
    for row in rows:
        if row.get(source) == name:
            return row.get(target)
    return name
