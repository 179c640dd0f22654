"""A corpus of small user programs (tangent style) that drives the autograph tests.

Each `@program(...)` registers a function with the argument tuples to run it on.
`staged=True` marks programs whose control flow depends only on numeric arguments, so
`ag.defun` with array/NumPy-scalar arguments must agree with the plain Python run.
Every construct appears alone and nested: loops in branches in loops, break under
continue, return from nested loops, zero-trip loops, variables that change length.
"""

import numpy as np

PROGRAMS = []


def program(*inputs, staged=True):
    def register(fn):
        PROGRAMS.append((fn, inputs, staged))
        return fn
    return register


# --- if ---------------------------------------------------------------------------

@program((3,), (-2,), (0,))
def if_basic(x):
    if x > 0:
        y = x * 2
    else:
        y = -x
    return y


@program((5,), (-5,))
def if_no_else(x):
    y = x
    if x < 0:
        y = 0
    return y


@program((-3,), (0,), (4,), (20,))
def if_elif_chain(x):
    if x < 0:
        r = -1
    elif x == 0:
        r = 0
    elif x < 10:
        r = 1
    else:
        r = 2
    return r


@program((1, 2), (2, 1), (-1, 5), (-3, -4))
def if_nested(a, b):
    if a > 0:
        if b > a:
            r = b - a
        else:
            r = a - b
    else:
        if b > 0:
            r = b
        else:
            r = a + b
    return r


@program((2, 3), (-2, 3), (2, -3))
def if_two_vars(a, b):
    if a > 0 and b > 0:
        x, y = a, b
    else:
        x, y = b, a
    return x * 10 + y


@program((1.5,), (-1.5,))
def if_temp_in_branch(x):
    if x > 0:
        t = x * 3
        y = t + 1
    else:
        y = x
    return y


@program((4,), (-4,))
def if_expression(x):
    return x if x > 0 else -x


@program((4,), (-4,), (0,))
def if_expression_nested(x):
    return 1 if x > 0 else (0 if x == 0 else -1)


@program((1, 0), (0, 1), (0, 0), (1, 1))
def if_logical_ops(a, b):
    if a > 0 or b > 0:
        r = 1
    else:
        r = 0
    if not a > 0 and b > 0:
        r = r + 10
    return r


@program((5,), (-5,))
def if_unchanged_var(x):
    y = 7
    if x > 0:
        z = y + x
    else:
        z = y - x
    return z + y


@program((3,), (-3,))
def if_reassign_param(x):
    if x < 0:
        x = -x
    return x


# --- while ------------------------------------------------------------------------

@program((10,), (0,), (1,))
def while_count(n):
    i = 0
    s = 0
    while i < n:
        s = s + i
        i = i + 1
    return s


@program((100,), (7,))
def while_halving(n):
    steps = 0
    while n > 1:
        n = n // 2
        steps += 1
    return steps


@program((10,), (3,))
def while_break(n):
    i = 0
    while i < n:
        if i * i > 20:
            break
        i += 1
    return i


@program((10,), (0,))
def while_continue(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 3 == 0:
            continue
        s += i
    return s


@program((12,), (5,))
def while_break_and_continue(n):
    i = 0
    s = 0
    while i < n:
        i += 1
        if i % 2 == 0:
            continue
        if s > 10:
            break
        s += i
    return s, i


@program((4, 3), (0, 2), (3, 0))
def while_nested(n, m):
    i = 0
    total = 0
    while i < n:
        j = 0
        while j < m:
            total += i * j
            j += 1
        i += 1
    return total


@program((0,), (5,))
def while_zero_trip(n):
    x = 100
    while n > 10:
        x = x - 1
        n -= 1
    return x


@program((5,), (50,), staged=False)
def while_else(n):
    i = 0
    while i < n:
        if i == 10:
            break
        i += 1
    else:
        i = -1
    return i


@program((1.0,), (100.0,))
def while_float_tolerance(x):
    d = 1.0 + 1.0
    y = x
    while d > 1e-6:
        y_new = 0.5 * (y + x / y)
        d = abs(y_new - y)
        y = y_new
    return y


@program((10,), (3,))
def while_return_inside(n):
    i = 0
    while i < n:
        if i == 5:
            return i * 100
        i += 1
    return -1


# --- for --------------------------------------------------------------------------

@program((5,), (0,), (1,))
def for_range_sum(n):
    s = 0
    for i in range(n):
        s += i
    return s


@program((2, 11, 3), (10, 0, -2), (5, 5, 1))
def for_range_step(a, b, c):
    s = 0
    for i in range(a, b, c):
        s = s * 2 + i
    return s


@program(([1, 2, 3, 4],), ([],), staged=False)
def for_list(xs):
    s = 0
    for x in xs:
        s += x * x
    return s


@program((np.arange(6.0),), (np.ones(3),))
def for_array_rows(x):
    s = 0.0
    for v in x:
        s = s + v * 2
    return s


@program((np.arange(12.0).reshape(4, 3),))
def for_matrix_rows(m):
    acc = np.zeros(3)
    for row in m:
        acc = acc + row
    return acc


@program((np.array([3.0, -1.0, 2.0]),))
def for_enumerate(x):
    s = 0.0
    for i, v in enumerate(x):
        s = s + i * v
    return s


@program((np.array([1.0, 2.0, 3.0]), np.array([4.0, 5.0, 6.0])))
def for_zip(a, b):
    s = 0.0
    for u, v in zip(a, b):
        s = s + u * v
    return s


@program((10,), (3,))
def for_break(n):
    s = 0
    for i in range(n):
        if i > 4:
            break
        s += i
    return s


@program((10,), (0,))
def for_continue(n):
    s = 0
    for i in range(n):
        if i % 2 == 1:
            continue
        s += i
    return s


@program((10,), (4,))
def for_break_under_continue(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            continue
        else:
            if i > 6:
                break
        s += i
    return s


@program((10,), (6,))
def for_continue_then_break(n):
    s = 0
    for i in range(n):
        if i == 2:
            continue
        s += i
        if s > 12:
            break
    return s


@program((3, 4), (0, 4), (3, 0))
def for_nested(n, m):
    s = 0
    for i in range(n):
        for j in range(m):
            s += (i + 1) * (j + 2)
    return s


@program((5, 5), (3, 10))
def for_nested_break_inner(n, m):
    s = 0
    for i in range(n):
        for j in range(m):
            if j > i:
                break
            s += j
    return s


@program((5,), (12,))
def for_return_inside(n):
    for i in range(n):
        if i * i > 10:
            return i
    return -1


@program((4, 4), (2, 3), (6, 6))
def for_return_nested(n, m):
    for i in range(n):
        for j in range(m):
            if i * j == 6:
                return i * 10 + j
    return -1


@program((0,), (3,))
def for_zero_trip(n):
    x = 7
    for i in range(n):
        x = x + i
    return x


@program((5,), (20,), staged=False)
def for_else(n):
    for i in range(n):
        if i == 7:
            break
    else:
        return -1
    return i


@program((6,), (0,))
def for_loop_in_branch_in_loop(n):
    s = 0
    for i in range(n):
        if i % 2 == 0:
            for j in range(i):
                s += j
        else:
            s -= 1
    return s


@program((5,), (1,))
def for_branch_in_loop_in_branch(n):
    s = 0
    if n > 2:
        for i in range(n):
            if i > 1:
                s += i
            else:
                s -= i
    else:
        s = 100
    return s


@program((5,), (0,))
def for_loop_var_used_after(n):
    last = -1
    for i in range(n):
        last = i
    return last


@program((4,), (0,), staged=False)
def for_target_used_after(n):
    i = -1
    for i in range(n):
        pass
    return i


@program((6,), (2,))
def for_while_mix(n):
    s = 0
    for i in range(n):
        j = i
        while j > 0:
            s += j
            j -= 2
    return s


@program((50,), (100,))
def for_long_range(n):
    s = 0
    for i in range(n):
        s = s + i * 2
    return s


# --- lists and growing values -----------------------------------------------------

@program((5,), (0,), staged=False)
def list_append_loop(n):
    out = []
    for i in range(n):
        out.append(i * i)
    return out


@program((4,), (0,), staged=False)
def list_append_nested(n):
    out = []
    for i in range(n):
        for j in range(i):
            out.append(i + j)
    return out


@program((4,))
def list_append_stack(n):
    rows = []
    for i in range(n):
        rows.append(np.full(2, float(i)))
    return np.stack(rows)


@program((5,), staged=False)
def list_comprehension(n):
    return [i * 2 for i in range(n) if i % 2 == 0]


@program((4,))
def growing_array(n):
    x = np.zeros(1)
    for i in range(n):
        x = np.concatenate([x, np.full(1, float(i))])
    return x


@program((5,), staged=False)
def growing_string(n):
    s = ""
    for i in range(n):
        s = s + str(i)
    return s


# --- subscript assignment ---------------------------------------------------------

@program((5,))
def setitem_fill(n):
    out = np.zeros(n)
    for i in range(n):
        out[i] = i * 1.5
    return out


@program((3,))
def setitem_2d_aug(n):
    m = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            m[i, j] += i - j
    return m


@program((np.arange(6.0),))
def setitem_slice(x):
    y = x.copy()
    y[1:3] = -1.0
    y[4:] = y[:2]
    return y


@program((np.arange(4.0),))
def setitem_in_branch(x):
    y = x.copy()
    if y[0] < 1.0:
        y[0] = 10.0
    else:
        y[1] = 20.0
    return y


@program((3,), staged=False)
def setitem_list(n):
    xs = [0] * n
    for i in range(n):
        xs[i] = i + 1
    return xs


@program((np.arange(5.0),))
def setitem_numpy_idiom(x):
    out = np.empty(x.shape[0])
    for i in range(x.shape[0]):
        out[i] = x[i] * x[i]
    return out


# --- builtins ---------------------------------------------------------------------

@program((np.arange(5.0),))
def builtin_len(x):
    return len(x) * 2


@program((3.7,), (-2.2,))
def builtin_int_float(x):
    return int(x) + float(int(x))


@program((-3,), (4,))
def builtin_abs(x):
    return abs(x) + 1


@program((3, 7), (9, 2))
def builtin_min_max(a, b):
    return max(a, b) * 10 + min(a, b)


@program((np.array([2.0, 9.0, 4.0]),))
def builtin_min_max_array(x):
    return max(x) - min(x)


@program((np.array([1.0, 2.0, 3.0]),))
def builtin_sum(x):
    return sum(x)


@program((3,), staged=False)
def builtin_print(n):
    for i in range(n):
        print("step", i)
    return n


@program((3,), (3.5,), staged=False)
def builtin_isinstance(x):
    if isinstance(x, int):
        return 1
    return 2


@program((4,), (0,))
def builtin_bool(x):
    return bool(x)


# --- asserts ----------------------------------------------------------------------

@program((3,), (-1,))
def assert_positive(x):
    assert x > 0, "x must be positive"
    return x


# --- returns ----------------------------------------------------------------------

@program((5,), (-5,), (0,))
def return_early(x):
    if x > 0:
        return 1
    if x < 0:
        return -1
    return 0


@program((5,), (-5,))
def return_in_both(x):
    if x > 0:
        return x * 2
    else:
        return x * 3


@program((5,), (-5,), staged=False)
def return_implicit_none(x):
    if x > 0:
        return x
    x = x + 1


@program((2,), (5,))
def return_after_loop_work(n):
    s = 0
    for i in range(n):
        s += i
        if s > 5:
            return s * 100
    s = s + 1
    return s


@program((3,), (8,))
def return_from_while_in_for(n):
    for i in range(n):
        j = 0
        while j < i:
            if i + j > 8:
                return i, j
            j += 1
    return -1, -1


# --- calls ------------------------------------------------------------------------

def _helper(x):
    if x > 2:
        return x - 2
    return x + 2


@program((5,), (1,))
def call_user_function(x):
    return _helper(x) * _helper(x + 1)


@program((3,), (-3,))
def call_nested_function(x):
    def inner(y):
        if y > 0:
            return y * 2
        return y
    return inner(x) + inner(-x)


@program((4,))
def call_closure(x):
    k = 3

    def scale(y):
        return y * k
    return scale(x)


@program((5,))
def call_lambda(x):
    f = lambda y: y + 1 if y > 2 else y - 1  # noqa: E731
    return f(x) + f(1)


@program((6,), (1,), staged=False)  # staged recursion on a tensor never ends
def call_recursive(n):
    def fact(k):
        if k <= 1:
            return 1
        return k * fact(k - 1)
    return fact(n)


@program((2,))
def call_kwargs(x):
    def f(a, b=1, *rest, c=5, **kw):
        return a + b + c + sum(rest) + len(kw)
    return f(x, 2, 3, 4, c=x, d=1) + f(x)


class _Counter:
    def __init__(self):
        self.n = 0

    def bump(self, k):
        for _ in range(k):
            self.n += 1
        return self.n


@program((3,), staged=False)
def call_method(k):
    c = _Counter()
    c.bump(k)
    return c.bump(1)


@program((3,), staged=False)
def call_numpy(n):
    return np.arange(n).sum() + np.sqrt(4.0)


# --- logical expressions ----------------------------------------------------------

@program((0,), (3,), staged=False)
def logical_short_circuit(x):
    calls = []

    def side(v):
        calls.append(v)
        return v
    r = side(x) and side(x + 1) or side(-1)
    return r, calls


@program((1, 2, 3), (3, 2, 1), (1, 3, 2))
def logical_chained_comparison(a, b, c):
    return a < b < c


@program((0,), (5,))
def logical_not(x):
    return not x


# --- misc -------------------------------------------------------------------------

_SCALE = 3


@program((2,))
def reads_global(x):
    for i in range(2):
        x = x * _SCALE
    return x


@program((3,), (-3,), staged=False)
def raises_in_branch(x):
    if x < 0:
        raise ValueError("negative")
    return x


@program((4,), staged=False)
def try_in_python_loop(n):
    s = 0
    for i in range(n):
        try:
            s += 10 // (i - 2)
        except ZeroDivisionError:
            s += 1000
    return s


@program((3,), staged=False)
def with_statement(n):
    import contextlib
    with contextlib.nullcontext(n) as v:
        r = v * 2
    return r


@program((5,), staged=False)
def del_variable(n):
    x = n
    y = x + 1
    del x
    return y


@program((4,))
def docstring_function(n):
    """A docstring is kept and does not break conversion."""
    s = 0
    for i in range(n):
        s += i
    return s


@program((3,), (-3,))
def nested_ifexp_in_loop(n):
    s = 0
    for i in range(4):
        s += i if n > 0 else -i
    return s


@program((6,), (2,))
def while_in_if_in_while(n):
    i = 0
    s = 0
    while i < n:
        if i % 2 == 0:
            j = 0
            while j < i:
                s += 1
                j += 1
        i += 1
    return s


@program((6,), (3,))
def multiple_breaks(n):
    s = 0
    for i in range(n):
        if i == 4:
            break
        s += i
        if s > 4:
            break
    return s


@program((7,), (0,))
def continue_in_nested_if(n):
    s = 0
    for i in range(n):
        if i > 1:
            if i % 2 == 0:
                continue
            s += 100
        s += i
    return s


@program((5,), (2,))
def return_in_else(n):
    for i in range(n):
        if i < 3:
            pass
        else:
            return i
    return 99


@program((4,), (0,))
def loop_changes_length(n):
    x = np.ones(1)
    for i in range(n):
        x = np.concatenate([x, x])
    return x.sum()


@program((5,), staged=False)
def global_statement(n):
    global _COUNTER_VALUE
    _COUNTER_VALUE = 0
    for i in range(n):
        if i % 2:
            _COUNTER_VALUE += i
    return _COUNTER_VALUE


_COUNTER_VALUE = 0


@program((3,), staged=False)
def nonlocal_statement(n):
    total = 0

    def add(k):
        nonlocal total
        if k > 0:
            total += k
    for i in range(n):
        add(i)
    return total


@program((3,), (0,))
def augmented_ops(x):
    y = x
    y *= 3
    y -= 1
    if y > 0:
        y //= 2
    y **= 2
    return y


@program((2,), staged=False)
def tuple_unpack_in_loop(n):
    pairs = [(1, 2), (3, 4), (5, 6)]
    s = 0
    for a, (b,) in [(p[0], (p[1],)) for p in pairs[:n]]:
        s += a * b
    return s


@program((3,), staged=False)
def dict_in_loop(n):
    d = {}
    for i in range(n):
        d[i] = i * i
    return d


@program((4,), staged=False)
def class_in_function(n):
    class Box:
        def __init__(self, v):
            self.v = v
    b = Box(n)
    if b.v > 2:
        b.v = 0
    return b.v
