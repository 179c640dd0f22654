"""The corpus kernels that do not agree with plain NumPy under ``ag.defun`` today, each
with the exact error or difference (one line): the list of what scientific code still
needs (issue 12). tests/corpus/test_corpus.py marks them strict xfails (so a fix shows
there), benchmarks/bench_numpy.py leaves them out of its geometric mean. The errors are
raised while tracing, so the interpreter and cpu backends fail alike.
"""

_NOT_STAGED = ("TypeError: NumPy function {} at kernels.py:{} has no staged counterpart in "
               "autograph_lite and cannot run on a symbolic tensor")
NOT_AGREEING = {
    "find_peaks_list": "ValueError: 'peaks' is a Python list that the branches of the staged "
                       "`if` at kernels.py:591 change differently (its length is 1 in the "
                       "true branch and 0 in the false one)",
}
