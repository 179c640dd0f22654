"""Source text of user functions and lambdas in, gast trees out, and back to text.

Every node of a parsed entity carries `ag_origin = (filename, line)` pointing at the
user's file, so generated code can always be traced back to what the user wrote.
"""

import ast
import copy
import inspect
import linecache
import textwrap

import gast


class NoSourceError(ValueError):
    """The function has no Python source we can read (REPL, exec, C builtin)."""


def parse_str(src):
    """Parses source text (dedented first) into a gast Module."""
    return gast.parse(textwrap.dedent(src))


def unparse(node):
    """Returns Python source for a gast node (a module, statement, expression or list)."""
    if isinstance(node, (list, tuple)):
        return "\n".join(unparse(n) for n in node)
    return ast.unparse(gast.gast_to_ast(node))


def set_origin(node, filename, line_offset):
    """Tags every node under `node` with its file:line in the user's source."""
    for n in gast.walk(node):
        lineno = getattr(n, "lineno", None)
        if lineno is not None:
            n.ag_origin = (filename, lineno + line_offset)


def _parse_lines(lines):
    """Parses possibly indented source lines; returns (module, line offset of line 1)."""
    src = "".join(lines)
    try:
        return gast.parse(textwrap.dedent(src)), 0
    except SyntaxError:
        # Continuation lines indented less than the first: wrap in a block instead.
        return gast.parse("if 1:\n" + src), -1


def _code_of(fn):
    code = getattr(fn, "__code__", None)
    if code is None:
        raise NoSourceError(f"{fn!r} is not a Python function")
    return code


def source_lines(fn):
    """(lines, number of the first line) of a ``def`` function's source.

    Raises:
      NoSourceError: when the source cannot be read.
    """
    try:  # (of its code: inspect would follow a decorator's `__wrapped__` to another def)
        return inspect.getsourcelines(getattr(fn, "__code__", fn))
    except (OSError, TypeError) as e:
        raise NoSourceError(f"no source for {fn.__qualname__}: {e}") from None


def parse_function(fn, source=None):
    """Parses a (possibly nested or decorated) function into a gast FunctionDef.

    Args:
      source: ``source_lines(fn)`` when the caller already has it.
    Returns:
      (node, filename): `node` has its decorators stripped and origins set.
    Raises:
      NoSourceError: when the source cannot be read or parsed.
    """
    code = _code_of(fn)
    if code.co_name == "<lambda>":
        return parse_lambda(fn)
    lines, first = source or source_lines(fn)
    module, shift = _parse_lines(lines)
    body = module.body[0].body if shift else module.body
    node = next((n for n in body if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef))),
                None)
    if node is None or node.name != code.co_name:
        raise NoSourceError(f"could not find the source of {fn.__qualname__}")
    set_origin(node, code.co_filename, first - 1 + shift)
    node.decorator_list = []
    return node, code.co_filename


_FILE_TREES = {}


def _file_tree(filename):
    lines = linecache.getlines(filename)
    if not lines:
        raise NoSourceError(f"no source file {filename}")
    key = (filename, len(lines), hash(lines[0]))
    if key not in _FILE_TREES:
        _FILE_TREES[key] = gast.parse("".join(lines))
    return _FILE_TREES[key]


def _lambda_column(code):
    """Leftmost column of the lambda body's code on its first line (3.11 positions), or
    None. Positions with no span are skipped: RESUME's is (line, line, 0, 0), and taking
    its 0 told no lambda on a line apart (all became the first one)."""
    cols = [pos[2] for pos in getattr(code, "co_positions", lambda: ())()
            if pos[0] == code.co_firstlineno and pos[2] is not None and pos[3] is not None
            and (pos[1] != pos[0] or pos[3] > pos[2])]
    return min(cols) if cols else None


def parse_lambda(fn):
    """Finds a lambda in its file: the Lambda node on its line whose span holds its code."""
    code = _code_of(fn)
    try:
        tree = _file_tree(code.co_filename)
    except SyntaxError as e:
        raise NoSourceError(f"cannot parse {code.co_filename}: {e}") from None
    nargs = code.co_argcount + code.co_kwonlyargcount
    names = list(code.co_varnames[:nargs])
    candidates = []
    for n in gast.walk(tree):
        if isinstance(n, gast.Lambda) and n.lineno == code.co_firstlineno:
            args = n.args.posonlyargs + n.args.args + n.args.kwonlyargs
            if [a.id for a in args] == names:
                candidates.append(n)
    if not candidates:
        raise NoSourceError(f"could not find the source of lambda at "
                            f"{code.co_filename}:{code.co_firstlineno}")
    if len(candidates) > 1:
        # The innermost lambda whose body starts at or before the body's leftmost code.
        col = _lambda_column(code)
        inside = [n for n in candidates if col is not None
                  and n.body.lineno == n.lineno and n.body.col_offset <= col]
        if not inside:  # (never guess: converting another lambda would be a wrong answer)
            raise NoSourceError(f"cannot tell the lambdas at {code.co_filename}:"
                                f"{code.co_firstlineno} apart; put this one on its own line")
        candidates = [max(inside, key=lambda n: n.body.col_offset)]
    node = copy.deepcopy(candidates[0])
    set_origin(node, code.co_filename, 0)
    return node, code.co_filename
