"""ConcreteFunction: one traced signature, its Graph, its kernel, and the fast call.

The kernel is compiled on the first call (so tracing alone, e.g. for ``show``, is cheap).
After that, a call flattens the tensor arguments, calls the kernel, and wraps results.
"""
import contextlib
import io
import pickle
import time
import warnings
import threading

import numpy as np

from . import contiguity, held_state, nest, partial_raise
from .call_keys import OUT, OptionalSlot, compile_notice, is_weak_part, layouts_fit, weak_arguments
from .backends import export_runtime, interpreter
from .tensor import EagerTensor, TensorSpec, unshared
from .variables import Variable, captures_of


def _index_error(exc, sites):
    """A kernel's bounds-check error (cpu_runtime.index, gather_index, mask_index) in
    NumPy's words at the user's line, or None for any other error."""
    text = export_runtime.located_text(exc, sites)
    return None if text is None else IndexError(text)


class ConcreteFunction:
    def __init__(self, function, graph, structured, template, key):
        self.function = function
        self.graph = graph
        self._structured = structured
        self._template = template
        self._key = key
        # {argument leaf: was it C-contiguous} for the arrays whose layout the trace relied
        # on (a reshape view's write, contiguity.py): a call with another traces again
        self.layouts = contiguity.used_inputs(graph)
        self._kernel = None
        self._source = None
        self._dispatcher = None   # the Numba dispatcher (cpu backend), once compiled
        self._first_lock = threading.Lock()
        self._call = self._first_call
        self._n_args = len(graph.inputs)
        # the ag.Variables the trace used: extra inputs after the arguments (variables.py)
        self._variables = [v for v, _ in captures_of(graph)]
        # the arrays the user's objects among the arguments hold, by path: inputs after the
        # arguments, before the variables (held_state.py)
        self.held = getattr(graph, "held", [])
        # what each call binds into those objects, from the graph's last outputs
        self.updates = getattr(graph, "held_updates", [])
        self._n_results = len(graph.outputs) - sum(
            kind == "out" for *_, kinds in self.updates for kind, _ in kinds)
        numbers = getattr(graph, "held_number_types", {})  # (Python numbers stay Python's)
        self._update_types = [numbers.get(k, v.type.dtype.type)
                              for k, v in enumerate(graph.outputs[self._n_results:])]
        types = [v.type for v in graph.outputs[:self._n_results]]
        self._wrappers = [_wrapper(t) for t in types]
        # the top-level arguments that are graph inputs, in order, when every input is
        # one (the others are Python values the key fixes); None otherwise (nesting)
        self._plain = _input_positions(graph, function, key)
        self._optional = any(isinstance(t, OptionalSlot)
                             for t in template)  # (a leaf None on some runs)
        self._single = (len(template) == 1 and template[0] is OUT
                        and not isinstance(structured, (tuple, list, dict)))
        # relaxed Python scalar arguments (function.py ``_scalar_key``): weak 0-d inputs
        self._weak = tuple(i for i, part in enumerate(key) if is_weak_part(part))
        # 0-d argument inputs the kernel does not write: passed as NumPy scalars, so a 0-d
        # array and a scalar share one Numba overload, and the call skips Numba's array
        # unboxing (about 300 ns)
        written = {i for i, _ in graph.input_updates}
        self._scalar_inputs = tuple(
            i for i, v in enumerate(graph.inputs[:self._n_args - len(self._variables)])
            if v.type.ndim == 0 and i not in written)

    # introspection ------------------------------------------------------------------------
    @property
    def inputs(self):
        return [TensorSpec(v.type.shape, v.type.dtype, v.hint) for v in self.graph.inputs]

    @property
    def outputs(self):
        return [TensorSpec(v.type.shape, v.type.dtype) for v in self.graph.outputs]

    @property
    def source(self):
        """The generated kernel source (the cuda backend's: its kernels and host driver;
        the cpu kernel's for the other backends)."""
        if self._source is None:
            if self.function.backend == "cuda":
                from .backends import cuda as generator
            else:
                from .backends import cpu as generator
            self._kernel = generator.generate(self.graph)
            self._source = self._kernel.source
        return self._source

    def export(self, path):
        """Writes a standalone Python module (NumPy and Numba only) that reproduces this
        signature's compiled function (SPEC §6; backends/export.py); returns ``path``."""
        from .backends import export
        return export.export(self, path)

    def __call__(self, *args, **kwargs):
        f = self.function
        if kwargs or f._simple_arity != len(args):
            args = f._bind(args, kwargs)
        if self.layouts:
            if not layouts_fit(self.layouts, args):
                raise ValueError(f"{f._name}: this concrete function was traced for array "
                                 f"arguments laid out as {self.layouts} (leaf: C-contiguous) "
                                 f"and its reshape views rely on it; call the Function "
                                 f"itself (it traces again for another layout) or pass "
                                 f"arrays laid out the same way")
        return self._call_args(args)

    # calling --------------------------------------------------------------------------------
    def _call_args(self, args):
        if self._weak:
            args = weak_arguments(args, self._weak)
        buffers = [v._np for v in self._variables]  # (their current buffers, in order)
        found = held = None
        if self.held or self.updates:  # (the key checked their paths, shapes and dtypes)
            found = dict(held_state.holders(self.function, args))
            held = [held_state.fetch(found, sel, steps) for sel, steps in self.held]
            buffers = held + buffers
        flat = _flat_tensors(args) + buffers
        if len(flat) != self._n_args:  # pragma: no cover - keys make this impossible
            raise TypeError(f"{self.function._name}: expected {self._n_args} tensor arguments, "
                            f"got {len(flat)}")
        if self.graph.input_updates:
            _check_written(self.function._name, self.graph, _tensor_leaves(args) + buffers,
                           flat)
        for i in self._scalar_inputs:
            if type(flat[i]) is np.ndarray:
                flat[i] = flat[i][()]
        def bind(rows, values, types):
            self._bind(rows, values, types, args, found or dict(
                held_state.holders(self.function, args)), held, flat)
        try:
            if self.graph.check_plans:  # (callbacks that see the state before them: sync)
                with partial_raise.calling(self.graph, self._targets(args, buffers), bind):
                    raw = self._call(*flat)
            else:
                raw = self._call(*flat)
        except partial_raise.Partial as e:  # (a failed check: the state Python had made)
            error = partial_raise.commit(e, self.graph, self._targets(args, buffers), bind)
            raise error from error.__cause__  # (a user's `raise ... from cause`: kept)
        except Exception as e:
            raise self._located(e, flat) from None
        if self.updates:
            raw = self._bind_updates(raw, args, found, held, flat)
        if self._variables:  # (`return w`: the variable's value, not a view `assign` changes)
            buffers = [v._np for v in self._variables]
            raw = (tuple(unshared(r, buffers) for r in raw) if isinstance(raw, tuple)
                   else unshared(raw, buffers))
        return self._finish(raw)

    @staticmethod
    def _targets(args, buffers):
        """The arrays of the graph's inputs, as the caller holds them (a variable's own)."""
        return [a._np if isinstance(a, Variable) else a
                for a in _tensor_leaves(args) + buffers]

    def _bind_updates(self, raw, args, found, held, flat):
        """Binds what the trace bound into the objects (held_state.py), made of this call's
        outputs, as Python binds it on every call; returns the raw results without them. An
        output that is an input array itself is bound as that object (`self.v = x`); one
        that shares memory with an input or a constant of the kernel is copied (it is the
        object's own array from now on, which the caller may write)."""
        n = len(self.graph.outputs)
        outs = () if n == 0 else (raw,) if n == 1 else tuple(raw)  # (bindings of objects
        # alone, `h.v = ag.Variable(...)`, take no output)
        self._bind(self.updates, outs[self._n_results:], self._update_types, args, found,
                   held, flat)
        results = outs[:self._n_results]
        return results[0] if len(results) == 1 else results

    def _bind(self, rows, tail, types, args, found, held, flat):
        """Binds ``rows`` ([(selector, steps, structure, kinds)]: ``graph.held_updates``, or
        a failed check's plan) made of the values ``tail`` (a scalar or 0-d one as its type
        of ``types``), as ``_bind_updates`` says."""
        leaves, values, shared = nest.flatten(args), [], None
        for *_, kinds in rows:
            row = []
            for kind, k in kinds:
                if kind == "out":
                    a = tail[k]
                    if not isinstance(a, np.ndarray) or a.ndim == 0:  # (NumPy's scalar)
                        a = types[k](a)
                    elif not any(a is f for f in flat):
                        if shared is None:
                            shared = [f for f in flat if isinstance(f, np.ndarray)] + \
                                self._constants()
                        if any(np.may_share_memory(a, f) for f in shared):
                            a = a.copy()
                    row.append(a)
                else:
                    row.append(leaves[k] if kind == "arg" else held[k] if kind == "held" else k)
            values.append(row)
        held_state.store(found, [(sel, steps, structure) for sel, steps, structure, _ in rows],
                         values)

    def _constants(self):
        """The arrays the graph holds as constants (and the kernel's copies of them), once
        the kernel exists (after the first call)."""
        if self.__dict__.get("_const_arrays") is None:
            out = [n.attrs["value"] for n in self.graph.walk()
                   if n.op == "const" and isinstance(n.attrs.get("value"), np.ndarray)]
            self._const_arrays = out + list(self._kernel.const_args
                                            if self._kernel is not None else ())
        return self._const_arrays

    def _finish(self, raw):
        """The kernel's raw result(s) as eager tensors in the structure the function returned."""
        if self._single:
            return self._wrappers[0](raw)
        if len(self._wrappers) == 1:
            raw = (raw,)
        elif not self._wrappers:
            raw = ()
        outs = [w(r) for w, r in zip(self._wrappers, raw)]
        it = iter(outs)
        if self._optional:
            return nest.pack_as(self._structured, [_optional(t, it) for t in self._template])
        leaves = [next(it) if t is OUT else t for t in self._template]
        return nest.pack_as(self._structured, leaves)

    def _fast_entry(self, args, parts):
        """(call, finish, locate) for Function's fast path table, from ``parts``
        (``_fast_parts(args)``): the compiled entry point of the Numba overload these
        arguments select (skipping the dispatcher's own type resolution), adapted to take
        the call's arguments, the result wrapper, and the error locator."""
        call, passed, consts = parts
        if consts:
            call = _with_consts(call, consts)
        finish = self._wrappers[0] if self._single else self._finish
        if len(passed) != len(args) or any(how for _, how in passed):
            call = _adapter(call, len(args), passed)
        return call, finish, self._located

    def _fast_parts(self, args):
        """(entry, passed, consts): what a fast call of ``args`` calls (the compiled
        overload they select, or the backend's call), the arguments it takes as (position,
        how: "" as it is, "._np" an ag.Tensor's NumPy value, "[()]" a 0-d array's scalar,
        as ``_call_args`` passes them), and the constant arguments appended; None when
        calls of this function must take the checked path."""
        if (self._plain is None or self._call == self._first_call
                or self.graph.input_updates or self._variables or self.held or self.updates
                or self.graph.check_plans):
            return None  # (a function that writes its arguments checks them on every call;
            # one whose checks hand back state stores it: partial_raise.py)
        passed, inputs = [], []
        for i in self._plain:
            a, how = args[i], ""
            if type(a) is EagerTensor:
                a, how = a._np, "._np"
            if type(a) is np.ndarray and a.ndim == 0:
                a, how = a[()], how + "[()]"
            passed.append((i, how))
            inputs.append(a)
        if self._dispatcher is None:
            return self._call, passed, ()
        consts = tuple(self._kernel.const_args)
        return _entry_point(self._dispatcher, tuple(inputs), consts), passed, consts

    def _located(self, exc, flat):
        """An error from compiled code, pointing at the user's line. A bounds check names
        its site (cpu_runtime.index); other Numba exceptions carry no location, so the
        graph is run again in the interpreter, which names the failing op's file:line.
        Graphs with state (callbacks, random) are not run twice: their error is passed on
        as it is; staged checks (asserts, unset-variable checks) have no effect besides
        raising, and `print`'s output is discarded in the second run, so those may."""
        if self._call == self._interpret or " (at " in str(exc):
            return exc
        located = self._kernel is not None and _index_error(exc, self._kernel.sites)
        if located:
            return located
        if any(not n.opdef.pure and n.op not in ("assert", "print")
               for n in self.graph.walk()):
            return exc
        try:
            with contextlib.redirect_stdout(io.StringIO()):
                interpreter.run_graph(self.graph, flat)
        except type(exc) as again:
            if " (at " in str(again):
                return again
        except Exception:  # noqa: BLE001 - the interpreter disagrees: keep the original
            pass
        return exc

    def _first_call(self, *flat):
        with self._first_lock:  # threads racing on the first call: only one compiles
            if self._call != self._first_call:
                return self._call(*flat)
            return self._first_call_locked(flat)

    def _first_call_locked(self, flat):
        backend = self.function.backend
        if backend == "interpreter":
            self._call = self._interpret
            return self._interpret(*flat)
        if backend == "cuda":
            self.source  # noqa: B018 - generates the program (self._kernel)
            self._call = self._kernel.driver()
            return self._call(*flat)
        return self._compile_and_call(flat)

    def _interpret(self, *flat):
        outs = interpreter.run_function(self.graph, flat)
        return outs[0] if len(outs) == 1 else tuple(outs)

    def _compile_and_call(self, flat):
        from .backends import cache
        from .ops import callback
        src = self.source
        consts = tuple(self._kernel.const_args)
        for attempt in (0, 1):
            ns = cache.load_module(src)
            if callback.uses_callbacks(src):  # objmode blocks look callbacks up at run time
                callback.link_kernel_module(ns)
            kernel = ns["kernel"]
            t0 = time.perf_counter()
            try:
                with warnings.catch_warnings():
                    # Kernels release the GIL and re-take it for print/py_func (objmode)
                    # blocks on purpose: Numba's "won't allow parallel execution" is noise.
                    warnings.filterwarnings("ignore", message="Code running in object mode",
                                            category=Warning)
                    out = kernel(*flat, *consts)
            except (pickle.UnpicklingError, EOFError, ImportError, AttributeError,
                    ModuleNotFoundError):
                # (raised by the kernel itself once it compiled or loaded, a failed check's
                # AttributeError: passed on, or a second run would repeat its writes)
                if attempt or kernel.signatures:
                    raise
                cache.forget(src)  # a damaged Numba cache: drop it and compile afresh
                continue
            break
        compile_notice(self.function._name, _sig_text(self.graph), time.perf_counter() - t0)
        self._dispatcher = kernel
        if consts:
            self._call = lambda *flat: kernel(*flat, *consts)
        else:
            self._call = kernel  # no wrapper at all between the call and the kernel
        return out


def _optional(t, it):
    """A result leaf: the next output (OUT), the value or None (an OptionalSlot: its
    outputs, then the flag), or a Python value."""
    if t is OUT:
        return next(it)
    if isinstance(t, OptionalSlot):
        leaves = [next(it) for _ in range(t.n)]
        value = leaves[0] if t.structure is None else nest.pack_as(t.structure, leaves)
        return value if bool(next(it)) else None
    return t


def _input_positions(graph, function, key):
    """The argument positions (of the fast path's ``_fast_arity``) whose values are the
    graph's inputs, in input order: tensors, and relaxed Python scalars; or None when the
    inputs are not such a selection (nested structures, an input_signature's own key)."""
    n = function._fast_arity
    if not n or not isinstance(key, tuple) or len(key) < n or function.input_signature:
        return None
    names = function._param_names
    positions = [i for i in range(n) if is_weak_part(key[i]) or (
        isinstance(key[i], tuple) and len(key[i]) in (2, 3) and isinstance(key[i][1], np.dtype)
        and key[i][2:] in ((), (np.generic,)))]  # (an array's, a NumPy scalar's: function.py)
    if len(positions) != len(graph.inputs) or any(
            v.hint != names[i] for v, i in zip(graph.inputs, positions)):
        return None
    return tuple(positions)


_ADAPTERS = {}


def _adapter(entry, n, passed):
    """``entry`` called with the ``n`` arguments of a fast call: those in ``passed``
    (position, how: ConcreteFunction._fast_parts), the others (Python values the trace
    baked in) left out."""
    shape = (n, tuple(passed))
    make = _ADAPTERS.get(shape)
    if make is None:
        params = ", ".join(f"a{i}" for i in range(n))
        given = ", ".join(f"a{i}{how}" for i, how in passed)
        src = f"def make(entry):\n    return lambda {params}: entry({given})\n"
        ns = {}
        exec(compile(src, "<autograph_lite fast call adapter>", "exec"), ns)
        make = _ADAPTERS[shape] = ns["make"]
    return make(entry)


def _entry_point(dispatcher, flat, consts):
    """The compiled wrapper of the overload ``flat + consts`` dispatch to (it trusts its
    argument types, so callers key it on everything that fixes them); the dispatcher when
    no overload matches exactly."""
    try:
        cres = dispatcher.overloads.get(tuple(dispatcher.typeof_pyval(a) for a in flat + consts))
    except Exception:  # noqa: BLE001 - anything unusual: keep the checked path
        cres = None
    return dispatcher if cres is None else cres.entry_point


def _with_consts(call, consts):
    return lambda *flat: call(*flat, *consts)


def _sig_text(graph):
    return "(" + ", ".join(str(v.type) for v in graph.inputs) + ")"


def _wrapper(t):
    if t.ndim == 0:
        def wrap_scalar(r, conv=t.dtype.type, new=object.__new__, cls=EagerTensor):
            out = new(cls)  # no __init__ call: this runs once per compiled call
            out._np = conv(r)
            return out
        return wrap_scalar

    def wrap(r, new=object.__new__, cls=EagerTensor):
        out = new(cls)
        out._np = r
        return out
    return wrap


def _check_written(name, graph, leaves, flat):
    """SPEC §3: before a call that writes into NumPy-array arguments, refuse what NumPy
    would refuse (a read-only array, an immutable tensor) and arguments that overlap one
    the function writes (the kernel could not keep both views right)."""
    for i, _ in graph.input_updates:
        a, param = leaves[i], graph.inputs[i].hint or f"#{i}"
        if isinstance(a, Variable):
            a = a._np  # (a variable passed as an argument: its own buffer)
        if isinstance(a, EagerTensor):
            raise TypeError(f"{name}(): argument '{param}' is an ag.Tensor, which is "
                            f"immutable, and {name} writes into it; pass a NumPy array")
        if not isinstance(a, np.ndarray):  # a NumPy scalar: Python's own error
            kind = type(a)
            raise TypeError(f"'{kind.__module__}.{kind.__qualname__}' object does not "
                            f"support item assignment")
        if not a.flags.writeable:
            raise ValueError("assignment destination is read-only")
        for j, b in enumerate(flat):
            if j != i and isinstance(b, np.ndarray) and export_runtime.overlap(a, b):
                other = graph.inputs[j].hint or f"#{j}"
                if {i, j} & getattr(graph, "held_inputs", frozenset()):
                    raise ValueError(
                        f"{name}(): '{param}' and '{other}' share memory (one is a view of "
                        f"the other, held by an object it is called with) and {name} writes "
                        f"into '{param}'; each is an input of its own, which the kernel cannot "
                        f"keep in step: write through one of them only (the array itself), "
                        f"or take the view inside the function")
                raise ValueError(
                    f"{name}(): arguments '{param}' and '{other}' share memory and {name} "
                    f"writes into '{param}'; pass a copy (e.g. {other}.copy()) so that each "
                    f"argument is a separate array")
        # (an array the trace read as a constant: session 55's probe, `f(G)` of a global
        # `G` that f reads after writing its argument read G as it was before the write)
        for captured, path in getattr(graph, "outside_arrays", ()):
            if export_runtime.overlap(a, captured):
                raise ValueError(
                    f"{name}(): argument '{param}' shares memory with '{path}', which "
                    f"{name} captured when it was traced (a global, a closure variable or "
                    f"an attribute, read as it was then), and {name} writes into "
                    f"'{param}'; pass a copy, or pass '{path}' as an argument")


def _tensor_leaves(args):
    """The tensor arguments as passed (arrays, scalars, ag.Tensors), in _flat_tensors order."""
    out = []
    for a in args:
        t = type(a)
        if t in (tuple, list, dict) or nest.kind(a):
            out.extend(_tensor_leaves(nest.flatten(a)))
        elif t is np.ndarray or isinstance(a, (np.generic, EagerTensor)) or hasattr(a, "_np"):
            out.append(a)
    return out


def _flat_tensors(args):
    out = []
    for a in args:
        t = type(a)
        if t is np.ndarray:
            out.append(a)
        elif t is EagerTensor:
            out.append(a._np)
        elif isinstance(a, np.generic):
            out.append(a)
        elif t in (tuple, list, dict) or nest.kind(a):
            out.extend(_flat_tensors(nest.flatten(a)))
        elif hasattr(a, "_np"):
            out.append(a._np)
    return out
