"""Numba's SSA reconstruction, with the same result, in time that does not grow with the
kernel's size once per variable (docs/architecture.md, "Compiling large kernels").

Numba's ``ReconstructSSA`` pass fixes one multiply-assigned variable at a time, and for
each it rewrites *every* statement of the function twice (``numba/core/ssa.py``:
``_fresh_vars`` and ``_fix_ssa_vars`` both walk all blocks). A kernel's merge outputs
(a staged ``if`` assigns each in both arms) and loop variables are all such variables, so
a kernel with V of them and S statements costs V x S: a 5,600-line kernel (a loop of
staged ``if``s unrolled at trace time) had 1,815 of them over 15,108 statements and
spent more than five minutes in this one pass.

The rewrite of a block that neither assigns nor reads the variable returns every
statement unchanged, so this pass runs Numba's own handlers on the blocks that mention it
only (plus the phi nodes they place), in the same order: the same names, the same phis,
the same IR (``tests/backends/test_numba_ssa.py`` compares the two). It is wired in as a
replacement pass of the kernels' compiler pipeline (``KernelCompiler``), so the user's own
``numba.njit`` functions compile as Numba compiles them.
"""
import sys
from collections import defaultdict

from numba.core import ir, postproc, ssa
from numba.core.analysis import compute_cfg_from_blocks
from numba.core.compiler import CompilerBase, DefaultPassBuilder
from numba.core.compiler_machinery import register_pass
from numba.core.errors import CompilerError
from numba.core.ir_utils import build_definitions
from numba.core.untyped_passes import ReconstructSSA


def reconstruct_ssa(func_ir):
    """``numba.core.ssa.reconstruct_ssa``, touching only the blocks each variable is in."""
    func_ir.blocks = _run_ssa(func_ir.blocks)
    return func_ir


def _run_ssa(blocks):
    if not blocks:
        return {}
    cfg = compute_cfg_from_blocks(blocks)
    df_plus = ssa._iterated_domfronts(cfg)
    violators = ssa._find_defs_violators(blocks, cfg)
    cache_list_vars = ssa._CacheListVars()
    mentions = defaultdict(list)  # variable -> labels of the blocks assigning or reading it
    for label, block in blocks.items():  # (in the blocks' order, which the rewrite keeps)
        for var in {v.name for stmt in block.body for v in cache_list_vars.get(stmt)}:
            mentions[var].append(label)
    blocks = dict(blocks)  # rewritten in place from here on, block by block
    for varname in violators:
        labels = mentions[varname]
        states = ssa._make_states(blocks)
        states.update(varname=varname, defmap=defaultdict(list))
        _rewrite(blocks, labels, states, ssa._FreshVarHandler())
        states.update(phimap=defaultdict(list), cfg=cfg,
                      phi_locations=ssa._compute_phi_locations(df_plus, states["defmap"]))
        _rewrite(blocks, labels, states, ssa._FixSSAVars(cache_list_vars))
        for label, phis in states["phimap"].items():
            old = blocks[label]
            blocks[label] = _block(old, phis + old.body)
    if compute_cfg_from_blocks(blocks) != cfg:
        raise CompilerError("CFG mutated in SSA pass")
    return blocks


def _rewrite(blocks, labels, states, handler):
    """``ssa._run_block_rewrite`` on the blocks in ``labels`` (in the blocks' order), in
    place; on the others it would return every statement as it is."""
    for label in labels:
        block = blocks[label]
        states["label"], states["block"] = label, block
        blocks[label] = _block(block, list(ssa._run_ssa_block_pass(states, block, handler)))


def _block(old, body):
    new = ir.Block(scope=old.scope, loc=old.loc)
    new.body = body
    return new


@register_pass(mutates_CFG=False, analysis_only=False)
class KernelSSA(ReconstructSSA):
    """``ReconstructSSA``'s run (numba/core/untyped_passes.py) with ``reconstruct_ssa`` above."""
    _name = "autograph_lite_reconstruct_ssa"

    def run_pass(self, state):
        # Numba finds a use's definition by recursing up the chain of blocks above it
        # (ssa._find_def_from_top/_bottom, two frames a block): a kernel of a few hundred
        # blocks in a row (nested staged loops and branches) passed Python's 1,000 frames
        # (RecursionError, random program 3418); Python frames cost no C stack in 3.11
        limit = sys.getrecursionlimit()
        sys.setrecursionlimit(max(limit, 50_000))
        try:
            state.func_ir = reconstruct_ssa(state.func_ir)
        finally:
            sys.setrecursionlimit(limit)
        self._patch_locals(state)
        state.func_ir._definitions = build_definitions(state.func_ir.blocks)
        postproc.PostProcessor(state.func_ir).run(emit_dels=False)
        return True


class KernelCompiler(CompilerBase):
    """Numba's nopython pipeline with ``KernelSSA`` in ``ReconstructSSA``'s place (object
    mode, which the kernels never ask for, stays Numba's)."""

    def define_pipelines(self):
        if self.state.flags.force_pyobject:
            return [DefaultPassBuilder.define_objectmode_pipeline(self.state)]
        pm = DefaultPassBuilder.define_nopython_pipeline(self.state)
        pm.passes = [(KernelSSA, d) if p is ReconstructSSA else (p, d) for p, d in pm.passes]
        return [pm]
