"""tests/mutation_check.py edits the product to check that the suite catches each breakage;
a mutant whose text no longer occurs (the code moved on) would stop the check: each must
still occur exactly once in its file."""
import os

import pytest

from mutation_check import MUTANTS, ROOT


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_each_mutant_still_applies(name):
    path, old, new, _, tests = MUTANTS[name]
    with open(os.path.join(ROOT, path)) as f:
        text = f.read()
    assert text.count(old) == 1, f"{name}: {path} holds its text {text.count(old)} times"
    assert old != new and tests and all(os.path.exists(os.path.join(ROOT, t)) for t in tests)
