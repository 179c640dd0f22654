"""AutoGraph for autograph_lite: converts Python control flow into runtime operators
that stage it when it depends on tensors (SPEC section 3).

Layout: `pyct/` (parse, templates, origin map, loading), `analysis/` (activity,
liveness), `converters/` (one rewrite each), `pipeline.py` (their order),
`operators.py` + `runtime/` (what generated code calls), `api.py` (entry points).
"""

from autograph_lite.autograph.api import (convert, do_not_convert, is_library_code, to_code,
                                          to_graph)
from autograph_lite.autograph.operators import UNROLL_LIMIT, set_loop_options
from autograph_lite.errors import lookup as origin_of
from autograph_lite.autograph.pyct.origin import user_location

__all__ = ["convert", "to_graph", "to_code", "do_not_convert", "is_library_code",
           "set_loop_options", "user_location", "origin_of", "UNROLL_LIMIT"]
