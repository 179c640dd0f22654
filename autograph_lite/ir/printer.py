"""A readable text form of a Graph: every op, dtype, shape, region, placement and source
line."""
import numpy as np


def _val(v, names):
    return names.setdefault(v.id, f"%{v.hint}" if v.hint else f"%{len(names)}")


def _attr(value):
    if isinstance(value, np.ndarray):
        if value.size <= 6:
            return np.array2string(value, separator=",").replace("\n", "")
        return f"array<{value.dtype}{list(value.shape)}>"
    if callable(value) and hasattr(value, "__name__"):
        return value.__name__
    return repr(value)


def format_graph(graph, indent="", names=None):
    names = {} if names is None else names
    params = ", ".join(f"{_val(v, names)}: {v.type}" for v in graph.inputs)
    lines = [f"{indent}{graph.name}({params}) {{"]
    for node in graph.nodes:
        outs = ", ".join(f"{_val(v, names)}: {v.type}" for v in node.outputs)
        args = ", ".join(_val(v, names) for v in node.inputs)
        attrs = ", ".join(f"{k}={_attr(a)}" for k, a in node.attrs.items()
                          if not k.startswith("_"))
        text = f"{node.op}({args}{'; ' if args and attrs else ''}{attrs})"
        place = f" @{node.device}" if node.device else ""  # ag.device (SPEC §2)
        loc = f"  # {node.loc}" if node.loc else ""
        lines.append(f"{indent}  {outs + ' = ' if outs else ''}{text}{place}{loc}")
        for r in node.regions:
            lines.append(format_graph(r, indent + "    ", names))
    for i, v in getattr(graph, "input_updates", ()):  # arguments written (SPEC §3)
        lines.append(f"{indent}  {_val(graph.inputs[i], names)}[...] = {_val(v, names)}")
    rets = ", ".join(_val(v, names) for v in graph.outputs)
    lines.append(f"{indent}  return ({rets})")
    lines.append(f"{indent}}}")
    return "\n".join(lines)
