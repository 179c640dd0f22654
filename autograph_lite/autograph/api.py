"""Public entry points: `convert`, `to_graph`, `to_code`, `do_not_convert`.

`ag.defun(..., autograph=True)` calls `convert(python_function)` when it traces.
"""

import functools
import inspect
import types

from autograph_lite.autograph import operators, pipeline
from autograph_lite.autograph.converters import base
from autograph_lite.autograph.pyct import transpiler
from autograph_lite.autograph.runtime import calls, data


def _namespace(recursive):
    """The object generated code sees as `ag__`: `operators`, or a copy whose
    converted_call leaves user functions unconverted (recursive=False)."""
    if recursive:
        return operators
    ns = types.ModuleType("ag__nonrecursive")
    ns.__dict__.update(operators.__dict__)
    ns.converted_call = functools.partial(operators.converted_call, recursive=False)
    return ns


_NAMESPACES = {True: _namespace(True), False: _namespace(False)}


def convert_plain(func, recursive=True):
    """Converts a plain function (or lambda); raises if its source cannot be converted."""
    return transpiler.convert(func, _NAMESPACES[bool(recursive)], bool(recursive),
                              pipeline.convert_tree, base.Context)


def convert(func, recursive=True):
    """Returns the converted version of `func`.

    Args:
      func: a function, lambda, bound method, functools.partial, or callable object.
      recursive: also convert the user functions it calls (at call time).
    Returns:
      A callable with the same signature running the converted code; `func` itself
      (after one warning) when it cannot be converted, e.g. it has no source.
    Raises:
      NotImplementedError: for constructs SPEC rejects (generators), naming file:line.
    """
    if isinstance(func, functools.partial):
        return functools.partial(convert(func.func, recursive), *func.args, **func.keywords)
    if inspect.ismethod(func):
        return types.MethodType(convert(func.__func__, recursive), func.__self__)
    if inspect.isfunction(func):
        return calls.convert_function(func, recursive)
    call = getattr(type(func), "__call__", None)
    if callable(func) and inspect.isfunction(call) and not isinstance(func, type):
        return types.MethodType(convert(call, recursive), func)
    return func


to_graph = convert


def to_code(func, recursive=True):
    """Returns the converted source of `func` as text (the function definition only)."""
    func = getattr(func, "__func__", func)
    if isinstance(func, functools.partial):
        func = func.func
    if not inspect.isfunction(func):
        func = type(func).__call__
    converted = convert_plain(func, recursive)
    return converted.ag__converted.function_source


do_not_convert = calls.do_not_convert
is_library_code = data.is_library_code


calls.CONVERTER = convert_plain
