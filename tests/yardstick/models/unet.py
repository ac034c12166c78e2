"""A small U-Net: (Conv2d, BatchNorm2d, ReLU) x 2 blocks, MaxPool2d down, ConvTranspose2d up,
skip connections joined with torch.cat, 1x1 output convolution; per-pixel cross entropy, RMSprop
with momentum and weight decay."""
import torch
import torch.nn as nn
import torch.nn.functional as F

CHANNELS, CLASSES, WIDTH, BATCH, SIZE = 3, 2, 4, 2, 13     # odd: the skip joins pad


class DoubleConv(nn.Module):
    """(convolution => [BN] => ReLU) * 2"""

    def __init__(self, in_channels, out_channels, mid_channels=None):
        super().__init__()
        if not mid_channels:
            mid_channels = out_channels
        self.double_conv = nn.Sequential(
            nn.Conv2d(in_channels, mid_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(mid_channels),
            nn.ReLU(inplace=True),
            nn.Conv2d(mid_channels, out_channels, kernel_size=3, padding=1, bias=False),
            nn.BatchNorm2d(out_channels),
            nn.ReLU(inplace=True),
        )

    def forward(self, x):
        return self.double_conv(x)


class Down(nn.Module):
    """Downscaling with maxpool then double conv"""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.maxpool_conv = nn.Sequential(nn.MaxPool2d(2), DoubleConv(in_channels, out_channels))

    def forward(self, x):
        return self.maxpool_conv(x)


class Up(nn.Module):
    """Upscaling then double conv"""

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.up = nn.ConvTranspose2d(in_channels, in_channels // 2, kernel_size=2, stride=2)
        self.conv = DoubleConv(in_channels, out_channels)

    def forward(self, x1, x2):
        x1 = self.up(x1)
        diffY = x2.size()[2] - x1.size()[2]
        diffX = x2.size()[3] - x1.size()[3]
        x1 = F.pad(x1, [diffX // 2, diffX - diffX // 2, diffY // 2, diffY - diffY // 2])
        x = torch.cat([x2, x1], dim=1)
        return self.conv(x)


class OutConv(nn.Module):

    def __init__(self, in_channels, out_channels):
        super().__init__()
        self.conv = nn.Conv2d(in_channels, out_channels, kernel_size=1)

    def forward(self, x):
        return self.conv(x)


class UNet(nn.Module):

    def __init__(self, n_channels, n_classes, width=64):
        super().__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.inc = DoubleConv(n_channels, width)
        self.down1 = Down(width, width * 2)
        self.down2 = Down(width * 2, width * 4)
        self.up1 = Up(width * 4, width * 2)
        self.up2 = Up(width * 2, width)
        self.outc = OutConv(width, n_classes)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x = self.up1(x3, x2)
        x = self.up2(x, x1)
        return self.outc(x)


def make_model():
    return UNet(CHANNELS, CLASSES, WIDTH)


def make_batches(rng, steps):
    return [(rng.standard_normal((BATCH, CHANNELS, SIZE, SIZE)), rng.integers(0, CLASSES, size=(BATCH, SIZE, SIZE)))
            for _ in range(steps)]


def make_optimizer(model):
    return torch.optim.RMSprop(model.parameters(), lr=1e-3, weight_decay=1e-8, momentum=0.9)


def train_step(model, optimizer, batch, carry):
    images, true_masks = batch
    model.train()
    criterion = nn.CrossEntropyLoss()
    masks_pred = model(images)
    loss = criterion(masks_pred, true_masks)
    optimizer.zero_grad(set_to_none=True)
    loss.backward()
    optimizer.step()
    return masks_pred, loss, carry


def evaluate(model, batch):
    images, true_masks = batch
    model.eval()
    with torch.no_grad():
        pred = model(images)
        return pred, F.cross_entropy(pred, true_masks)
