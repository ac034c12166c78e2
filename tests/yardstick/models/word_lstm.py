"""Word-level language model: embedding, stacked LSTM with dropout, decoder tied to the embedding,
hidden state carried between batches and cut from the graph by detaching (truncated BPTT), plain
SGD applied by hand after clipping the gradient norm; the corpus batchified into columns and cut
into BPTT windows by get_batch; evaluation of the whole model saved with torch.save and loaded back."""
import io

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


def batchify(data, bsz):
    """Trim the token stream to a multiple of bsz and lay it out as bsz columns."""
    nbatch = data.size(0) // bsz
    data = data.narrow(0, 0, nbatch * bsz)
    return data.view(bsz, -1).t().contiguous()


def get_batch(source, i):
    seq_len = min(BPTT, len(source) - 1 - i)
    data = source[i:i + seq_len]
    target = source[i + 1:i + 1 + seq_len].view(-1)
    return data, target


def make_model(dropout=0.2):
    return RNNModel(NTOKEN, EMSIZE, EMSIZE, NLAYERS, dropout, tie_weights=True)


def make_batches(rng, steps):
    """The same corpus at every step and the window to train on: (corpus, step)."""
    corpus = rng.integers(0, NTOKEN, size=(steps * BPTT + 1) * BATCH + 3)
    return [(corpus, i) for i in range(steps)]


def make_optimizer(model):
    return None


def train_step(model, optimizer, batch, hidden):
    corpus, step = batch
    data, targets = get_batch(batchify(corpus, BATCH), step.item() * BPTT)
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
    corpus, step = batch
    data_source = batchify(corpus, BATCH)
    f = io.BytesIO()
    torch.save(model, f)
    f.seek(0)
    model = torch.load(f, weights_only=False)
    model.rnn.flatten_parameters()
    model.eval()
    total_loss = 0.
    hidden = model.init_hidden(BATCH)
    outputs = []
    with torch.no_grad():
        for i in range(0, data_source.size(0) - 1, BPTT):
            data, targets = get_batch(data_source, i)
            output, hidden = model(data, hidden)
            hidden = repackage_hidden(hidden)
            total_loss += len(data) * nn.NLLLoss()(output, targets).item()
            outputs.append(output)
    return torch.cat(outputs), torch.tensor(total_loss / (len(data_source) - 1))
