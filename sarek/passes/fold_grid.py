"""sarek-fold-grid{kernel=...}: make a kernel runnable as several dispatches of at most the device's grid,
invisibly to the kernel (Vulkan allows 65535 workgroups per dimension).

The kernel gains six trailing i32 parameters, `sarek_grid_base_{x,y,z}` (the first block of this dispatch)
and `sarek_grid_dim_{x,y,z}` (the whole grid), and every grid-dependent index is recomputed from them:

    block_idx_d      block_idx_d + sarek_grid_base_d
    grid_dim_d       sarek_grid_dim_d
    global_idx_d     (block_idx_d + sarek_grid_base_d) * block_dim_d + thread_idx_d   (global_thread_id: x)
    global_size_d    sarek_grid_dim_d * block_dim_d                                      (global_size: x)

so a kernel launched as dispatches of the grid's pieces sees exactly the ids of the one big launch. The
runtime (sarek.runtime.vulkan) runs this pass only for launches beyond the adapter's limit and fills the new
parameters per dispatch. Helpers that read those indices would need them passed in: refused, located.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s

#: the parameters the pass appends, in order (the runtime passes them in this order)
EXTRA_PARAMS = ("sarek_grid_base_x", "sarek_grid_base_y", "sarek_grid_base_z",
                "sarek_grid_dim_x", "sarek_grid_dim_y", "sarek_grid_dim_z")
_GRID_DEPENDENT = {f"{b}_{d}" for b in ("block_idx", "grid_dim", "global_idx", "global_size") for d in "xyz"} | {
    "global_thread_id", "global_size"}


def _axis(name: str) -> tuple[str, int]:
    """`global_thread_id` -> ("global_idx", 0); `grid_dim_y` -> ("grid_dim", 1)."""
    if name == "global_thread_id":
        return "global_idx", 0
    if name == "global_size":
        return "global_size", 0
    base, d = name.rsplit("_", 1)
    return base, "xyz".index(d)


def fold_grid(module: ModuleOp, kernel: str) -> None:
    k = next((op for op in module.ops if isinstance(op, s.KernelOp) and op.sym_name.data == kernel), None)
    if k is None:
        raise SarekError(f"sarek-fold-grid: no kernel '{kernel}' in the module")
    for op in module.ops:
        if isinstance(op, s.HelperOp):
            for inner in op.walk():
                if isinstance(inner, s.IntrinsicOp) and inner.callee.data in _GRID_DEPENDENT:
                    raise SarekError(f"helper '{op.sym_name.data}' reads '{inner.callee.data}': a grid this large is "
                                     "launched as several dispatches and helpers cannot see the offsets; read it in "
                                     "the kernel and pass it to the helper", inner)
    if any(n.data in EXTRA_PARAMS for n in k.param_names.data):
        raise SarekError(f"sarek-fold-grid: kernel '{kernel}' is folded already", k)
    block = k.body.block
    extra = [block.insert_arg(i32, len(block.args)) for _ in EXTRA_PARAMS]
    for a, n in zip(extra, EXTRA_PARAMS):
        a.name_hint = n
    k.properties["param_names"] = ArrayAttr([*k.param_names.data, *(StringAttr(n) for n in EXTRA_PARAMS)])
    base, dims = extra[:3], extra[3:]
    for op in list(k.walk()):
        if isinstance(op, s.IntrinsicOp) and op.callee.data in _GRID_DEPENDENT:
            _rewrite(op, base, dims)


def _intr(name: str) -> s.IntrinsicOp:
    return s.IntrinsicOp(name, [], i32)


def _rewrite(op: s.IntrinsicOp, base: Sequence[SSAValue], dims: Sequence[SSAValue]) -> None:
    kind, d = _axis(op.callee.data)
    xyz = "xyz"[d]
    new: list[Operation] = []
    if kind == "grid_dim":
        Rewriter.replace_op(op, [], [dims[d]])
        return
    if kind == "global_size":
        bd = _intr(f"block_dim_{xyz}")
        mul = s.BinOp(s.BinOpKind.MUL, dims[d], bd.results[0])
        new = [bd, mul]
    else:
        bi = _intr(f"block_idx_{xyz}")
        add = s.BinOp(s.BinOpKind.ADD, bi.results[0], base[d])
        new = [bi, add]
        if kind == "global_idx":
            bd = _intr(f"block_dim_{xyz}")
            ti = _intr(f"thread_idx_{xyz}")
            mul = s.BinOp(s.BinOpKind.MUL, add.results[0], bd.results[0])
            gid = s.BinOp(s.BinOpKind.ADD, mul.results[0], ti.results[0])
            new += [bd, ti, mul, gid]
    for n in new:
        n.location = op.location
    Rewriter.replace_op(op, new, [new[-1].results[0]])


@dataclass(frozen=True)
class FoldGridPass(ModulePass):
    """Recompute grid-dependent ids from added base/grid parameters so a launch can be split into dispatches.

    Options: `kernel` (the kernel to fold; required). Appends the i32 parameters sarek_grid_base_{x,y,z} and
    sarek_grid_dim_{x,y,z}; block_idx, grid_dim, global_idx and global_size (and global_thread_id) read them.
    """

    name = "sarek-fold-grid"

    kernel: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not self.kernel:
            raise SarekError("sarek-fold-grid: give the kernel to fold (sarek-fold-grid{kernel=NAME})")
        fold_grid(op, self.kernel)
