"""functions: generators and async functions are rejected with their line."""

import pytest

import autograph_lite.autograph as autograph


def gen(n):
    yield n


async def coro():
    return 1


def nested_generator(n):
    def g():
        yield n
    return list(g())


def test_generators_rejected():
    for fn in (gen, nested_generator):
        with pytest.raises(NotImplementedError, match=r"`yield` .*test_functions.py:\d+"):
            autograph.convert(fn)


def test_async_rejected():
    with pytest.raises(NotImplementedError, match="async def"):
        autograph.convert(coro)


def _pairs(a):
    for i in range(len(a) - 1):
        yield a[i], a[i + 1]


def _positive(a):
    for v in a:
        if v > 0:       # (a tensor's value: a generator cannot stage it)
            yield v


def sum_of_positives(x):
    return sum(_positive(x))


def products_of_neighbours(x):
    s = 0.0
    for u, v in _pairs(x):
        s += u * v
    return s


def test_a_generator_helper_runs_as_python_runs_it():
    """A helper that yields runs unconverted, item by item while tracing (session 46: any
    generator helper was refused); one that tests a tensor says why it cannot."""
    import numpy as np
    import autograph_lite as ag
    from .three_way import agree
    agree(products_of_neighbours, [(np.arange(4.0),), (np.arange(3.0),)])
    with pytest.raises(NotImplementedError, match="the generator function '_positive' "
                                                  "tests a tensor at .*test_functions.py"):
        ag.defun(sum_of_positives, backend="interpreter")(np.arange(3.0))
