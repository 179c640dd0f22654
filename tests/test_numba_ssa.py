"""The kernels' SSA pass (autograph_lite/backends/numba_ssa.py) must give exactly the IR
Numba's own ``reconstruct_ssa`` gives: same fresh names, same phis, same blocks."""
import io

import numpy as np
import pytest
from numba.core import ssa
from numba.core.compiler import run_frontend

import autograph_lite as ag
from autograph_lite.backends import numba_ssa
from tests.autograph.random_programs import arguments, fresh, generate, load, \
    python_numbers_as_numpy


def _both(py_func):
    """(Numba's SSA IR dump, ours) of one function, each from its own frontend run."""
    dumps = []
    for reconstruct in (ssa.reconstruct_ssa, numba_ssa.reconstruct_ssa):
        func_ir = reconstruct(run_frontend(py_func))
        out = io.StringIO()
        func_ir.dump(file=out)
        dumps.append(out.getvalue())
    return dumps


def merges(a, n):
    s = 0.0
    t = 1
    for i in range(n):
        if a[i] > 0:
            s += a[i]
            t = t * 2
        elif a[i] < -1:
            s -= 1.0
            continue
        else:
            t = t + 1
            if t > 10:
                break
    k = 0
    while k < n and s > 0:
        s = s / 2
        k += 1
    return s, t, k


def one_sided(a, c):
    if c:
        y = a + 1  # y undefined on the other path: Numba's UndefinedVariable case
    else:
        z = 3
    if c:
        return y
    return z


def nested_loops(n):
    acc = 0
    for i in range(n):
        j = 0
        while j < i:
            if (i + j) % 3 == 0:
                acc += j
            elif (i * j) % 5 == 1:
                acc -= 1
                j += 2
                continue
            j += 1
        acc = acc % 1009
    return acc


@pytest.mark.parametrize("fn", [merges, one_sided, nested_loops])
def test_same_ir_as_numbas_ssa(fn):
    want, got = _both(fn)
    assert "phi" in want
    assert got == want


@pytest.mark.parametrize("seed", [8, 12])
def test_same_ir_on_generated_kernels(seed, tmp_path):
    """Kernels of random programs: hundreds of merge outputs and loop variables."""
    fn = load(generate(seed, "arrays"), str(tmp_path), f"ssa_{seed}")
    args = python_numbers_as_numpy(fresh(arguments(seed, "arrays")[1]))
    source = ag.defun(fn).get_concrete_function(*args).source
    namespace = {}
    exec(compile(source.replace("cache=True", "cache=False"), f"<kernel {seed}>", "exec"),
         namespace)
    want, got = _both(namespace["kernel"].py_func)
    assert want.count("phi") > 20
    assert got == want


def test_kernels_compile_with_it():
    """Every cpu kernel is compiled by KernelCompiler (the pipeline with this pass)."""
    @ag.defun
    def f(x, n):
        s = 0.0
        for i in range(n):
            if x[i] > 0:
                s += x[i]
        return s

    x = np.array([1.0, -2.0, 3.0])
    assert f(x, 3) == 4.0
    dispatcher = f.get_concrete_function(x, 3)._dispatcher
    assert dispatcher._compiler.pipeline_class is numba_ssa.KernelCompiler
