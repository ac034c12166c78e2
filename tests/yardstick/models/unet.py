"""A small U-Net: (Conv2d, BatchNorm2d, ReLU) x 2 blocks, MaxPool2d down, ConvTranspose2d up (or
bilinear upsampling, `bilinear=True`), skip connections padded to size and joined with torch.cat,
1x1 output convolution; per-pixel cross entropy plus a soft Dice loss over one-hot masks, RMSprop
with momentum and weight decay, a disabled autocast and GradScaler, gradient clipping and
ReduceLROnPlateau on the validation Dice score."""
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

    def __init__(self, in_channels, out_channels, bilinear=True):
        super().__init__()
        if bilinear:
            self.up = nn.Upsample(scale_factor=2, mode="bilinear", align_corners=True)
            self.conv = DoubleConv(in_channels, out_channels, in_channels // 2)
        else:
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

    def __init__(self, n_channels, n_classes, width=64, bilinear=False):
        super().__init__()
        self.n_channels = n_channels
        self.n_classes = n_classes
        self.bilinear = bilinear
        factor = 2 if bilinear else 1
        self.inc = DoubleConv(n_channels, width)
        self.down1 = Down(width, width * 2)
        self.down2 = Down(width * 2, width * 4 // factor)
        self.up1 = Up(width * 4, width * 2 // factor, bilinear)
        self.up2 = Up(width * 2, width, bilinear)
        self.outc = OutConv(width, n_classes)

    def forward(self, x):
        x1 = self.inc(x)
        x2 = self.down1(x1)
        x3 = self.down2(x2)
        x = self.up1(x3, x2)
        x = self.up2(x, x1)
        return self.outc(x)


def dice_coeff(input, target, reduce_batch_first=False, epsilon=1e-6):
    """Average Dice coefficient over the batch (or over everything with reduce_batch_first)."""
    assert input.size() == target.size()
    sum_dim = (-1, -2) if input.dim() == 2 or not reduce_batch_first else (-1, -2, -3)
    inter = 2 * (input * target).sum(dim=sum_dim)
    sets_sum = input.sum(dim=sum_dim) + target.sum(dim=sum_dim)
    sets_sum = torch.where(sets_sum == 0, inter, sets_sum)
    dice = (inter + epsilon) / (sets_sum + epsilon)
    return dice.mean()


def multiclass_dice_coeff(input, target, reduce_batch_first=False, epsilon=1e-6):
    return dice_coeff(input.flatten(0, 1), target.flatten(0, 1), reduce_batch_first, epsilon)


def dice_loss(input, target, multiclass=False):
    fn = multiclass_dice_coeff if multiclass else dice_coeff
    return 1 - fn(input, target, reduce_batch_first=True)


def make_model(bilinear=False):
    return UNet(CHANNELS, CLASSES, WIDTH, bilinear)


def make_batches(rng, steps):
    return [(rng.standard_normal((BATCH, CHANNELS, SIZE, SIZE)), rng.integers(0, CLASSES, size=(BATCH, SIZE, SIZE)))
            for _ in range(steps)]


def make_optimizer(model):
    optimizer = torch.optim.RMSprop(model.parameters(), lr=1e-3, weight_decay=1e-8, momentum=0.9, foreach=True)
    scheduler = torch.optim.lr_scheduler.ReduceLROnPlateau(optimizer, "max", patience=0)
    grad_scaler = torch.cuda.amp.GradScaler(enabled=False)
    return optimizer, scheduler, grad_scaler


def train_step(model, optimizer, batch, carry):
    images, true_masks = batch
    optimizer, scheduler, grad_scaler = optimizer
    model.train()
    criterion = nn.CrossEntropyLoss()
    with torch.autocast("cpu", enabled=False):
        masks_pred = model(images)
        loss = criterion(masks_pred, true_masks)
        loss += dice_loss(F.softmax(masks_pred, dim=1),    # float32 one-hot masks promote to its dtype
                          F.one_hot(true_masks, model.n_classes).permute(0, 3, 1, 2).float(),
                          multiclass=True)
    optimizer.zero_grad(set_to_none=True)
    grad_scaler.scale(loss).backward()
    grad_scaler.unscale_(optimizer)
    torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    grad_scaler.step(optimizer)
    grad_scaler.update()
    model.eval()
    with torch.no_grad():
        pred = model(images)
        mask_pred = F.one_hot(pred.argmax(dim=1), model.n_classes).permute(0, 3, 1, 2).float()
        score = multiclass_dice_coeff(mask_pred[:, 1:], F.one_hot(true_masks, model.n_classes)
                                      .permute(0, 3, 1, 2).float()[:, 1:], reduce_batch_first=False)
    scheduler.step(score)
    return masks_pred, loss, carry


def evaluate(model, batch):
    images, true_masks = batch
    model.eval()
    with torch.no_grad():
        pred = model(images)
        return pred, F.cross_entropy(pred, true_masks)
