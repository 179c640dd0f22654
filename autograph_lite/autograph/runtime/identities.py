"""`x is y` of arrays whose object depends on the path taken.

A staged `if` or conditional expression that hands on an array from before it in one
branch and another in the other (`src = b if c else a`, `if x[0] > 0: src = b`) gives a
new box, the merge: in Python it is one of the two objects, which one depending on the
run. So is a staged loop's variable that the body rebinds to another array (`src, dst =
dst, src`, `cur = b if cur is a else a`): the loop carries an int beside it saying which
of the arrays from before the loop it holds (staged_loop.py, -1 for one the loop made).
Such a box's ``_identity`` (an ``Identity``) says which earlier object it is on which runs,
and that elsewhere it is an object made between two serials (in a branch, by a trip), so
`src is a` is staged as the condition that chose `a`. Where that is not followed (a merge
of merges of arrays not followed, a loop variable whose body only computes new arrays,
two arrays both made by the loop) and the other array may be the one it holds (it is
older), `is` is refused; where it was made later, it is False (session 53's probe: every
such `is` was False, so `cur = b if cur is a else a` always chose `b`, and the write went
into the wrong buffer). Loops and branches learn this (each learning stages them again)
only in code that asks `x is y` of two non-constants (``asked_in``).
"""

import numpy as np

from autograph_lite.ops.dispatch import apply
from autograph_lite.tensor import SymbolicTensor, serials
from autograph_lite.trace.context import current_graph
from autograph_lite.autograph.runtime import trace_arrays

UNKNOWN = ("unknown",)  # (an ``_identity``: the object of some run, not known here)


class Identity:
    """Which earlier object a box is: ``entries()`` [(object, flag: a staged bool)], the
    flags exclusive, made where asked (``flags`` makes them in the current graph: one made
    inside a branch that has ended could not be read after it); where none holds, an
    object made at a serial in [since, until)."""

    def __init__(self, objects, flags, since, until):
        self.objects, self._flags, self.since, self.until = objects, flags, since, until

    def entries(self):
        return list(zip(self.objects, self._flags()))


def _equal_to_each(code, objects):
    return lambda: [apply("equal", code, j) for j in range(len(objects))]


_ASKS = {}  # generated file -> whether its code asks `x is y` of two non-constants


def asked_in(fn):
    """Whether the converted code ``fn`` (a loop body, a branch) belongs to asks `x is y`
    where neither side is a constant (`is None` is not identity of arrays): only then do
    staged loops and branches learn which arrays their variables hold (each learning stages
    the region again, so it is not done where nothing asks; a nest of such regions would
    be traced again at every level)."""
    path = _user_file(fn)
    if path not in _ASKS:
        _ASKS[path] = _asks_identity(path)
    return _ASKS[path]


_OURS = __file__.rsplit("/autograph/", 1)[0]  # (the package's folder)


def _user_file(fn, depth=3):
    """The file of the converted code behind ``fn``: its own, or that of a function it
    wraps (a staged `for`'s step around the loop body: loops.py), through closures."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    if not code.co_filename.startswith(_OURS) or depth == 0:
        return code.co_filename
    for cell in fn.__closure__ or ():
        try:
            inner = cell.cell_contents
        except ValueError:  # (an empty cell)
            continue
        if callable(inner) and hasattr(inner, "__code__"):
            path = _user_file(inner, depth - 1)
            if path is not None and not path.startswith(_OURS):
                return path
    return code.co_filename


def _asks_identity(path):
    import ast
    try:
        with open(path) as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError, TypeError, ValueError):
        return False
    for node in ast.walk(tree):
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                and node.func.attr in ("is_", "is_not") and isinstance(
                    node.func.value, ast.Name) and node.func.value.id == "ag__"
                and not any(isinstance(a, ast.Constant) for a in node.args)):
            return True
    return False


def mark():
    """A serial: boxes born after it were made after this point."""
    return next(serials)


def set_after_merge(merged, sides, cond, since):
    """Gives ``merged`` (the staged result of a branch on ``cond``) its identity, from the
    value each branch gave (``sides``: {True: t, False: f}) and the serial ``since`` taken
    before the branches were traced."""
    if not isinstance(merged, SymbolicTensor) or any(merged is v for v in sides.values()):
        return
    earlier = []
    for which, v in sides.items():
        if type(v) is np.ndarray:  # (an array of trace time: the box it stands for, which
            v = trace_arrays.resolve(v)  # `is` compares; the array is from before)
            if isinstance(v, SymbolicTensor):
                earlier.append((v, which))
            continue
        if not isinstance(v, SymbolicTensor):
            continue
        if v._born < since:
            earlier.append((v, which))
        elif v._identity is not None:
            merged._identity = UNKNOWN  # (a merge made inside a branch: not followed)
            return
    # (where each branch gave an earlier array, it is no array made in a branch: the
    # range of those is empty, so `src is dst` of a swap by one `if` is exact)
    until = since if len(earlier) == len(sides) else merged._born
    merged._identity = Identity(
        [v for v, _ in earlier], lambda: [cond if which else apply("logical_not", cond)
                                          for _, which in earlier], since, until)


def codes(value, objects, held=None):
    """The staged int saying which of ``objects`` ``value`` is (-1: none of them), or None
    where that is not followed (an UNKNOWN one, a region's value); ``held``: {id(box):
    its code} of boxes whose code is known (a loop's variables at the start of a trip)."""
    for j, o in enumerate(objects):
        if value is o:
            return j
    if not isinstance(value, SymbolicTensor):
        return -1
    if held and id(value) in held:
        return held[id(value)]
    if isinstance(value._identity, Identity):
        code = -1
        for obj, flag in value._identity.entries():
            inner = codes(obj, objects, held)
            if inner is None:
                return None
            if not (isinstance(inner, int) and inner == -1):
                code = apply("where", flag, inner, code)
        return code
    return None if _ambiguous(value) else -1


class Record:
    """What a staged loop or `if` (at one line, over the same names) learnt to follow, for
    the rest of the function's trace: the positions of the variables given an int saying
    which earlier array they hold, those arrays, and the positions whose int may not know
    (``loose``)."""

    def __init__(self):
        self.positions, self.objects, self.loose = [], [], set()

    def attempt(self):
        return BranchObjects(self)


class BranchObjects:
    """One attempt at staging an `if` (Record.attempt): the positions whose branches hand
    on a merge made inside them (`if c: cur = b if cur is a else a`) get an int output
    beside them, which earlier array it is (``codes``; -1: one a branch made)."""

    def __init__(self, record):
        self.record = record
        self.positions, self.objects = list(record.positions), _visible(record.objects)

    def check(self, traced, nouts, since):
        late, found = [], []
        for i in range(nouts):
            t, f = traced[True][i], traced[False][i]
            inner = [v for v in (t, f) if _array(v) and v._born >= since and isinstance(
                v._identity, Identity)]
            if t is f or not inner:
                continue
            objects = [v for v in (t, f) if _array(v) and v._born < since]
            for v in inner:
                objects += _earlier(v, since, {})[0]
            if any(_ambiguous(o) for o in objects):
                continue  # (an array of some run not followed: the merge stays UNKNOWN)
            missing = [o for o in objects if not any(o is p for p in self.objects + found)]
            if objects and i not in self.positions or missing:
                late.append(i)
                found += missing
        if late:
            raise ObjectsLate(late, found, (), self.record)

    def of(self, values):
        """The branch's ints (outputs of the `if` beside its values)."""
        return tuple(_as_code(codes(values[i], self.objects)) for i in self.positions)

    def attach(self, final, merged_codes, since):
        for i, code in zip(self.positions, merged_codes):
            box = final[i]
            if _array(box) and box._born > since:
                box._identity = Identity(self.objects, _equal_to_each(code, self.objects),
                                        since, box._born)


class LoopObjects:
    """Which of the arrays from before a staged loop each tracked variable holds: an int
    loop variable beside it (``codes``; -1 for an array a trip made), and its
    ``Identity`` inside the body and after the loop. ``known`` is the loop's ``Record``
    of what to track, which a trip that hands an array on to another variable grows
    (``ObjectsLate``: the loop is staged again)."""

    def __init__(self, known, carried, entering, asked=True):
        """``entering``: {position: the value it enters the loop with}; ``asked``: whether
        the loop's code asks `is` (``asked_in``), else it learns only where `is` asks of a
        variable it does not track."""
        self.known, self.since, self.asked = known, mark(), asked
        self.objects = _visible(known.objects)
        self.positions = []
        for k in known.positions:
            v = entering.get(k)
            if _array(v):
                if not any(v is o for o in self.objects):
                    self.objects.append(v)
                self.positions.append(k)
        self.start = [codes(entering[k], self.objects) for k in self.positions]

    def initial(self):
        return [_as_code(c) for c in self.start]

    def attach(self, state, held, carried, after):
        """Gives each tracked variable in ``state`` (a trip's start, or ``after`` the
        loop) the identity its int in ``held`` says; the other arrays of ``carried`` a mark
        that `is` asks to track them (ObjectsLate), or after the loop UNKNOWN."""
        for k in carried:  # (boxes the loop made: never an array from before it)
            if k not in self.positions and _array(state[k]) and state[k]._born > self.since:
                state[k]._identity = UNKNOWN if after else _Untracked(self.known, k)
        for k, code in zip(self.positions, held):
            box = state[k]
            if isinstance(box, SymbolicTensor) and box._born > self.since:
                box._identity = UNKNOWN if k in self.known.loose else Identity(
                    self.objects, _equal_to_each(code, self.objects), self.since, box._born)

    def after_trip(self, carried, entered, state, held):
        """The ints of the tracked variables after a trip; raises ObjectsLate where a
        variable the loop does not track holds an array from before it or another's."""
        if not self.asked and not self.positions:
            return []
        at_start = {id(entered[k]): k for k in carried if _array(entered[k])}
        codes_at_start = {id(entered[k]): c for k, c in zip(self.positions, held)}
        late, found, loose = [], [], []
        for k in carried:
            v = state[k]
            if not self.asked or not _array(v) or v is entered[k]:
                continue
            objects, positions = _earlier(v, self.since, at_start)
            plain = [o for o in objects if not _ambiguous(o)]
            if len(plain) < len(objects) and k not in self.known.loose:
                loose.append(k)  # (an array of some run not followed: -1 means unknown)
            if k not in self.positions and (objects or positions):
                late.append(k)
            late += [m for m in positions if m not in self.positions]
            found += [o for o in plain if not any(o is p for p in self.objects + found)]
        if late or found or loose:
            raise ObjectsLate(sorted(set(late)), found, loose, self.known)
        out = []
        for k in self.positions:
            code = codes(state[k], self.objects, codes_at_start)
            if code is None and k not in self.known.loose:
                loose.append(k)
            out.append(-1 if code is None else code)
        if loose:
            raise ObjectsLate([], [], loose, self.known)
        return out


def _as_code(code):
    """A code of ``codes`` as a loop variable or branch output: a staged int as it is, a
    known one (or None: not followed, -1) an int64 constant."""
    if isinstance(code, SymbolicTensor):
        return code
    return np.int64(-1 if code is None else code)


def _visible(objects):
    """Those of ``objects`` the graph being traced can read (a record keeps the arrays an
    earlier attempt found: an enclosing loop's variables of an attempt given up are not)."""
    graph = current_graph()
    return [o for o in objects if graph is None or graph.can_see(o._v)]


def _array(v):
    return isinstance(v, SymbolicTensor) and v.type.ndim >= 1


def _earlier(v, since, at_start):
    """([arrays from before ``since`` that ``v`` may be], [positions of the loop variables
    at a trip's start that it may be])."""
    objects, positions = [], []
    todo = [v]
    while todo:
        x = todo.pop()
        if not isinstance(x, SymbolicTensor):
            continue
        if id(x) in at_start:
            positions.append(at_start[id(x)])
        elif x._born < since:
            objects.append(x)
        elif isinstance(x._identity, Identity) and x._identity.since >= since:
            todo += x._identity.objects
    return objects, positions


class _Untracked:
    """The ``_identity`` of a staged loop's variable, at a trip's start, that the loop does
    not track: `is` of it stages the loop again tracking it."""
    __slots__ = ("record", "position")

    def __init__(self, record, position):
        self.record, self.position = record, position


class ObjectsLate(Exception):
    """A staged loop's trip hands an array on in a way its tracking does not cover, or
    asks `is` of a variable it does not track: staged again, tracking more (LoopObjects);
    ``record``: the loop's (an enclosing loop's passes through the loops inside it)."""

    def __init__(self, positions, objects, loose, record=None):
        super().__init__(positions)
        self.positions, self.objects, self.loose = positions, objects, loose
        self.record = record

    def mine(self, known):
        return self.record is None or self.record is known

    def grow(self, known):
        known.positions += [k for k in self.positions if k not in known.positions]
        known.objects += [o for o in self.objects if not any(o is p for p in known.objects)]
        known.loose |= set(self.loose)


def same_object(x, y):
    """`x is y` of two symbolic tensors: True, False or a staged bool (see the module
    docstring); raises NotImplementedError where it is known only when the function runs
    and is not followed."""
    if x is y:
        return True
    for a, b in ((x, y), (y, x)):
        if isinstance(a._identity, Identity):
            answer = False
            for obj, flag in a._identity.entries():
                same = same_object(obj, b)
                if same is not False:
                    answer = _or(answer, flag if same is True else apply("logical_and", flag,
                                                                         same))
            if _overlaps(a._identity, b):
                _refuse()
            return answer
    for a, b in ((x, y), (y, x)):
        if _ambiguous(a) and b._born < a._born:  # (b may be the array a is: refused)
            if isinstance(a._identity, _Untracked):  # (a loop variable: track it)
                raise ObjectsLate([a._identity.position], [], (), a._identity.record)
            _refuse()
    return False


def _overlaps(identity, b):
    """Whether ``b`` may be the object made in [since, until) that a box with ``identity``
    holds where no entry does (one of its entries' objects is not: they are earlier)."""
    if any(b is o for o in identity.objects):
        return False
    if isinstance(b._identity, Identity):
        return b._identity.since < identity.until and identity.since < b._identity.until
    return identity.since <= b._born < identity.until or _ambiguous(b)


def _refuse():
    raise NotImplementedError(
        "`is` between arrays a staged loop or branch chose (which object each is depends "
        "on the run, and is not followed here) that may be the same one is not staged; "
        "keep a flag saying which one a name holds (`use_b = not use_b`), or compare "
        "values with np.array_equal")


def _or(a, b):
    return b if a is False else apply("logical_or", a, b)


def _ambiguous(v):
    """Whether ``v`` is an array of some run not followed here (its identity says so: a
    box is marked where it is made, its value may be a region's later, `cur[0] += 1` of
    an argument a loop writes)."""
    return v._identity is UNKNOWN or isinstance(v._identity, _Untracked)
