"""The recorded backward graph: node names, structure, accumulation nodes, and paddle's DOT dump."""
from __future__ import annotations

import os
import re
import tempfile

from .. import docs as D
from ..expect import Expect
from ..scenario import register, scenario

# expression -> (paddle's node name, OneFlow's: its op type name + "Backward"; a mean is OneFlow's reduce_sum
# followed by a scalar_mul)
_NODE_NAMES = {
    "mul": ("x * w", "MultiplyGradNode", "broadcast_mulBackward"),
    "scalar_mul": ("x * 2.", "ScaleGradNode", "scalar_mulBackward"),
    "broadcast_mul": ("x * fw.tensor([[1.], [2.]])", "MultiplyGradNode", "broadcast_mulBackward"),
    "add": ("x + w", "AddGradNode", "add_nBackward"),
    "sub": ("x - w", "SubtractGradNode", "broadcast_subBackward"),
    "div": ("x / w", "DivideGradNode", "broadcast_divBackward"),
    "sum": ("fw.sum(x)", "SumGradNode", "reduce_sumBackward"),
    "mean": ("fw.mean(x)", "MeanGradNode", "scalar_mulBackward"),
    "exp": ("fw.exp(x)", "ExpGradNode", "expBackward"),
    "tanh": ("fw.tanh(x)", "TanhGradNode", "tanhBackward"),
    "relu": ("fw.relu(x)", "ReluGradNode", "reluBackward"),
    "matmul": ("fw.matmul(fw.reshape(x, [1, 2]), fw.reshape(w, [2, 1]))", "MatmulGradNode", "matmulBackward"),
    "reshape": ("fw.reshape(x, [2, 1])", "ReshapeGradNode", "reshapeBackward"),
    "cat": ("fw.cat([x, w])", "ConcatGradNode", "catBackward"),
}


def _node_name_scenario(op: str, expr: str, paddle: str, oneflow: str | None) -> None:
    src = (f"def node_name_{op}(fw):\n"
           f"    x = fw.leaf([1., 2.])\n"
           f"    w = fw.leaf([3., 4.])\n"
           f"    y = {expr}\n"
           f"    return {{\"name\": fw.grad_fn_name(y)}}\n")
    namespace: dict = {}
    exec(compile(src, f"<scenario graph_dump.node_name_{op}>", "exec"), namespace)
    expect = [Expect("paddle", "paddle names its grad nodes <Op>GradNode", D.PADDLE_GRAD_NODE, {"name": paddle})]
    if oneflow:
        expect.append(Expect("oneflow", "OneFlow names nodes <op_type>Backward", D.ONEFLOW_AUTOGRAD, {"name": oneflow}))
    register("graph_dump", f"node_name_{op}", f"the grad_fn name of {expr.replace('fw.', '')}",
             namespace[f"node_name_{op}"], expect=expect, source=src)


for _op, (_expr, _paddle, _oneflow) in _NODE_NAMES.items():
    _node_name_scenario(_op, _expr, _paddle, _oneflow)


@scenario("graph_dump", "the backward graph of sum(x * w): its shape", needs=["graph_introspection"])
def structure(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    g = fw.attempt("walk", fw.graph, fw.sum(x * w))
    return {"nodes": g and len(g["nodes"]), "edges": g and g["edges"]}


@scenario("graph_dump", "the node names along the backward graph of sum(exp(x) * w)",
          needs=["graph_introspection"], expect=[
              Expect("paddle", "paddle's node names", D.PADDLE_GRAD_NODE,
                     {"names": ["SumGradNode", "MultiplyGradNode", "ExpGradNode", "GradNodeAccumulation",
                                "GradNodeAccumulation"]}),
              Expect("oneflow", "OneFlow's node names", D.ONEFLOW_AUTOGRAD,
                     {"names": ["reduce_sumBackward", "broadcast_mulBackward", "expBackward", "accumulategrad",
                                "accumulategrad"]}),
          ])
def names_along_graph(fw):
    x = fw.leaf([1., 2.])
    w = fw.leaf([3., 4.])
    g = fw.attempt("walk", fw.graph, fw.sum(fw.exp(x) * w))
    return {"names": g and g["nodes"]}


@scenario("graph_dump", "one accumulation node per leaf, shared by all its uses", needs=["graph_introspection"])
def shared_accumulation_node(fw):
    x = fw.leaf([1., 2.])
    g = fw.attempt("walk", fw.graph, fw.sum(x * x + x))
    return {"nodes": g and len(g["nodes"]), "edges": g and g["edges"]}


@scenario("graph_dump", "a leaf's grad_fn after it was used in an op", expect=[
    Expect("paddle", "a paddle leaf that requires grad carries its accumulation node as grad_fn", D.PADDLE_GRAD_NODE,
           {"leaf node": "GradNodeAccumulation"}),
    Expect("oneflow", "a used OneFlow leaf gets an accumulategrad grad_fn", D.ONEFLOW_AUTOGRAD,
           {"leaf node": "accumulategrad"}),
])
def leaf_grad_fn(fw):
    x = fw.leaf([1., 2.])
    fw.sum(x * 2.)
    return {"leaf node": fw.grad_fn_name(x)}


@scenario("graph_dump", "results under no_grad and detached tensors have no grad_fn")
def no_node_without_grad(fw):
    x = fw.leaf([1., 2.])
    with fw.no_grad():
        y = x * 2.
    return {"no_grad": fw.grad_fn_name(y), "detached": fw.grad_fn_name(fw.detach(x * 2.))}


@scenario("graph_dump", "a custom function's node links to its inputs' nodes", needs=["graph_introspection"],
          expect=[
              Expect("paddle", "paddle's node names", D.PADDLE_GRAD_NODE,
                     {"names": ["GradNodePyLayer_Twice", "ExpGradNode", "GradNodeAccumulation"]}),
              Expect("oneflow", "OneFlow's node names (a Function's node keeps its class name)", D.ONEFLOW_AUTOGRAD,
                     {"names": ["TwiceBackward", "expBackward", "accumulategrad"]}),
          ])
def custom_function_in_graph(fw):
    cls = fw.function("Twice", lambda ctx, a: a * 2., lambda ctx, g: g * 2.)
    x = fw.leaf([1., 2.])
    y = fw.apply(cls, fw.exp(x))
    g = fw.attempt("walk", fw.graph, y)
    return {"names": g and g["nodes"], "edges": g and g["edges"]}


def _dump_files(path: str) -> dict:
    names = sorted(os.listdir(path))
    suffixes = sorted(re.sub(r"^\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d{6}_", "", n) for n in names)
    out = {"files": suffixes}
    graph = [n for n in names if n.endswith("_backward_graph.dot")]
    if graph:
        with open(os.path.join(path, graph[0]), encoding="utf-8") as f:
            text = f.read()
        out["starts"] = text.split("\n", 1)[0]
        out["ends"] = text.rsplit("\n", 1)[-1]
        out["nodes"] = sorted(re.findall(r'label="(\w+)\\\\nPtr: 0x[0-9a-f]+"', text))
        out["edges"] = len(re.findall(r"node_\d+->node_\d+", text))
    return out


@scenario("graph_dump", "dump_backward_graph_path writes the graph files", needs=["dump_backward_graph_path"])
def paddle_dump_files(fw):
    x = fw.leaf([[1., 2.], [3., 4.]])
    w = fw.leaf([[3., 2.], [3., 4.]])
    with tempfile.TemporaryDirectory() as tmp:
        fw.dump_backward_graph([fw.matmul(x, w)], tmp)
        return _dump_files(tmp)


@scenario("graph_dump", "dump of a longer chain: one node per op", needs=["dump_backward_graph_path"])
def paddle_dump_chain(fw):
    x = fw.leaf([[1., 2.], [3., 4.]])
    w = fw.leaf([[3., 2.], [3., 4.]])
    with tempfile.TemporaryDirectory() as tmp:
        fw.dump_backward_graph([fw.mean(fw.relu(fw.matmul(x, w) + 1.))], tmp)
        return _dump_files(tmp)


@scenario("graph_dump", "dump_backward_graph_path creates missing directories", needs=["dump_backward_graph_path"])
def paddle_dump_makes_dirs(fw):
    x = fw.leaf([1., 2.])
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "a", "b")
        fw.dump_backward_graph([fw.sum(x * x)], target)
        return {"exists": os.path.isdir(target), "files": _dump_files(target)["files"]}


@scenario("graph_dump", "no files when nothing runs (every root stops gradient)",
          needs=["dump_backward_graph_path"])
def paddle_dump_nothing_runs(fw):
    c = fw.tensor([1., 2.])
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "d")
        fw.dump_backward_graph([fw.sum(c * 2.)], target)
        return {"exists": os.path.isdir(target), "files": os.listdir(target) if os.path.isdir(target) else None}


@scenario("graph_dump", "a dump path that is an existing file", needs=["dump_backward_graph_path"])
def paddle_dump_path_is_file(fw):
    x = fw.leaf([1., 2.])
    with tempfile.TemporaryDirectory() as tmp:
        target = os.path.join(tmp, "f")
        with open(target, "w", encoding="utf-8") as f:
            f.write("x")
        fw.attempt("dump", fw.dump_backward_graph, [fw.sum(x * x)], target)
    return {"x.grad": fw.read_grad(x)}
