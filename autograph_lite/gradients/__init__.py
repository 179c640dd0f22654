"""Reverse-mode gradients over the traced Graph (SPEC §5; docs/architecture.md,
"Gradients").

``rules.py`` gives each differentiable op of the table its ``grad`` rule (built from other
ops, so a rule stages in a trace and runs eagerly alike); ``sweep.py`` walks a Graph's
nodes backwards from the targets, adding the rules' nodes to the graph being traced, and
differentiates a staged ``cond`` by replaying each branch inside a new ``cond``;
``ag.gradients`` (here) is the public entry.
"""
from . import rules as _rules, regions as _regions, callbacks as _callbacks  # noqa: F401
from . import residuals as _residuals  # noqa: F401
from .sweep import gradients  # noqa: F401
from .tape import GradientTape  # noqa: F401
