"""Every corpus program, through the suite's differential check (differential.py): plain
Python against the converted function (on Python values), and against `ag.defun` on the
interpreter and cpu backends (numbers passed as NumPy scalars, so control flow on them is
staged). Result, dtype, stdout, exception type and the arguments afterwards must agree, and
each Function runs on all of the program's inputs."""

import pytest

import autograph_lite as ag
import autograph_lite.autograph as autograph
from differential import BACKENDS, agree, python_numbers_as_numpy

from .programs import PROGRAMS

CASES = [pytest.param(fn, inputs, id=fn.__name__) for fn, inputs, _ in PROGRAMS]
STAGED = [pytest.param(fn, inputs, id=fn.__name__) for fn, inputs, staged in PROGRAMS
          if staged]


@pytest.mark.parametrize("fn,inputs", CASES)
def test_converted_matches_python(fn, inputs):
    agree(fn, calls=inputs, functions={"converted": autograph.convert(fn)}, python=True,
          exact=True)


@pytest.mark.parametrize("backend", BACKENDS)
@pytest.mark.parametrize("fn,inputs", STAGED)
def test_defun_matches_python(fn, inputs, backend):
    agree(fn, calls=inputs, functions={backend: ag.defun(fn, backend=backend)},
          stage=python_numbers_as_numpy, exact=True)
