"""The runtime behind `ag__.*`: each operator runs plain Python on Python values and the
core's staged forms on symbolic tensors. `autograph/operators.py` is its public face."""
