"""Shape ops and matmul against NumPy itself: reshape, transpose, expand_dims, squeeze,
concat, stack, split, shape/size, matmul (f64, f32, int, bool; 1-D, 2-D, batched). Every
rank <= 3 and dtype family is drawn (Explored), operands contiguous and strided."""
import itertools

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import autograph_lite as ag
from differential import BACKENDS, agree
from ops_strategies import (FAMILIES, RANKS, Explored, arrays, dtypes, examples, layouts,
                            shapes)

pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")


def _agree(f, *args, **kw):
    return agree(f, *args, autograph=False, independent=True, **kw)


def _family_array(data, explored, rank, **kw):
    family = data.draw(st.sampled_from(sorted(FAMILIES)))
    x = data.draw(arrays(data.draw(dtypes(family)), shapes(rank, **kw)))
    explored.note(rank=rank, family=family)
    return x


@examples(10)
@given(st.data())
def test_reshape_with_minus_one(data):
    shape = data.draw(shapes(data.draw(st.sampled_from(RANKS)), min_side=1))
    x = data.draw(arrays(np.float64, shape))
    n = x.size
    k = data.draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0]))

    def f(x, y):
        return (x.reshape(-1), np.reshape(x, (k, -1)), x.reshape(-1, k) * 2.0,
                np.ravel(x), x.T.reshape(-1), x.reshape(1, -1, 1), y.reshape(-1),
                np.reshape(y, (k, -1)), y.T.reshape(-1))
    _agree(f, *(layouts(x) * 2)[:2])


def test_reshape_scalars_and_empty():
    _agree(lambda x: (x.reshape(1, 1), x.reshape(-1)), np.float32(2.0))
    _agree(lambda x: (x.reshape(()), x.reshape(-1)), np.ones((1, 1), np.int32))
    _agree(lambda x: (x.reshape(3, 0), x.reshape(-1)), np.zeros((0, 3)))


def test_transpose():
    """Every permutation of the drawn rank at once (one kernel per rank, dtype and layout);
    ag.transpose on a strided view."""
    explored = Explored(rank=RANKS, family=FAMILIES)

    @examples(16)
    @given(st.data())
    def check(data):
        rank = data.draw(st.sampled_from(RANKS))
        x = _family_array(data, explored, rank)
        perms = list(itertools.permutations(range(rank)))

        def program(transpose):  # transpose: ag.transpose, or NumPy's for the oracle
            def f(x, y):
                return ((x.T, y.T) + tuple(np.transpose(x, p) for p in perms)
                        + (np.transpose(x) + 0, transpose(y, perms[-1]) * 1))
            return f
        _agree(program(ag.transpose), *(layouts(x) * 2)[:2], oracle=program(np.transpose))
    check()
    explored.check()


def test_transpose_then_elementwise():
    x = np.arange(24.0).reshape(2, 3, 4)
    _agree(lambda x: (x.transpose(1, 0, 2) * 2, x.T + 1, np.transpose(x, (2, 0, 1)).sum(0)), x)


def test_expand_dims_and_squeeze():
    explored = Explored(rank=RANKS, family=FAMILIES)

    @given(st.data())
    def check(data):
        x = _family_array(data, explored, data.draw(st.sampled_from(RANKS)), max_side=3)
        shape = np.shape(x)
        axis = data.draw(st.integers(-len(shape) - 1, len(shape)))
        ones = tuple(k for k, d in enumerate(shape) if d == 1)

        def program(ns):  # ns: ag, or NumPy for the oracle
            def f(x):
                e = np.expand_dims(x, axis)
                out = [e, ns.expand_dims(x, axis) * 2, np.squeeze(e, axis=axis),
                       np.squeeze(x), ns.squeeze(e)]
                if ones:
                    out.append(np.squeeze(x, axis=ones[-1]))
                return tuple(out)
            return f
        _agree(program(ag), x, oracle=program(np))
    check()
    explored.check()


def squeezed(a):
    return a.squeeze(), a.sum(axis=1).squeeze() * 2


def test_squeeze_of_sizes_that_vary_between_calls():
    """(once a second shape relaxed the sizes, squeeze() squeezed nothing on cpu: (2, 1)
    stayed (2, 1); the interpreter crashed): a relaxed trace cannot know which axes are 1,
    so each shape is traced as it is; an input_signature of unknown sizes is refused"""
    agree(squeezed, calls=[(np.ones((1, 3)),), (np.ones((2, 1)),), (np.ones((1, 1)),),
                           (np.arange(20.0).reshape(4, 5),)], exact=True)
    f = ag.defun(lambda a: a.squeeze(),
                 input_signature=[ag.TensorSpec([None, None], np.float64)])
    with pytest.raises(ValueError, match="sizes unknown at trace time; pass axis="):
        f(np.ones((1, 3)))


def test_squeeze_of_views():
    _agree(lambda x: (np.squeeze(x.T), x.T.squeeze(), np.squeeze(x[:, :1])), np.ones((3, 1)))
    _agree(lambda x: np.squeeze(x), np.ones((1, 1), np.int64))


# Operand dtypes of concatenate/stack: one family, or two (NumPy promotes).
CONCAT_PAIRS = [(np.float64, np.float64), (np.float32, np.int32), (np.int64, np.bool_),
                (np.uint8, np.int8), (np.bool_, np.bool_)]


@pytest.mark.parametrize("rank", RANKS[1:])
@pytest.mark.parametrize("pair", CONCAT_PAIRS, ids=lambda p: f"{np.dtype(p[0])}-{np.dtype(p[1])}")
def test_concat_stack(pair, rank):
    """Along every axis of the rank at once, mixed dtypes, zero-size pieces (an extra of
    0), a strided operand (sides >= 2, so it stays one Numba signature: one kernel a test)."""
    da, db = pair

    @examples(3)
    @given(st.data())
    def check(data):
        shape = data.draw(shapes(rank, min_side=2))
        extras = [data.draw(st.integers(0, 3)) for _ in range(rank)]
        a = data.draw(arrays(da, shape))
        bs = [data.draw(arrays(db, shape[:k] + (e,) + shape[k + 1:]))
              for k, e in enumerate(extras)]
        c = layouts(data.draw(arrays(db, shape)))[-1]

        def program(concat, stack):  # ag.concat/ag.stack, or NumPy's for the oracle
            def f(a, c, *bs):
                return (tuple(np.concatenate([a, b], axis=k) for k, b in enumerate(bs))
                        + tuple(np.concatenate((b, a), axis=k - rank) for k, b in enumerate(bs))
                        + (concat([a, bs[0], a], 0), np.concatenate((a.T, c.T)))
                        + tuple(np.stack([a, c], axis=k) for k in range(-rank - 1, rank + 1))
                        + (stack([c, a, c]),))
            return f
        _agree(program(ag.concat, ag.stack), a, c, *bs,
               oracle=program(np.concatenate, np.stack))
    check()


def test_stack_scalars():
    _agree(lambda x, y: (np.stack([x, y]), ag.stack([x, y * 2])), np.float64(1), np.float64(2),
           oracle=lambda x, y: (np.stack([x, y]), np.stack([x, y * 2])))


def test_split():
    explored = Explored(rank=RANKS[1:])

    @given(st.data())
    def check(data):
        shape = data.draw(shapes(data.draw(st.sampled_from(RANKS[1:])), min_side=1))
        axis = data.draw(st.integers(-len(shape), len(shape) - 1))
        n = shape[axis]
        k = data.draw(st.sampled_from([d for d in range(1, n + 1) if n % d == 0]))
        cut = data.draw(st.integers(0, n))
        # indices to cut at, as NumPy takes them: unsorted, past the end, negative
        cuts = data.draw(st.lists(st.integers(-n - 1, n + 2), max_size=3))
        x = data.draw(arrays(np.float64, shape))
        explored.note(rank=len(shape))

        def f(x):
            parts = np.split(x, k, axis=axis)
            return (tuple(parts), tuple(ag.split(x, [cut, n - cut], axis=axis)),
                    parts[-1] * 2.0, tuple(np.split(x, cuts, axis=axis)))

        def oracle(x):
            parts = np.split(x, k, axis=axis)
            return (tuple(parts), tuple(np.split(x, [cut], axis=axis)), parts[-1] * 2.0,
                    tuple(np.split(x, cuts, axis=axis)))
        _agree(f, x, oracle=oracle)
    check()
    explored.check()


def test_shape_and_size():
    x = np.arange(24.0).reshape(2, 3, 4)
    _agree(lambda x: (ag.shape(x), ag.size(x), ag.shape(x[0]) * 2), x,
           oracle=lambda x: (np.array(np.shape(x)), np.int64(np.size(x)),
                             np.array(np.shape(x[0])) * 2))
    _agree(lambda x: (ag.shape(x), ag.size(x)), np.float64(1.0),
           oracle=lambda x: (np.array(np.shape(x), np.int64), np.int64(np.size(x))))


MATMUL_RANKS = [(1, 1), (1, 2), (2, 1), (2, 2), (3, 3), (3, 2), (2, 3), (3, 1), (1, 3)]


@pytest.mark.parametrize("dt", [np.float64, np.int64, np.float32, np.int32, np.bool_])
def test_matmul_ranks(dt):
    """Every pair of ranks 1..3 (batched, broadcast batch, vector) in one kernel per dtype."""
    n, k, m, b = 2, 3, 4, 2
    shape_a = {1: (k,), 2: (n, k), 3: (b, n, k)}
    shape_b = {1: (k,), 2: (k, m), 3: (b, k, m)}
    args = []
    for ra, rb in MATMUL_RANKS:
        sa, sb = shape_a[ra], shape_b[rb]
        args.append((np.arange(np.prod(sa)) % 7 - 3).reshape(sa).astype(dt))
        args.append((np.arange(np.prod(sb)) % 5 - 2).reshape(sb).astype(dt))

    def f(*xs):
        return tuple(xs[i] @ xs[i + 1] for i in range(0, len(xs), 2))
    _agree(f, *args, rtol=1e-5)


@examples(10)
@given(st.data())
def test_matmul_sizes(data):
    """Sizes 1..4 here (zero-size products: test_matmul_zero_sized); operands contiguous
    and strided."""
    n, k, m, b = (data.draw(st.integers(1, 4)) for _ in range(4))
    dt = data.draw(st.sampled_from([np.float64, np.int64]))
    a = data.draw(arrays(dt, (b, n, k), lo=-5, hi=5))
    w = data.draw(arrays(dt, (k, m), lo=-5, hi=5))
    la, lw = layouts(a), layouts(w)
    _agree(lambda a, w, a2, w2: (a @ w, np.matmul(a[0], w), a2 @ w2, a2[-1] @ w), *la, *lw)


@pytest.mark.parametrize("shapes_", [((0, 3), (3, 2)), ((2, 0), (0, 3)), ((2, 3), (3, 0)),
                                     ((0, 2, 3), (3, 2)), ((2, 2, 0), (2, 0, 1)), ((0,), (0,)),
                                     ((0,), (0, 4)), ((3, 0), (0,))], ids=str)
def test_matmul_zero_sized(shapes_):
    sa, sb = shapes_
    _agree(lambda a, b: (a @ b, np.matmul(a, b) + 1), np.ones(sa), np.ones(sb))


def test_matmul_mixed_dtypes_transposes_and_broadcast_batch():
    a = np.arange(6.0).reshape(2, 3)
    _agree(lambda a, b: (a @ b, np.dot(a, b.T.T), ag.matmul(a, a, transpose_b=True),
                         ag.matmul(a, a, transpose_a=True)), a.astype(np.float32), a.T,
           oracle=lambda a, b: (a @ b, np.dot(a, b.T.T), a @ a.T, a.T @ a))
    _agree(lambda a, b: a @ b, a.astype(np.int32), a.T.astype(np.float32).copy())
    _agree(lambda a, b: a @ b, np.ones((1, 2, 3)), np.ones((4, 3, 2)))
    _agree(lambda a, b: a @ b, np.arange(24.0).reshape(2, 1, 3, 4), np.ones((3, 4, 2)))
    _agree(lambda a, b: a @ b, np.array([[True, False]]), np.array([[True], [True]]))


@pytest.mark.parametrize("dt", [np.float64, np.float32])
def test_matmul_blas_strided_transposed_and_vector_shaped_operands(dt):
    """cpu_runtime.dot: BLAS takes C and F operands as they are and gets a copy of any
    other layout; (1,k)@(k,1), (m,k)@(k,1) and (1,k)@(k,n) go to dot/gemv as in Numba's
    np.dot; zero-sized products are zeros."""
    a = (np.arange(48.0).reshape(6, 8) % 7 - 3).astype(dt)

    def f(a, t):
        return (a[::2, 1::3] @ a[1::2, ::2],      # strided @ strided
                a[0, ::2] @ a[:4, ::3],           # vector @ matrix
                a[:3, ::2] @ a[1, ::2],           # matrix @ vector
                a[0, ::2] @ a[1, ::2],            # vector @ vector
                a[:1, ::2] @ a[:4, :1],           # (1,k) @ (k,1)
                a[:3, ::2] @ a[:4, 1:2],          # (m,k) @ (k,1)
                a[:1, ::2] @ a[:4, :3],           # (1,k) @ (k,n)
                t @ a, t[:, :1].T @ t,            # F-ordered operands
                a[:, :0] @ t[:0, :],              # k == 0: zeros
                a[:0] @ t)                        # m == 0
    _agree(f, a, a.T, rtol=1e-5)
    _agree(lambda a, b: a @ b, a[:, ::2], a[1::2, :4].T, rtol=1e-5)  # the caller's views


def test_runtime_dot_refuses_what_blas_cannot_take():
    """rt.dot is only reached with 1-D/2-D operands of one dtype (matmul casts first);
    anything else is a typing error, never a product read with the wrong item size."""
    import numba
    from autograph_lite.backends import cpu_runtime as rt
    dot = numba.njit(lambda a, b: rt.dot(a, b))
    for a, b in [(np.ones((2, 3), np.float32), np.ones((3, 2))),
                 (np.ones((2, 2, 3)), np.ones((3, 2)))]:
        with pytest.raises(numba.core.errors.TypingError, match="rt.dot takes"):
            dot(a, b)


def test_a_minus_one_next_to_a_zero_size_is_numpys_error():
    """`x.reshape(0, -1)` of an empty array: NumPy refuses (the -1 could be any size);
    the cpu kernel gave shape (0, 0) (session 40). Internal reshapes name every size."""
    errors = []
    agree(lambda x: x.reshape(0, -1), calls=[(np.zeros((0, 3)),), (np.zeros((2, 0)),)],
          errors=errors)
    assert len(errors) == 2 * len(BACKENDS), errors
    agree(lambda a, b: (np.tensordot(a, b, 1), np.dot(a, b)),  # (a zero-size sum: zeros)
          calls=[(np.ones((2, 0)), np.ones((0, 3))), (np.ones((2, 3)), np.ones((3, 4)))])


def long_stacks(x):
    squares = np.array([x[i] ** 2 for i in range(x.shape[0])])          # scalars
    columns = np.stack([x * k for k in range(70)], axis=1)               # rows, axis 1
    mixed = np.array([x[i] if i % 2 else np.int32(i) for i in range(x.shape[0])])
    return squares, columns, mixed


def test_a_stack_of_many_items_is_written_item_by_item():
    """(session 48: np.stack's tuple of 1,500 items was a Numba TypingError after minutes
    of compiling; a stack past 64 items is now a new array filled item by item)"""
    agree(long_stacks, calls=[(np.arange(72.0),), (np.linspace(-1.0, 1.0, 80),)])
