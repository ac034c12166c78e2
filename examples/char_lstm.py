"""A character-level LSTM language model: each line of a short built-in text is a sequence of
different length; the lines are padded (nn.utils.rnn.pad_sequence), packed unsorted
(pack_padded_sequence with enforce_sorted=False), run through a two-layer nn.LSTM, unpacked
(pad_packed_sequence) and scored with nn.CrossEntropyLoss (padding ignored); optim.Adam with
gradient clipping trains it for a few steps, then the model continues a prompt greedily,
one character at a time through the (h, c) state.

The weights are drawn in NumPy and loaded with load_state_dict, so both frameworks train the very
same network and print the same losses.
Runs unchanged with real PyTorch (`python examples/char_lstm.py --real`) or flowgrad.
"""
import math
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence

torch.set_default_dtype(torch.float64)

TEXT = """the quick brown fox jumps over the lazy dog
a stitch in time saves nine
all that glitters is not gold
the early bird catches the worm
where there is smoke there is fire
practice makes perfect
actions speak louder than words
"""

lines = TEXT.strip().split("\n")
chars = sorted(set(TEXT.replace("\n", ""))) + ["\n"]
index = {c: i for i, c in enumerate(chars)}
PAD = -100  # CrossEntropyLoss's default ignore_index
print(f"{len(lines)} lines, {len(chars)} characters:", repr("".join(chars)))


class CharLSTM(torch.nn.Module):
    def __init__(self, vocab, embed=12, hidden=32, layers=2):
        super().__init__()
        self.embed = torch.nn.Embedding(vocab, embed)
        self.lstm = torch.nn.LSTM(embed, hidden, num_layers=layers, batch_first=True)
        self.head = torch.nn.Linear(hidden, vocab)

    def forward(self, x, lengths=None, state=None):
        e = self.embed(x)
        if lengths is None:
            out, state = self.lstm(e, state)
        else:
            packed = pack_padded_sequence(e, lengths, batch_first=True, enforce_sorted=False)
            out, state = self.lstm(packed, state)
            out, _ = pad_packed_sequence(out, batch_first=True, total_length=x.shape[1])
        return self.head(out), state


model = CharLSTM(len(chars))
rng = np.random.default_rng(0)
weights = {}
for name, p in model.state_dict().items():  # PyTorch's default ranges, drawn in NumPy
    bound = 1.0 if name.startswith("embed") else 1 / math.sqrt(p.shape[-1] if name.startswith("head") else 32)
    weights[name] = torch.tensor(rng.uniform(-bound, bound, tuple(p.shape)))
print(model.load_state_dict(weights))
print(model)
print("parameters:", sum(p.numel() for p in model.parameters()))

# each line predicts itself shifted by one character, ending in a newline
inputs = [torch.tensor([index[c] for c in line]) for line in lines]
targets = [torch.tensor([index[c] for c in line[1:] + "\n"]) for line in lines]
x = pad_sequence(inputs, batch_first=True, padding_value=0)
y = pad_sequence(targets, batch_first=True, padding_value=PAD)
lengths = torch.tensor([len(line) for line in lines])
print("batch:", tuple(x.shape), "lengths:", lengths.tolist())

loss_fn = torch.nn.CrossEntropyLoss()
optimizer = torch.optim.Adam(model.parameters(), lr=0.02)
for step in range(1, 41):
    logits, _ = model(x, lengths)
    loss = loss_fn(logits.reshape(-1, len(chars)), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
    optimizer.step()
    if step == 1 or step % 5 == 0:
        print(f"step {step:2d}  loss {loss.item():.6f}  grad norm {norm.item():.6f}")


def continue_text(prompt, n=30):
    """Feed the prompt, then the most likely next character, n times."""
    model.eval()
    with torch.no_grad():
        logits, state = model(torch.tensor([[index[c] for c in prompt]]))
        out = prompt
        for _ in range(n):
            c = chars[int(logits[0, -1].argmax())]
            if c == "\n":
                break
            out += c
            logits, state = model(torch.tensor([[index[c]]]), state=state)
    return out


for prompt in ("the ", "all ", "pr"):
    print(repr(continue_text(prompt)))
