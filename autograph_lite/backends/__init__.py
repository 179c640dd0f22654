"""Backends: interpreter (NumPy, the reference) and cpu (Numba); cuda is not built yet."""
