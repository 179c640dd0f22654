"""The runtime of `match` patterns the converter turns into tests
(converters/match_statements.py)."""
import collections.abc

from autograph_lite import errors
from autograph_lite.tensor import Tensor
from autograph_lite.autograph.runtime import data, list_values


def sequence_of_length(subject, n):
    """The test of a `match` sequence pattern of ``n`` items: a sequence (not a str, bytes or
    bytearray, nor an array or tensor: NumPy's ndarray is no ``Sequence``) of length ``n``.
    A list the trace made a tensor (its length known only when it runs) is refused: its
    items are rows of one array."""
    if isinstance(subject, (list_values.ListTensor, data.TensorList)):
        raise NotImplementedError(
            f"a `match` sequence pattern on a list built by a staged loop is not staged (at "
            f"{errors.user_location()}); match on a tuple of its items, or on len(list)")
    return (isinstance(subject, collections.abc.Sequence)
            and not isinstance(subject, (str, bytes, bytearray, Tensor))
            and len(subject) == n)
