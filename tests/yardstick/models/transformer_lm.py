"""Transformer language model: embedding scaled by sqrt(d_model), sinusoidal positional encoding
kept as a buffer, nn.TransformerEncoder under a causal mask, log_softmax decoder; SGD with a StepLR
schedule and gradient clipping."""
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

NTOKEN, EMSIZE, NHEAD, NHID, NLAYERS, BPTT, BATCH = 40, 16, 2, 32, 2, 6, 3
DETERMINISTIC = {"dropout": 0.0}


class PositionalEncoding(nn.Module):
    """Adds sin / cos of the position at geometric frequencies to the embedding."""

    def __init__(self, d_model, dropout=0.1, max_len=5000):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)
        pe = torch.zeros(max_len, d_model)
        position = torch.arange(0, max_len, dtype=torch.float).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, d_model, 2).float() * (-math.log(10000.0) / d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        pe = pe.unsqueeze(0).transpose(0, 1)
        self.register_buffer("pe", pe)

    def forward(self, x):
        x = x + self.pe[:x.size(0), :]
        return self.dropout(x)


class TransformerModel(nn.Module):
    """Encoder-only Transformer over a (sequence, batch) token grid."""

    def __init__(self, ntoken, ninp, nhead, nhid, nlayers, dropout=0.5):
        super().__init__()
        self.model_type = "Transformer"
        self.src_mask = None
        self.pos_encoder = PositionalEncoding(ninp, dropout, max_len=64)
        encoder_layers = nn.TransformerEncoderLayer(ninp, nhead, nhid, dropout)
        self.transformer_encoder = nn.TransformerEncoder(encoder_layers, nlayers)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.ninp = ninp
        self.decoder = nn.Linear(ninp, ntoken)
        self.init_weights()

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, src, has_mask=True):
        if has_mask:
            if self.src_mask is None or self.src_mask.size(0) != len(src):
                mask = nn.Transformer.generate_square_subsequent_mask(len(src), dtype=self.decoder.weight.dtype)
                self.src_mask = mask
        else:
            self.src_mask = None
        src = self.encoder(src) * math.sqrt(self.ninp)
        src = self.pos_encoder(src)
        output = self.transformer_encoder(src, self.src_mask)
        output = self.decoder(output)
        return F.log_softmax(output, dim=-1)


def make_model(dropout=0.2):
    return TransformerModel(NTOKEN, EMSIZE, NHEAD, NHID, NLAYERS, dropout)


def make_batches(rng, steps):
    stream = rng.integers(0, NTOKEN, size=(steps * BPTT + 1, BATCH))
    return [(stream[i * BPTT:(i + 1) * BPTT], stream[i * BPTT + 1:(i + 1) * BPTT + 1].reshape(-1))
            for i in range(steps)]


def make_optimizer(model):
    optimizer = torch.optim.SGD(model.parameters(), lr=0.5)
    scheduler = torch.optim.lr_scheduler.StepLR(optimizer, 1, gamma=0.95)
    return optimizer, scheduler


def train_step(model, optimizer, batch, carry):
    data, targets = batch
    optimizer, scheduler = optimizer
    model.train()
    criterion = nn.NLLLoss()
    optimizer.zero_grad()
    output = model(data)
    loss = criterion(output.view(-1, NTOKEN), targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), 0.5)
    optimizer.step()
    scheduler.step()
    return output, loss, carry


def evaluate(model, batch):
    data, targets = batch
    model.eval()
    with torch.no_grad():
        output = model(data)
        return output, nn.NLLLoss()(output.view(-1, NTOKEN), targets)
