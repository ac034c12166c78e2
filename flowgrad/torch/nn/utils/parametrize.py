"""torch.nn.utils.parametrize for the torch facade (flowgrad/nn/parametrize.py; the lists it
builds are of the facade's class, a subclass of the ParametrizationList named here)."""

from ....nn.parametrize import (ParametrizationList, cached, is_parametrized, register_parametrization,  # noqa: F401
                                remove_parametrizations, transfer_parametrizations_and_params,
                                type_before_parametrizations)

__all__ = ["cached", "ParametrizationList", "register_parametrization", "is_parametrized", "remove_parametrizations",
           "type_before_parametrizations", "transfer_parametrizations_and_params"]
