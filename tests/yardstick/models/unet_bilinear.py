"""The U-Net with bilinear upsampling (align_corners=True) in place of transposed convolutions,
trained as unet is."""
from unet import UNet, CHANNELS, CLASSES, WIDTH, evaluate, make_batches, make_optimizer, train_step  # noqa: F401


def make_model():
    return UNet(CHANNELS, CLASSES, WIDTH, bilinear=True)
