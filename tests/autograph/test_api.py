"""api: convert / to_graph / to_code / do_not_convert / is_library_code."""

import functools
import traceback
import types
import warnings

import numpy as np
import pytest

import autograph_lite.autograph as autograph


def double_if_positive(x):
    if x > 0:
        x = x * 2
    return x


class Model:
    def __init__(self, k):
        self.k = k

    def scale(self, x):
        for _ in range(2):
            x = x * self.k
        return x

    def __call__(self, x):
        return self.scale(x) if x > 0 else 0


def test_convert_functions_methods_partials_and_callables():
    assert autograph.convert(double_if_positive)(3) == 6
    m = Model(3)
    assert autograph.convert(m.scale)(1) == 9
    assert autograph.convert(functools.partial(double_if_positive, 5))() == 10
    assert autograph.convert(m)(2) == 18
    assert autograph.to_graph is autograph.convert


def test_conversion_is_cached():
    assert autograph.convert(double_if_positive) is autograph.convert(double_if_positive)


def test_to_code_returns_source():
    src = autograph.to_code(double_if_positive)
    assert src.startswith("def ag__double_if_positive(x):")
    assert "ag__.if_stmt" in src
    assert "ag__.if_stmt" in autograph.to_code(Model(1).__call__) or "if_exp" in \
        autograph.to_code(Model(1).__call__)


def test_do_not_convert():
    @autograph.do_not_convert
    def plain(x):
        return x

    def caller(x):
        return plain(x)
    assert autograph.convert(plain) is plain
    assert autograph.convert(caller)(3) == 3


def test_is_library_code():
    assert autograph.is_library_code(np.sum)
    assert autograph.is_library_code(functools.reduce)
    assert autograph.is_library_code(len)
    assert autograph.is_library_code(autograph.convert)
    assert not autograph.is_library_code(double_if_positive)


def test_function_without_source_warns_once_and_runs_as_is():
    namespace = {}
    exec("def made(x):\n    return x + 1\n", namespace)
    made = namespace["made"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        g = autograph.convert(made)
        autograph.convert(made)
    assert g is made and g(1) == 2
    assert len([w for w in caught if "could not convert" in str(w.message)]) == 1


def test_recursive_false_leaves_callees_unconverted():
    """With recursive=False the callee's `if` runs as plain Python (it raises straight from
    `callee`); converted recursively, it runs through ag__.if_stmt."""
    def callee(x):
        if x > 0:
            raise LookupError(x)
        return x

    def frames(recursive):
        g = autograph.convert(lambda x: callee(x) + len([x]), recursive=recursive)
        assert g(0) == 1
        with pytest.raises(LookupError) as e:
            g(1)
        return [f.name for f in traceback.extract_tb(e.value.__traceback__)]
    plain = frames(False)
    assert plain[-1] == "callee" and "if_stmt" not in plain, plain
    assert "if_stmt" in frames(True)


def test_converted_keeps_metadata():
    g = autograph.convert(double_if_positive)
    assert g.__name__ == "double_if_positive" and g.__wrapped__ is double_if_positive
    assert isinstance(g, types.FunctionType)


def test_generator_rejected():
    def gen():
        yield 1
    with pytest.raises(NotImplementedError):
        autograph.convert(gen)


SCALE = 3


class Base:
    def f(self, x):
        return x + 1


class Child(Base):
    def f(self, x: np.ndarray, k=SCALE) -> np.ndarray:
        if x > 0:
            return super().f(x) * k
        return x


def test_methods_with_super_defaults_and_annotations():
    c = Child()
    g = autograph.convert(c.f)
    assert g(2) == c.f(2) == 9 and g(-1) == -1 and g(2, k=1) == 3
    assert "super(__class__, self)" in autograph.to_code(Child.f)


def _logged(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        return fn(*args, **kwargs)
    return wrapper


@_logged
def wrapped_branch(x):
    if x.sum() > 0:                   # staged: needs the converted `fn`
        return x * 2.0
    return x - 1.0


def test_a_functools_wraps_decorator_is_converted_and_so_is_what_it_wraps():
    # (the source lookup followed `__wrapped__` to `wrapped_branch`'s def and, named
    # otherwise than the wrapper's code, refused it: "could not find the source")
    import autograph_lite as ag
    for backend in ("interpreter", "cpu"):
        f = ag.defun(wrapped_branch, backend=backend)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for x in (np.arange(3.0), -np.arange(4.0)):
                np.testing.assert_array_equal(f(x), wrapped_branch(x))
