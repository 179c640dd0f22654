"""analysis: reads/writes per statement, liveness and definedness annotations."""

import gast

from autograph_lite.autograph.analysis import activity, liveness
from autograph_lite.autograph.pyct import parser


def fn_node(src):
    return parser.parse_str(src).body[0]


def test_activity_reads_writes_and_scopes():
    node = fn_node("""
def f(a):
    b = a + c
    a += 1
    def g(p):
        q = p + b
    xs = [z for z in a]
    import os.path
""")
    act = activity.of(node.body)
    assert act.writes == {"b", "a", "g", "xs", "os"}
    assert act.reads == {"a", "c", "b"}


def test_liveness_and_definedness():
    node = fn_node("""
def f(x, n):
    t = 0
    if x > 0:
        y = x
        t = 1
    else:
        y = -x
    i = 0
    while i < n:
        tmp = y * 2
        y = tmp
        i += 1
    return y
""")
    liveness.analyze(node)
    if_node, while_node = node.body[1], node.body[3]
    assert isinstance(if_node, gast.If) and isinstance(while_node, gast.While)
    assert if_node.ag_live_out == {"y", "n"}
    assert "t" not in if_node.ag_live_out
    assert while_node.ag_live_in == {"i", "n", "y"}
    assert "tmp" not in while_node.ag_live_in | while_node.ag_live_out
    assert if_node.ag_defined_in == {"x", "n", "t"}
    assert while_node.ag_defined_in >= {"y", "i", "t"} and "tmp" not in while_node.ag_defined_in


def test_a_with_block_is_a_block_not_a_loop():
    # its body runs once, in order: a name first bound by a statement inside it is not
    # bound before that statement (a staged `if` needs an Undefined for it, else its body
    # functions' `nonlocal` has no binding)
    node = fn_node("""
def f(x, ctx):
    with ctx() as c:
        if x > 0:
            y = x
        else:
            y = -x
        z = y
    return z
""")
    liveness.analyze(node)
    with_node = node.body[0]
    if_node = with_node.body[0]
    assert isinstance(with_node, gast.With) and isinstance(if_node, gast.If)
    assert with_node.ag_defined_in == {"x", "ctx"}
    assert if_node.ag_defined_in == {"x", "ctx", "c"}
