"""``ConcreteFunction.export(path)``: one traced signature as a standalone module (SPEC §6).

The module needs only NumPy and Numba. It holds, in this order:

* the kernel helpers a cpu kernel calls (cpu_runtime.py, and numba_ssa.py for its compiler
  pipeline) as text, loaded once per process as private modules (``rt``), so that their
  names never meet the module's own;
* export_runtime.py verbatim: the argument checks and error wording around the call;
* the cpu kernel exactly as ``show --stage kernel`` prints it (whatever the Function's
  backend: every backend computes what the cpu kernel computes), compiled by Numba on the
  first call and cached beside the module;
* the constant arrays the kernel takes and the values of the ``ag.Variable``\\ s it reads
  (``VARIABLES``, written in place by the calls as the variables are), as bytes;
* the entry point, named after the function, taking the traced tensor arguments in order
  (Python values the trace fixed are baked in) and returning NumPy arrays and scalars in
  the structure the function returned.

A function that calls a Python callback (``py_func``, ``py_function``) cannot be exported:
the module would need the callback's code, which only the user's source has.
"""
import ast
import hashlib
import keyword
import os
import re

import numpy as np

from .. import contiguity
from ..call_keys import OUT, OptionalSlot
from ..ops import callback
from . import cpu, export_runtime

_HERE = os.path.dirname(__file__)
_RESERVED = {"kernel", "rt", "np", "numba", "sys", "types", "collections", "base64",
             "VARIABLES", "overlap", "located_text", "INDEX_ERROR", "MASK_ERROR"}


# print() in a kernel is an objmode block: Numba's "won't allow parallel execution" is noise
# (the kernel holds the GIL only while it prints), as for the Function's own kernels
_OBJMODE_QUIET = ('__import__("warnings").filterwarnings("ignore", message="Code running in '
                  'object mode", category=numba.NumbaWarning)\n\n')


def _read(name):
    with open(os.path.join(_HERE, name), encoding="utf-8") as f:
        return f.read()


def export_source(cf):
    """The text of the module that reproduces ConcreteFunction ``cf``."""
    graph, name = cf.graph, cf.function._name
    _refuse_callbacks(graph, name)
    if cf.held:  # (held_state.py: inputs fetched from the objects of each call)
        paths = ", ".join(v.hint for v in graph.inputs if v.index in graph.held_inputs)
        raise ValueError(f"cannot export {name}: it reads the arrays of an object it is "
                         f"called with ({paths}), which the exported module could not "
                         f"fetch; export a function that takes those arrays as arguments")
    if cf.updates:
        raise ValueError(f"cannot export {name}: it binds values into an object it is "
                         f"called with, which the exported module could not do; export a "
                         f"function that returns them")
    entry = name.rpartition(".")[2]
    if not entry.isidentifier() or keyword.iskeyword(entry) or entry in _RESERVED \
            or entry.startswith("_"):
        raise ValueError(f"cannot export {name}: its name {entry!r} is not usable as the "
                         f"module's entry point (a keyword or a name the module uses itself); "
                         f"rename the function")
    kernel = cpu.generate(graph, name, carries_state=False)
    if callback.uses_callbacks(kernel.source):  # pragma: no cover - _refuse_callbacks saw it
        raise ValueError(f"cannot export {name}: it calls a Python callback")
    body = kernel.source[kernel.source.index("@numba.njit"):]
    n_vars = len(cf._variables)
    n_args = len(graph.inputs) - n_vars
    layouts = contiguity.used_by_input(graph)
    written = {i for i, _ in graph.input_updates}
    params = _parameter_names(graph.inputs[:n_args])
    specs = [(p, v.type.dtype.name, tuple(v.type.shape), layouts.get(i), i in written)
             for i, (p, v) in enumerate(zip(params, graph.inputs))]
    var_names = _variable_names(cf._variables)
    var_specs = [(n, v.type.dtype.name, tuple(v.type.shape), None, True)
                 for n, v in zip(var_names, graph.inputs[n_args:])]
    parts = [
        _header(cf),
        _runtime_loader(),
        "\n# ---- export_runtime.py (autograph_lite): argument checks and error wording ----\n",
        _read("export_runtime.py"),
        "\n# ---- the kernel (autograph_lite's cpu backend) ----\n",
        _OBJMODE_QUIET if "objmode" in body else "",
        body,
        "\n# ---- what the kernel takes besides the arguments ----\n",
        f"_NAME = {name!r}\n",
        "# (name, dtype, shape (None: any size), C-contiguity relied on (None: any), written)\n",
        f"_INPUTS = {specs!r}\n",
        f"_VARIABLE_INPUTS = {var_specs!r}\n",
        f"_SITES = {[tuple(s) for s in kernel.sites]!r}  # bounds checks: (user's line, axis)\n",
        f"_CONSTANTS = [{', '.join(_array_expr(a) for a in kernel.const_args)}]\n",
        "# the ag.Variables the function reads, with their values at export; calls write "
        "into them\n",
        "VARIABLES = {" + ", ".join(f"{n!r}: {_array_expr(v._np)}"
                                    for n, v in zip(var_names, cf._variables)) + "}\n",
        _entry(entry, params, cf, graph),
    ]
    return "".join(parts)


def export(cf, path):
    """Writes ``export_source(cf)`` to ``path``; returns ``path``."""
    text = export_source(cf)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def _refuse_callbacks(graph, name):
    for n in graph.walk():
        if n.op in callback.CALLBACK_OPS:
            cb = callback.callback_name(n.attrs["func"], n.attrs.get("name"))
            where = f" at {n.loc}" if n.loc else ""
            raise ValueError(f"cannot export {name}: it calls the Python callback '{cb}' "
                             f"({n.op}{where}), whose code an exported module cannot hold; "
                             f"export a function without callbacks")


def _unique(bases, taken=()):
    """``bases`` made distinct (and distinct from ``taken``) by numbered suffixes."""
    out, seen = [], set(taken)
    for base in bases:
        name, k = base, 1
        while name in seen:
            name, k = f"{base}_{k}", k + 1
        seen.add(name)
        out.append(name)
    return out


def _parameter_names(inputs):
    """One identifier per argument input (its hint, made valid and unique)."""
    bases = []
    for i, v in enumerate(inputs):
        base = re.sub(r"\W", "_", v.hint or f"a{i}")
        if not base.isidentifier() or keyword.iskeyword(base) or base.startswith("_"):
            base = f"a{i}_{base}".strip("_")
        bases.append(base)
    return _unique(bases, _RESERVED)


def _variable_names(variables):
    """The keys of the module's VARIABLES: each variable's name, made unique."""
    return _unique([v.name or f"variable_{i}" for i, v in enumerate(variables)])


def _array_expr(a):
    text, dtype, shape = export_runtime._encode(np.asarray(a))
    return f"_decode({text!r}, {dtype!r}, {shape!r})"


def describe(cf):
    """``name(x: float64[?], k: int64[])``: the exported entry point's signature."""
    inputs = cf.graph.inputs[:len(cf.graph.inputs) - len(cf._variables)]
    specs = ", ".join(f"{p}: {export_runtime._spec_text(v.type.dtype, v.type.shape)}"
                      for p, v in zip(_parameter_names(inputs), inputs))
    return f"{cf.function._name.rpartition('.')[2]}({specs})"


def _header(cf):
    src = getattr(cf.function.python_function, "__code__", None)
    origin = f" ({src.co_filename}:{src.co_firstlineno})" if src else ""
    return (f'r"""{describe(cf)}: exported by autograph_lite from {cf.function._name}'
            f"{origin}.\n\nStandalone: needs only NumPy and Numba. Results are NumPy arrays "
            f"and scalars.\nPython values the trace fixed are baked in; arguments the "
            f"function writes\ninto are written in place, as NumPy would.\n"
            f'Do not edit: re-export instead.\n"""\n'
            "import collections\nimport sys\nimport types\n\nimport numba\nimport numpy as np\n")


def _runtime_loader():
    """Code that loads the embedded kernel helpers as modules, once per process (two
    exported modules of one autograph_lite version share them)."""
    ssa = _read("numba_ssa.py")
    rt = _read("cpu_runtime.py")
    digest = hashlib.sha256((ssa + rt).encode()).hexdigest()[:16]
    ssa_name, rt_name = f"_autograph_lite_ssa_{digest}", f"_autograph_lite_rt_{digest}"
    rt = rt.replace("from .numba_ssa import KernelCompiler",
                    f"from {ssa_name} import KernelCompiler")
    assert ssa_name in rt, "cpu_runtime.py no longer imports numba_ssa as export.py expects"
    # Numba caches only functions defined in files: the helpers' own jit caches are off
    # (the kernel's cache, beside the module, holds their code compiled into it)
    rt = rt.replace("@numba.njit(cache=True, ", "@numba.njit(")
    return (
        "\n# ---- the kernel helpers (autograph_lite's cpu_runtime.py and numba_ssa.py) ----\n"
        f"_SSA_SOURCE = {ssa!r}\n_RT_SOURCE = {rt!r}\n\n\n"
        "def _load(name, source):\n"
        "    module = sys.modules.get(name)\n"
        "    if module is None:\n"
        "        module = types.ModuleType(name)\n"
        "        module.__file__ = __file__\n"
        "        sys.modules[name] = module\n"
        "        exec(compile(source, f'<{name}>', 'exec'), module.__dict__)\n"
        "    return module\n\n\n"
        f"_load({ssa_name!r}, _SSA_SOURCE)\n"
        f"rt = _load({rt_name!r}, _RT_SOURCE)\n")


def _entry(entry, params, cf, graph):
    n_out = len(graph.outputs)
    classes = {}
    result = _structure_expr(cf._structured, cf._template, graph, "_r" if n_out == 1 else None,
                             classes, _RESERVED | {entry} | set(params))
    lines = [f"{var} = collections.namedtuple({name!r}, {list(fields)!r}, module=__name__)"
             for var, (name, fields) in classes.items()]
    lines += [f"\n\ndef {entry}({', '.join(params)}):",
             f'    """{cf.function._name} for the traced signature (see the module\'s '
             f'docstring)."""',
             f"    _given = ({''.join(p + ', ' for p in params)})",
             "    _args = [_argument(_NAME, s, a) for s, a in zip(_INPUTS, _given)]",
             "    _args += [_argument(_NAME, s, VARIABLES[s[0]]) for s in _VARIABLE_INPUTS]",
             "    _check_written(_NAME, _INPUTS + _VARIABLE_INPUTS, _args)",
             "    try:",
             "        _r = kernel(*_args, *_CONSTANTS)",
             "    except IndexError as e:",
             "        _text = located_text(e, _SITES)",
             "        if _text is None:",
             "            raise",
             "        raise IndexError(_text) from None",
             f"    return {result}", ""]
    return "\n".join(lines)


def _namedtuple(cls, classes, taken):
    """The module global for namedtuple ``cls``: its own name when free (so its results
    pickle), else a private one."""
    spec = (cls.__name__, tuple(cls._fields))
    for var, known in classes.items():
        if known == spec:
            return var
    var = cls.__name__
    if not var.isidentifier() or var in taken or var in classes or var.startswith("_"):
        var = "_" + re.sub(r"\W", "_", cls.__name__) + f"_{len(classes)}"
    classes[var] = spec
    return var


def _structure_expr(structured, template, graph, single, classes, taken):
    """Python source that rebuilds the returned structure from the kernel's result ``_r``
    (the same traversal as nest.pack_as: dict values in sorted-key order); a namedtuple's
    class is defined once in the module (``classes``: name -> (typename, fields))."""
    it = iter(template)
    outs = iter(enumerate(graph.outputs))

    def leaf():
        t = next(it)
        if isinstance(t, OptionalSlot) and t.structure is not None:
            raise ValueError("cannot export a result that is None on some runs and a tuple "
                             "on others; return the tuple's items and a flag")
        if isinstance(t, OptionalSlot):  # (None on some runs: the value where its flag is set)
            value, (k, _) = one(), next(outs)
            return f"({value} if _r[{k}] else None)"
        if t is not OUT:
            return _literal(t)
        return one()

    def one():
        k, v = next(outs)
        raw = single or f"_r[{k}]"
        return f"np.{v.type.dtype.name}({raw})" if v.type.ndim == 0 else raw

    def build(x):
        if isinstance(x, dict):
            if type(x) is not dict:
                raise ValueError(f"cannot export a result of type {type(x).__name__}")
            vals = {k: build(x[k]) for k in sorted(x, key=repr)}
            return "{" + ", ".join(f"{_literal(k)}: {vals[k]}" for k in x) + "}"
        if isinstance(x, tuple) and hasattr(x, "_fields"):
            return f"{_namedtuple(type(x), classes, taken)}({', '.join(build(v) for v in x)})"
        if isinstance(x, tuple):
            items = [build(v) for v in x]
            return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"
        if isinstance(x, list):
            return "[" + ", ".join(build(v) for v in x) + "]"
        return leaf()
    return build(structured)


def _literal(value):
    """``repr(value)`` when evaluating it gives ``value`` back (None, numbers, strings...)."""
    text = repr(value)
    try:
        ok = ast.literal_eval(text) == value and type(ast.literal_eval(text)) is type(value)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        ok = False
    if not ok:
        raise ValueError(f"cannot export a function that returns {text:.60} (a "
                         f"{type(value).__name__}: only tensors and Python literals can be "
                         f"written into the exported module)")
    return text
