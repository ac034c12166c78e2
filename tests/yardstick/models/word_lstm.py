"""Word-level language model: embedding, stacked LSTM with dropout, decoder tied to the embedding,
hidden state carried between batches and cut from the graph by detaching (truncated BPTT), plain
SGD applied by hand after clipping the gradient norm."""
import torch
import torch.nn as nn
import torch.nn.functional as F

NTOKEN, EMSIZE, NLAYERS, BPTT, BATCH = 50, 16, 2, 7, 4
LR, CLIP = 0.5, 0.25
DETERMINISTIC = {"dropout": 0.0}


class RNNModel(nn.Module):
    """Encoder, recurrent module, decoder."""

    def __init__(self, ntoken, ninp, nhid, nlayers, dropout=0.5, tie_weights=False):
        super().__init__()
        self.ntoken = ntoken
        self.drop = nn.Dropout(dropout)
        self.encoder = nn.Embedding(ntoken, ninp)
        self.rnn = nn.LSTM(ninp, nhid, nlayers, dropout=dropout)
        self.decoder = nn.Linear(nhid, ntoken)
        if tie_weights:
            if nhid != ninp:
                raise ValueError("When using the tied flag, nhid must be equal to emsize")
            self.decoder.weight = self.encoder.weight
        self.init_weights()
        self.nhid = nhid
        self.nlayers = nlayers

    def init_weights(self):
        initrange = 0.1
        nn.init.uniform_(self.encoder.weight, -initrange, initrange)
        nn.init.zeros_(self.decoder.bias)
        nn.init.uniform_(self.decoder.weight, -initrange, initrange)

    def forward(self, input, hidden):
        emb = self.drop(self.encoder(input))
        output, hidden = self.rnn(emb, hidden)
        output = self.drop(output)
        decoded = self.decoder(output)
        decoded = decoded.view(-1, self.ntoken)
        return F.log_softmax(decoded, dim=1), hidden

    def init_hidden(self, bsz):
        weight = next(self.parameters())
        return (weight.new_zeros(self.nlayers, bsz, self.nhid),
                weight.new_zeros(self.nlayers, bsz, self.nhid))


def repackage_hidden(h):
    """Wraps hidden states in new Tensors, to detach them from their history."""
    if isinstance(h, torch.Tensor):
        return h.detach()
    return tuple(repackage_hidden(v) for v in h)


def make_model(dropout=0.2):
    return RNNModel(NTOKEN, EMSIZE, EMSIZE, NLAYERS, dropout, tie_weights=True)


def make_batches(rng, steps):
    stream = rng.integers(0, NTOKEN, size=(steps * BPTT + 1, BATCH))
    return [(stream[i * BPTT:(i + 1) * BPTT], stream[i * BPTT + 1:(i + 1) * BPTT + 1].reshape(-1))
            for i in range(steps)]


def make_optimizer(model):
    return None


def train_step(model, optimizer, batch, hidden):
    data, targets = batch
    model.train()
    if hidden is None:
        hidden = model.init_hidden(BATCH)
    criterion = nn.NLLLoss()
    model.zero_grad()
    hidden = repackage_hidden(hidden)
    output, hidden = model(data, hidden)
    loss = criterion(output, targets)
    loss.backward()
    torch.nn.utils.clip_grad_norm_(model.parameters(), CLIP)
    for p in model.parameters():
        p.data.add_(p.grad, alpha=-LR)
    return (output, hidden), loss, hidden


def evaluate(model, batch):
    data, targets = batch
    model.eval()
    with torch.no_grad():
        output, hidden = model(data, model.init_hidden(BATCH))
        return output, nn.NLLLoss()(output, targets)
