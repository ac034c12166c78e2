"""flowgrad's benchmarks: speed and memory of flowgrad beside real torch, MyGrad, HIPS
autograd and hand-written NumPy forward+backward for the same math.

    python -m benchmarks [--threads 1] [--quick] [--json] [--only NAME] [--write-results]

Importing this package imports nothing heavy: `__main__` pins the BLAS/OpenMP thread counts before
NumPy or torch is loaded (re-executing the interpreter when it has to).
"""
