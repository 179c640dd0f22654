"""pyct: source of functions/lambdas, templates, origin map, loading with closures."""

import functools

import gast
import pytest

import autograph_lite.autograph as autograph
from autograph_lite import errors
from autograph_lite.autograph.pyct import parser, templates


def decorated(fn):
    @functools.wraps(fn)
    def wrapper(*a):
        return fn(*a)
    return wrapper


@decorated
def with_decorator(x):
    return x + 1


def test_parse_function_strips_decorators_and_sets_origin():
    node, filename = parser.parse_function(with_decorator.__wrapped__)
    assert node.decorator_list == [] and node.name == "with_decorator"
    assert node.ag_origin == (__file__, with_decorator.__wrapped__.__code__.co_firstlineno + 1)


def test_lambdas_on_one_line_are_told_apart():
    pair = (lambda a: a + 1, lambda b: b * 2)  # noqa: E731
    for fn in pair:
        node, _ = parser.parse_lambda(fn)
        assert isinstance(node, gast.Lambda)
    assert parser.unparse(parser.parse_lambda(pair[1])[0]) == "lambda b: b * 2"
    nested = lambda x: lambda y: x + y  # noqa: E731
    assert autograph.convert(nested)(1)(2) == 3
    # the same argument names: told apart by the columns of their code (every one of these
    # once converted to the first: a silent wrong answer)
    same = (lambda a: a + 1, lambda a: a * 2, lambda a: (a - 3))  # noqa: E731
    assert [autograph.convert(fn)(10) for fn in same] == [11, 20, 7]


def test_lambda_keeps_its_keyword_only_arguments_and_defaults():
    # (the converted lambda once lost every keyword-only argument: "unexpected keyword
    # argument 'sub'" on a call that plain Python takes)
    fn = lambda *a, sub=10, k: sum(a) * sub + k  # noqa: E731
    converted = autograph.convert(fn)
    assert converted(1, 2, k=1) == fn(1, 2, k=1) == 31
    assert converted(1, sub=2, k=0) == 2
    assert autograph.convert(lambda a, b=3: a + b)(1) == 4  # noqa: E731


def test_indented_continuation_lines():
    def f(x):
        y = (x +
  1)
        return y
    assert autograph.convert(f)(1) == 2


def test_templates_replace_names_lists_and_nodes():
    expr = templates.replace_as_expression("a + b", a="x", b=gast.Constant(value=1, kind=None))
    assert parser.unparse(expr) == "x + 1"
    body = templates.replace("def f(args):\n    nonlocal names\n    stmts\n    return t",
                             f="g", args=["p", "q"], names=["u"],
                             stmts=templates.replace("u = p"), t=["p", "q"])
    assert parser.unparse(body) == "def g(p, q):\n    nonlocal u\n    u = p\n    return (p, q)"
    assert parser.unparse(templates.replace("nonlocal names", names=[])) == ""
    assert parser.unparse(templates.replace("t = v", t=["a", "b"], v="w")) == "a, b = w"


def test_origin_map_points_generated_lines_at_user_lines():
    def f(x):
        if x > 0:
            x = x - 1
        return x
    g = autograph.convert(f)
    path = g.ag__converted.path
    text = open(path).read().splitlines()
    line = next(i for i, t in enumerate(text, 1) if "ag__.if_stmt" in t)
    assert errors.lookup(path, line) == (__file__, f.__code__.co_firstlineno + 1)
    body = next(i for i, t in enumerate(text, 1) if "x = ag__.binary('-', x, 1)" in t)
    assert errors.lookup(path, body) == (__file__, f.__code__.co_firstlineno + 2)


def test_closure_cells_and_globals_are_shared():
    k = 1

    def f(x):
        return x * k + OFFSET
    g = autograph.convert(f)
    assert g(2) == 2 + OFFSET
    k = 10  # rebinding the closed-over name is seen by the converted function
    assert g(2) == 20 + OFFSET


OFFSET = 100


def test_tracebacks_show_generated_source():
    def f(x):
        return 1 / x
    g = autograph.convert(f)
    with pytest.raises(ZeroDivisionError) as e:
        g(0)
    assert any("return ag__.binary('/', 1, x)" in str(entry.statement) for entry in e.traceback)
