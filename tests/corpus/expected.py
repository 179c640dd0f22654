"""The corpus kernels that do not agree with plain NumPy under ``ag.defun`` today, each
with the exact error or difference (one line): the list of what scientific code still
needs (issue 12). tests/corpus/test_corpus.py marks them strict xfails (so a fix shows
there), benchmarks/bench_numpy.py leaves them out of its geometric mean. The errors are
raised while tracing, so the interpreter and cpu backends fail alike.
"""

NOT_AGREEING = {}
