"""Mutation check: does the suite catch deliberate breakages of the product?

Each mutant is one textual edit of one file of a temporary copy of the repository
(autograph_lite/, tests/, examples/, pyproject.toml); the relevant part of the suite then
runs against that copy (``pytest -x``: it stops at the first failing test, which is the
one that caught the mutant). The unmutated copy runs the same subsets first, so "caught"
never means "was failing anyway".

    python tests/mutation_check.py              # every mutant, its subset of the suite
    python tests/mutation_check.py --full       # every mutant against the whole suite
    python tests/mutation_check.py --only transpose_identity,swap_max_min

Prints one row per mutant (caught by which test, in how long) and exits non-zero when a
mutant survives. Kernels of the copies go to their own cache folder (a temporary one).
"""
import argparse
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HANG = 900  # seconds: a subset still running then hangs (the suite would never pass)

# name: (file, the text to replace (exactly once), its replacement, what it breaks,
#        the tests that should catch it)
MUTANTS = {
    "loop_entry_copy_dropped": (
        "autograph_lite/ops/control.py",
        'copied = em.own.entry_copy(node, k)',
        'copied = False',
        "ownership analysis: a loop variable updated in place no longer gets its own copy at loop entry (the loop works in its initial value's buffer, a caller's array too)",
        ['tests/test_loop_fusion.py', 'tests/test_ownership.py', 'tests/autograph/test_idioms.py']),
    "views_not_aliases": (
        "autograph_lite/backends/ownership.py",
        '        for b in self.pts.get(value.id, EMPTY):\n            for w in self.holders.get(b, ()):',
        '        for b in ():\n            for w in self.holders.get(b, ()):',
        'ownership analysis: values sharing a buffer (views, aliases) are not seen, so an in-place write goes through while another holder is still read',
        ['tests/test_ownership.py', 'tests/test_loop_fusion.py', 'tests/ops/test_indexing.py']),
    "setitem_never_copies": (
        "autograph_lite/backends/emitter.py",
        '        if not self.own.may_write(node, value):\n            return self.copy_of(name)',
        '        if False:\n            return self.copy_of(name)',
        'update lowering: the copy before an update that may not write in place is dropped',
        ['tests/test_ownership.py', 'tests/ops/test_indexing.py', 'tests/autograph/test_idioms.py']),
    "swap_max_min": (
        "autograph_lite/ops/elementwise.py",
        '_ufunc("maximum", np.maximum, _helper_scalar("maximum"),\n'
        '       names=_binary_names("maximum", "maximum"))\n'
        '_ufunc("minimum", np.minimum, _helper_scalar("minimum"),',
        '_ufunc("maximum", np.maximum, _helper_scalar("minimum"),\n'
        '       names=_binary_names("maximum", "maximum"))\n'
        '_ufunc("minimum", np.minimum, _helper_scalar("maximum"),',
        "two op lowerings swapped: cpu np.maximum computes the minimum and back",
        ["tests/ops/test_elementwise.py"]),
    "transpose_identity": (
        "autograph_lite/ops/shape.py",
        "    if x.type.ndim < 2:\n        return em.name(x)\n",
        "    return em.name(x)\n",
        "cpu transpose returns its input unchanged",
        ["tests/ops/test_shape.py"]),
    "reduction_wrong_axis": (
        "autograph_lite/ops/reduce.py",
        "        axes = tuple(range(rank)) if axis is None else axis\n        dt = out.type.dtype",
        "        axes = tuple(range(rank)) if axis is None else tuple((a + 1) % rank "
        "for a in axis)\n        dt = out.type.dtype",
        "cpu reductions over an axis reduce the next axis",
        ["tests/ops/test_reduce.py"]),
    "weak_literals_strong": (
        "autograph_lite/dtypes.py",
        'return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[dt.kind]',
        "return np.zeros((), dt)[()]",
        "dtype promotion: Python literals promote as strong NumPy scalars (float32 * 2.0 "
        "becomes float64)",
        ["tests/ops/test_elementwise.py"]),
    "result_aliases_argument": (
        "autograph_lite/backends/cpu.py",
        '        elif v.type.ndim and em.own.aliases_caller(v):',
        '        elif False:',
        "cpu hands back an argument (or a constant) itself as a result (an alias the caller's later writes change)",
        ['tests/test_write_back.py', 'tests/test_function.py', 'tests/test_differential.py']),
    "write_back_skipped": (
        "autograph_lite/backends/cpu.py",
        "        if em.own.same_object(final, em.in_place) is arg:",
        "        if True:",
        "cpu never writes the final value of a written argument back into the caller's array",
        ["tests/test_write_back.py", "tests/test_differential.py"]),
    "interpreter_region_args": (
        "autograph_lite/backends/interpreter.py",
        "        return run_graph(region, args, dict(env))",
        "        return run_graph(region, args[::-1], dict(env))",
        "interpreter regions (cond branches, loop bodies) get their arguments reversed",
        ["tests/test_control.py", "tests/autograph/test_programs.py"]),
    "staged_range_one_more_trip": (
        "autograph_lite/autograph/runtime/iteration.py",
        "            return _nonneg(span)\n",
        "            return _nonneg(span + 1)\n",
        "off by one in range staging: range(a, b) with a tensor bound runs one more trip",
        ["tests/autograph/test_programs.py", "tests/autograph/test_properties.py"]),
    "kernel_cache_key_header_only": (
        "autograph_lite/backends/cache.py",
        "    return hashlib.sha256(source.encode()).hexdigest()",
        "    return hashlib.sha256(source[:120].encode()).hexdigest()",
        "kernel cache keyed by the source's first lines only: kernels of two functions of "
        "one name share a module",
        ["tests/test_smoke.py", "tests/test_cache.py", "tests/ops/test_elementwise.py"]),
    "fast_path_ignores_strides": (
        "autograph_lite/function.py",
        '_FAST_KEY_PART = ("(a{i}.shape, a{i}.dtype, a{i}.strides) if (t{i} := type(a{i})) is ndarray',
        '_FAST_KEY_PART = ("(a{i}.shape, a{i}.dtype) if (t{i} := type(a{i})) is ndarray',
        "the call fast path ignores strides: a strided argument runs the kernel compiled "
        "for a contiguous one",
        ["tests/test_fast_path.py"]),
    "break_becomes_continue": (
        "autograph_lite/autograph/converters/break_statements.py",
        'templates.replace("flag = True\\ncontinue", flag=flag)',
        'templates.replace("flag = False\\ncontinue", flag=flag)',
        "AutoGraph: `break` no longer sets its flag (it acts as `continue`)",
        ["tests/autograph/test_break_statements.py", "tests/autograph/test_programs.py"]),
}


def _copy(dest):
    for name in ("autograph_lite", "tests", "examples"):
        shutil.copytree(os.path.join(ROOT, name), os.path.join(dest, name),
                        ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    shutil.copy(os.path.join(ROOT, "pyproject.toml"), dest)


def _mutate(dest, path, old, new):
    full = os.path.join(dest, path)
    with open(full) as f:
        text = f.read()
    assert text.count(old) == 1, f"{path}: the mutated text occurs {text.count(old)} times"
    with open(full, "w") as f:
        f.write(text.replace(old, new))


def _pytest(dest, targets, cache):
    env = dict(os.environ, PYTHONPATH=dest, AUTOGRAPH_LITE_CACHE_DIR=cache,
               AUTOGRAPH_LITE_QUIET="1", AG_HYPOTHESIS_PROFILE="mutation")
    t0 = time.time()
    # its own process group: a mutant that makes a loop endless is stopped with its
    # pytest-xdist workers
    p = subprocess.Popen([sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider",
                          *targets], cwd=dest, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, start_new_session=True)
    try:
        out, _ = p.communicate(timeout=HANG)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, _ = p.communicate()
        return 124, [f"a hang: no result in {HANG} s"], time.time() - t0, out[-2000:]
    failed = re.findall(r"^FAILED (\S+)", out, re.M) or re.findall(r"^ERROR (\S+)", out, re.M)
    return p.returncode, failed, time.time() - t0, out[-2000:]


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--full", action="store_true", help="run the whole suite per mutant")
    ap.add_argument("--only", default="", help="comma-separated mutant names")
    args = ap.parse_args(argv)
    names = [n for n in args.only.split(",") if n] or list(MUTANTS)
    rows, survived = [], 0
    with tempfile.TemporaryDirectory(prefix="ag_mutation_") as work:
        cache = os.path.join(work, "kernels")
        base = os.path.join(work, "baseline")
        _copy(base)
        subsets = sorted({t for n in names for t in MUTANTS[n][4]})
        rc, failed, seconds, tail = _pytest(base, ["tests"] if args.full else subsets, cache)
        if rc != 0:
            print(f"the unmutated suite fails ({failed}): fix that first\n{tail}")
            return 2
        print(f"unmutated: {'the whole suite' if args.full else ', '.join(subsets)} pass "
              f"({seconds:.0f} s)", flush=True)
        for name in names:
            path, old, new, what, targets = MUTANTS[name]
            dest = os.path.join(work, name)
            _copy(dest)
            _mutate(dest, path, old, new)
            own_cache = os.path.join(work, f"kernels_{name}") if "cache" in name else cache
            rc, failed, seconds, tail = _pytest(dest, ["tests"] if args.full else targets,
                                                own_cache)
            caught = rc != 0
            survived += not caught
            verdict = f"CAUGHT by {failed[0] if failed else f'pytest status {rc}'}" if caught \
                else "NOT CAUGHT"
            rows.append((name, what, verdict, seconds))
            print(f"{name}: {verdict} ({seconds:.0f} s)", flush=True)
            shutil.rmtree(dest)
    print("\n| mutant | what it breaks | result | time |\n|---|---|---|---|")
    for name, what, verdict, seconds in rows:
        print(f"| {name} | {what} | {verdict} | {seconds:.0f} s |")
    print(f"\n{len(rows) - survived} of {len(rows)} mutants caught")
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
