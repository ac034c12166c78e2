"""Sub-pixel super-resolution: convolutions with orthogonal initialisation, a PixelShuffle that
turns upscale_factor^2 channels into an image upscale_factor times larger; MSE loss, Adam."""
import torch
import torch.nn as nn
import torch.nn.init as init

UPSCALE, BATCH, SIZE = 2, 2, 6


class Net(nn.Module):
    def __init__(self, upscale_factor):
        super(Net, self).__init__()
        self.relu = nn.ReLU()
        self.conv1 = nn.Conv2d(1, 16, (5, 5), (1, 1), (2, 2))
        self.conv2 = nn.Conv2d(16, 16, (3, 3), (1, 1), (1, 1))
        self.conv3 = nn.Conv2d(16, 8, (3, 3), (1, 1), (1, 1))
        self.conv4 = nn.Conv2d(8, upscale_factor ** 2, (3, 3), (1, 1), (1, 1))
        self.pixel_shuffle = nn.PixelShuffle(upscale_factor)
        self._initialize_weights()

    def forward(self, x):
        x = self.relu(self.conv1(x))
        x = self.relu(self.conv2(x))
        x = self.relu(self.conv3(x))
        x = self.pixel_shuffle(self.conv4(x))
        return x

    def _initialize_weights(self):
        init.orthogonal_(self.conv1.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv2.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv3.weight, init.calculate_gain("relu"))
        init.orthogonal_(self.conv4.weight)



def make_model():
    return Net(upscale_factor=UPSCALE)


def make_batches(rng, steps):
    return [(rng.random((BATCH, 1, SIZE, SIZE)), rng.random((BATCH, 1, SIZE * UPSCALE, SIZE * UPSCALE)))
            for _ in range(steps)]


def make_optimizer(model):
    return torch.optim.Adam(model.parameters(), lr=0.01)


def train_step(model, optimizer, batch, carry):
    input, target = batch
    criterion = nn.MSELoss()
    optimizer.zero_grad()
    output = model(input)
    loss = criterion(output, target)
    loss.backward()
    optimizer.step()
    return output, loss, carry
