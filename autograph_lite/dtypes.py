"""NumPy dtypes as autograph_lite's dtypes, and NumPy 2 (NEP 50) promotion with weak literals.

A Python literal staged next to a tensor is *weak*: it takes the tensor's kind where it
fits (``float32_tensor * 2.0`` stays float32), exactly as NumPy 2 does. A weak value
is represented in type inference by a Python scalar of its kind, which is what
``np.result_type`` understands.
"""
import numpy as np

float16 = np.dtype("float16")
float32 = np.dtype("float32")
float64 = np.dtype("float64")
int8 = np.dtype("int8")
int16 = np.dtype("int16")
int32 = np.dtype("int32")
int64 = np.dtype("int64")
uint8 = np.dtype("uint8")
uint16 = np.dtype("uint16")
uint32 = np.dtype("uint32")
uint64 = np.dtype("uint64")
bool_ = np.dtype("bool")
complex64 = np.dtype("complex64")
complex128 = np.dtype("complex128")

ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       bool_, complex64, complex128)
_PY = {float: float64, int: int64, bool: bool_, complex: complex128}


def as_dtype(value, what="dtype"):
    """Normalises anything a user may pass as a dtype (np.float32, 'float32', float, ...)."""
    if isinstance(value, np.dtype):
        dt = value
    elif value in _PY:
        dt = _PY[value]
    else:
        try:
            dt = np.dtype(value)
        except TypeError:
            raise TypeError(f"{what} must be a dtype such as ag.float32, np.float32, 'float32' "
                            f"or float; got {value!r}") from None
    if dt not in ALL:
        raise TypeError(f"{what} {dt} is not supported; use one of "
                        f"{', '.join(str(d) for d in ALL)}")
    return dt


def is_floating(dt):
    return dt.kind == "f"


def is_integer(dt):
    return dt.kind in "iu"


def weak_stand_in(dt):
    """The Python scalar that stands for a weak value of dtype ``dt`` in np.result_type."""
    return {"b": False, "i": 0, "u": 0, "f": 0.0, "c": 0j}[dt.kind]


def weak_python_type(dt):
    """The Python number type a weak value of dtype ``dt`` stands for (bool, int, float,
    complex)."""
    return type(weak_stand_in(dt))


def result_type(*types):
    """Promotes TensorTypes (or dtypes) as NumPy 2 does; weak types act as Python scalars."""
    if not types:
        raise ValueError("result_type needs at least one operand")
    args = []
    for t in types:
        if isinstance(t, np.dtype):
            args.append(t)
        elif t.weak:
            args.append(weak_stand_in(t.dtype))
        else:
            args.append(t.dtype)
    if all(not isinstance(a, np.dtype) for a in args):
        # All weak: the Python result of mixing the kinds (bool < int < float < complex).
        kinds = {type(a) for a in args}
        return (complex128 if complex in kinds else float64 if float in kinds
                else int64 if int in kinds else bool_)
    return np.result_type(*args)


def all_weak(types):
    return all(getattr(t, "weak", False) for t in types)
