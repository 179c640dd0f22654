"""Which buffers a staged branch's array results may be after it (mutation.py, "merges").

``v = a if c else a * 2`` with a tensor ``c``: ``v`` is ``a``'s buffer on the runs where
``c`` holds. ``if c: w = a * 2; v = w`` makes ``v`` and ``w`` one buffer on those runs.
NumPy's writes through one name reach the others only on those runs, so the cond gets,
per array result, a staged bool per buffer it may be (an output of each branch: True or
False there, or an inner merge's flag), and, per buffer a branch made that two results
share, a hidden output carrying that buffer (its root; an empty array of its type in the
other branch). Each result then becomes a merged storage with those options.

``BranchAliases`` is taken at each branch's end, before its writes into older arrays are
undone (the hidden roots are read then); ``merge_results`` adds the outputs and, once the
cond is staged, makes the merged results.
"""
import numpy as np

from . import mutation, storage


class BranchAliases:
    """The options of each result leaf of one branch (mutation.options_of), and the root
    Value, at the branch's end, of every buffer the branch made that two results share."""

    def __init__(self, leaves, start):
        self.options = {}
        positions = {}
        for pos, x in enumerate(leaves):
            if not hasattr(x, "_storage"):
                continue
            storage.storage_of(x)  # a box two names share gets the storage they share
            opts = self.options.get(id(x))
            if opts is None:
                opts = self.options[id(x)] = mutation.options_of(x, start)
            for st, _, _ in opts:
                if st.serial >= start:
                    positions.setdefault(st, set()).add(pos)
        self.shared = {st: mutation.root(st) for st, where in positions.items()
                       if len(where) > 1}


class _Result:
    """One staged array result: its options in match order, keyed by buffer and view."""

    def __init__(self):
        self.entries = {}   # key -> [target, chain, {branch: flag (None: always)}]
        self.refusal = None
        self.hazards = []


def merge_results(branches, aliases, staged, start, names):
    """Appends to ``branches`` (two Graphs, outputs already holding the results) the
    flag and hidden-root outputs the staged results ``[(pos, (leaf_t, leaf_f))]`` need.
    Returns ``finish(extra_outputs, result_boxes)`` to call once the cond is staged."""
    outer = branches[0].parent
    results, hidden = {}, []
    for b, al in enumerate(aliases):
        for pos, leaves in staged:
            r = results.setdefault(pos, _Result())
            for st, chain, flag in al.options.get(id(leaves[b]), ()):
                if st.serial < start:
                    target = st
                elif st in al.shared:
                    target = (b, st)
                    if target not in hidden:
                        hidden.append(target)
                else:
                    continue  # a buffer the branch made that no other result holds
                if not mutation.readable_from(chain, outer):
                    r.refusal = NotImplementedError(
                        f"'{names(pos)}' is a view, taken inside a staged branch at an "
                        f"index computed there, of an array that outlives the branch; "
                        f"writing through it (or reading it after that array is written) "
                        f"is not supported: index the array itself, or take a .copy()")
                    r.hazards.append(target)
                    continue
                entry = r.entries.setdefault((target, mutation.chain_key(chain)),
                                             [target, chain, {}])
                entry[2].setdefault(b, flag)
    flags = []  # (pos, key) in output order
    for pos, r in results.items():
        for key, (_, _, per_branch) in r.entries.items():
            if any(per_branch.get(b, False) is not None for b in (0, 1)):
                flags.append((pos, key))
                for b, g in enumerate(branches):
                    g.outputs.append(_flag_value(g, per_branch.get(b, False)))
    for b0, st in hidden:
        value = aliases[b0].shared[st]
        for b, g in enumerate(branches):
            g.outputs.append(value if b == b0 else _empty_like(g, value))

    def finish(extra, boxes):
        flag_of = dict(zip(flags, extra[:len(flags)]))
        storages = {h: storage.Storage(o._v) for h, o in zip(hidden, extra[len(flags):])}
        for pos, r in results.items():
            options = []
            for key, (target, chain, _) in r.entries.items():
                st = storages[target] if isinstance(target, tuple) else target
                flag = flag_of.get((pos, key))
                options.append((st, chain, None if flag is None else flag._v))
            if options or r.refusal is not None:
                mutation.merged(boxes[pos], options, names(pos), r.refusal,
                                [storages[h] if isinstance(h, tuple) else h
                                 for h in r.hazards])
    return finish


def _empty_like(graph, value):
    from .numpy_api import empty
    from .trace.context import graph_scope
    with graph_scope(graph):
        return empty((0,) * value.type.ndim, value.type.dtype)._value


class LoopAliases:
    """The buffers each array loop variable of a staged loop may be: an older array (at
    entry: its own storage, or a merge's options; after an iteration: one the body hands
    back), or, after an iteration, the buffer of an earlier loop variable (``r = q`` in
    the body, or a ``return r`` inside the loop, which carries ``r`` twice). Each such
    (variable, buffer) pair is a bool loop variable; inside the loop a variable's
    placeholder, and after it the variable's result, is a merged storage with those
    options (an earlier variable's placeholder or result as the storage of a pair of two
    variables). Found by tracing: a body that hands back a new pair makes the loop retrace
    (control._staged_while)."""

    def __init__(self, leaves, start, names):
        self.start, self.names, self.leaves = start, names, leaves
        self.keys = {}      # position -> {key: (target, chain)}, in match order; target:
        #                     an older Storage, or the position of an earlier variable
        self.init = {}      # (position, key) -> flag Value at entry (None: always)
        self.refusal = {}   # position -> exception (buffers it shares that are not modelled)
        self.hazards = {}   # position -> storages it may view in a way not modelled
        for i, x in enumerate(leaves):
            if _is_array(x):
                for st, chain, flag in mutation.options_of(x, start):
                    key = (st, mutation.chain_key(chain))
                    self.keys.setdefault(i, {}).setdefault(key, (st, chain))
                    self.init.setdefault((i, key), flag)

    def flag_keys(self, vpos):
        return [(i, key) for i in vpos for key in self.keys.get(i, ())]

    def init_flags(self, graph, vpos):
        return [_flag_value(graph, self.init.get(k, False)) for k in self.flag_keys(vpos)]

    def attach(self, placeholders, vpos, flags):
        """Gives each array variable's placeholder its options (``flags``: the region's
        flag inputs, in ``flag_keys`` order)."""
        self._merge(dict(zip(vpos, placeholders)), vpos, iter(flags))

    def finish(self, results, vpos, flags):
        """Makes each array variable's result (after the loop) a merged storage."""
        self._merge(dict(enumerate(results)), vpos, iter(flags))

    def _merge(self, boxes, vpos, flags):
        for i in vpos:
            opts = [(storage.storage_of(boxes.get(t, self.leaves[t])) if isinstance(t, int)
                     else t, chain,
                     next(flags)._v) for t, chain in self.keys.get(i, {}).values()]
            if opts or i in self.refusal:
                mutation.merged(boxes[i], opts, self._name(i), self.refusal.get(i),
                                self.hazards.get(i, ()))

    def body_flags(self, results, vpos, graph):
        """The flags of every (variable, buffer) pair after an iteration (Values of the
        body, in ``flag_keys`` order); records pairs not seen before. Returns (flags,
        changed)."""
        found, inner, changed = {}, {}, False
        for k in vpos:
            x = results[k]
            if not _is_array(x):
                continue
            for st, chain, flag in mutation.options_of(x, self.start):
                if st.serial >= self.start:  # a buffer of this iteration, maybe shared
                    for i, chain_i, flag_i in inner.setdefault(st, []):
                        relation = _suffix(chain_i, chain)
                        if relation is None:
                            changed |= self._add_hazard(k, None)
                        else:
                            changed |= self._found(found, k, i, relation, graph,
                                                   mutation._and(flag_i, flag))
                    inner[st].append((k, chain, flag))
                else:
                    changed |= self._found(found, k, st, chain, graph, flag)
        flags = [_flag_value(graph, found.get(k, False)) for k in self.flag_keys(vpos)]
        return flags, changed

    def _found(self, found, k, target, chain, graph, flag):
        """Variable ``k`` is ``target`` viewed through ``chain`` where ``flag`` holds.
        Returns whether that pair is new."""
        key = (target, mutation.chain_key(chain))
        known = self.keys.setdefault(k, {})
        if key not in known:
            if any(t == target for t, _ in known.values()) or not mutation.readable_from(
                    chain, graph.parent):
                return self._add_hazard(k, target)
            known[key] = (target, chain)
            self.init.setdefault((k, key), False)
            found[(k, key)] = flag
            return True
        # one pair reached two ways (``v1`` may be its own placeholder's buffer and is
        # the cond's result, which ``v0 = v1`` also holds): on the runs either way holds
        found[(k, key)] = mutation._or(found[(k, key)], flag) if (k, key) in found else flag
        return False

    def _add_hazard(self, i, target):
        """Variable ``i`` may be a view of ``target`` (an older storage, an earlier
        variable's position, or None: another variable's buffer) that is not modelled:
        writing into it is refused, and reading it after ``target`` is written."""
        what = ("another loop variable's array, viewed differently" if not isinstance(
            target, storage.Storage) else
            f"a different view of '{target.name or 'an array'}' in different iterations")
        new = i not in self.refusal
        self.refusal[i] = NotImplementedError(
            f"loop variable '{self._name(i)}' may be {what} after a staged loop's "
            f"iteration; writing into it (or reading it after that array is written) is "
            f"not supported: make it a .copy() where it is assigned in the loop")
        if isinstance(target, storage.Storage) and target not in self.hazards.get(i, ()):
            self.hazards.setdefault(i, []).append(target)
            new = True
        return new

    def _name(self, i):
        return self.names[i] if self.names and i < len(self.names) else f"#{i}"


def _is_array(x):
    """Whether ``x`` is an array box (given the storage that names it, as in
    BranchAliases, so that two variables holding it share one)."""
    if not hasattr(x, "_storage"):
        return False
    if x.ndim == 0 and not mutation.may_view(x):  # a number, unless it is (or may be) a
        return mutation.is_argument(x)           # 0-d NumPy-array argument or view
    storage.storage_of(x)
    return True


def _suffix(base_chain, chain):
    """``chain`` as a view of what ``base_chain`` views (both from one root), or None."""
    n = len(base_chain)
    if mutation.chain_key(chain[:n]) != mutation.chain_key(base_chain):
        return None
    return chain[n:]


def _flag_value(graph, flag):
    """A flag as a Value of ``graph``: None (on every run) and False as constants."""
    if flag is None or flag is False:
        from .ops.dispatch import as_value
        return as_value(graph, np.bool_(flag is None))
    return flag
