"""Sine-wave sequence prediction: two stacked nn.LSTMCell stepped by hand over the sequence, then
fed their own predictions for `future` steps; LBFGS with a closure where the framework has it,
else Adam."""
import numpy as np
import torch
import torch.nn as nn

HIDDEN, BATCH, LENGTH, FUTURE = 12, 3, 16, 4
USE_LBFGS = True
FLOAT64_ONLY = True          # the hidden states are made in double, as the model is trained


class Sequence(nn.Module):
    def __init__(self):
        super(Sequence, self).__init__()
        self.lstm1 = nn.LSTMCell(1, HIDDEN)
        self.lstm2 = nn.LSTMCell(HIDDEN, HIDDEN)
        self.linear = nn.Linear(HIDDEN, 1)

    def forward(self, input, future=0):
        outputs = []
        h_t = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        c_t = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        h_t2 = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)
        c_t2 = torch.zeros(input.size(0), HIDDEN, dtype=torch.double)

        for input_t in input.split(1, dim=1):
            h_t, c_t = self.lstm1(input_t, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        for i in range(future):  # if we should predict the future
            h_t, c_t = self.lstm1(output, (h_t, c_t))
            h_t2, c_t2 = self.lstm2(h_t, (h_t2, c_t2))
            output = self.linear(h_t2)
            outputs += [output]
        outputs = torch.cat(outputs, dim=1)
        return outputs


def make_model():
    return Sequence()


def make_batches(rng, steps):
    out = []
    for _ in range(steps):
        x = np.arange(LENGTH + 1) + rng.integers(-20, 20, size=(BATCH, 1))
        data = np.sin(x / 4.0)
        out.append((data[:, :-1], data[:, 1:]))
    return out


def make_optimizer(model):
    if USE_LBFGS:
        return torch.optim.LBFGS(model.parameters(), lr=0.8, max_iter=4)
    return torch.optim.Adam(model.parameters(), lr=0.05)


def train_step(model, optimizer, batch, carry):
    input, target = batch
    criterion = nn.MSELoss()
    record = {}

    def closure():
        optimizer.zero_grad()
        out = model(input)
        loss = criterion(out, target)
        loss.backward()
        record.setdefault("first", (out, loss))
        return loss
    optimizer.step(closure)
    out, loss = record["first"]
    return out, loss, carry


def evaluate(model, batch):
    input, target = batch
    with torch.no_grad():
        pred = model(input, future=FUTURE)
        return pred, nn.MSELoss()(pred[:, :-FUTURE], target)
