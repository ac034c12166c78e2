"""The words of `flowgrad port` (flowgrad/port): the reasons written beside what a port leaves in
place, the autograd differences it flags, and its command-line errors. They are flowgrad's words,
not a framework's, so no facade rewords them and they stay out of TORCH_MESSAGES."""
from __future__ import annotations

MESSAGES: dict[str, str] = {
    # why an API is left in place (written after `# flowgrad port: `)
    "no_counterpart": "{api} has no {target} counterpart in flowgrad's facades; left as written",
    "no_module": "{api} is a module {target} has no counterpart for; left as written",
    "other_meaning": "{api} exists but means another operation; left as written",
    "moved": "{api} lives in another module; import it from there",
    "no_root_import": "{api} needs `import {target}`; left as written",
    "no_parameter": "{api} takes no counterpart of argument {name!r}; kept as written",
    "scheduler_form": "{api} takes the optimizer, {target}'s scheduler is the optimizer's learning_rate: ported "
                      "only as `name = {api}(optimizer, ...)`; left as written",
    "scheduler_is_rate": "{api} is the optimizer's learning_rate in {source}, where {target}'s scheduler takes the "
                         "optimizer: build the optimizer first and the scheduler from it; left as written",
    "layout_only": "{api} takes one layout only, {name}={value}, where {source}'s defaults to {name}={default}: "
                   "the port computes along other axes unless the source passes {name}={value} (and lays its "
                   "inputs out so)",
    "sequence_length_total": "paddle's RNN output keeps the input's length, where pad_packed_sequence without "
                             "total_length pads to the longest sequence only",
    "assumed_tensor": "assumed tensor: {why}",
    "added_helper": "added: {api} has no {target} counterpart; this function computes it in "
                    "{target}'s public API",
    "added_needed": "added: a function the functions below call, in {target}'s public API",
    "added_by_place": "added: {api} keys a parameter's state by its place in the optimizer, {target} by the "
                      "parameter's name; this function keys it by place, in {target}'s public API",
    "added_state": "added: {target}'s optimizers have no {api}: this function reads it from the accumulators "
                   "{target} keeps, in {target}'s public API",
    # autograd semantics that differ (flags)
    "flag_nonscalar_backward": "backward() without a gradient on an output that may not be a scalar: {source} {source_does}, "
                               "{target} {target_does}",
    "flag_retain_graph": "a second pass through this graph with no retain_graph=True on the first: {source} may "
                         "keep the graph where {target} frees it ({why}); pass retain_graph=True to the first",
    "flag_grad_accumulates": ".grad accumulates across iterations of this loop: nothing zeroes it between "
                             "backward() calls",
    "flag_transposed_init": "values made from a parameter's shape: {paddle}'s Linear keeps its weight as [in, out], "
                            "{other}'s as [out, in], so the same values land transposed and the layer computes "
                            "another function; draw a Linear weight in the source's shape and transpose it (and "
                            "an attention's in_proj_weight [3 * d, d] whole, split into {paddle}'s q / k / v "
                            "projections, each piece transposed)",
    "flag_linear_weight_inplace": "{api} writes a Linear weight by place: {paddle}'s Linear keeps its weight as "
                                  "[in, out], {other}'s as [out, in]; transpose what it writes",
    "flag_pad_order": "pad(): a list of two numbers per dimension of the input is read from the first dimension "
                      "in {paddle}, from the last in {other} (a shorter list is read from the last in both); "
                      "reverse the pairs of such a list",
    "flag_ignored_label_mean": "mean cross entropy with a negative ignore_index (the default -100): {paddle} divides "
                               "the sum by every label, ignored ones included, {other} by the labels kept, so the "
                               "loss and its gradients differ wherever a label is ignored; to keep {other}'s mean, "
                               "take reduction='sum' and divide by the number of labels not ignored",
    "flag_attention_keywords": "{names}: {other}'s attention keywords, which {paddle}'s attention layers have not: "
                               "{paddle}'s forward takes one mask (src_mask / attn_mask, broadcast to [batch, heads, "
                               "query, key]; a float mask is added as in {other}, a bool mask keeps the True "
                               "positions where {other} masks them out), returns no attention weights unless built "
                               "with need_weights=True, and has no is_causal; combine the masks by hand",
    "flag_policy": "{field} ({why}): {source_value} in {source}, {target_value} in {target}",
    # the command line
    "same_framework": "--from and --to are both {framework}: nothing to port",
    "unknown_framework": "unknown framework {framework!r} (choose from {choices})",
    "missing_file": "can't open file {path!r}: [Errno 2] No such file or directory",
    "parse_error": "{path}:{line}:{column}: the script does not parse: {error} (nothing written)",
    "output_exists": "{path} exists: refusing to overwrite it (pass --force)",
    "needs_libcst": "flowgrad port needs libcst: pip install 'flowgrad[port]' (or pip install libcst)",
    "script_failed": "the {side} script failed under --verify ({framework} facade):\n{traceback}",
    "verify_differs": "differ at step {step}: {tensor} (max abs difference {difference:.3g}, tolerance "
                      "rtol={rtol:g} atol={atol:g})",
    "verify_shape": "differ at step {step}: {tensor} has shape {source_shape} in the original and {target_shape} in "
                    "the port",
    "verify_count": "differ after step {step}: the original recorded {source_count} tensors there, the port "
                    "{target_count}",
    "verify_foreign_import": "No module named {module!r}: flowgrad port --verify runs the port on the {framework} "
                             "facade alone",
    "verify_equivalent": "equivalent for {steps} steps ({tensors} tensors compared, rtol={rtol:g} atol={atol:g})",
}


def text(kind: str, **facts) -> str:
    """The message of `kind` with its facts."""
    return MESSAGES[kind].format(**facts)
