"""The runtime operators generated code calls as `ag__.*` (this module is `ag__`).

The converter never decides whether a value is a tensor: it rewrites syntax into these
calls, and each one looks at the actual values when it runs. On Python values every
operator is exactly the Python construct it replaced (the oracle semantics); on
symbolic tensors it calls the core's staged forms (`control.cond`, `control.while_loop`,
`ag.*` ops). The implementations live in `autograph/runtime/`, one concern per file.
"""

from autograph_lite.autograph.runtime.builtins_ import (OVERLOADS, abs_, bool_, enumerate_,
                                                        float_, int_, isinstance_, len_,
                                                        max_, min_, print_, range_,
                                                        shape_of, sum_, zip_)
from autograph_lite.autograph.runtime.calls import (attribute, converted_call, do_not_convert,
                                                    getitem, list_pop, setattr_)
from autograph_lite.autograph.runtime.data import is_library_code
from autograph_lite.autograph.runtime.conditionals import assert_stmt, if_exp, if_stmt
from autograph_lite.autograph.runtime.generators import filtered_list, reduce_generator
from autograph_lite.autograph.runtime.data import (augassign, augassign_attribute,
                                                   index,
                                                   list_append, list_extend,
                                                   set_loop_options, setitem,
                                                   setitem_held)
from autograph_lite.autograph.runtime.iteration import StagedRange
from autograph_lite.autograph.runtime.logical import (and_, compare_chain, eq, in_, is_,
                                                      is_not, ne, not_, not_in, or_)
from autograph_lite.autograph.runtime.match_patterns import sequence_of_length
from autograph_lite.autograph.runtime.staging import matched_by_python
from autograph_lite.autograph.runtime.slots import (defined_closure, get_slot,
                                                    nonlocal_write_guard, set_slot)
from autograph_lite.autograph.runtime.loops import UNROLL_LIMIT, for_stmt, while_stmt
from autograph_lite.autograph.runtime.staging import (caught, discarded_by_finally,
                                                      global_write_guard, try_body,
                                                      try_stmt_guard, user_raise, with_guard)
from autograph_lite.autograph.runtime.text import formatted, fstring
from autograph_lite.autograph.runtime.user_operators import binary, compare, unary
from autograph_lite.autograph.runtime.text_formats import percent_format
from autograph_lite.autograph.runtime.trace_arrays import resolve, resolved_items
from autograph_lite.autograph.runtime.variables import (Undefined, UndefinedReturnValue,
                                                        deleted, ld, retval)

__all__ = [
    "OVERLOADS", "StagedRange", "UNROLL_LIMIT", "Undefined", "UndefinedReturnValue", "abs_",
    "and_", "assert_stmt", "attribute", "augassign", "augassign_attribute", "binary", "bool_",
    "caught", "compare", "compare_chain", "converted_call", "defined_closure", "deleted",
    "discarded_by_finally", "do_not_convert", "enumerate_", "eq", "filtered_list", "float_",
    "for_stmt",
    "formatted", "fstring", "get_slot", "getitem", "global_write_guard", "if_exp", "if_stmt",
    "in_", "index", "int_", "is_", "is_library_code", "is_not", "isinstance_", "ld", "len_",
    "list_append", "list_extend", "list_pop", "matched_by_python", "max_", "min_", "ne",
    "nonlocal_write_guard", "not_", "not_in", "or_", "percent_format", "print_", "range_",
    "reduce_generator", "resolve", "resolved_items", "retval", "sequence_of_length",
    "set_loop_options", "set_slot", "setattr_", "setitem", "setitem_held", "shape_of", "sum_",
    "try_body", "try_stmt_guard", "unary", "user_raise", "while_stmt", "with_guard", "zip_",
]
