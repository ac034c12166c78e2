"""Stateful testing against a naive reference engine (MyGrad's discipline).

A Hypothesis RuleBasedStateMachine builds graphs step by step - create leaves, apply ops (with
broadcasting), run backward with or without retain_graph, zero or drop gradients, register and
remove gradient-scaling hooks, retain non-leaf gradients - and mirrors every step on `Ref`, a
small, obviously correct autodiff engine written here (float64 NumPy, one closure per input,
dependency-counted topological order without recursion). After every step the `.grad` of every
leaf and retained tensor must equal the reference's.

The machine runs against flowgrad.torch and, as a check of the reference engine itself, against
real torch when it is installed.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest
from hypothesis import strategies as st
from hypothesis.stateful import Bundle, RuleBasedStateMachine, initialize, invariant, multiple, rule

from hypothesis import settings
from reliability_config import RELIABILITY, fuzz_examples

# Every pair of these broadcasts to one of them, so any binary op between bundle values is valid.
SHAPES = [(), (1,), (3,), (1, 1), (1, 3), (2, 1), (2, 3)]


# ------------------------------------------------------------------------------ reference engine

def unbroadcast(g: np.ndarray, shape: tuple) -> np.ndarray:
    """Sum `g` down to `shape` (the inverse of NumPy broadcasting)."""
    while g.ndim > len(shape):
        g = g.sum(axis=0)
    for i, s in enumerate(shape):
        if s == 1 and g.shape[i] != 1:
            g = g.sum(axis=i, keepdims=True)
    return g


class Ref:
    """A value with the closures that send its gradient to each input (`parents`)."""

    def __init__(self, value, requires_grad=False, parents=(), op="leaf"):
        self.value = np.asarray(value, dtype=np.float64)
        self.parents = tuple(p for p in parents if p[0].requires_grad)   # (Ref, vjp) pairs
        self.requires_grad = requires_grad or bool(self.parents)
        self.op = op
        self.grad = None
        self.hooks: dict[int, float] = {}      # hook id -> scale (insertion ordered)
        self.retain = False
        self.freed = False

    @property
    def is_leaf(self) -> bool:
        return self.op == "leaf"


def ref_op(op: str, *xs: Ref, **kw) -> Ref:
    v = [x.value for x in xs]
    if op == "add":
        out, vjps = v[0] + v[1], (lambda g: g, lambda g: g)
    elif op == "sub":
        out, vjps = v[0] - v[1], (lambda g: g, lambda g: -g)
    elif op == "mul":
        out, vjps = v[0] * v[1], (lambda g: g * v[1], lambda g: g * v[0])
    elif op == "div":
        out, vjps = v[0] / v[1], (lambda g: g / v[1], lambda g: -g * v[0] / v[1] ** 2)
    elif op == "neg":
        out, vjps = -v[0], (lambda g: -g,)
    elif op == "exp":
        out = np.exp(v[0])
        vjps = (lambda g: g * out,)
    elif op == "tanh":
        out = np.tanh(v[0])
        vjps = (lambda g: g * (1 - out ** 2),)
    elif op == "sin":
        out, vjps = np.sin(v[0]), (lambda g: g * np.cos(v[0]),)
    elif op == "relu":
        out, vjps = np.maximum(v[0], 0.0), (lambda g: g * (v[0] > 0),)
    elif op == "add_scalar":
        out, vjps = v[0] + kw["c"], (lambda g: g,)
    elif op == "mul_scalar":
        out, vjps = v[0] * kw["c"], (lambda g: g * kw["c"],)
    elif op in ("sum", "mean"):
        dim, keepdim = kw["dim"], kw["keepdim"]
        shape = v[0].shape
        out = v[0].sum(axis=dim, keepdims=keepdim) if op == "sum" else v[0].mean(axis=dim, keepdims=keepdim)
        n = v[0].size if dim is None else (shape[dim] if shape else 1)
        scale = 1.0 if op == "sum" else 1.0 / n

        def vjp(g, dim=dim, keepdim=keepdim, shape=shape):
            if dim is not None and not keepdim and shape:
                g = np.expand_dims(g, dim)
            return np.broadcast_to(g * scale, shape)
        vjps = (vjp,)
    elif op == "expand":
        out, vjps = np.broadcast_to(v[0], kw["shape"]), (lambda g: g,)
    else:
        raise AssertionError(op)
    return Ref(out, parents=zip(xs, vjps), op=op)


SAVES = {"mul", "div", "exp", "tanh", "sin", "relu", "mul_scalar"}   # ops whose node keeps saved values


def reachable(root: Ref) -> list:
    """Every Ref the gradient of `root` flows through (iterative, no recursion)."""
    seen, stack, order = {id(root)}, [root], []
    while stack:
        r = stack.pop()
        order.append(r)
        for p, _ in r.parents:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return order


def ref_backward(root: Ref, seed: np.ndarray, retain_graph: bool) -> None:
    """Backpropagate: Kahn's algorithm over dependency counts, so a Ref runs only once all its
    incoming gradients are summed; tensor hooks, then retained grad, then leaf accumulation or
    the vjps (each unbroadcast to its input's shape)."""
    nodes = reachable(root)
    deps = {id(r): 0 for r in nodes}
    for r in nodes:
        for p, _ in r.parents:
            deps[id(p)] += 1
    pending = {id(root): np.array(seed, dtype=np.float64)}
    ready = [root]
    while ready:
        r = ready.pop()
        g = pending.pop(id(r))
        for scale in r.hooks.values():
            g = g * scale
        if r.is_leaf:
            r.grad = g.copy() if r.grad is None else r.grad + g
            continue
        if r.retain:
            r.grad = g.copy() if r.grad is None else r.grad + g
        for p, vjp in r.parents:
            contrib = unbroadcast(np.asarray(vjp(g), dtype=np.float64), p.value.shape)
            pending[id(p)] = contrib if id(p) not in pending else pending[id(p)] + contrib
            deps[id(p)] -= 1
            if deps[id(p)] == 0:
                ready.append(p)
        if not retain_graph and r.op in SAVES:
            r.freed = True


def test_reference_engine_on_a_hand_derived_example():
    """d/dx sum(exp(x) * x + x) = exp(x) * (x + 1) + 1, d/dy of broadcast y*x summed over rows."""
    x = Ref(np.array([[0.5, -1.0, 2.0]]), requires_grad=True)
    y = Ref(np.array([[1.0], [2.0]]), requires_grad=True)
    e = ref_op("exp", x)
    z = ref_op("add", ref_op("mul", e, x), x)
    w = ref_op("sum", ref_op("mul", y, z), dim=None, keepdim=False)
    ref_backward(w, np.array(1.0), retain_graph=False)
    xv = x.value
    np.testing.assert_allclose(x.grad, 3.0 * (np.exp(xv) * (xv + 1) + 1))
    np.testing.assert_allclose(y.grad, np.full((2, 1), (np.exp(xv) * xv + xv).sum()))
    assert e.freed and not x.freed


# ------------------------------------------------------------------------------ the state machine

class Pair:
    """A framework tensor and its reference twin."""

    def __init__(self, t, r: Ref):
        self.t, self.r = t, r

    def __repr__(self):
        return f"Pair({self.r.op}{list(self.r.value.shape)}{' rg' if self.r.requires_grad else ''})"


def _values(seed: int, shape: tuple) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2.0, 2.0, size=shape)


class GraphMachine(RuleBasedStateMachine):
    T = None    # set by the subclass: the framework under test

    tensors = Bundle("tensors")

    def __init__(self):
        super().__init__()
        self.pairs: list[Pair] = []
        self.handles: list = []     # (framework handle, Ref, hook id)
        self.next_hook = 0

    def _add(self, t, r: Ref) -> Pair:
        p = Pair(t, r)
        self.pairs.append(p)
        assert bool(t.requires_grad) == r.requires_grad, "requires_grad of the result"
        assert tuple(t.shape) == r.value.shape
        np.testing.assert_allclose(t.detach().numpy(), r.value, rtol=1e-12, atol=1e-12)
        return p

    def _apply(self, op, xs, fn, **kw):
        with np.errstate(all="ignore"):       # overflow is detected just below
            r = ref_op(op, *(p.r for p in xs), **kw)
        if not np.all(np.isfinite(r.value)) or np.max(np.abs(r.value), initial=0) > 1e6:
            return multiple()                  # keep values in range: skip this step
        return self._add(fn(*(p.t for p in xs)), r)

    # ---------------------------------------------------------------- building
    @initialize(target=tensors, shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**16))
    def first_leaf(self, shape, seed):
        return self.leaf(shape, seed, True)

    @rule(target=tensors, shape=st.sampled_from(SHAPES), seed=st.integers(0, 2**16), rg=st.booleans())
    def leaf(self, shape, seed, rg):
        v = _values(seed, shape)
        return self._add(self.T.tensor(v, dtype=self.T.float64, requires_grad=rg), Ref(v, requires_grad=rg))

    @rule(target=tensors, op=st.sampled_from(["neg", "exp", "tanh", "sin", "relu"]), x=tensors)
    def unary(self, op, x):
        if op == "relu":
            v = np.abs(x.r.value)
            if np.any((v > 0) & (v < 1e-9)):
                return multiple()              # within rounding error of the kink
        fn = {"neg": lambda t: -t, "exp": self.T.exp, "tanh": lambda t: t.tanh(), "sin": self.T.sin,
              "relu": self.T.relu}[op]
        return self._apply(op, [x], fn)

    @rule(target=tensors, op=st.sampled_from(["add", "sub", "mul", "div"]), a=tensors, b=tensors)
    def binary(self, op, a, b):
        if op == "div":   # a / (b*b + 1): the divisor stays away from zero
            sq = self._apply("mul", [b, b], lambda u, w: u * w)
            den = self._apply("add_scalar", [sq], lambda u: u + 1.0, c=1.0) if isinstance(sq, Pair) else sq
            if not isinstance(den, Pair):
                return multiple()
            b = den
        fn = {"add": lambda u, w: u + w, "sub": lambda u, w: self.T.sub(u, w), "mul": lambda u, w: u * w,
              "div": lambda u, w: u / w}[op]
        return self._apply(op, [a, b], fn)

    @rule(target=tensors, x=tensors, c=st.sampled_from([-1.5, 0.5, 2.0]), mul=st.booleans())
    def scalar(self, x, c, mul):
        if mul:
            return self._apply("mul_scalar", [x], lambda t: t * c, c=c)
        return self._apply("add_scalar", [x], lambda t: c + t, c=c)

    @rule(target=tensors, x=tensors, dim=st.sampled_from([None, 0, -1]), keepdim=st.booleans(),
          op=st.sampled_from(["sum", "mean"]))
    def reduce(self, x, dim, keepdim, op):
        shape = x.r.value.shape
        if not shape:
            dim = None
        if dim is None:
            keepdim = False
        out = np.zeros(shape).sum(axis=dim, keepdims=keepdim).shape
        if out not in SHAPES:
            return multiple()
        fn = (lambda t: getattr(t, op)()) if dim is None else (lambda t: getattr(self.T, op)(t, dim, keepdim=keepdim))
        return self._apply(op, [x], fn, dim=dim, keepdim=keepdim)

    @rule(target=tensors, x=tensors)
    def expand(self, x):
        return self._apply("expand", [x], lambda t: t.expand(2, 3), shape=(2, 3))

    # ---------------------------------------------------------------- engine
    @rule(root=tensors, seed=st.integers(0, 2**16), retain=st.booleans())
    def backward(self, root, seed, retain):
        grads_before = self._snapshot()
        g = _values(seed, root.r.value.shape)
        if not root.r.requires_grad:
            with pytest.raises(RuntimeError, match="does not require grad"):
                root.t.backward(self.T.tensor(g, dtype=self.T.float64))
            assert self._snapshot() == grads_before
            return
        nodes = reachable(root.r)
        if root.r.freed:
            # The root's own node was freed by an earlier backward: the error comes when that node
            # is about to run - after the root tensor's hooks and retained grad (PyTorch's order),
            # before anything else.
            with pytest.raises(RuntimeError, match="backward through the graph a second time"):
                root.t.backward(self.T.tensor(g, dtype=self.T.float64), retain_graph=retain)
            if root.r.retain:
                for scale in root.r.hooks.values():
                    g = g * scale
                root.r.grad = g.copy() if root.r.grad is None else root.r.grad + g
            assert [v for p, v in zip(self.pairs, self._snapshot()) if p is not root] == \
                [v for p, v in zip(self.pairs, grads_before) if p is not root]
            return
        if any(r.freed for r in nodes):
            return   # an inner node is freed: how much accumulates before the error is engine-specific
        root.t.backward(self.T.tensor(g, dtype=self.T.float64), retain_graph=retain)
        ref_backward(root.r, g, retain)

    @rule(drop=st.booleans())
    def zero_grads(self, drop):
        for p in self.pairs:
            if p.r.grad is None or not (p.r.is_leaf or p.r.retain):
                continue
            if drop:
                p.t.grad = None
                p.r.grad = None
            else:
                p.t.grad.zero_()
                p.r.grad = np.zeros_like(p.r.grad)

    @rule(x=tensors, scale=st.sampled_from([2.0, -0.5, 3.0]))
    def register_hook(self, x, scale):
        if not x.r.requires_grad:
            with pytest.raises(RuntimeError, match="doesn't require gradient"):
                x.t.register_hook(lambda g: g * scale)
            return
        h = x.t.register_hook(lambda g: g * scale)
        self.next_hook += 1
        x.r.hooks[self.next_hook] = scale
        self.handles.append((h, x.r, self.next_hook))

    @rule(data=st.data())
    def remove_hook(self, data):
        if not self.handles:
            return
        i = data.draw(st.integers(0, len(self.handles) - 1))
        h, r, hid = self.handles.pop(i)
        h.remove()
        r.hooks.pop(hid)

    @rule(x=tensors)
    def retain_grad(self, x):
        if x.r.requires_grad and not x.r.is_leaf:
            x.t.retain_grad()
            x.r.retain = True

    # ---------------------------------------------------------------- the check
    def _snapshot(self):
        return [None if p.r.grad is None else p.r.grad.tolist() for p in self.pairs]

    @invariant()
    def grads_match_reference(self):
        for p in self.pairs:
            if not (p.r.is_leaf or p.r.retain):
                continue
            got = p.t.grad
            if p.r.grad is None:
                assert got is None, f"{p}: expected no grad, got {got}"
                continue
            assert got is not None, f"{p}: expected grad {p.r.grad}, got None"
            assert tuple(got.shape) == p.r.grad.shape
            np.testing.assert_allclose(got.detach().numpy(), p.r.grad, rtol=1e-9, atol=1e-12,
                                       err_msg=f"{p}: .grad differs from the reference engine")


_STATEFUL = settings(parent=RELIABILITY, max_examples=fuzz_examples(60), stateful_step_count=30)


class FlowgradGraphMachine(GraphMachine):
    T = importlib.import_module("flowgrad.torch")


TestFlowgradAgainstReferenceEngine = FlowgradGraphMachine.TestCase
TestFlowgradAgainstReferenceEngine.settings = _STATEFUL

try:
    import torch as _real_torch
except ImportError:  # pragma: no cover - torch is an optional oracle
    _real_torch = None

if _real_torch is not None:
    class RealTorchGraphMachine(GraphMachine):
        """The same machine on real torch: validates the reference engine and the machine."""
        T = _real_torch

    TestReferenceEngineAgainstRealTorch = RealTorchGraphMachine.TestCase
    TestReferenceEngineAgainstRealTorch.settings = _STATEFUL
