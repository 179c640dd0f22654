"""Builds code from template strings: `replace("x = foo(y)", x="a", foo=node, y=[...])`.

Placeholders are plain names in the template. A substitution may be:
  - a str: becomes a Name (in the placeholder's context) or the name of a def/nonlocal;
  - a gast expression: deep-copied, its context fixed to the placeholder's (Store/Load);
  - a list: statements spliced where the placeholder is an expression statement,
    expressions spliced inside a list (tuple elements, call args), names spliced in
    `nonlocal`/`global`, and a Tuple anywhere else.
Converters build all statements this way instead of constructing gast nodes by hand.
"""

import functools

import gast


@functools.lru_cache(maxsize=None)
def _parse_template(template):
    import textwrap
    return gast.parse(textwrap.dedent(template))


def copy_tree(node):
    """A copy of `node` (an AST node, or a list of them) whose every node is new.

    Converters substitute parts of the tree they are rewriting, and a part may land in
    more than one place, so each substitution is a copy. Only the nodes are copied:
    the annotations converters and analyses set on them (`ag_origin`, `ag_live_out`, ...)
    are shared, since no one changes an annotation's value in place (they are set
    anew). ``copy.deepcopy`` copied those too, through its generic protocol, and took
    half of a large function's conversion time."""
    if isinstance(node, list):
        return [copy_tree(n) for n in node]
    if not isinstance(node, gast.AST):
        return node
    new = node.__class__.__new__(node.__class__)
    fields = new.__dict__
    fields.update(node.__dict__)
    for field in node._fields:
        value = fields.get(field)
        if isinstance(value, list):
            fields[field] = [copy_tree(v) if isinstance(v, gast.AST) else v for v in value]
        elif isinstance(value, gast.AST):
            fields[field] = copy_tree(value)
    return new


def _name(id_, ctx):
    return gast.Name(id=id_, ctx=ctx, annotation=None, type_comment=None)


def set_ctx(node, ctx):
    """Sets the expression context of `node` (and of tuple/list/starred parts)."""
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Starred,
                         gast.Tuple, gast.List)):
        node.ctx = ctx
    if isinstance(node, (gast.Tuple, gast.List)):
        for e in node.elts:
            set_ctx(e, ctx)
    if isinstance(node, gast.Starred):
        set_ctx(node.value, ctx)
    return node


def _as_expr(value, ctx):
    if isinstance(value, str):
        return _name(value, ctx)
    if isinstance(value, (list, tuple)):
        return gast.Tuple(elts=[_as_expr(v, ctx) for v in value], ctx=ctx)
    if isinstance(value, gast.AST):
        return set_ctx(copy_tree(value), ctx)
    return gast.Constant(value=value, kind=None)


# List fields where a list substitution splices elements (elsewhere it becomes a Tuple).
_SPLICE_FIELDS = {"elts", "args", "posonlyargs", "kwonlyargs"}


class _Replacer(gast.NodeTransformer):
    def __init__(self, subs):
        self.subs = subs

    def generic_visit(self, node):
        for field, old in gast.iter_fields(node):
            if isinstance(old, list):
                new = []
                for item in old:
                    if isinstance(item, gast.AST):
                        out = self._visit_item(item, field in _SPLICE_FIELDS)
                        if isinstance(out, list):
                            new.extend(out)
                        elif out is not None:
                            new.append(out)
                    else:
                        new.append(item)
                old[:] = new
            elif isinstance(old, gast.AST):
                setattr(node, field, self.visit(old))
        return node

    def _visit_item(self, item, splice_exprs):
        """Visits an element of a list field, where lists may be spliced in."""
        if isinstance(item, gast.Expr) and isinstance(item.value, gast.Name):
            value = self.subs.get(item.value.id)
            if isinstance(value, list):
                return [copy_tree(v) for v in value]
            if isinstance(value, gast.stmt):
                return copy_tree(value)
        if (splice_exprs and isinstance(item, gast.Name)
                and isinstance(self.subs.get(item.id), list)):
            return [_as_expr(v, item.ctx) for v in self.subs[item.id]]
        return self.visit(item)

    def visit_Name(self, node):
        if node.id not in self.subs:
            return node
        return _as_expr(self.subs[node.id], node.ctx)

    def visit_FunctionDef(self, node):
        value = self.subs.get(node.name)
        if isinstance(value, str):
            node.name = value
        return self.generic_visit(node)

    def _visit_decl(self, node):
        names = []
        for n in node.names:
            value = self.subs.get(n, n)
            names.extend([value] if isinstance(value, str) else value)
        if not names:
            return None
        node.names = names
        return node

    visit_Nonlocal = _visit_decl
    visit_Global = _visit_decl


def replace(template, **subs):
    """Returns the list of statements of `template` with placeholders substituted."""
    module = copy_tree(_parse_template(template))
    replacer = _Replacer(subs)
    replacer.generic_visit(module)
    return module.body


def replace_as_expression(template, **subs):
    """Like `replace` for a template that is a single expression; returns that expression."""
    body = replace(template, **subs)
    if len(body) != 1 or not isinstance(body[0], gast.Expr):
        raise ValueError(f"template is not a single expression: {template!r}")
    return body[0].value
