"""Shrinks a random-program repro (a file `random_programs.py --out` wrote) to the few lines
that still show its problem, so that a difference or refusal can be read, not decoded.

    python -m tests.autograph.reduce_program seed_trips_308.py "raised IndexError"
    python -m tests.autograph.reduce_program seed_arrays_17.py --differs --backend cpu

A candidate keeps the problem when plain Python still returns on every input and the backend
either raises an error whose text holds KEY, or (``--differs``) returns something else or
leaves an argument otherwise than Python does. The reduction deletes one statement (with its
block) at a time, or puts ``pass`` in its place, and keeps every deletion that keeps the
problem, until a whole pass deletes nothing (delta debugging by lines: what is left is
1-minimal). Programs of the "objects" grammar (an argument that is an object) are not
supported. Prints the reduced function and the inputs used.
"""
import argparse
import copy
import importlib.util
import os
import signal
import sys
import tempfile
import warnings

import numpy as np


def _load(path):
    """(the program's source lines from `def generated`, the lines before it, inputs)."""
    source, rest = open(path).read().split("\nINPUTS = ", 1)
    if "class _Holder" in source:
        raise SystemExit(f"{path}: programs of the objects grammar are not supported")
    head, body = source.split("def generated", 1)
    literal = rest.split("\n]", 1)[0] + "\n]"
    inputs = eval(literal, {"np": np, "nan": np.nan, "inf": np.inf})
    # as the repro's own run passes them: Python numbers as NumPy scalars
    inputs = [tuple(np.int64(a) if type(a) is int else np.float64(a) if type(a) is float
                    else a for a in args) for args in inputs]
    return ("def generated" + body).rstrip().split("\n"), head, inputs


def _same(a, b):
    try:
        np.testing.assert_equal(a, b)
    except AssertionError:
        return False
    return type(a) is type(b) or not isinstance(a, (np.ndarray, np.generic))


class _Reducer:
    def __init__(self, head, inputs, key, differs, backend, limit):
        self.head, self.inputs, self.key = head, inputs, key
        self.differs, self.backend, self.limit = differs, backend, limit
        self.folder = tempfile.mkdtemp(prefix="reduce_program_")
        self.tries = 0

    def _module(self, lines):
        self.tries += 1
        name = f"candidate_{self.tries}"
        path = os.path.join(self.folder, name + ".py")
        with open(path, "w") as f:
            f.write(self.head + "\n".join(lines) + "\n")
        spec = importlib.util.spec_from_file_location(name, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module

    def keeps_problem(self, lines):
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(self.limit)  # a deletion can leave a loop that never ends
        try:
            return self._keeps_problem(lines)
        except _Timeout:
            return False
        finally:
            signal.alarm(0)

    def _keeps_problem(self, lines):
        try:
            compile("\n".join(lines), "candidate", "exec")
            module = self._module(lines)
            wants = []
            for args in self.inputs:
                args = copy.deepcopy(args)
                wants.append((module.generated(*args), args))
        except Exception:  # noqa: BLE001 - a candidate plain Python rejects is no repro
            return False
        import autograph_lite as ag
        try:
            f = ag.defun(module.generated, backend=self.backend)
            for args, (want, want_args) in zip(self.inputs, wants):
                args = copy.deepcopy(args)
                got = f(*args)
                if self.differs and not (_same(want, got) and _same(want_args, args)):
                    return True
        except Exception as e:  # noqa: BLE001 - the error is what is being reduced
            return not self.differs and self.key in f"{type(e).__name__}: {e}"
        return False

    def reduce(self, lines):
        if not self.keeps_problem(lines):
            raise SystemExit("the problem does not show on the repro as given")
        changed = True
        while changed:
            changed = False
            i = 1
            while i < len(lines):
                line = lines[i]
                if not line.strip():
                    i += 1
                    continue
                end = _block_end(lines, i)
                pad = " " * _indent(line)
                for cand in (lines[:i] + lines[end:], lines[:i] + [pad + "pass"] + lines[end:]):
                    if cand != lines and self.keeps_problem(cand):
                        lines, changed = cand, True
                        break
                else:
                    i += 1
            print(f"pass done: {len(lines)} lines", file=sys.stderr, flush=True)
        return lines


class _Timeout(BaseException):
    """Not an Exception: no ``except Exception`` (the product's or the program's) takes it."""


def _alarm(*_):
    raise _Timeout


def _indent(line):
    return len(line) - len(line.lstrip())


def _block_end(lines, i):
    """The line after statement i's block (the lines indented deeper than it)."""
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or _indent(lines[j]) > _indent(lines[i])):
        j += 1
    return j


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("repro", help="a seed_*.py file random_programs.py wrote")
    p.add_argument("key", nargs="?", default="",
                   help="text the backend's error must hold (its type name included)")
    p.add_argument("--differs", action="store_true",
                   help="reduce a silent difference instead of an error")
    p.add_argument("--backend", default="interpreter", choices=("interpreter", "cpu"))
    p.add_argument("--inputs", type=int, default=3, help="how many of the repro's inputs")
    p.add_argument("--timeout", type=int, default=60, help="seconds per candidate")
    args = p.parse_args(argv)
    if not args.differs and not args.key:
        p.error("give KEY (the error's text) or --differs")
    os.environ.setdefault("AUTOGRAPH_LITE_QUIET", "1")
    warnings.simplefilter("ignore")
    lines, head, inputs = _load(args.repro)
    reducer = _Reducer(head, inputs[:args.inputs], args.key, args.differs, args.backend,
                       args.timeout)
    print("\n".join(reducer.reduce(lines)))
    print("INPUTS =", inputs[:args.inputs])


if __name__ == "__main__":
    main()
