"""flowgrad's own words, which no framework has and no facade rewords: the errors of the `flowgrad
run` and `flowgrad check` commands, and the self-checks of flowgrad's tables (the message table
itself, the generated signature adapters) that fail at import time when a table is malformed.
Kept out of TORCH_MESSAGES: they are not a policy's. (`flowgrad port` has its own, messages/port.py.)"""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # flowgrad run / flowgrad check
    "unknown_framework": "unknown framework {framework!r}{where} (choose from {choices})",
    "facade_unavailable": "flowgrad's {framework} facade ({module}) is not available in this flowgrad",
    "no_python_files": "no Python files in {path!r}",
    "no_such_path": "no such file or directory: {path!r}",
    "not_a_number": "not a number: {text!r}",
    "not_a_percentage": "{text} is not between 0 and 100",
    # the message table
    "kinds_twice": "message kinds defined twice: {kinds}",
    "unknown_kind": "the {policy} policy has no message of kind {kind!r}",
    # the signature adapters (facade/signatures.py), checked as they are generated
    "adapter_no_parameter": "{name}: the op has no parameter {target!r}",
    "adapter_unfed": "{name}: nothing feeds the op's required parameters {missing}",
    "adapter_varargs_gap": "{name}: the op's varargs follow an unfilled parameter",
    "adapter_positional_gap": "{name}: positional-only op parameter {parameter!r} after a gap",
    "adapter_unreached": "{name}: required parameter {parameter!r} reaches no op parameter",
    # the argument-type table (facade/argtypes.py)
    "argtypes_unknown_kind": "unknown argument kind {kind!r}",
    # a facade package's lazily loaded names (facade/lazy.py): Python's own words
    "module_no_attribute": "module {module!r} has no attribute {name!r}",
}


def text(kind: str, **facts) -> str:
    """The message of `kind` with its facts."""
    return MESSAGES[kind].format(**facts)
