"""Backends: interpreter (NumPy, the reference), cpu (Numba) and cuda (numba.cuda kernels
and a host driver)."""
