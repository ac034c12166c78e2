"""dump_backward_graph_path=DIR (reference §2): the three files, their names, DOT layout and
labels, compared structurally with what real paddle writes for the same graph."""
from __future__ import annotations

import collections
import os
import re
import shutil
import subprocess

import pytest

STAMP = r"\d{4}-\d\d-\d\d_\d\d:\d\d:\d\d\.\d{6}"
SUFFIXES = ("backward_graph.dot", "call_stack.log", "ref_forward_graph.dot")
NODE = re.compile(r'^\t(node_\d+)\[label="([^"]*)" (.*)\]$')
EDGE = re.compile(r'^\t(node_\d+)->(node_\d+)\[label="([^"]*)"\]$')
GREY = ('style="rounded,filled,bold" shape="box" color="#999999" fontcolor="#ffffff" width="1.3" height="0.84" '
        'fontname="Arial"')
TEAL = 'shape="box" style="rounded,filled,bold" fontname="Arial" color="#148b97" fontcolor="#ffffff"'


def _triples(path) -> list[dict]:
    """The dump files in `path`, grouped by call: [{suffix: text}] in time order."""
    groups = collections.defaultdict(dict)
    for name in sorted(os.listdir(path)):
        m = re.fullmatch(f"({STAMP})_(.+)", name)
        assert m, name
        with open(os.path.join(path, name)) as f:
            groups[m.group(1)][m.group(2)] = f.read()
    return [groups[k] for k in sorted(groups)]


def _structure(text: str):
    """A DOT file as (multiset of (name, colour) nodes, multiset of (src name, dst name, label) edges)."""
    lines = text.split("\n")
    assert lines[0] == "digraph G {" and lines[-1] == "} // end G"
    nodes, edges = {}, []
    for line in lines[1:-1]:
        m = NODE.match(line)
        if m:
            node_id, label, attrs = m.groups()
            assert attrs in (GREY, TEAL), attrs
            name, _, ptr = label.partition("\\n")
            assert re.fullmatch(r"(Ptr|GradNode): 0x[0-9a-f]+", ptr), ptr
            nodes[node_id] = (name, "grey" if attrs == GREY else "teal")
            continue
        m = EDGE.match(line)
        assert m, line
        edges.append(m.groups())
    named = collections.Counter((nodes[a][0], nodes[b][0], label) for a, b, label in edges)
    return collections.Counter(nodes.values()), named


def _dump(paddle, tmp_path, build, how="tensor"):
    path = str(tmp_path / "dump")
    out = build(paddle)
    if how == "tensor":
        out.backward(dump_backward_graph_path=path)
    else:
        paddle.autograd.backward(out if isinstance(out, list) else [out], dump_backward_graph_path=path)
    triples = _triples(path)
    assert len(triples) == 1 and sorted(triples[0]) == sorted(SUFFIXES)
    return triples[0]


def _matmul(p):
    x = p.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
    y = p.to_tensor([[3., 2.], [3., 4.]], stop_gradient=False)
    return p.matmul(x, y)


def _two_outputs(p):
    x = p.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
    y = p.to_tensor([[3., 2.], [3., 4.]])
    return [p.matmul(x, y), p.matmul(x, y)]


def _chain(p):
    x = p.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
    y = p.to_tensor([[3., 2.], [3., 4.]], stop_gradient=False)
    return p.nn.functional.relu(p.matmul(x, y) + 1).mean()


def _square(p):
    x = p.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
    return (x * x).sum()


def _leaf(p):
    return p.to_tensor([1., 2.], stop_gradient=False)


EXPECTED = {
    "matmul": ({("MatmulGradNode", "grey"): 1, ("GradNodeAccumulation", "teal"): 2},
               {("MatmulGradNode", "GradNodeAccumulation", "Place(cpu)\\nfloat32[2, 2]"): 2},
               {("Matmul", "grey"): 1, ("Node", "teal"): 2},
               {("Node", "Matmul", "float32 [2, 2]"): 2}),
    "two_outputs": ({("MatmulGradNode", "grey"): 2, ("GradNodeAccumulation", "teal"): 1},
                    {("MatmulGradNode", "GradNodeAccumulation", "Place(cpu)\\nfloat32[2, 2]"): 2},
                    {("Matmul", "grey"): 2, ("Node", "teal"): 1},
                    {("Node", "Matmul", "float32 [2, 2]"): 2}),
    "chain": ({("MeanGradNode", "grey"): 1, ("ReluGradNode", "grey"): 1, ("ScaleGradNode", "grey"): 1,
               ("MatmulGradNode", "grey"): 1, ("GradNodeAccumulation", "teal"): 2},
              {("MeanGradNode", "ReluGradNode", "Place(cpu)\\nfloat32[2, 2]"): 1,
               ("ReluGradNode", "ScaleGradNode", "Place(cpu)\\nfloat32[2, 2]"): 1,
               ("ScaleGradNode", "MatmulGradNode", "Place(cpu)\\nfloat32[2, 2]"): 1,
               ("MatmulGradNode", "GradNodeAccumulation", "Place(cpu)\\nfloat32[2, 2]"): 2},
              {("Mean", "grey"): 1, ("Relu", "grey"): 1, ("Scale", "grey"): 1, ("Matmul", "grey"): 1,
               ("Node", "teal"): 2},
              {("Relu", "Mean", "float32 [2, 2]"): 1, ("Scale", "Relu", "float32 [2, 2]"): 1,
               ("Matmul", "Scale", "float32 [2, 2]"): 1, ("Node", "Matmul", "float32 [2, 2]"): 2}),
    "square": ({("SumGradNode", "grey"): 1, ("MultiplyGradNode", "grey"): 1, ("GradNodeAccumulation", "teal"): 1},
               {("SumGradNode", "MultiplyGradNode", "Place(cpu)\\nfloat32[2, 2]"): 1,
                ("MultiplyGradNode", "GradNodeAccumulation", "Place(cpu)\\nfloat32[2, 2]"): 2},
               {("Sum", "grey"): 1, ("Multiply", "grey"): 1, ("Node", "teal"): 1},
               {("Multiply", "Sum", "float32 [2, 2]"): 1, ("Node", "Multiply", "float32 [2, 2]"): 2}),
    "leaf": ({("GradNodeAccumulation", "grey"): 1}, {}, {("Node", "grey"): 1}, {}),
}
BUILDERS = {"matmul": _matmul, "two_outputs": _two_outputs, "chain": _chain, "square": _square, "leaf": _leaf}


@pytest.mark.parametrize("case", sorted(EXPECTED))
def test_dump_structure_matches_paddle(paddle, tmp_path, case):
    files = _dump(paddle, tmp_path, BUILDERS[case], how="autograd")
    b_nodes, b_edges, f_nodes, f_edges = EXPECTED[case]
    assert _structure(files["backward_graph.dot"]) == (collections.Counter(b_nodes), collections.Counter(b_edges))
    assert _structure(files["ref_forward_graph.dot"]) == (collections.Counter(f_nodes), collections.Counter(f_edges))


def test_both_graphs_use_the_same_ids_and_pointers(paddle, tmp_path):
    files = _dump(paddle, tmp_path, _chain)
    ids = {}
    for line in files["backward_graph.dot"].split("\n"):
        m = NODE.match(line)
        if m:
            ids[m.group(1)] = m.group(2).split("Ptr: ")[1]
    for line in files["ref_forward_graph.dot"].split("\n"):
        m = NODE.match(line)
        if m:
            assert ids[m.group(1)] == m.group(2).split("GradNode: ")[1]


def test_node_ids_keep_increasing_across_calls(paddle, tmp_path):
    path = str(tmp_path / "d")
    _matmul(paddle).backward(dump_backward_graph_path=path)
    _matmul(paddle).backward(dump_backward_graph_path=path)
    first, second = _triples(path)
    ids = [sorted(int(i) for i in re.findall(r"\tnode_(\d+)\[", t["backward_graph.dot"])) for t in (first, second)]
    assert max(ids[0]) < min(ids[1])


def test_call_stack_log_without_flag(paddle, tmp_path):
    files = _dump(paddle, tmp_path, _matmul)
    text = files["call_stack.log"]
    assert text.startswith("Note : If you want to see the call stack information of each Node, please make sure "
                           "FLAGS_call_stack_level=3 is set at runtime.\n")
    entries = re.findall(r"GradNodeBase (\w+) ptr : 0x[0-9a-f]+ call stack: \n\n", text)
    assert sorted(entries) == ["GradNodeAccumulation", "GradNodeAccumulation", "MatmulGradNode"]


def test_call_stack_log_with_flag_holds_the_forward_line(paddle, tmp_path):
    paddle.set_flags({"FLAGS_call_stack_level": 3})
    assert paddle.get_flags(["FLAGS_call_stack_level"]) == {"FLAGS_call_stack_level": 3}
    x = paddle.to_tensor([[1., 2.], [3., 4.]], stop_gradient=False)
    z = paddle.matmul(x, x)  # the line the log must show
    path = str(tmp_path / "d")
    z.backward(dump_backward_graph_path=path)
    text = _triples(path)[0]["call_stack.log"]
    entry = text.split("GradNodeBase MatmulGradNode ptr : ")[1].split("GradNodeBase")[0]
    assert __file__ in entry and "z = paddle.matmul(x, x)  # the line the log must show" in entry


def test_grad_writes_a_dump_too(paddle, tmp_path):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    path = str(tmp_path / "g")
    paddle.grad((x * x).sum(), [x], dump_backward_graph_path=path)
    (files,) = _triples(path)
    nodes, _ = _structure(files["backward_graph.dot"])
    assert {name for name, _ in nodes} >= {"SumGradNode", "MultiplyGradNode"}


def test_failed_backward_still_dumps_what_ran(paddle, tmp_path):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    v = x * 1.0
    w = (v * v).sum()
    v.add_(paddle.ones([2]))
    path = str(tmp_path / "f")
    with pytest.raises(RuntimeError, match="PermissionDenied"):
        w.backward(dump_backward_graph_path=path)
    (files,) = _triples(path)
    nodes, _ = _structure(files["backward_graph.dot"])
    assert ("SumGradNode", "grey") in nodes and ("MultiplyGradNode", "grey") in nodes
    assert "GradNodeAccumulation" not in {name for name, _ in nodes}
    fwd_nodes, _ = _structure(files["ref_forward_graph.dot"])
    assert ("Node", "teal") in fwd_nodes


def test_nothing_written_when_no_node_ran(paddle, tmp_path):
    path = str(tmp_path / "nested" / "empty")
    (paddle.to_tensor([1.]) * 2).backward(dump_backward_graph_path=path)
    assert os.path.isdir(path) and os.listdir(path) == []


def test_dump_path_checks(paddle, tmp_path):
    x = paddle.to_tensor([1., 2.], stop_gradient=False)
    with pytest.raises(AssertionError, match="^path must be string type$"):
        (x * 2).backward(dump_backward_graph_path=3)
    f = tmp_path / "file"
    f.write_text("")
    with pytest.raises(NotADirectoryError, match="^" + re.escape(f" path:'{f}' must be directory ") + "$"):
        paddle.autograd.backward([x * 2], dump_backward_graph_path=str(f))
    with pytest.raises(OSError, match="^" + re.escape("Create '' failed : [Errno 2] No such file or directory: ''")):
        paddle.grad([x * 2], [x], dump_backward_graph_path="")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz is not installed")
def test_dump_renders_with_graphviz(fpaddle, tmp_path):
    files = _dump(fpaddle, tmp_path, _chain)
    for suffix in ("backward_graph.dot", "ref_forward_graph.dot"):
        res = subprocess.run(["dot", "-Tsvg"], input=files[suffix], capture_output=True, text=True, timeout=60)
        assert res.returncode == 0, res.stderr
        assert "<svg" in res.stdout


def test_call_stack_flag_from_the_environment(tmp_path):
    import os as _os
    import sys

    code = (
        "import glob, flowgrad.paddle as paddle\n"
        "assert paddle.get_flags('FLAGS_call_stack_level') == {'FLAGS_call_stack_level': 3}\n"
        "x = paddle.to_tensor([1., 2.], stop_gradient=False)\n"
        "y = (x * x).sum()  # forward line\n"
        f"y.backward(dump_backward_graph_path={str(tmp_path)!r})\n"
        f"print(open(glob.glob({str(tmp_path)!r} + '/*_call_stack.log')[0]).read())\n")
    env = dict(_os.environ, FLAGS_call_stack_level="3")
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)
    assert res.returncode == 0, res.stderr
    assert "y = (x * x).sum()  # forward line" not in res.stdout  # -c has no source lines; the frame is there
    assert 'File "<string>", line 4, in <module>' in res.stdout
