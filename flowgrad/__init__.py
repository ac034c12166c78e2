"""flowgrad: PyTorch's autograd semantics on NumPy/CuPy arrays, behind framework facades.

Import a facade: `import flowgrad.torch as torch` or `import flowgrad.paddle as paddle`.
"""
__version__ = "0.1.0"
