"""The naming table: what each facade calls a graph node (`MulBackward0` in torch, `MultiplyGradNode`
in paddle, `broadcast_mulBackward` in OneFlow).

Every node class has a row, `NodeClass.names`, mapping a column ("torch", "paddle", "oneflow") to a
name; a facade's policy picks its column (`policy.node_name(node)`). A declared op's row is made
from its declaration (`derivative(torch_name, paddle=..., oneflow=...)`): the torch name, and the
other two where the default rules below get them wrong. Node classes the op table does not declare
(AccumulateGrad, custom Function nodes) get their row from their own name, with the overrides in
`STATEFUL`.

Default rules, from the torch name's stem (`LogSoftmaxBackward0` -> `LogSoftmax`):
- paddle: stem + "GradNode" (`LogSoftmaxGradNode`);
- oneflow: the stem in snake case + "Backward" (`log_softmaxBackward`), OneFlow's
  `op_type_name + "Backward"`. Binary arithmetic follows OneFlow's two kinds of kernels, as its
  reference does for multiplication: `scalar_<op>Backward` with a Python number operand,
  `broadcast_<op>Backward` with two tensors (`add_nBackward` for an add of two same-shape tensors).
Custom Function nodes keep their class name (`MyFnBackward`) in torch and OneFlow; paddle's rule
applies unless the class names itself `GradNode...` (a PyLayer's `GradNodePyLayer_<Cls>`).
"""
from __future__ import annotations

import re
import weakref

from ..autograd.graph import Node

COLUMNS = ("torch", "paddle", "oneflow")

_SUFFIX = re.compile(r"Backward\d*$")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

# rows of the node classes that are not declared ops, by class name
STATEFUL = {
    "AccumulateGrad": {"paddle": "GradNodeAccumulation", "oneflow": "accumulategrad"},
}


def stem(torch_name: str) -> str:
    """`MulBackward0` -> `Mul`; `torch::autograd::CopySlices` -> `CopySlices`."""
    return _SUFFIX.sub("", torch_name.rsplit("::", 1)[-1])


def row(torch: str, paddle: str | None = None, oneflow: str | None = None) -> dict[str, str]:
    """A declared op's row: its torch name, and paddle's and OneFlow's where the rules are wrong."""
    s = stem(torch)
    return {"torch": torch, "paddle": paddle or s + "GradNode",
            "oneflow": oneflow or _CAMEL.sub("_", s).lower() + "Backward"}


def _undeclared_row(cls) -> dict[str, str]:
    own = cls._name or cls.__name__
    names = {"torch": own, "paddle": own if own.startswith("GradNode") else stem(cls.__name__) + "GradNode",
             "oneflow": own.rsplit("::", 1)[-1]}
    names.update(STATEFUL.get(cls.__name__, {}))
    return names


class _Row:
    """`Node.names`: the row of a class the op table does not declare, made on first use from the
    class's own name (a declared class has its row as a plain class attribute)."""

    def __init__(self):
        self.rows: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def __get__(self, node, cls) -> dict[str, str]:
        names = self.rows.get(cls)
        if names is None:
            names = self.rows[cls] = _undeclared_row(cls)
        return names


# paddle's double-grad nodes (the policy's `double_grad_name`): none for the nodes whose gradient paddle
# computes with a forward op, which its result is named after instead
_PADDLE_NO_DOUBLE_GRAD = {"ScaleGradNode", "CastGradNode", "SplitGradNode"}
# nodes whose double-grad node gives no gradient to the forward inputs
_PADDLE_NO_INPUT_TIES = {"MatmulGradNode", "MaximumGradNode", "MinimumGradNode", "WhereGradNode"}


# nodes paddle 3.3.1 has no double-grad op for: create_graph through them raises (its grad kernel, and
# the line of paddle's generated nodes.cc that says so)
_PADDLE_NO_DOUBLE_GRAD_OP = {
    "SoftmaxGradNode": ("softmax_grad", 76113), "LogSoftmaxGradNode": ("log_softmax_grad", 36286),
    "GeluGradNode": ("gelu_grad", 25317), "MaxGradNode": ("max_grad", 39444), "MinGradNode": ("min_grad", 75198),
    "AmaxGradNode": ("amax_grad", 1963), "AminGradNode": ("amin_grad", 2129), "ProdGradNode": ("prod_grad", 48117),
    "PNormGradNode": ("p_norm_grad", 44912), "CumsumGradNode": ("cumsum_grad", 12607),
    "LogsumexpGradNode": ("logsumexp_grad", 36944), "Atan2GradNode": ("atan2_grad", 3741),
    "FloorGradNode": ("floor_grad", 21775), "CeilGradNode": ("ceil_grad", 6484), "RoundGradNode": ("round_grad", 52948),
    "TruncGradNode": ("trunc_grad", 67155), "TrilGradNode": ("tril_grad", 66663), "TriuGradNode": ("triu_grad", 67008),
    "MvGradNode": ("mv_grad", 43687), "DotGradNode": ("dot_grad", 15146), "Log1pGradNode": ("log1p_grad", 35794),
    "ErfGradNode": ("erf_grad", 16732),
    "TanGradNode": ("tan_grad", 64295), "Log2GradNode": ("log2_grad", 35965), "Log10GradNode": ("log10_grad", 35623),
    "Expm1GradNode": ("expm1_grad", 17972), "RemainderGradNode": ("remainder_grad", 75779),
    "NllLossGradNode": ("nll_loss_grad", 44396), "EmbeddingGradNode": ("embedding_grad", 73803),
}


def paddle_double_grad(node) -> tuple[str, bool] | None:
    """`MultiplyGradNode` -> `MultiplyDoubleGradNode`, the node through which paddle's first-order
    gradients made with create_graph pass, and whether it reaches the forward inputs (None for
    accumulation, PyLayer and double-grad nodes); paddle's error for a node it has none for."""
    name = node.names["paddle"]
    if name in _PADDLE_NO_DOUBLE_GRAD_OP:
        op, line = _PADDLE_NO_DOUBLE_GRAD_OP[name]
        raise node.policy.errors.double_grad_unavailable(op=op, line=line)
    if name in _PADDLE_NO_DOUBLE_GRAD or name.startswith("GradNode") or name.endswith("DoubleGradNode"):
        return None
    return name[:-len("GradNode")] + "DoubleGradNode", name not in _PADDLE_NO_INPUT_TIES


Node.names = _Row()
