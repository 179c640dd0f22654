"""``autograph-lite show FILE.py:FUNC`` (SPEC §7), called in-process through ``cli.main``."""
import os
import subprocess
import sys
import textwrap

import pytest

from autograph_lite import cli

MODULE = textwrap.dedent('''
    import numpy as np
    import autograph_lite as ag
    import helper_for_cli_test

    def scale(x, n):
        return x * n + 1.0

    @ag.defun(input_signature=[ag.TensorSpec([None, 3], ag.float32)])
    def rowsum(x):
        return np.sum(x, axis=1)

    @ag.defun(autograph=False)
    def flagged(x, training=True):
        return x * 2.0 if training else x

    class Model:
        def __init__(self):
            self.k = 3.0

        @ag.defun(autograph=False)
        def call(self, x):
            return x * self.k

    NOT_A_FUNCTION = 3
''')


@pytest.fixture(scope="module")
def module_file(tmp_path_factory):
    d = tmp_path_factory.mktemp("cli")
    (d / "helper_for_cli_test.py").write_text("VALUE = 1\n")  # proves FILE's folder is on sys.path
    p = d / "user_mod.py"
    p.write_text(MODULE)
    (d / "broken.py").write_text("def f(:\n")
    (d / "raises.py").write_text("raise RuntimeError('boom at import')\n")
    return str(p)


def run(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(err):
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1, err
    assert lines[0].startswith("autograph-lite: error:"), err
    return lines[0]


def test_graph_stage_with_signature(capsys, module_file):
    status, out, err = run(capsys, "show", f"{module_file}:scale", "--stage", "graph",
                           "--signature", "float32[None,3], int64[]")
    assert status == 0, err
    assert out.startswith("scale(")
    assert "float32[?,3]" in out and "int64[]" in out
    assert "multiply" in out and "add" in out


def test_kernel_stage_prints_numba_source(capsys, module_file):
    status, out, err = run(capsys, "show", f"{module_file}:scale", "--stage", "kernel",
                           "--signature", "float32[None, 3], 2")
    assert status == 0, err
    assert "@numba.njit" in out and "def kernel(" in out
    compile(out, "<kernel>", "exec")  # valid Python


def test_cuda_kernel_stage_prints_kernels_and_driver(capsys, module_file):
    """(Generating the cuda source needs no GPU and no simulator: nothing is launched.)"""
    status, out, err = run(capsys, "show", f"{module_file}:rowsum", "--stage", "kernel",
                           "--backend", "cuda")
    assert status == 0, err
    assert "@cuda.jit" in out and "cuda.shared.array" not in out  # (an axis reduction)
    assert "def driver(x_in):" in out and "crt.to_device(x_in)" in out
    compile(out, "<cuda kernels>", "exec")  # valid Python


def test_input_signature_needs_no_flag(capsys, module_file):
    status, out, err = run(capsys, "show", f"{module_file}:rowsum", "--stage", "graph")
    assert status == 0, err
    assert "rowsum(" in out and "float32[?,3]" in out and "reduce_sum" in out


def test_keyword_python_argument_and_defun(capsys, module_file):
    status, out, err = run(capsys, "show", f"{module_file}:flagged", "--stage", "graph",
                           "--signature", "float64[4], training=False")
    assert status == 0, err
    assert "multiply" not in out
    status, out, err = run(capsys, "show", f"{module_file}:flagged", "--stage", "graph",
                           "--signature", "float64[4]")
    assert status == 0, err
    assert "multiply" in out


def test_method_by_dotted_name(capsys, module_file):
    status, out, err = run(capsys, "show", f"{module_file}:Model.call", "--stage", "graph",
                           "--signature", "float64[None]")
    assert status == 0, err
    assert "multiply" in out and "3.0" in out


def test_converted_stage_is_default(capsys, module_file):
    status, out, err = run(capsys, "show", f"{module_file}:scale")
    assert status == 0, err
    # (arithmetic is Python's operator through ag__.binary: the user's classes' dunders
    # run converted, runtime/user_operators.py)
    assert "def " in out and "ag__.binary('+', ag__.binary('*', x, n), 1.0)" in out


@pytest.mark.parametrize("argv, needle", [
    (["show", "{dir}/missing.py:f"], "no such file"),
    (["show", "{file}:nope", "--stage", "graph"], "'nope'"),
    (["show", "{file}:Model.nope"], "'Model.nope'"),
    (["show", "{file}:NOT_A_FUNCTION"], "not a function"),
    (["show", "{file}"], "FILE.py:FUNC"),
    (["show", "{dir}/broken.py:f"], "not valid Python"),
    (["show", "{file}:scale", "--stage", "graph"], "--signature"),
    (["show", "{file}:scale", "--stage", "graph", "--signature", "flot32[3], int64[]"],
     "unknown dtype 'flot32'"),
    (["show", "{file}:scale", "--stage", "graph", "--signature", "float32[3"], "unbalanced"),
    (["show", "{file}:scale", "--stage", "graph", "--signature", "float32[x], 1"],
     "bad dimension 'x'"),
    (["show", "{file}:scale", "--stage", "kernel", "--signature", "float32[3], @"],
     "cannot parse"),
    (["show", "{file}:scale", "--stage", "graph", "--signature", "float32[3]"],
     "missing a required argument"),
    (["show", "{file}:scale", "--stage", "bogus"], "invalid choice"),
    (["export", "{file}:scale"], "--signature"),
    (["export", "{file}:rowsum", "-o", "{dir}/no/such/out.py"], "no such folder"),
    (["export", "{file}:nope", "--signature", "float32[3]"], "'nope'"),
    ([], "missing command"),
])
def test_usage_errors_are_one_line_status_2(capsys, module_file, argv, needle):
    d = os.path.dirname(module_file)
    argv = [a.format(file=module_file, dir=d) for a in argv]
    status, out, err = run(capsys, *argv)
    assert status == 2, (out, err)
    line = one_line_error(err)
    assert needle in line, line


def test_error_in_user_module_is_one_line(capsys, module_file):
    d = os.path.dirname(module_file)
    status, out, err = run(capsys, "show", f"{d}/raises.py:f")
    assert status != 0
    assert "boom at import" in one_line_error(err)


def test_parse_signature():
    import autograph_lite as ag
    args, kwargs = cli.parse_signature("float32[None,3], int64[], bool[2], 'a', k=(1, 2)")
    assert args[0] == ag.TensorSpec([None, 3], ag.float32)
    assert args[1] == ag.TensorSpec([], ag.int64) and args[1].shape == ()
    assert args[2] == ag.TensorSpec([2], ag.bool_)
    assert args[3] == "a" and kwargs == {"k": (1, 2)}


def test_python_dash_m(module_file):
    env = dict(os.environ)
    p = subprocess.run([sys.executable, "-m", "autograph_lite", "show", f"{module_file}:rowsum",
                        "--stage", "graph"], capture_output=True, text=True, env=env,
                       timeout=120)
    assert p.returncode == 0, p.stderr
    assert "reduce_sum" in p.stdout
    p = subprocess.run([sys.executable, "-m", "autograph_lite", "show", f"{module_file}:nope"],
                       capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 2
    assert len(p.stderr.strip().splitlines()) == 1, p.stderr
