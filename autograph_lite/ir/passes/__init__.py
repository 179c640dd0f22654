"""Graph passes, each ``run(graph) -> bool`` (changed); ``optimize`` runs them in order."""
import os

from . import constant_fold, cse, dce

PIPELINE = (("constant_fold", constant_fold.run), ("cse", cse.run), ("dce", dce.run))


def optimize(graph, verify=None):
    """Runs the passes to a fixed point (bounded). AUTOGRAPH_LITE_DUMP=<pass> prints after it."""
    dump = os.environ.get("AUTOGRAPH_LITE_DUMP", "")
    for _ in range(4):
        changed = False
        for name, run in PIPELINE:
            step = run(graph)
            changed |= step
            if verify is not None:
                verify(graph)
            if dump in (name, "all") and step:
                print(f"--- after {name} ---\n{graph}")
        if not changed:
            break
    return graph
