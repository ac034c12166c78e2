"""flowgrad port flags the autograd behaviour that differs between the frameworks, derived from the
facades' policies, instead of translating it silently."""
from __future__ import annotations

import pytest

from .conftest import NEEDS_LIBCST

pytest.importorskip("libcst", reason=NEEDS_LIBCST)

from flowgrad.port import semantics  # noqa: E402
from flowgrad.port.translate import COMMENT, port_source  # noqa: E402

PLANTED = '''import paddle

x = paddle.to_tensor([1.0, 2.0, 3.0], stop_gradient=False)
y = x * 2
y.backward()
z = (x * x).sum()
(gx,) = paddle.grad(z, x)
z.backward()
for step in range(3):
    loss = (x * x).sum()
    loss.backward()
print(x.grad)
'''


def _flags(code, source, target):
    return [(line, kind) for line, kind, _ in semantics.find(code, source, target)]


def test_planted_script_is_flagged():
    flagged = _flags(PLANTED, "paddle", "torch")
    assert [f for f in flagged if f[0] != 7] == [(5, "nonscalar_backward"), (8, "retain_graph"), (9, "grad_accumulates")]
    # paddle.grad itself: the policy rows where paddle's grad() differs
    assert [k for line, k in flagged if line == 7] == ["grad_results_follow_create_graph", "grad_returns_list",
                                                       "grad_unreached_inputs_unused"]


def test_flags_are_comments_above_the_line():
    code, out = port_source(PLANTED, "paddle", "torch")
    lines = code.splitlines()
    i = lines.index("y.backward()")
    assert lines[i - 1].startswith(COMMENT + "backward() without a gradient on an output that may not be a scalar: "
                                             "paddle seeds ones for an output of any shape, torch raises")
    j = lines.index("z.backward()")
    assert lines[j - 1] == (COMMENT + "a second pass through this graph with no retain_graph=True on the first: "
                                      "paddle may keep the graph where torch frees it (paddle: grad() never frees the "
                                      "graph); pass retain_graph=True to the first")
    assert len(out.flags) == 6


def test_nonscalar_backward_is_flagged_only_where_the_policies_differ():
    code = "import torch\ny = x * 2\ny.backward()\n"
    assert (3, "nonscalar_backward") in _flags(code, "torch", "paddle")
    # OneFlow's policy raises for a non-scalar output, as torch does: nothing to flag
    assert (3, "nonscalar_backward") not in _flags(code, "torch", "oneflow")


def test_retain_graph_given_or_graph_rebuilt_or_freed_alike_is_not_flagged():
    retained = "import paddle\nz = x.sum()\npaddle.grad(z, x, retain_graph=True)\nz.backward()\n"
    rebuilt = "import paddle\nz = x.sum()\npaddle.grad(z, x)\nz = x.sum()\nz.backward()\n"
    twice = "import paddle\nz = x.sum()\nz.backward()\nz.backward()\n"   # paddle frees it too: both raise
    for code in (retained, rebuilt, twice):
        assert [k for _, k in _flags(code, "paddle", "torch") if k == "retain_graph"] == []


def test_a_graph_torch_runs_again_is_flagged_where_the_target_frees_it():
    """PyTorch runs a graph again where its nodes saved no tensor ((x + 1).sum()); paddle frees
    every node it ran, OneFlow's kernels save tensors where PyTorch's do not."""
    code = "import torch\nz = (x + 1).sum()\nz.backward()\nz.backward()\n"
    assert (4, "retain_graph") in _flags(code, "torch", "paddle")
    assert (4, "retain_graph") in _flags(code, "torch", "oneflow")
    assert (4, "retain_graph") not in _flags(code.replace("torch", "oneflow"), "oneflow", "torch")


def test_zeroing_in_the_loop_is_not_flagged():
    for zero in ("opt.clear_grad()", "x.grad = None", "model.zero_grad()"):
        code = f"import torch\nfor i in range(2):\n    {zero}\n    x.sum().backward()\n"
        assert _flags(code, "torch", "paddle") == []


def test_other_policy_rows_name_their_field():
    code = "import paddle\ng = paddle.grad(y, x)\nh = x.register_hook(f)\n"
    flagged = _flags(code, "paddle", "torch")
    assert (2, "grad_returns_list") in flagged and (3, "hooks_keep_caller_grad_mode") in flagged
    why = dict(((l, k), w) for l, k, w in semantics.find(code, "paddle", "torch"))[(2, "grad_returns_list")]
    assert why == "grad_returns_list (grad() returns a list): True in paddle, False in torch"


def test_field_notes_come_from_the_policy_class():
    notes = semantics.field_notes()
    assert notes["implicit_seed_any_shape"] == "paddle: ones for any output shape"
    assert set(semantics.TRIGGERS) <= set(notes)


SHAPED_INIT = '''import torch
import numpy as np
net = torch.nn.Linear(3, 2)
rng = np.random.default_rng(0)
with torch.no_grad():
    for name, p in net.named_parameters():
        fan_in = p.shape[-1]
        p.copy_(torch.tensor(rng.normal(0, 1, tuple(p.shape))))
        p.mul_(2)
    for q in extra:
        q.copy_(torch.tensor(rng.normal(0, 1, tuple(q.shape))))
'''


def test_values_drawn_by_a_parameters_shape_are_flagged_between_paddle_and_the_others():
    """paddle's Linear weight is [in, out]: the same numbers drawn by shape land transposed."""
    assert [f for f in _flags(SHAPED_INIT, "torch", "paddle") if f[1] == "transposed_init"] == \
        [(7, "transposed_init"), (8, "transposed_init")]
    code, _ = port_source(SHAPED_INIT, "torch", "paddle")
    assert f"{COMMENT}values made from a parameter's shape: paddle's Linear keeps its weight as [in, out], " \
           "torch's as [out, in]" in code
    assert not [f for f in _flags(SHAPED_INIT, "torch", "oneflow") if f[1] == "transposed_init"]
    back = SHAPED_INIT.replace("torch.no_grad", "paddle.no_grad").replace("import torch", "import paddle")
    assert [line for line, kind in _flags(back, "paddle", "torch") if kind == "transposed_init"] == [7, 8]
    loaded = "import torch\nweights = {}\nfor name, p in net.state_dict().items():\n" \
             "    weights[name] = torch.tensor(rng.normal(0, 1, tuple(p.shape)))\nnet.load_state_dict(weights)\n"
    assert [f for f in _flags(loaded, "torch", "paddle") if f[1] == "transposed_init"] == [(4, "transposed_init")]


def test_pad_lists_are_flagged_between_paddle_and_the_others():
    """paddle reads a pad list of two numbers per input dimension from the first dimension, torch
    from the last; NumPy's pad is not the framework's."""
    code = "import torch\nimport numpy as np\ny = torch.nn.functional.pad(x, [1, 2, 3, 4])\nz = np.pad(a, 1)\n" \
        "w = torch.nn.functional.pad(x, pad=(1, 1))\n"
    assert [f for f in _flags(code, "torch", "paddle") if f[1] == "pad_order"] == [(3, "pad_order"), (5, "pad_order")]
    assert not [f for f in _flags(code, "torch", "oneflow") if f[1] == "pad_order"]


@pytest.mark.parametrize("call, flagged", [
    ("torch.nn.CrossEntropyLoss()", True),
    ("torch.nn.CrossEntropyLoss(ignore_index=-1)", True),
    ("torch.nn.functional.cross_entropy(x, y)", True),
    ("torch.nn.CrossEntropyLoss(reduction='mean')", True),
    ("torch.nn.CrossEntropyLoss(ignore_index=0)", False),          # paddle then divides by the labels kept
    ("torch.nn.CrossEntropyLoss(w)", False),                       # a weight: both divide by the kept weights
    ("torch.nn.functional.cross_entropy(x, y, w)", False),
    ("torch.nn.CrossEntropyLoss(reduction='sum')", False),
    ("torch.nn.CrossEntropyLoss(label_smoothing=0.1)", False),
])
def test_mean_cross_entropy_over_ignored_labels_is_flagged(call, flagged):
    code = f"import torch\nloss = {call}\n"
    assert (_flags(code, "torch", "paddle") == [(2, "ignored_label_mean")]) is flagged
    assert _flags(code, "torch", "oneflow") == []


def test_ignored_labels_mean_differs_as_flagged():
    """The difference the flag names, on the two facades: labels equal to -100 count in paddle's mean."""
    import numpy as np
    import flowgrad.paddle as paddle
    import flowgrad.torch as torch
    logits, labels = np.arange(12.0).reshape(4, 3) / 7, np.array([0, -100, 2, -100])
    t = torch.nn.functional.cross_entropy(torch.tensor(logits), torch.tensor(labels))
    p = paddle.nn.functional.cross_entropy(paddle.to_tensor(logits), paddle.to_tensor(labels))
    assert float(p) == pytest.approx(float(t) * 2 / 4)


def test_attention_keywords_paddle_lacks_are_flagged():
    code = ("import torch\nout = enc(h, mask=m, src_key_padding_mask=pad, is_causal=True)\n"
            "_, w = attn(h, h, h, need_weights=True, average_attn_weights=False)\n")
    ported, out = port_source(code, "torch", "paddle")
    assert [(line, kind) for line, kind, _ in out.flags] == [(2, "attention_keywords"), (3, "attention_keywords")]
    assert f"{COMMENT}is_causal, src_key_padding_mask: torch's attention keywords" in ported
    assert _flags(code, "torch", "oneflow") == []
