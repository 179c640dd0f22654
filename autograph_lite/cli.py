"""The command line: ``autograph-lite show FILE.py:FUNC [--stage ...] [--signature ...]``
and ``autograph-lite export FILE.py:FUNC [--signature ...] [-o OUT.py]``.

``show`` prints one stage of a function's journey (SPEC §7):

* ``converted`` (default): the AutoGraph output, ``ag.to_code(func)``;
* ``graph``: the traced IR, ``str(cf.graph)``;
* ``kernel``: the generated kernel source, ``cf.source``;

where ``cf = Function.get_concrete_function(*specs)`` and the specs come from
``--signature "float32[None,3], int64[]"`` (a dtype name and a shape in brackets, ``[]``
a scalar, ``None`` or ``?`` any size; other items are Python literals such as ``2`` or
``True``, and ``name=...`` items are keyword arguments). ``graph`` and ``kernel`` need
``--signature`` unless the function was decorated with an ``input_signature``.

``export`` writes ``cf.export``'s module (SPEC §6) to ``-o OUT.py``, or prints it.

Usage errors (a bad file, a missing function, a signature that does not parse or is
missing) print one line on stderr and exit with status 2; an error raised by the user's
own code while converting or tracing prints one line and exits with status 1.
"""
import argparse
import ast
import importlib.util
import inspect
import os
import re
import sys

PROG = "autograph-lite"
STAGES = ("converted", "graph", "kernel")


class UsageError(Exception):
    """A problem with the command line or its inputs: exit status 2."""


class UserCodeError(Exception):
    """The user's code failed while being loaded, converted or traced: exit status 1."""


class _Parser(argparse.ArgumentParser):
    def error(self, message):  # one line instead of usage + message
        raise UsageError(message)


def _parser():
    p = _Parser(prog=PROG, description="Show what autograph_lite makes of a function, or "
                                           "export it as a standalone module.")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    show = sub.add_parser("show", help="print the converted source, the traced graph or the "
                                       "generated kernel of FILE.py:FUNC")
    show.add_argument("target", metavar="FILE.py:FUNC")
    show.add_argument("--stage", choices=STAGES, default="converted")
    show.add_argument("--backend", choices=("cpu", "cuda"), default="cpu")
    show.add_argument("--signature", metavar="SPEC", default=None,
                      help='argument types, e.g. "float32[None,3], int64[]"')
    export = sub.add_parser("export", help="write a standalone module (NumPy and Numba only) "
                                           "that reproduces FILE.py:FUNC for one signature")
    export.add_argument("target", metavar="FILE.py:FUNC")
    export.add_argument("--signature", metavar="SPEC", default=None,
                        help='argument types, e.g. "float32[None,3], int64[]"')
    export.add_argument("-o", "--output", metavar="OUT.py", default=None,
                        help="the module to write (default: print it)")
    return p


def main(argv=None):
    """Entry point of ``autograph-lite`` and ``python -m autograph_lite``; returns the status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = _parser().parse_args(argv)
        if args.command is None:
            raise UsageError("missing command (try 'show FILE.py:FUNC' or "
                             "'export FILE.py:FUNC --signature SPEC')")
        text = _show(args) if args.command == "show" else _export(args)
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
        return 0
    except UsageError as e:
        _fail(e)
        return 2
    except UserCodeError as e:
        _fail(e)
        return 1
    except SystemExit as e:  # --help (status 0)
        return e.code if isinstance(e.code, int) else 0


def _fail(e):
    msg = " ".join(str(e).split())  # exactly one line
    print(f"{PROG}: error: {msg}", file=sys.stderr)


# loading ----------------------------------------------------------------------------------

def _split_target(target):
    path, sep, name = target.rpartition(":")
    if not sep or not path or not name:
        raise UsageError(f"expected FILE.py:FUNC, got {target!r}")
    return path, name


def load_target(target):
    """``FILE.py:NAME`` -> (the object named, the class it was looked up on or None)."""
    path, name = _split_target(target)
    if not os.path.isfile(path):
        raise UsageError(f"no such file: {path}")
    path = os.path.abspath(path)
    module = _load_module(path)
    obj, owner = module, None
    for part in name.split("."):
        if not part.isidentifier():
            raise UsageError(f"{name!r} is not a function name")
        try:
            nxt = inspect.getattr_static(obj, part) if inspect.isclass(obj) else getattr(obj, part)
        except AttributeError:
            detail = "" if obj is module else f" ({part!r} not found in {_label(obj)})"
            raise UsageError(f"{path} has no function {name!r}{detail}") from None
        owner = obj if inspect.isclass(obj) else None
        if isinstance(nxt, (staticmethod, classmethod)):
            nxt = getattr(obj, part)
            owner = None
        obj = nxt
    from .function import Function
    if not (isinstance(obj, Function) or inspect.isfunction(obj) or inspect.ismethod(obj)):
        raise UsageError(f"{name!r} in {path} is a {type(obj).__name__}, not a function")
    return obj, owner


def _label(obj):
    return obj.__name__ if inspect.isclass(obj) else f"a {type(obj).__name__}"


def _load_module(path):
    directory = os.path.dirname(path)
    if directory not in sys.path:
        sys.path.insert(0, directory)
    stem = os.path.splitext(os.path.basename(path))[0]
    mod_name = re.sub(r"\W", "_", stem) or "module"
    if mod_name[0].isdigit():
        mod_name = "_" + mod_name
    spec = importlib.util.spec_from_file_location(mod_name, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"cannot load {path} as a Python module")
    module = importlib.util.module_from_spec(spec)
    previous = sys.modules.get(mod_name)
    sys.modules[mod_name] = module
    try:
        spec.loader.exec_module(module)
    except SyntaxError as e:
        _restore(mod_name, previous)
        raise UsageError(f"{path} is not valid Python: {e.msg} (line {e.lineno})") from None
    except (SystemExit, KeyboardInterrupt):
        _restore(mod_name, previous)
        raise UserCodeError(f"importing {path} exited") from None
    except BaseException as e:
        _restore(mod_name, previous)
        raise UserCodeError(f"importing {path} failed: {type(e).__name__}: {e}") from None
    return module


def _restore(name, previous):
    if previous is None:
        sys.modules.pop(name, None)
    else:
        sys.modules[name] = previous


# signatures -------------------------------------------------------------------------------

_SPEC_ITEM = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\[(.*)\]\s*$", re.S)


def _split_top(text):
    """Splits on commas that are not inside brackets, parentheses, braces or quotes."""
    items, depth, cur, quote = [], 0, [], None
    for ch in text:
        if quote:
            cur.append(ch)
            if ch == quote:
                quote = None
            continue
        if ch in "'\"":
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth < 0:
                raise UsageError(f"unbalanced brackets in signature {text!r}")
        elif ch == "," and depth == 0:
            items.append("".join(cur))
            cur = []
            continue
        cur.append(ch)
    if depth or quote:
        raise UsageError(f"unbalanced brackets or quotes in signature {text!r}")
    items.append("".join(cur))
    return items


def _dtype(name, item):
    from . import dtypes
    dt = getattr(dtypes, name, None)
    if name == "bool":
        dt = dtypes.bool_
    if dt is None or not hasattr(dt, "kind") or dt not in dtypes.ALL:
        known = ", ".join("bool" if d == dtypes.bool_ else str(d) for d in dtypes.ALL)
        raise UsageError(f"unknown dtype {name!r} in signature item {item.strip()!r} "
                         f"(known: {known})")
    return dt


def _dims(text, item):
    text = text.strip()
    if not text:
        return ()
    dims = []
    for d in text.split(","):
        d = d.strip()
        if d in ("None", "?", "*", "-1"):
            dims.append(None)
        elif re.fullmatch(r"\d+", d):
            dims.append(int(d))
        else:
            raise UsageError(f"bad dimension {d!r} in signature item {item.strip()!r} "
                             f"(use a size, or None for any size)")
    return tuple(dims)


def _parse_value(item):
    m = _SPEC_ITEM.match(item)
    if m:
        from .tensor import TensorSpec
        return TensorSpec(_dims(m.group(2), item), _dtype(m.group(1), item))
    text = item.strip()
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise UsageError(f"cannot parse signature item {text!r}: expected DTYPE[DIMS] such "
                         f"as float32[None,3] or int64[], or a Python literal") from None


def parse_signature(text):
    """``"float32[None,3], int64[], training=True"`` -> (positional args, keyword args)."""
    if text is None or not text.strip():
        raise UsageError("empty --signature")
    args, kwargs = [], {}
    for item in _split_top(text):
        if not item.strip():
            raise UsageError(f"empty item in signature {text!r}")
        kw = re.match(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*=(?!=)(.*)$", item, re.S)
        if kw:
            kwargs[kw.group(1)] = _parse_value(kw.group(2))
        elif kwargs:
            raise UsageError(f"positional item {item.strip()!r} after a keyword item in "
                             f"signature {text!r}")
        else:
            args.append(_parse_value(item))
    return args, kwargs


# show ---------------------------------------------------------------------------------------

def _python_function(obj):
    from .function import Function
    return obj.python_function if isinstance(obj, Function) else obj


def _converted(obj):
    from .autograph import to_code
    fn = _python_function(obj)
    try:
        return to_code(fn)
    except Exception as e:
        raise UserCodeError(f"converting {getattr(fn, '__qualname__', fn)} failed: "
                            f"{type(e).__name__}: {e}") from None


def _function_for(obj, owner, backend):
    """An ag.Function for ``obj`` with ``backend``; methods are bound to ``owner()``."""
    from .function import Function
    if owner is not None:  # a method looked up on its class: needs an instance
        try:
            instance = owner()
        except Exception as e:
            raise UsageError(f"{owner.__name__}() cannot be created without arguments "
                             f"({type(e).__name__}: {e}), so its method cannot be traced") \
                from None
        obj = obj.__get__(instance, owner)
    try:
        if isinstance(obj, Function):
            if obj.backend == backend:
                return obj
            return Function(obj.python_function, obj.input_signature, obj.autograph, backend,
                            obj._name)
        return Function(obj, backend=backend)
    except (TypeError, NotImplementedError) as e:
        raise UsageError(str(e)) from None


def concrete_function(obj, owner, signature, backend="cpu"):
    fn = _function_for(obj, owner, backend)
    if signature is None:
        if fn.input_signature is None:
            raise UsageError(f"{fn._name} has no input_signature; pass --signature, e.g. "
                             f"--signature \"float32[None], int64[]\"")
        args, kwargs = list(fn.input_signature), {}
    else:
        args, kwargs = parse_signature(signature)
    try:
        fn._bind(tuple(args), kwargs)
    except TypeError as e:
        raise UsageError(f"--signature does not fit {fn._name}{fn._signature}: {e}") from None
    try:
        return fn.get_concrete_function(*args, **kwargs)
    except Exception as e:
        raise UserCodeError(f"tracing {fn._name} failed: {type(e).__name__}: {e}") from None


def _show(args):
    obj, owner = load_target(args.target)
    if args.stage == "converted":
        if args.signature is not None:
            parse_signature(args.signature)  # still report a malformed one
        return _converted(obj)
    cf = concrete_function(obj, owner, args.signature, args.backend)
    if args.stage == "graph":
        return str(cf.graph)
    try:
        return cf.source
    except Exception as e:
        raise UserCodeError(f"generating the {args.backend} kernel failed: "
                            f"{type(e).__name__}: {e}") from None


def _export(args):
    """``export``: the module's text (printed), or written to ``--output`` with one line
    saying where; a function that cannot be exported (a callback) is exit status 1."""
    from .backends import export
    obj, owner = load_target(args.target)
    cf = concrete_function(obj, owner, args.signature)
    if args.output is not None and not os.path.isdir(os.path.dirname(args.output) or "."):
        raise UsageError(f"no such folder for --output: {os.path.dirname(args.output)}")
    try:
        text = export.export_source(cf)
    except ValueError as e:
        raise UserCodeError(str(e)) from None
    if args.output is None:
        return text
    with open(args.output, "w", encoding="utf-8") as f:
        f.write(text)
    return f"wrote {args.output}: {export.describe(cf)}"
