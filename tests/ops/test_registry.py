"""The op table contract (ops/registry.py): every entry is complete and consistent."""

import pytest

from autograph_lite.gradients import rules
from autograph_lite.ops import OPS

# cond / while_loop are typed by control.py (their regions decide), not by infer()
NO_INFER = {"cond", "while_loop", "vectorized_map"}


def test_table_is_large():
    assert len(OPS) >= 60, sorted(OPS)


@pytest.mark.parametrize("name", sorted(OPS))
def test_entry_is_complete(name):
    op = OPS[name]
    assert op.name == name
    if name in NO_INFER:
        assert op.infer is None and op.n_regions
    else:
        assert callable(op.infer), f"{name}: no infer"
    assert callable(op.eager), f"{name}: no eager kernel"
    assert callable(op.lower) or op.scalar is not None, f"{name}: no cpu lowering"
    if op.scalar is not None:
        assert isinstance(op.scalar, str) or callable(op.scalar)
        assert op.lower is None, f"{name}: elementwise ops lower through scalar only"
    if op.fuses_inputs:
        assert callable(op.lower), f"{name}: fuses_inputs needs a lower()"
    assert not (op.grad is not None and not op.differentiable), (
        f"{name}: has a grad but is marked not differentiable")


def test_no_infer_only_for_region_ops():
    assert {n for n, op in OPS.items() if op.infer is None} == NO_INFER


def test_every_differentiable_op_has_a_grad_rule_or_is_listed_pending():
    """A new differentiable op comes with its grad rule, or is listed in rules.PENDING
    (whose ops refuse to be differentiated); a rule that lands leaves the list."""
    missing = {n for n, op in OPS.items() if op.differentiable and op.grad is None}
    assert missing == set(rules.PENDING), (
        f"without a rule and not pending: {sorted(missing - rules.PENDING)}; pending but "
        f"with a rule: {sorted(rules.PENDING - missing)}")


def test_stateful_and_side_effect_flags():
    assert OPS["random_normal"].stateful and OPS["random_uniform"].stateful
    assert OPS["print"].side_effects and OPS["assert"].side_effects
    assert all(OPS[n].pure for n in ("add", "reduce_sum", "matmul", "getitem"))
