"""Backends: interpreter (NumPy, the reference), cpu (Numba), cuda (numba.cuda)."""
