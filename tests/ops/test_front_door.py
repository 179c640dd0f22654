"""The op table is the one front door (issue 12): every public name (``np.*`` handled on
tensors, ``ag.*``, ``ag.math/nn/random.*``, the Tensor methods and operators) is made from
``ops/registry.PUBLIC``, every op names only what exists, and adding an op with its names
is one entry."""
import operator

import numpy as np
import pytest

import autograph_lite as ag
from autograph_lite import front_door, numpy_api
from autograph_lite.ir.types import TensorType
from autograph_lite.ops.registry import OPS, PUBLIC, defop
from autograph_lite.tensor import EagerTensor, SymbolicTensor, Tensor

# The library's own API, which is not an op's: functions, classes, dtypes and modules.
NOT_OPS = {"Function", "Tensor", "TensorSpec", "constant", "convert_to_tensor", "defun",
           "function", "functions_run_eagerly", "is_tensor", "run_functions_eagerly",
           "dtypes", "math", "nn", "random", "api"}
# The data class's own members (tensor.py): storage, shape and Python conversions.
DATA_CLASS = {"ndim", "shape", "dtype", "type", "numpy", "strides", "_np", "_v", "_storage",
              "_chain", "_gen", "_born", "_python_when", "_identity", "_value",
              "_refreshed", "_no_python", "__array__",
              "__array_priority__", "__bool__", "__float__", "__int__", "__index__",
              "__len__", "__iter__", "__format__", "__getattr__", "__hash__", "__slots__",
              "tolist"}  # (eager data out, like numpy(): a symbolic tensor refuses it by name)


def _entries_named(prefix):
    return {n: e for n, e in PUBLIC.items() if n.startswith(prefix)}


@pytest.mark.parametrize("name", sorted(PUBLIC))
def test_every_public_name_names_what_exists(name):
    entry = PUBLIC[name]
    assert (entry.op is None) != (entry.impl is None), name
    if entry.op is not None:
        assert entry.op in OPS, f"{name} names op {entry.op!r}, which is not in the table"
    if name.startswith("np."):
        obj = numpy_api.numpy_object(name)  # (raises if NumPy has no such name)
        assert callable(obj), name
        if entry.op is not None:
            assert isinstance(obj, np.ufunc) or name.endswith(".reduce"), (
                f"{name}: an op claims a NumPy function only as a ufunc (a function needs "
                f"a front that handles its arguments: @public)")


def test_every_ag_name_is_made_from_the_table():
    modules = {"ag.": ag, "ag.math.": ag.math, "ag.nn.": ag.nn, "ag.random.": ag.random}
    for prefix, module in modules.items():
        for attr in dir(module):
            obj = getattr(module, attr)
            if attr.startswith("_") or attr in NOT_OPS or type(obj).__name__ == "module":
                continue
            if prefix == "ag." and isinstance(obj, np.dtype | type(ag.float32)):
                continue
            assert front_door.INSTALLED.get(prefix + attr, (0, 0, None))[2] is obj, (
                f"{prefix}{attr} is not made from the op table's public names")
    for name, (owner, attr, obj) in front_door.INSTALLED.items():
        assert getattr(owner, attr) is obj, f"{name} was rebound after install()"
    assert set(front_door.INSTALLED) == {n for n in PUBLIC if not n.startswith("np.")}


def test_every_tensor_method_is_made_from_the_table():
    for cls in (Tensor, EagerTensor, SymbolicTensor):
        for attr, value in vars(cls).items():
            if attr in DATA_CLASS or attr in ("__module__", "__qualname__", "__doc__",
                                              "__init__", "__repr__", "__str__"):
                continue
            assert front_door.INSTALLED.get(f"Tensor.{attr}", (0, 0, None))[2] is value, (
                f"{cls.__name__}.{attr} is not made from the op table's public names")


def test_numpy_protocol_tables_come_from_the_table():
    """Every entry of NumPy's protocol tables (numpy_api.py) is a claimed name's op or
    front, and every claimed np name is in them."""
    made = {}
    for n, e in _entries_named("np.").items():
        made.setdefault(numpy_api.numpy_object(n), set()).add(e.op or e.impl)
    ufuncs, reduce, ufunc_fronts, functions = numpy_api._tables()
    seen = set()
    for table in (ufuncs, ufunc_fronts, functions):
        for obj, target in table.items():
            assert target in made[obj], obj
            seen.add(obj)
    for ufunc, op in reduce.items():
        assert op in made[ufunc.reduce], ufunc
        seen.add(ufunc.reduce)
    assert seen == set(made)


def _one_op_names():
    """(public name, op) for every name an elementwise op claims directly."""
    return sorted((n, e.op) for n, e in PUBLIC.items()
                  if e.op is not None and OPS[e.op].elementwise)


_INTEGER_ONLY = ("bitwise_and", "bitwise_or", "bitwise_xor", "invert", "gcd", "lcm",
                 "left_shift", "right_shift")


def _operands(op):
    if op in _INTEGER_ONLY:
        return np.array([6, 3, 12]), np.array([5, 1, 10])
    return np.array([0.25, 1.5, 3.0]), np.array([2.0, 0.5, 1.0])


def _arity(op):
    """1 when the op's type rule takes one operand (of the test's dtype), else 2."""
    try:
        OPS[op].infer([TensorType(_operands(op)[0].dtype, (3,))])
        return 1
    except TypeError:
        return 2


@pytest.mark.parametrize("name,op", _one_op_names())
def test_a_one_op_name_computes_the_op(name, op):
    """Called on tensors, each name gives what the op's NumPy kernel gives: eagerly, and
    traced (the in-place operators, which only symbolic tensors have, write the array
    as NumPy's in-place ufunc does)."""
    a, b = _operands(op)
    args = [a, b][:_arity(op)]
    attr = name.rsplit(".", 1)[1]
    with np.errstate(all="ignore"):
        # (reflected: __radd__ is __add__'s; __rshift__ is an operator of its own)
        reflected = attr.startswith("__r") and hasattr(operator, "__" + attr[3:])
        want = OPS[op].eager(*(args[::-1] if reflected else args))
        if name.startswith("Tensor.__i"):
            def f(x, y):
                getattr(operator, attr)(x, y)  # (x += y and the others)
                return x
            got = ag.defun(f, autograph=False, backend="interpreter")(a.copy(), b)
            assert not hasattr(EagerTensor, attr)  # (an ag.Tensor is immutable)
        elif name.startswith("np."):
            got = numpy_api.numpy_object(name)(*[EagerTensor(x) for x in args])
        elif name.startswith("Tensor."):
            got = getattr(EagerTensor(args[0]), attr)(*[EagerTensor(x) for x in args[1:]])
        else:
            got = front_door.INSTALLED[name][2](*[EagerTensor(x) for x in args])
    np.testing.assert_array_equal(np.asarray(got), want)


@pytest.fixture
def nextafter_entry():
    """An op added the way docs/architecture.md says: one entry with its public names."""
    from autograph_lite.ops.elementwise import infer_from
    defop("test_nextafter", infer=infer_from(np.nextafter), eager=np.nextafter,
          scalar="np.nextafter({0}, {1})", names=("np.nextafter", "ag.math.nextafter"))
    front_door.install()
    yield
    del OPS["test_nextafter"], PUBLIC["np.nextafter"], PUBLIC["ag.math.nextafter"]
    del front_door.INSTALLED["ag.math.nextafter"], ag.math.nextafter


def test_adding_an_op_is_one_entry(nextafter_entry):
    x, y = np.array([3.0, 5.0]), np.array([4.0, -12.0])
    want = np.nextafter(x, y)
    np.testing.assert_array_equal(np.asarray(np.nextafter(ag.constant(x), y)), want)
    np.testing.assert_array_equal(np.asarray(ag.math.nextafter(x, y)), want)

    def f(a, b):
        return np.nextafter(a, b) - ag.math.nextafter(b, a)
    for backend in ("interpreter", "cpu"):
        got = ag.defun(f, backend=backend)(x, y)
        np.testing.assert_array_equal(np.asarray(got), want - np.nextafter(y, x))


_DIVISIONS = [(f"Tensor.__{form}{name}__", op) for op, name in
              (("true_divide", "truediv"), ("floor_divide", "floordiv"), ("mod", "mod"))
              for form in ("", "r", "i")]


@pytest.mark.parametrize("name,op", _DIVISIONS)
def test_the_division_operators_compute_numpys_division_on_arrays(name, op):
    """`/`, `//`, `%` are fronts (numpy_api.py: between two Python numbers a zero divisor
    raises, as Python does); on arrays they are the op's NumPy kernel, zero divisors
    included (inf, nan and 0, no error), eagerly, traced and in place."""
    a, b = np.array([0.25, -1.5, 3.0, 2.0]), np.array([2.0, 0.5, 0.0, -0.75])
    attr = name.rsplit(".", 1)[1]
    with np.errstate(all="ignore"):
        want = OPS[op].eager(*((b, a) if attr.startswith("__r") else (a, b)))
        if attr.startswith("__i"):
            def f(x, y):
                getattr(operator, attr)(x, y)
                return x
            got = ag.defun(f, autograph=False, backend="interpreter")(a.copy(), b)
        else:
            got = getattr(EagerTensor(a), attr)(EagerTensor(b))
            traced = ag.defun(lambda x, y: getattr(x, attr)(y), autograph=False,
                              backend="interpreter")(a, b)
            np.testing.assert_array_equal(np.asarray(traced), want)
    np.testing.assert_array_equal(np.asarray(got), want)
