"""Graph passes, each ``run(graph) -> bool`` (changed); ``optimize`` runs them in order."""
import functools
import os

from . import constant_fold, cse, dce


def optimize(graph, verify=None, placement=True):
    """Runs the passes to a fixed point (bounded). AUTOGRAPH_LITE_DUMP=<pass> prints after it.
    ``placement``: whether the backend honours the nodes' devices (cse.py); passes keep
    every node's device either way."""
    pipeline = (("constant_fold", constant_fold.run),
                ("cse", functools.partial(cse.run, placement=placement)), ("dce", dce.run))
    dump = os.environ.get("AUTOGRAPH_LITE_DUMP", "")
    for _ in range(4):
        changed = False
        for name, run in pipeline:
            step = run(graph)
            changed |= step
            if verify is not None:
                verify(graph)
            if dump in (name, "all") and step:
                print(f"--- after {name} ---\n{graph}")
        if not changed:
            break
    return graph
