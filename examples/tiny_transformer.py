"""A tiny decoder-only Transformer: token and position embeddings, two pre-norm
nn.TransformerEncoderLayer blocks under a causal mask (nn.Transformer.generate_square_subsequent_mask),
a padding mask for the shorter sequences, and a linear head. It learns to continue counting modulo
10 from any start and step, trained with optim.AdamW for a few steps; then it continues prompts
greedily and shows one head's attention weights (nn.MultiheadAttention with need_weights).

The weights are drawn in NumPy and loaded with load_state_dict, so both frameworks train the very
same network and print the same losses.
Runs unchanged with real PyTorch (`python examples/tiny_transformer.py --real`) or flowgrad.
"""
import sys

import numpy as np

if "--real" not in sys.argv:  # flowgrad unless --real; `flowgrad run` and compat/ need no such lines
    from flowgrad import shim
    shim.install("torch")
import torch

torch.set_default_dtype(torch.float64)
VOCAB, PAD, D_MODEL, LENGTH = 10, 10, 16, 8


class TinyLM(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.tokens = torch.nn.Embedding(VOCAB + 1, D_MODEL, padding_idx=PAD)
        self.positions = torch.nn.Embedding(LENGTH, D_MODEL)
        layer = torch.nn.TransformerEncoderLayer(D_MODEL, nhead=2, dim_feedforward=32, dropout=0.0,
                                                 activation="gelu", batch_first=True, norm_first=True)
        self.blocks = torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
        self.head = torch.nn.Linear(D_MODEL, VOCAB)

    def forward(self, x, padding=None):
        n = x.shape[1]
        h = self.tokens(x) + self.positions(torch.arange(n))
        mask = torch.nn.Transformer.generate_square_subsequent_mask(n)
        return self.head(self.blocks(h, mask=mask, src_key_padding_mask=padding, is_causal=True))


model = TinyLM()
rng = np.random.default_rng(0)
weights = {}
for name, p in model.state_dict().items():  # small random weights, unit LayerNorm scales
    if "norm" in name:
        weights[name] = torch.ones(p.shape) if name.endswith("weight") else torch.zeros(p.shape)
    else:
        weights[name] = torch.tensor(rng.normal(0.0, 0.2, tuple(p.shape)))
weights["tokens.weight"][PAD] = 0.0
print(model.load_state_dict(weights))
print("parameters:", sum(p.numel() for p in model.parameters()))

# sequences counting from `start` in steps of `step` (mod 10); every third one is shorter, padded
starts, steps = np.meshgrid(np.arange(10), np.arange(1, 4))
data = (starts.reshape(-1, 1) + steps.reshape(-1, 1) * np.arange(LENGTH)) % VOCAB
lengths = np.where(np.arange(len(data)) % 3 == 0, LENGTH - 2, LENGTH)
padding = np.arange(LENGTH) >= lengths[:, None]
data[padding] = PAD
x = torch.tensor(data[:, :-1])
y = torch.tensor(np.where(padding[:, 1:], -100, data[:, 1:]))
pad = torch.tensor(np.where(padding[:, :-1], -np.inf, 0.0))  # additive, like the causal mask
print("batch:", tuple(x.shape), "padded positions:", int(padding[:, :-1].sum()))

optimizer = torch.optim.AdamW(model.parameters(), lr=0.01, weight_decay=0.01)
loss_fn = torch.nn.CrossEntropyLoss()
for step in range(1, 101):
    loss = loss_fn(model(x, pad).reshape(-1, VOCAB), y.reshape(-1))
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
    if step == 1 or step % 20 == 0:
        print(f"step {step:2d}  loss {loss.item():.6f}")

model.eval()
with torch.no_grad():
    for prompt in ([3, 4, 5], [7, 9, 1], [0, 3]):
        seq = list(prompt)
        while len(seq) < LENGTH:
            seq.append(int(model(torch.tensor([seq]))[0, -1].argmax()))
        print(prompt, "->", seq)
    layer = model.blocks.layers[0]
    h = layer.norm1(model.tokens(torch.tensor([[2, 4, 6, 8]])) + model.positions(torch.arange(4)))
    _, attention = layer.self_attn(h, h, h, attn_mask=torch.nn.Transformer.generate_square_subsequent_mask(4),
                                   average_attn_weights=False)
    print("head 0 attention of [2, 4, 6, 8]:")
    for row in attention[0, 0].tolist():
        print("  " + " ".join(f"{w:.4f}" for w in row))
