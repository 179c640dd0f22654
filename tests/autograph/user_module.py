"""A module of the user's whose variables test_outside_state.py's functions reach through
its attributes (`user_module.REG.append(v)`, `user_module.add_one()`)."""
import numpy as np

REG = []
D = {}
ARR = np.zeros(4)


def add_one():
    REG.append(1)
