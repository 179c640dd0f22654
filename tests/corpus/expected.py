"""The corpus kernels that do not agree with plain NumPy under ``ag.defun`` today, each
with the exact error or difference (one line): the list of what scientific code still
needs (issue 12). tests/corpus/test_corpus.py marks them strict xfails (so a fix shows
there), benchmarks/bench_numpy.py leaves them out of its geometric mean. The errors are
raised while tracing, so the interpreter and cpu backends fail alike.
"""

_NOT_STAGED = ("TypeError: NumPy function {} at kernels.py:{} has no staged counterpart in "
               "autograph_lite and cannot run on a symbolic tensor")
NOT_AGREEING = {
    "histogram_loop": "TypeError: a symbolic tensor (shape=(), dtype=bool) cannot be used as a "
                      "Python bool (in the staged loop at kernels.py:137): the chained "
                      "comparison `0 <= b < nbins` at kernels.py:141 is not staged",
    "lorenz_euler": "TypeError: a symbolic tensor cannot be converted to a NumPy array while "
                    "tracing (no file:line given): the row store `traj[i] = [x, y, z]` of a "
                    "list of 0-d tensors, kernels.py:305",
    "power_iteration": _NOT_STAGED.format("np.linalg.norm", 422),
    "upsample_hold": _NOT_STAGED.format("np.append", 460),
    "median_filter": _NOT_STAGED.format("np.median", 501),
    "smooth_convolve": _NOT_STAGED.format("np.convolve", 508),
    "interp_resample": _NOT_STAGED.format("np.interp", 514),
    "polyfit_normal": _NOT_STAGED.format("np.column_stack", 520) + " (np.linalg.solve next)",
    "gauss_seidel": _NOT_STAGED.format("np.allclose", 535),
    "positive_part": "TypeError: '>' not supported between instances of 'NoneType' and 'int' "
                     "(no file:line given): `.size` of a boolean-mask-indexed tensor is None, "
                     "kernels.py:543",
    "count_above": "silent wrong answer: `x[x > t].size` (a boolean-mask-indexed tensor) is "
                   "None where plain Python gives 0, kernels.py:551",
    "bincount_histogram": _NOT_STAGED.format("np.bincount", 557),
    "quartiles_sorted": _NOT_STAGED.format("np.sort", 562),
    "row_normalize_einsum": _NOT_STAGED.format("np.einsum", 583),
    "find_peaks_list": "ValueError: 'peaks' is a Python list that the branches of the staged "
                       "`if` at kernels.py:591 change differently (its length is 1 in the "
                       "true branch and 0 in the false one)",
    "pendulum_math": "TypeError: math.sin() at kernels.py:616 takes Python numbers, and its "
                     "argument here is a tensor whose value exists only when the compiled "
                     "function runs; use np.sin",
}

# Complex arithmetic is not staged yet: these are refused with a TypeError naming complex.
REFUSED_COMPLEX = ("mandelbrot_escape", "julia_escape", "mandelbrot_loops", "newton_fractal")
