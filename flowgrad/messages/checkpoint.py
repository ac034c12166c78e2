"""Messages of activation checkpointing (flowgrad/autograd/checkpoint.py)."""

_DEBUG_TIP = """
Tip: To see a more detailed error message, either pass `debug=True` to
`torch.utils.checkpoint.checkpoint(...)` or wrap the code block
with `with torch.utils.checkpoint.set_checkpoint_debug_enabled(True):` to
enable checkpoint\u2011debug mode globally.

If this error occurs under torch.compile with automatic_dynamic_shapes enabled,
it may be because the recomputation selected a different compiled graph than the
forward pass (e.g., a dynamic graph instead of the original static graph).
To fix this, either:
  - Use torch._dynamo.mark_dynamic() to explicitly mark varying dimensions as
    dynamic upfront, avoiding the static-to-dynamic transition.
  - Call torch._C._dynamo.eval_frame._set_lru_cache(False) to disable LRU cache
    reordering, which can change which graph is checked first between forward
    and recompute.
See https://github.com/pytorch/pytorch/issues/166926 for more details and
workaround examples.
"""
_EXPLICIT = ("the use_reentrant parameter should be passed explicitly. {when} use_reentrant=False is recommended, "
             "but if you need to preserve the current default behavior, you can pass use_reentrant=True. Refer to "
             "docs for more details on the differences between the two variants.")

MESSAGES: dict[str, tuple[type, str]] = {
    "checkpoint_use_reentrant": (UserWarning, "torch.utils.checkpoint: " + _EXPLICIT.format(
        when="Starting in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception.")),
    "checkpoint_sequential_use_reentrant": (UserWarning, "torch.utils.checkpoint.checkpoint_sequential: " +
                                            _EXPLICIT.format(when="In version 2.9 we will raise an exception if "
                                                                  "use_reentrant is not passed.")),
    "checkpoint_unexpected_kwargs": (ValueError, "Unexpected keyword arguments: {names}"),
    "checkpoint_reentrant_options": (ValueError, "Passing `context_fn` or `debug` is only supported when "
                                                 "use_reentrant=False."),
    "checkpoint_determinism": (ValueError, "determinism_check should be one of {allowed}, but got {got}"),
    "checkpoint_no_input_requires_grad": (UserWarning, "None of the inputs have requires_grad=True. Gradients will "
                                                       "be None"),
    "checkpoint_no_output_requires_grad": (RuntimeError, "none of output has requires_grad=True, this checkpoint() "
                                                         "is not necessary"),
    "checkpoint_reentrant_grad": (RuntimeError, "When use_reentrant=True, torch.utils.checkpoint is incompatible with "
                                                ".grad() or passing an `inputs` parameter to .backward(). To resolve "
                                                "this error, you can either set use_reentrant=False, or call "
                                                ".backward() without passing the `inputs` argument."),
    "checkpoint_detach_type": (RuntimeError, "Only tuple of tensors is supported. Got Unsupported input type: {type}"),
    "checkpoint_saved_more": (RuntimeError, "torch.utils.checkpoint: trying to save more tensors during "
                                            "recomputation than during the original forward pass.\n" + _DEBUG_TIP),
    "checkpoint_saved_count": (RuntimeError, "torch.utils.checkpoint: A different number of tensors was saved during "
                                             "the original forward and recomputation.\nNumber of tensors saved during "
                                             "forward: {forward}\nNumber of tensors saved during recomputation: "
                                             "{recomputed}.\n" + _DEBUG_TIP),
    "checkpoint_metadata": (RuntimeError, "torch.utils.checkpoint: Recomputed values for the following tensors have "
                                          "different metadata than during the forward pass.\n{mismatched}.\n"
                                          + _DEBUG_TIP),
    "checkpoint_metadata_entry": (RuntimeError, "tensor at position {index}:\nsaved metadata: {saved}\nrecomputed "
                                                "metadata: {recomputed}\n"),
}
