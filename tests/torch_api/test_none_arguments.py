"""An explicit None told apart from an argument left out: where PyTorch's parser gives a parameter no
None (`torch.max(x, None)`: its overloads are `max(input)` and `max(input, dim)`; `logsumexp(x, None)`:
`dim` is a tuple of ints), flowgrad raises PyTorch's TypeError, word for word, instead of computing the
result of the call without it; where PyTorch takes None (`sum(x, None)`, `std(x, None)`) both compute.
Each call runs on flowgrad.torch and on real torch."""
from __future__ import annotations

import pytest

import flowgrad.torch as ft

real = pytest.importorskip("torch")

REFUSED = [
    "torch.bernoulli(x, None)", "torch.bernoulli(x, p=None)", "x.bernoulli(None)", "x.multinomial(1, None)",
    "torch.logsumexp(x, None)", "torch.logsumexp(x, dim=None)", "x.logsumexp(None)", "torch.logsumexp(x, 0, None)",
    "torch.max(x, None)", "torch.max(x, dim=None)", "torch.max(x, other=None)", "torch.max(x, 0, None)",
    "x.max(None)", "x.max(dim=None)", "x.max(other=None)", "torch.min(x, None)", "x.min(None)", "x.min(dim=None)",
    "torch.median(x, None)", "torch.median(x, dim=None)", "x.median(None)", "x.median(dim=None)",
    "torch.median(x, 0, None)",
    "torch.prod(x, None)", "torch.prod(x, dim=None)", "x.prod(None)", "x.prod(dim=None)",
    "torch.squeeze(x, None)", "torch.squeeze(x, dim=None)", "x.squeeze(None)", "x.squeeze(dim=None)",
    "torch.where(x > 0, None)", "torch.where(x > 0, input=None)",
    "torch.repeat_interleave(x, None)", "torch.repeat_interleave(x, repeats=None)", "x.repeat_interleave(None)",
    "F.adaptive_avg_pool1d(x, None)", "F.adaptive_max_pool1d(x, None)",
    "torch.linalg.vector_norm(x, None)", "torch.linalg.vector_norm(x, ord=None)",
    "torch.std(x, 0, None)", "torch.std(x, unbiased=None)", "torch.std(x, 0, unbiased=None)", "x.std(0, None)",
    "x.std(unbiased=None)", "torch.var(x, 0, None)", "x.var(unbiased=None)", "torch.std_mean(x, 0, None)",
    "torch.var_mean(x, unbiased=None)",
    "torch.argmax(x, 0, None)", "x.argmax(0, None)", "torch.argmin(x, 0, None)",
    "torch.mean(x, 0, None)", "torch.all(x, 0, None)", "torch.any(x, 0, None)",
    "torch.select(x, 0, None)", "x.select(0, None)", "torch.nonzero(x, as_tuple=None)", "x.nonzero(as_tuple=None)",
    "torch.eye(2, None)", "torch.eye(2, m=None)", "torch.randint(5, None, (2,))", "torch.multinomial(x, 1, None)",
    "x.contiguous(memory_format=None)", "x.is_contiguous(memory_format=None)",
    "torch.cumsum(x, None)", "torch.cumprod(x, None)", "torch.softmax(x, None)", "torch.log_softmax(x, None)",
    "torch.topk(x, 1, None)", "torch.sort(x, None)", "torch.argsort(x, None)", "torch.kthvalue(x, 1, None)",
]

# the same functions where the argument is left out, or where PyTorch takes None
COMPUTED = [
    "torch.max(x)", "x.max()", "torch.max(x, 1)", "torch.max(x, dim=1)", "torch.max(x, other=x)", "x.min(0)",
    "torch.prod(x)", "x.prod(dim=1)", "torch.median(x)", "x.median(0)", "torch.squeeze(x)", "x.squeeze()",
    "torch.squeeze(x, (0,))", "torch.where(x > 0)", "torch.where(x > 0, x, -x)", "torch.repeat_interleave(x, 2)",
    "torch.repeat_interleave(x, 2, None)", "torch.linalg.vector_norm(x)", "torch.std(x, None)", "torch.var(x, None)",
    "x.std()", "torch.std(x, 0, True, True)", "torch.sum(x, None)", "torch.mean(x, None)", "torch.argmax(x, None)",
    "torch.amax(x, None)", "torch.all(x, None)", "torch.nonzero(x)", "torch.eye(2)", "torch.logit(x, None)",
    "torch.sort(x)", "torch.topk(x, 1)", "x.logsumexp(1)", "F.adaptive_avg_pool1d(x, 2)", "x.contiguous()",
    "x.is_contiguous()", "torch.bernoulli(x.clamp(0, 1), 0.0)", "torch.sort(x, stable=None)", "x.sort(0, True)",
    "x.sort(stable=None)", "x.std(0, False)", "x.numpy(force=True).tolist()",
    "x.topk(2, 0, False, True)", "x.sort(stable=True, dim=0)",
]


def _run(T, code: str):
    x = T.tensor([[0.5, 0.2, 0.9], [0.1, 0.25, 0.3]])
    try:
        return "value", eval(code, {"torch": T, "F": T.nn.functional, "x": x})
    except Exception as exc:  # noqa: BLE001 - the outcome compared
        return "raise", exc


@pytest.mark.parametrize("code", REFUSED)
def test_explicit_none_raises_pytorchs_type_error(code):
    theirs, mine = _run(real, code), _run(ft, code)
    assert theirs[0] == "raise" and type(theirs[1]) is TypeError, theirs
    assert mine[0] == "raise", f"{code}: flowgrad returned {mine[1]!r}"
    assert type(mine[1]) is TypeError and str(mine[1]) == str(theirs[1])


def _plain(v):
    if isinstance(v, (ft.Tensor, real.Tensor)):
        return [str(v.dtype).rpartition(".")[2], list(v.shape), v.tolist()]
    if isinstance(v, (tuple, list)):
        return [_plain(e) for e in v]
    return v


def _close(a, b) -> bool:
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_close(p, q) for p, q in zip(a, b))
    if isinstance(a, float) and isinstance(b, float):
        return a == pytest.approx(b, rel=1e-6)
    return a == b and type(a) is type(b)


@pytest.mark.parametrize("code", COMPUTED)
def test_argument_left_out_or_none_taken_computes_as_pytorch(code):
    theirs, mine = _run(real, code), _run(ft, code)
    assert theirs[0] == mine[0] == "value", (theirs, mine)
    a, b = _plain(mine[1]), _plain(theirs[1])
    assert _close(a, b), (a, b)


def test_left_out_is_the_default_shown():
    from flowgrad.facade.signatures import LEFT_OUT
    import inspect
    assert inspect.signature(ft.max).parameters["dim"].default is LEFT_OUT
    assert repr(LEFT_OUT) == "<left out>"
    assert inspect.signature(ft.sum).parameters["dim"].default is None    # torch.sum(x, None) sums all


# a mistyped argument of a function whose overloads the facade lists: PyTorch's parser's own choice of error
MISTYPED = [
    "torch.max(x, 'a')", "torch.max(x, 0.5)", "torch.min(x, [1.0])", "torch.prod(x, 'a')", "torch.median(x, 0.5)",
    "torch.squeeze(x, 'a')", "torch.std(x, 'a')", "torch.var_mean(x, [1.0])", "torch.mean(x, 'a')",
    "torch.sort(x, 'a')", "torch.argsort(x, 0.5)", "torch.bernoulli(x, 'a')", "torch.repeat_interleave(x, 'a')",
    "torch.max(x, dim='a')", "torch.prod(x, 0, 'a')", "x.median('a')", "x.repeat_interleave('a')",
    "torch.linalg.matrix_rank(x, 'a', True)", "torch.eye('a')",
    # a bool parameter given what is no bool (it would count as true)
    "torch.max(x, 0, 'a')", "x.median(0, 'a')", "torch.sort(x, 0, 'a')", "torch.argmax(x, 0, 'a')",
    "x.max(0, keepdim=1)", "torch.logsumexp(x, 0, 'a')", "torch.nonzero(x, as_tuple='a')", "x.sort(descending='a')",
    "torch.argsort(x, stable=None)", "x.argsort(stable=1)", "x.topk(1, largest=0)", "torch.kthvalue(x, 1, keepdim='a')",
    "x.kthvalue(1, None)", "x.sort(None)",
    # a bool whose default is not a bool, or that takes None beside bools (`stable`)
    "torch.std(x, unbiased='a')", "x.var(0, 'a')", "torch.var_mean(x, unbiased=1)", "torch.sort(x, stable='a')",
    "x.sort(stable=1)", "x.numpy(force='a')", "x.numpy(force=None)",
]


@pytest.mark.parametrize("code", MISTYPED)
def test_mistyped_argument_of_an_overloaded_function(code):
    theirs, mine = _run(real, code), _run(ft, code)
    assert theirs[0] == mine[0] == "raise" and type(theirs[1]) is type(mine[1]) is TypeError, (theirs, mine)
    assert str(mine[1]) == str(theirs[1])
