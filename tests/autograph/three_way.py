"""The Python-semantics tests' form of the differential check (differential.py): results
compared bit for bit, several inputs through the same Function, and the exceptions the
backends raised handed back so that a test can check their messages."""

import differential

BACKENDS = differential.BACKENDS


def agree(fn, inputs, backends=BACKENDS):
    """Every backend agrees with plain Python on every input (at least two, same Function).
    Returns the exceptions the backends raised, as (backend, args, message)."""
    assert len(inputs) >= 2, "call the same Function at least twice"
    raised = []
    differential.agree(fn, calls=inputs, backends=backends, exact=True, errors=raised)
    return raised
