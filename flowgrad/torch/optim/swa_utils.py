"""torch.optim.swa_utils for the torch facade (flowgrad/optim/swa_utils.py); AveragedModel is
presented as a torch.nn.Module."""

from ...optim import swa_utils as _swa
from ...optim.swa_utils import (SWALR, get_ema_avg_fn, get_ema_multi_avg_fn, get_swa_avg_fn,  # noqa: F401
                                get_swa_multi_avg_fn, update_bn)
from .. import nn as _nn

AveragedModel = type("AveragedModel", (_swa.AveragedModel, _nn.Module),
                     {"__module__": __name__, "__qualname__": "AveragedModel", "__doc__": _swa.AveragedModel.__doc__})

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn", "get_ema_avg_fn",
           "get_swa_avg_fn"]
