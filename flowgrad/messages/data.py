"""Messages of datasets, samplers and the DataLoader (flowgrad/data.py)."""

MESSAGES: dict[str, tuple[type, str]] = {
    # datasets and random_split
    "data_getitem": (NotImplementedError, "Subclasses of Dataset should implement __getitem__."),
    "data_tensor_sizes": (AssertionError, "Size mismatch between tensors"),
    "data_concat_empty": (AssertionError, "datasets should not be an empty iterable"),
    "data_concat_iterable": (AssertionError, "ConcatDataset does not support IterableDataset"),
    "data_concat_index": (ValueError, "absolute value of index should not exceed dataset length"),
    "data_split_fraction": (ValueError, "Fraction at index {index} is not between 0 and 1"),
    "data_split_empty": (UserWarning, "Length of split at index {index} is 0. This might result in an empty dataset."),
    "data_split_sum": (ValueError, "Sum of input lengths does not equal the length of the input dataset!"),
    # samplers
    "data_replacement": (TypeError, "replacement should be a boolean value, but got replacement={value}"),
    "data_num_samples": (ValueError, "num_samples should be a positive integer value, but got num_samples={value}"),
    "data_batch_size": (ValueError, "batch_size should be a positive integer value, but got batch_size={value}"),
    "data_drop_last": (ValueError, "drop_last should be a boolean value, but got drop_last={value}"),
    # collation
    "data_collate_sizes": (RuntimeError, "each element in list of batch should be of equal size"),
    "data_collate_type": (TypeError, "default_collate: batch must contain tensors, numpy arrays, numbers, dicts or "
                                     "lists; found {type}"),
    # DataLoader arguments
    "data_num_workers": (ValueError, "num_workers option should be non-negative; use num_workers=0 to disable "
                                     "multiprocessing."),
    "data_timeout": (ValueError, "timeout option should be non-negative"),
    "data_prefetch_without_workers": (ValueError, "prefetch_factor option could only be specified in "
                                                  "multiprocessing.let num_workers > 0 to enable multiprocessing, "
                                                  "otherwise set prefetch_factor to None."),
    "data_prefetch_factor": (ValueError, "prefetch_factor option should be non-negative"),
    "data_persistent_without_workers": (ValueError, "persistent_workers option needs num_workers > 0"),
    "data_context_without_workers": (ValueError, "multiprocessing_context can only be used with multi-process "
                                                 "loading (num_workers > 0), but got num_workers={num_workers}"),
    "data_context_method": (ValueError, "multiprocessing_context option should specify a valid start method in "
                                        "{methods!r}, but got multiprocessing_context={context!r}"),
    "data_context_type": (TypeError, "multiprocessing_context option should be a valid context object or a string "
                                     "specifying the start method, but got multiprocessing_context={context}"),
    "data_iterable_option": (ValueError, "DataLoader with IterableDataset: expected unspecified {option} option, but "
                                         "got {option}={value}"),
    "data_sampler_shuffle": (ValueError, "sampler option is mutually exclusive with shuffle"),
    "data_batch_sampler_exclusive": (ValueError, "batch_sampler option is mutually exclusive with batch_size, "
                                                 "shuffle, sampler, and drop_last"),
    "data_no_batch_drop_last": (ValueError, "batch_size=None option disables auto-batching and is mutually exclusive "
                                            "with drop_last"),
    "data_attribute_frozen": (ValueError, "{attr} attribute should not be set after {cls} is initialized"),
    # iterating a DataLoader
    "data_pin_memory_device": (UserWarning, "pin_memory_device is deprecated, the current accelerator will be used as "
                                            "the device,ignore pin_memory_device='{device}'."),
    "data_pin_memory_unavailable": (UserWarning, "'pin_memory' argument is set as true but no accelerator is found, "
                                                 "then device pinned memory won't be used."),
    "data_single_process_timeout": (AssertionError, "_SingleProcessDataLoaderIter requires timeout == 0"),
    "data_timed_out": (RuntimeError, "DataLoader timed out after {timeout} seconds"),
    # raised with the class of the worker's exception (RuntimeError when that class cannot take the text)
    "data_worker_raised": (RuntimeError, "Caught {type} in DataLoader worker process {worker}.\nOriginal {trace}"),
}
