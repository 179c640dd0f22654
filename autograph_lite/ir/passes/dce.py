"""Dead-code elimination: drops pure nodes whose outputs nothing uses (inside regions too)."""


def _has_effects(node):
    if not node.opdef.pure:
        return True
    return any(_has_effects(n) for r in node.regions for n in r.nodes)


def run(graph):
    changed = False
    while True:
        uses = graph.uses()
        removed = _sweep(graph, uses)
        if not removed:
            return changed
        changed = True


def _sweep(graph, uses):
    removed = False
    keep = []
    for node in graph.nodes:
        for r in node.regions:
            removed |= _sweep(r, uses)
        dead = not _has_effects(node) and all(uses.get(v.id, 0) == 0 for v in node.outputs)
        if dead:
            removed = True
            continue
        keep.append(node)
    graph.nodes[:] = keep
    return removed
