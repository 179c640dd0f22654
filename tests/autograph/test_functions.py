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
