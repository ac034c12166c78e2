"""Feed-forward style-transfer network: reflection-padded convolutions, affine InstanceNorm2d,
residual blocks, nearest-neighbour upsampling before the up-convolutions; a content MSE, a style
loss between Gram matrices of ImageNet-normalised images, a total variation term, Adam."""
import torch
import torch.nn as nn

BATCH, SIZE = 2, 8


class TransformerNet(torch.nn.Module):
    def __init__(self, width=32):
        super(TransformerNet, self).__init__()
        # Initial convolution layers
        self.conv1 = ConvLayer(3, width, kernel_size=9, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(width, affine=True)
        self.conv2 = ConvLayer(width, width * 2, kernel_size=3, stride=2)
        self.in2 = torch.nn.InstanceNorm2d(width * 2, affine=True)
        # Residual layers
        self.res1 = ResidualBlock(width * 2)
        self.res2 = ResidualBlock(width * 2)
        # Upsampling Layers
        self.deconv1 = UpsampleConvLayer(width * 2, width, kernel_size=3, stride=1, upsample=2)
        self.in3 = torch.nn.InstanceNorm2d(width, affine=True)
        self.deconv2 = ConvLayer(width, 3, kernel_size=9, stride=1)
        # Non-linearities
        self.relu = torch.nn.ReLU()

    def forward(self, X):
        y = self.relu(self.in1(self.conv1(X)))
        y = self.relu(self.in2(self.conv2(y)))
        y = self.res1(y)
        y = self.res2(y)
        y = self.relu(self.in3(self.deconv1(y)))
        y = self.deconv2(y)
        return y


class ConvLayer(torch.nn.Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride):
        super(ConvLayer, self).__init__()
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        out = self.reflection_pad(x)
        out = self.conv2d(out)
        return out


class ResidualBlock(torch.nn.Module):
    def __init__(self, channels):
        super(ResidualBlock, self).__init__()
        self.conv1 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in1 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.conv2 = ConvLayer(channels, channels, kernel_size=3, stride=1)
        self.in2 = torch.nn.InstanceNorm2d(channels, affine=True)
        self.relu = torch.nn.ReLU()

    def forward(self, x):
        residual = x
        out = self.relu(self.in1(self.conv1(x)))
        out = self.in2(self.conv2(out))
        out = out + residual
        return out


class UpsampleConvLayer(torch.nn.Module):
    """Upsamples the input and then does a convolution (fewer checkerboard artifacts than
    ConvTranspose2d)."""

    def __init__(self, in_channels, out_channels, kernel_size, stride, upsample=None):
        super(UpsampleConvLayer, self).__init__()
        self.upsample = torch.nn.Upsample(scale_factor=upsample, mode="nearest") if upsample else None
        reflection_padding = kernel_size // 2
        self.reflection_pad = torch.nn.ReflectionPad2d(reflection_padding)
        self.conv2d = torch.nn.Conv2d(in_channels, out_channels, kernel_size, stride)

    def forward(self, x):
        x_in = x
        if self.upsample is not None:
            x_in = self.upsample(x_in)
        out = self.reflection_pad(x_in)
        out = self.conv2d(out)
        return out


def gram_matrix(y):
    (b, ch, h, w) = y.size()
    features = y.view(b, ch, w * h)
    features_t = features.transpose(1, 2)
    gram = features.bmm(features_t) / (ch * h * w)
    return gram


def normalize_batch(batch):
    # normalize using imagenet mean and std
    mean = batch.new_tensor([0.485, 0.456, 0.406]).view(-1, 1, 1)
    std = batch.new_tensor([0.229, 0.224, 0.225]).view(-1, 1, 1)
    batch = batch.div_(255.0)
    return (batch - mean) / std


def total_variation(y):
    return (torch.sum(torch.abs(y[:, :, :, :-1] - y[:, :, :, 1:]))
            + torch.sum(torch.abs(y[:, :, :-1, :] - y[:, :, 1:, :])))


def make_model():
    return TransformerNet(width=4)


def make_batches(rng, steps):
    style = rng.random((1, 3, SIZE, SIZE)) * 255
    return [(rng.random((BATCH, 3, SIZE, SIZE)) * 255, style) for _ in range(steps)]


def make_optimizer(model):
    return torch.optim.Adam(model.parameters(), 1e-3)


def train_step(model, optimizer, batch, carry):
    x, style = batch
    mse_loss = torch.nn.MSELoss()
    gram_style = gram_matrix(normalize_batch(style.clone()))
    optimizer.zero_grad()
    y = model(x)
    content_loss = 1e-5 * mse_loss(y, x)
    gm_y = gram_matrix(normalize_batch(y.clone()))
    style_loss = 1e-3 * mse_loss(gm_y, gram_style.repeat(x.size(0), 1, 1))
    tv_loss = 1e-6 * total_variation(y)
    total_loss = content_loss + style_loss + tv_loss
    total_loss.backward()
    optimizer.step()
    return y, total_loss, carry
