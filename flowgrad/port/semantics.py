"""Autograd behaviour that differs between the two frameworks of a port, found in the script and
flagged, never silently translated. The differences are the fields of the facades' policies
(flowgrad/autograd/policy.py) that differ; each field's comment there says how, and TRIGGERS says
which uses of the API it concerns."""
from __future__ import annotations

import ast
import functools
import inspect
import io
import tokenize

from .. import shim
from ..autograd import policy as policy_module
from ..messages.port import text
from .naming import facade

#: Policy field -> the calls (method or function names) and attributes whose behaviour it changes.
TRIGGERS: dict[str, frozenset[str]] = {
    "retained_grad_accumulates": frozenset({"retain_grad"}),
    "leaf_hooks_in_grad": frozenset({"register_hook"}),
    "hooks_keep_caller_grad_mode": frozenset({"register_hook"}),
    "grad_unreached_inputs_unused": frozenset({"grad"}),
    "grad_results_follow_create_graph": frozenset({"grad"}),
    "grad_returns_list": frozenset({"grad"}),
    "allow_duplicate_roots": frozenset({"autograd.backward"}),
    "skip_nonrequiring_roots": frozenset({"autograd.backward"}),
    "seed_count_exact": frozenset({"autograd.backward"}),
    "negative_indices_wrap": frozenset({"gather", "index_select"}),
    "ints_cast_to_float": frozenset({"std", "var", "softmax"}),
    "arange_wrong_sign_empty": frozenset({"arange"}),
    "sign_keeps_nan": frozenset({"sign"}),
    "detach_views_inplace": frozenset({"detach_"}),
    "function_strict_types": frozenset({"apply"}),
    "function_none_grad_error": frozenset({"apply"}),
    "function_nondiff_grad_none": frozenset({"apply"}),
    "leaf_grad_fn_is_accumulator": frozenset({".grad_fn"}),
    "compact_next_functions": frozenset({".next_functions"}),
    "mixed_kind_promotion": frozenset({"pow"}),      # `x.pow(int_tensor)`; operators are not followed
}
#: Calls that make a tensor from their values, and the dtypes that make it an integer tensor.
_TENSOR_FROM_VALUES = frozenset({"tensor", "as_tensor", "to_tensor", "arange", "LongTensor"})
_INTEGER_DTYPES = frozenset({"int64", "long", "int32", "int", "int16", "int8", "uint8"})
_ZEROING = frozenset({"zero_grad", "clear_grad", "clear_gradients", "clear_gradient", "zero_"})
_REDUCTIONS = frozenset({"sum", "mean", "item", "norm", "dot", "max", "min", "prod", "amax", "amin", "logsumexp",
                         "nansum", "nanmean", "std", "var", "trace", "det"})


#: Keywords of torch's and OneFlow's attention layers (forward) that paddle's forward has not.
_ATTENTION_KEYWORDS = frozenset({"src_key_padding_mask", "key_padding_mask", "tgt_key_padding_mask",
                                 "memory_key_padding_mask", "is_causal", "need_weights", "average_attn_weights"})
#: Cross entropy's class and function -> how many positional arguments come before `weight`.
_MEAN_CROSS_ENTROPY = {"CrossEntropyLoss": 0, "cross_entropy": 2}


@functools.lru_cache(maxsize=None)
def field_notes() -> dict[str, str]:
    """Policy field -> the comment beside it in the Policy class (how a facade differs)."""
    src = inspect.getsource(policy_module.Policy)
    notes: dict[str, str] = {}
    last = current = None
    for tok in tokenize.generate_tokens(io.StringIO(src).readline):
        if tok.type == tokenize.NAME and tok.start[1] == 4 and current is None:
            current = tok.string
        elif tok.type == tokenize.COMMENT and current is not None:
            notes[current] = tok.string.lstrip("# ").strip()
            last = current
        elif tok.type == tokenize.COMMENT and last is not None and tok.start[1] > 4:
            notes[last] += " " + tok.string.lstrip("# ").strip()     # the comment goes on
        elif tok.type == tokenize.NAME and tok.start[1] == 4:
            last = None
        if tok.type == tokenize.NEWLINE:
            current = None
    return notes


def differing(source: str, target: str) -> set[str]:
    a, b = facade(source).module.Tensor.policy, facade(target).module.Tensor.policy
    return {f for f in field_notes() if getattr(a, f, None) != getattr(b, f, None)}


def _call_name(call: ast.Call) -> str:
    f = call.func
    if isinstance(f, ast.Attribute):
        head = f.value.attr if isinstance(f.value, ast.Attribute) else getattr(f.value, "id", "")
        return f"{head}.{f.attr}" if head == "autograd" else f.attr
    return f.id if isinstance(f, ast.Name) else ""


def _kw_true(call: ast.Call, name: str) -> bool:
    return any(k.arg == name and not (isinstance(k.value, ast.Constant) and not k.value.value) for k in call.keywords)


def _scopes(tree: ast.Module):
    yield tree.body
    for n in ast.walk(tree):
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield n.body


def _walk_scope(body: list[ast.stmt]):
    """The nodes of a body, not entering nested functions or classes, with their statement."""
    for stmt in body:
        stack = [stmt]
        while stack:
            node = stack.pop()
            yield stmt, node
            for child in reversed(list(ast.iter_child_nodes(node))):
                if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                    stack.append(child)


def _statement_of(body: list[ast.stmt], target: ast.AST) -> ast.stmt:
    """The innermost statement holding `target`."""
    best = None
    for stmt in ast.walk(ast.Module(body=body, type_ignores=[])):
        if isinstance(stmt, ast.stmt) and any(n is target for n in ast.walk(stmt)):
            best = stmt
    return best


def find(code: str, source: str, target: str) -> list[tuple[int, str, str]]:
    """(line, kind, why) for each use whose autograd behaviour differs between the frameworks."""
    tree = ast.parse(code)
    fields = differing(source, target)
    flags: list[tuple[int, str, str]] = []
    src_pol, dst_pol = facade(source).module.Tensor.policy, facade(target).module.Tensor.policy
    scalars = _scalar_names(tree)
    foreign = _foreign_modules(tree, source)
    integer_names = integer_tensors(tree, source)
    for body in _scopes(tree):
        seen_backward: dict[str, str] = {}     # graph root -> the first pass's kind, or "retained"
        for stmt, node in _walk_scope(body):
            if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                for t in targets:      # a new graph under that name
                    seen_backward.pop(ast.unparse(t), None)
            if isinstance(node, ast.Call):
                name = _call_name(node)
                line = _statement_of(body, node).lineno
                if name == "backward" and isinstance(node.func, ast.Attribute):
                    recv = ast.unparse(node.func.value)
                    if "implicit_seed_any_shape" in fields and not node.args and not _kw_true(node, "gradient") \
                            and not _kw_true(node, "grad_tensor") and not _is_scalar(node.func.value, scalars):
                        flags.append((line, "nonscalar_backward", text(
                            "flag_nonscalar_backward", source=source, target=target,
                            source_does=_seeding(src_pol), target_does=_seeding(dst_pol))))
                    _second_pass(recv, node, line, seen_backward, flags, source, target)
                elif name == "autograd.backward" and "implicit_seed_any_shape" in fields and node.args and \
                        len(node.args) < 2 and not any(k.arg == "grad_tensors" for k in node.keywords) and \
                        not all(_is_scalar(e, scalars) for e in getattr(node.args[0], "elts", [node.args[0]])):
                    flags.append((line, "nonscalar_backward", text(
                        "flag_nonscalar_backward", source=source, target=target,
                        source_does=_seeding(src_pol), target_does=_seeding(dst_pol))))
                elif name in ("grad", "autograd.grad") and node.args:
                    recv = ast.unparse(node.args[0])
                    _second_pass(recv, node, line, seen_backward, flags, source, target)
                if _root(node.func) in foreign:
                    continue      # np.arange, math.*: not the framework's
                if name == "pad" and isinstance(node.func, ast.Attribute) and \
                        (len(node.args) >= 2 or any(k.arg == "pad" for k in node.keywords)) and \
                        (source == "paddle") != (target == "paddle"):
                    flags.append((line, "pad_order", text("flag_pad_order", paddle="paddle",
                                                          other=target if source == "paddle" else source)))
                attention = sorted(k.arg for k in node.keywords if k.arg in _ATTENTION_KEYWORDS)
                if attention and (source == "paddle") != (target == "paddle"):
                    flags.append((line, "attention_keywords", text(
                        "flag_attention_keywords", paddle="paddle", other=target if source == "paddle" else source,
                        names=", ".join(attention))))
                if name in _MEAN_CROSS_ENTROPY and (source == "paddle") != (target == "paddle") and \
                        _mean_over_negative_ignore(node, _MEAN_CROSS_ENTROPY[name]):
                    flags.append((line, "ignored_label_mean", text("flag_ignored_label_mean", paddle="paddle",
                                                                   other=target if source == "paddle" else source)))
                if name == "pow" and node.args and isinstance(node.args[-1], ast.Constant):
                    continue      # a Python number promotes alike everywhere
                if name == "pow" and casts_integer_exponent(source, target) and \
                        isinstance(node.args[-1], ast.Name) and node.args[-1].id in integer_names:
                    continue      # the port casts the exponent to the base's dtype
                for f in sorted(fields):
                    if name in TRIGGERS.get(f, ()) or (name.endswith(".backward") and
                                                       "autograd.backward" in TRIGGERS.get(f, ())):
                        flags.append((line, f, _policy_flag(f, source, target)))
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                for f in sorted(fields):
                    if "." + node.attr in TRIGGERS.get(f, ()):
                        line = _statement_of(body, node).lineno
                        flags.append((line, f, _policy_flag(f, source, target)))
        for stmt, node in _walk_scope(body):
            if isinstance(node, (ast.For, ast.While)) and _accumulates(node):
                flags.append((node.lineno, "grad_accumulates", text("flag_grad_accumulates")))
            if isinstance(node, ast.For) and (source == "paddle") != (target == "paddle"):
                flags += [(line, "transposed_init", text("flag_transposed_init", paddle="paddle",
                                                         other=target if source == "paddle" else source))
                          for line in _shaped_by_parameter(node)]
    return sorted(set(flags))


def _mean_over_negative_ignore(call: ast.Call, before_weight: int) -> bool:
    """Whether a cross entropy call takes the unweighted mean of hard labels with a negative
    ignore_index (the default -100): paddle then divides by every label, ignored ones included, where
    torch and OneFlow divide by the labels kept (a weight, a non-negative ignore_index, another
    reduction, soft labels or label smoothing: the same in both)."""
    if len(call.args) > before_weight:
        return False
    given = {k.arg: k.value for k in call.keywords if k.arg is not None}
    if "weight" in given or given.get("soft_label") is not None or any(k.arg is None for k in call.keywords):
        return False
    reduction, ignore, smoothing = given.get("reduction"), given.get("ignore_index"), given.get("label_smoothing")
    return (reduction is None or isinstance(reduction, ast.Constant) and reduction.value == "mean") and \
        (ignore is None or isinstance(ignore, ast.UnaryOp) and isinstance(ignore.op, ast.USub)) and \
        (smoothing is None or isinstance(smoothing, ast.Constant) and smoothing.value == 0)


def casts_integer_exponent(source: str, target: str) -> bool:
    """Whether the target refuses a float tensor raised to an integer tensor's power that the source
    promotes (paddle's `mixed_kind_promotion`): the port then casts such an exponent to the base's
    dtype, which is the source's result dtype for a float base and changes nothing for an integer one."""
    return facade(source).module.Tensor.policy.mixed_kind_promotion and \
        not facade(target).module.Tensor.policy.mixed_kind_promotion


def integer_tensors(tree: ast.Module, framework: str) -> set[str]:
    """Names whose every assignment makes an integer tensor from literal values: `torch.tensor([1, 2])`,
    `torch.arange(3)`, or any such call with an integer dtype."""
    verdict: dict[str, bool] = {}
    foreign = _foreign_modules(tree, framework)
    for n in ast.walk(tree):
        for t in (n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
                n, (ast.AugAssign, ast.AnnAssign, ast.For)) else []):
            for name in (e for e in ast.walk(t) if isinstance(e, ast.Name)):
                verdict[name.id] = verdict.get(name.id, True) and isinstance(n, ast.Assign) and \
                    t is name and _integer_tensor(n.value, foreign)
    return {k for k, v in verdict.items() if v}


def _integer_tensor(expr: ast.expr, foreign: set[str]) -> bool:
    if not (isinstance(expr, ast.Call) and isinstance(expr.func, ast.Attribute) and
            expr.func.attr in _TENSOR_FROM_VALUES and _root(expr.func) not in foreign):
        return False
    dtype = next((k.value for k in expr.keywords if k.arg == "dtype"), None)
    if dtype is not None:
        return (dtype.attr if isinstance(dtype, ast.Attribute) else getattr(dtype, "value", None)) in _INTEGER_DTYPES
    if expr.func.attr == "LongTensor":
        return True
    if not expr.args or any(k.arg != "device" for k in expr.keywords):
        return False
    try:
        values = [ast.literal_eval(a) for a in (expr.args if expr.func.attr == "arange" else expr.args[:1])]
    except ValueError:
        return False
    return _all_ints(values)


def _all_ints(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_all_ints(v) for v in value)
    return isinstance(value, int) and not isinstance(value, bool)


def _shaped_by_parameter(loop: ast.For) -> list[int]:
    """The lines of a loop over `m.parameters()` / `m.named_parameters()` / `m.state_dict().items()`
    that read a parameter's shape (values drawn by shape: a Linear weight's layout differs between
    paddle and the others)."""
    it = loop.iter
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and (
            it.func.attr in ("parameters", "named_parameters") or it.func.attr == "items" and
            isinstance(it.func.value, ast.Call) and isinstance(it.func.value.func, ast.Attribute) and
            it.func.value.func.attr == "state_dict")):
        return []
    target = loop.target.elts[-1] if isinstance(loop.target, ast.Tuple) and loop.target.elts else loop.target
    if not isinstance(target, ast.Name):
        return []
    return sorted({stmt.lineno for stmt, node in _walk_scope(loop.body) if isinstance(node, ast.Attribute)
                   and node.attr == "shape" and isinstance(node.value, ast.Name) and node.value.id == target.id})


def _root(expr: ast.expr) -> str | None:
    while isinstance(expr, ast.Attribute):
        expr = expr.value
    return expr.id if isinstance(expr, ast.Name) else None


def _foreign_modules(tree: ast.Module, framework: str) -> set[str]:
    """Names bound by imports of modules other than the framework (numpy as np, math, ...)."""
    names = set()
    for n in ast.walk(tree):
        if isinstance(n, ast.Import):
            names |= {a.asname or a.name.split(".")[0] for a in n.names if a.name.split(".")[0] != framework}
        elif isinstance(n, ast.ImportFrom) and (n.module or "").split(".")[0] != framework:
            names |= {a.asname or a.name for a in n.names}
    return names


def _policy_flag(field: str, source: str, target: str) -> str:
    """`field (what it means): value in source, value in target`; the note without the name of the
    framework it was written for (paddle's and OneFlow's policies share some fields)."""
    value = {fw: getattr(facade(fw).module.Tensor.policy, field) for fw in (source, target)}
    return text("flag_policy", field=field, why=_note(field), source=source, target=target,
                source_value=value[source], target_value=value[target])


def _note(field: str) -> str:
    """The field's note without the framework it was written for (paddle's and OneFlow's policies
    share some fields)."""
    note = field_notes().get(field, "")
    head, sep, rest = note.partition(": ")
    return rest if sep and head in shim.FACADES else note


def _seeding(policy) -> str:
    return "seeds ones for an output of any shape" if policy.implicit_seed_any_shape else \
        "raises for an output that is not a scalar"


def _frees_more(src, dst, first: str) -> list[str]:
    """The policy fields by which the target frees, after a pass of kind `first` ("grad" or
    "backward") given no retain_graph, a graph the source may still run again."""
    fields = []
    if first == "grad" and src.grad_keeps_graph and not dst.grad_keeps_graph:
        fields.append("grad_keeps_graph")           # paddle's grad() never frees its graph
    if dst.free_every_node and not src.free_every_node:
        fields.append("free_every_node")            # PyTorch reruns the nodes that saved no tensor
    if dst.saving_nodes - src.saving_nodes:
        fields.append("saving_nodes")               # OneFlow's kernels save tensors flowgrad's formulas do not
    return fields


def _second_pass(recv, node, line, seen, flags, source, target) -> None:
    """A pass through `recv`'s graph after an earlier one without retain_graph=True: flagged where
    the target frees a graph the source may keep."""
    kind = "backward" if isinstance(node.func, ast.Attribute) and node.func.attr == "backward" else "grad"
    first = seen.get(recv)
    if first is not None and first != "retained":
        fields = _frees_more(facade(source).module.Tensor.policy, facade(target).module.Tensor.policy, first)
        if fields:
            why = "; ".join(field_notes().get(f, f) for f in fields)
            flags.append((line, "retain_graph", text("flag_retain_graph", source=source, target=target, why=why)))
    if first != "retained":
        seen[recv] = "retained" if _kw_true(node, "retain_graph") or _kw_true(node, "create_graph") else kind


def _scalar_names(tree: ast.Module) -> set[str]:
    """Names whose every assignment is a reduction or a loss."""
    verdict: dict[str, bool] = {}
    for n in ast.walk(tree):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name):
            name = n.targets[0].id
            verdict[name] = verdict.get(name, True) and _is_scalar(n.value, set())
    return {k for k, v in verdict.items() if v}


def _is_scalar(expr: ast.expr, scalars: set[str]) -> bool:
    if isinstance(expr, ast.Name):
        return expr.id in scalars or "loss" in expr.id.lower()
    if isinstance(expr, ast.Call):
        name = _call_name(expr)
        return name in _REDUCTIONS or "loss" in name.lower() or "criterion" in name.lower() or (
            isinstance(expr.func, ast.Name) and "loss" in expr.func.id.lower())
    if isinstance(expr, ast.BinOp):
        return _is_scalar(expr.left, scalars) and _is_scalar(expr.right, scalars) or (
            _is_scalar(expr.left, scalars) and isinstance(expr.right, ast.Constant)) or (
            isinstance(expr.left, ast.Constant) and _is_scalar(expr.right, scalars))
    if isinstance(expr, ast.UnaryOp):
        return _is_scalar(expr.operand, scalars)
    return False


def _accumulates(loop: ast.For | ast.While) -> bool:
    """A loop whose body calls backward() and zeroes no gradient."""
    backward = zeroes = False
    for node in ast.walk(loop):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            backward = backward or node.func.attr == "backward"
            zeroes = zeroes or node.func.attr in _ZEROING
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            zeroes = zeroes or any(isinstance(t, ast.Attribute) and t.attr == "grad" for t in targets)
    return backward and not zeroes
