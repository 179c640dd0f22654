"""What both halves of the cuda backend read, and nothing that imports Numba: the sizes the
generated modules are written with (cuda.py) and launched with (cuda_runtime.py), and the
seed ``ag.random.set_seed`` gives the device generator."""

TPB = 128           # threads per block (a power of two: the tree reductions halve it)
TILE = 16           # matmul tiles are TILE x TILE
# (both are written into each module's text, as the sizes of its shared arrays: a kernel
# compiled with other sizes, kept in numba-cuda's cache on disk, belongs to another file)

# ag.random.set_seed's seed for the device generator (cuda_runtime.rng_states reads it);
# "version" counts the calls, so a new seed makes new states
RNG_SEED = {"seed": None, "version": 0}
