"""Messages of modules, layers, functional and init (flowgrad/nn)."""

MESSAGES: dict[str, tuple[type, str]] = {
    # recurrent layers (nn/rnn.py) and sequence packing (nn/rnn_utils.py)
    "rnn_dropout_range": (ValueError, "dropout should be a number in range [0, 1] representing the probability of "
                                      "an element being zeroed"),
    "rnn_dropout_one_layer": (UserWarning, "dropout option adds dropout after all but last recurrent layer, so "
                                           "non-zero dropout expects num_layers greater than 1, but got "
                                           "dropout={dropout} and num_layers={num_layers}"),
    "rnn_arg_type": (TypeError, "{arg} should be of type {expected}, got: {got}"),
    "rnn_arg_positive": (ValueError, "{arg} must be greater than zero"),
    "rnn_proj_negative": (ValueError, "proj_size should be a positive integer or zero to disable projections"),
    "rnn_proj_too_big": (ValueError, "proj_size has to be smaller than hidden_size"),
    "rnn_proj_not_lstm": (ValueError, "proj_size argument is only supported for LSTM, not RNN or GRU"),
    "rnn_mode": (ValueError, "Unrecognized RNN mode: {mode}"),
    "rnn_nonlinearity": (ValueError, "Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."),
    "rnn_cell_nonlinearity": (RuntimeError, "Unknown nonlinearity: {nonlinearity}"),
    "rnn_input_dims": (ValueError, "RNN: Expected input to be 2D or 3D, got {ndim}D tensor instead"),
    "rnn_lstm_gru_input_dims": (ValueError, "{name}: Expected input to be 2D or 3D, got {ndim}D instead"),
    "rnn_hx_dims": (RuntimeError, "For {batched} input, hx should also be {want} but got {ndim}-D tensor"),
    "rnn_lstm_hx_dims": (RuntimeError, "For {batched} input, hx and cx should also be {want} but got ({h}-D, {c}-D) "
                                       "tensors"),
    "rnn_input_dtype": (ValueError, "RNN input dtype ({input_dtype}) does not match weight dtype ({weight_dtype}). "
                                    "Convert input: input.to({weight_dtype}), or convert model: "
                                    "model.to({input_dtype})"),
    "rnn_input_ndim": (RuntimeError, "input must have {want} dimensions, got {ndim}"),
    "rnn_input_size": (RuntimeError, "input.size(-1) must be equal to input_size. Expected {want}, got {got}"),
    "rnn_hidden_size": (RuntimeError, "Expected {which} size {want}, got {got}"),
    "rnn_empty_sequence": (RuntimeError, "Expected sequence length to be larger than 0 in RNN"),
    "rnn_cell_input_dims": (ValueError, "{name}: Expected input to be 1D or 2D, got {ndim}D instead"),
    "rnn_cell_hidden_dims": (ValueError, "{name}: Expected {which} to be 1D or 2D, got {ndim}D instead"),
    "rnn_cell_input_size": (RuntimeError, "input has inconsistent input_size: got {got} expected {want}"),
    "rnn_cell_batch": (RuntimeError, "Input batch size {batch} doesn't match hidden{index} batch size {got}"),
    "rnn_cell_hidden_size": (RuntimeError, "hidden{index} has inconsistent hidden_size: got {got}, expected {want}"),
    "rnn_pad_iterable": (RuntimeError, "pad_sequence: Expected iterable for input sequences, but got arg of type: "
                                       "{type}"),
    "rnn_pad_empty": (RuntimeError, "received an empty list of sequences"),
    "rnn_pad_side": (RuntimeError, "Expected padding_side to be one of left or right, but got {side}."),
    "rnn_pad_output_shape": (RuntimeError, "output with shape [{out}] doesn't match the broadcast shape [{wide}]"),
    "rnn_pack_lengths": (RuntimeError, "'lengths' argument should be a 1D CPU int64 tensor, but got {ndim}D {device} "
                                       "Long tensor"),
    "rnn_pack_empty": (RuntimeError, "Cannot pack empty tensors."),
    "rnn_pack_batch": (RuntimeError, "Expected `len(lengths)` to be equal to batch_size, but got {got} "
                                     "(batch_size={batch})"),
    "rnn_pack_nonpositive": (RuntimeError, "Length of all samples has to be greater than 0, but found an element in "
                                           "'lengths' that is <= 0"),
    "rnn_pack_unsorted": (RuntimeError, "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                                        "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                                        "pack_sequence to sidestep this requirement if you do not need ONNX "
                                        "exportability."),
    "rnn_total_length": (ValueError, "Expected total_length to be at least the length of the longest sequence in "
                                     "input, but got total_length={total} and max sequence length being {longest}"),
    "rnn_batch_sizes_device": (ValueError, "batch_sizes should always be on CPU. Instances of PackedSequence should "
                                           "never be created manually. They should be instantiated by functions like "
                                           "pack_sequence and pack_padded_sequences in nn.utils.rnn. "
                                           "https://pytorch.org/docs/stable/nn.html#torch.nn.utils.rnn.pack_sequence"),
    "rnn_packed_args": (AssertionError, "Expected data to be a list or tuple of length 2"),
}
