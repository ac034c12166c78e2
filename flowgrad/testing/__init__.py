"""Test support: the NumPy-backed fake device (`fake_device.register()`)."""
