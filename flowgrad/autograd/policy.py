"""Per-facade policy: the knobs in which the frameworks differ, and their error message tables.

The core raises errors by kind with the facts (`policy.errors.implicit_nonscalar()`); the policy
of the facade in use renders them with its own exception class and text. The default policy is
PyTorch's, which is flowgrad's own semantics; the oneflow and paddle facades override entries.
"""
from __future__ import annotations

import dataclasses
import functools
from typing import Callable

from ..messages import TORCH_MESSAGES
from ..messages.own import text

_HINT = ("Hint: enable anomaly detection to find the operation that failed to compute its gradient, with "
         "torch.autograd.set_detect_anomaly(True, check_nan=False).")
_HINT_ANOMALY = ("Hint: the backtrace further above shows the operation that failed to compute its gradient. The "
                 "variable in question was changed in there or anywhere later. Good luck!")


_LEGACY = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
           "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool", "complex64": "ComplexFloat",
           "complex128": "ComplexDouble", "bfloat16": "BFloat16"}
# the C type names PyTorch's messages use for a dtype
_CTYPES = {"float32": "float", "float64": "double", "float16": "c10::Half", "int64": "long int", "int32": "int",
           "int16": "short int", "int8": "signed char", "uint8": "unsigned char", "bool": "bool",
           "complex64": "c10::complex<float>", "complex128": "c10::complex<double>", "bfloat16": "c10::BFloat16"}


def _legacy_type_name(np_dtype) -> str:
    return f"torch.{_LEGACY[str(np_dtype)]}Tensor"


def _render_fact(key: str, value, size_str: Callable):
    """Facts are raw (shapes as tuples, dtypes as NumPy dtypes); their names say how to print them."""
    if key.endswith("_shape"):
        return size_str(value)
    if key.endswith("_ctype"):
        return _CTYPES[str(value)]
    if key.endswith("_scalar"):
        return _LEGACY[str(value)]
    return value


def _torch_node_repr(node) -> str:
    return f"<{node.name().rsplit('::', 1)[-1]} object at {hex(id(node))}>"


def _torch_size(shape) -> str:
    return f"torch.Size([{', '.join(str(s) for s in shape)}])"


@dataclasses.dataclass
class Policy:
    """What a facade decides; the engine and ops read these fields, never the facade's name."""

    name: str = "torch"
    implicit_seed_any_shape: bool = False      # paddle: ones for any output shape
    allow_duplicate_roots: bool = True         # paddle: AssertionError on duplicates
    skip_nonrequiring_roots: bool = False      # paddle: silently skip constant roots
    free_every_node: bool = False              # paddle: any executed node refuses a second run
    retained_grad_accumulates: bool = True     # paddle: retained non-leaf grads are overwritten
    leaf_hooks_in_grad: bool = True            # paddle: leaf hooks do not apply to paddle.grad results
    allow_int_grads: bool = False              # paddle: integer tensors may carry gradients
    grads_require_grad: bool = False           # paddle: .grad tensors are created with stop_gradient=False
    detach_seeds: bool = False                 # paddle: seeds enter detached unless create_graph
    create_graph_retains: bool = False         # oneflow: create_graph=True retains the graph even over False
    grad_keeps_graph: bool = False             # paddle: grad() never frees the graph
    grad_unreached_inputs_unused: bool = False  # paddle: grad() inputs that need no grad count as unused
    grad_results_follow_create_graph: bool = False  # paddle: grad() results require grad iff create_graph
    grad_returns_list: bool = False            # paddle: grad() returns a list
    seed_count_exact: bool = False             # oneflow: more gradients than outputs is an error too
    release_needs_saved_tensor: bool = False   # oneflow: only a node that saved a tensor is released after a pass
    saving_nodes: frozenset = frozenset()      # oneflow: torch names of nodes its kernels save a tensor for
    check_versions: bool = True                # oneflow: no version counter check on saved tensors
    leaf_grad_fn_is_accumulator: bool = False  # oneflow: a used leaf's grad_fn is its (kept) accumulator
    compact_next_functions: bool = False       # oneflow: next_functions lists (node, 0) per requiring input
    function_strict_types: bool = False        # oneflow: Function.apply takes tensors or None, returns a tuple
    function_none_grad_error: bool = False     # oneflow: a None gradient for an input requiring grad is an error
    function_nondiff_grad_none: bool = False   # oneflow: a non-differentiable output's gradient is None
    negative_indices_wrap: bool = False        # paddle: gather / index_select count negative indices from the end
    sequence_tensors_stack: bool = False       # paddle: tensor([t1, t2]) stacks tensors instead of taking scalars
    values_fit_dtype: bool = True              # paddle: tensor(300, dtype=uint8), x[0] = 300 wrap, no error
    ints_cast_to_float: bool = False           # paddle: std / var / softmax of an integer tensor run in float
    arange_wrong_sign_empty: bool = False      # paddle: arange whose step points away from the end is empty
    sign_keeps_nan: bool = False               # paddle: sign(nan) is nan (PyTorch's is 0)
    one_bool_subtracts: bool = False           # paddle: x - True and a bool tensor beside a number subtract
    later_bools_are_ints: bool = True          # paddle: a bool in a list of sizes or dims after the first refused
    isin_views_tests: bool = True              # paddle: isin takes test elements of any layout (PyTorch views few)
    shape_tensors: bool = False                # paddle: a shape given as a tensor of sizes, or integral floats
    complex_dtypes: bool = True                # paddle, OneFlow: complex data refused (not yet checked against them)
    leaf_inplace_writes_first: bool = False    # paddle: a refused in-place op on a leaf has already written it
    detach_views_inplace: bool = False        # paddle: detach_() on a view detaches it
    hooks_keep_caller_grad_mode: bool = False  # paddle: tensor hooks run under the caller's grad mode
    double_grad_name: Callable | None = None  # paddle: node -> (its double-grad node's name, ties inputs) or None
    mixed_kind_promotion: bool = True          # paddle: two tensors of dim > 0 and different dtypes promote only
                                               # float with float or with complex
    messages: dict = dataclasses.field(default_factory=lambda: dict(TORCH_MESSAGES))
    size_str: Callable = _torch_size
    type_name: Callable = _legacy_type_name
    node_name: Callable = lambda node: node.names["torch"]   # the policy's column of the naming table
    node_repr: Callable = _torch_node_repr                    # `repr(grad_fn)`
    hint: str = _HINT
    hint_anomaly: str = _HINT_ANOMALY

    @property
    def errors(self) -> "_Errors":
        """The policy's exceptions by kind as attributes: `raise policy.errors.seed_shape(index=0, ...)`
        is `raise policy.errors.seed_shape(index=0, ...)`."""
        return _Errors(self)

    def error(self, kind: str, **facts) -> Exception:
        """Build the exception for `kind`, rendering shapes (facts named `*_shape`) the facade's way."""
        cls, template = self.messages[kind]
        return cls(template.format(**{k: _render_fact(k, v, self.size_str) for k, v in facts.items()}))


class _Errors:
    __slots__ = ("_policy",)

    def __init__(self, policy: Policy):
        self._policy = policy

    def __getattr__(self, kind: str) -> Callable[..., Exception]:
        if kind not in self._policy.messages:
            raise AttributeError(text("unknown_kind", policy=self._policy.name, kind=kind))
        return functools.partial(self._policy.error, kind)


TORCH = Policy()


def policy_of(*objs) -> Policy:
    """The facade policy of the first tensor or graph node among `objs`, looking inside lists, tuples
    and dict values in order (never into an iterator, which must not be consumed); PyTorch's (the
    core's own) when there is none."""
    stack = [iter(objs)]
    while stack:
        for x in stack[-1]:
            if isinstance(x, (list, tuple, dict)):
                stack.append(iter(x.values() if isinstance(x, dict) else x))
                break
            policy = getattr(x, "policy", None)
            if isinstance(policy, Policy):
                return policy
        else:
            stack.pop()
    return TORCH
