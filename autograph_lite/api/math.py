"""ag.math: TensorFlow's math names. The one-op names (ag.math.sin, ag.math.add) are
claimed by the op entries and the reductions by api/core.py's fronts; front_door.py puts
them all in this module. Only what builds on several ops is written here."""
from ..ops import dispatch, registry


@registry.public("ag.math.log_sigmoid")
def log_sigmoid(x, name=None):
    return -dispatch.apply("log1p", dispatch.apply("exp", -x))
