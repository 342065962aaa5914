"""`sarek-lower-ptx`: sarek dialect -> `sarek_ptx` instructions (one `sarek_ptx.entry` per kernel).

Decisions (all made here; the printer only prints):
- Values live in typed virtual registers: i1 -> .pred, i32 -> .s32, i64 -> .s64, f16 -> .f16, f32 -> .f32,
  f64 -> .f64, addresses -> .u64. A record value is one register group per field; a variant value is its tag
  (.s32) plus the payload area as .b32 words (the C union, so any constructor's payload fits and copies are
  layout-exact). Mutable locals (`sarek.let_mut`) are registers; `sarek.load` copies them.
- Structured control flow becomes labels and (guarded) `bra`; `for` is half-open with its constant step.
- Vectors: each vector parameter is a `.u64` pointer (`cvta.to.global`) followed by an `.s32` length (like the
  C backends); elements are addressed `base + index * size` with sizes and field offsets from the aligned
  layout (sarek.analysis.layout), so records/variants in memory match the host and the C structs byte for byte.
- Integer semantics of C: `div.s32`/`rem.s32` truncate, `shr.s32` is arithmetic, wrapping add/mul. A
  constant divisor is shifts (2^k) or a multiply-high (sarek.lowering.divide), never ptxas's reciprocal
  sequence; a variant's aligned payload word pairs are `.v2.b32` accesses.
  Float: `div.rn`, `sqrt.rn` (correctly rounded, never .approx); transcendentals arrive as calls to the sarek
  math library (`sarek-expand-math`), the exact math ops are sarek.targets.ptx.mathlib's; f16 is storage only (arithmetic in f32, narrowing `cvt.rn.f16.f32`).
- Helpers are inlined at each call (a `sarek.return` branches to the call's end label); recursion is refused.
- Warp shuffles arrive as `sarek-lower-warp`'s helpers (the lane guard); only their in-range absolute
  `warp_shuffle` is lowered here (`shfl.sync.idx.b32`); `lane_id` is `%laneid`, `warp_size` `WARP_SZ`.
- A `sarek.native` op's `ptx` text is emitted verbatim.

Modules, each one layer of `Lowering` (a chain of classes, later layers call earlier ones):
  values.py      register forms of values (`Sc`, `Rec`, `Var`, `Buf`, places), register types, entry names
  emitter.py     `Emitter`: registers, labels, immediates, the instruction list of one function
  state.py       `FnState`, `LoopLabels`; `LoweringBase`: layouts, fresh registers, copies, the op dispatch
  arith.py       constants, operators, division by constants, casts, bitcasts, bf16/narrow conversions
  memory.py      loads/stores by layout, element addresses, places, arrays, records, variant payloads
  intrinsics.py  indices, warp shuffle, atomics, math
  control.py     if/if_expr (predication, speculation), loops, match, barriers, native, calls, return
  coopmat.py     cooperative matrices: mma.sync m16n8k16 and the per-lane fragment layout
  asynccopy.py   asynchronous global -> shared copies: cp.async, its groups and waits
  kernel.py      `Lowering`: one `sarek_ptx.entry` per kernel, its parameters
  __init__.py    the pass and `lower_module`
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.lowering.ptx.emitter import Emitter as Emitter
from sarek.lowering.ptx.kernel import Lowering
from sarek.lowering.ptx.state import FnState as FnState
from sarek.lowering.ptx.values import entry_name as entry_name


#: the PTX targets whose ptxas assembles wgmma (the arch-specific sm_90a; not sm_90)
WGMMA_ARCHS = ("sm_90a",)


def lower_module(module: ModuleOp, arch: str = "sm_90") -> None:
    """Replace the module's sarek ops by one `sarek_ptx.entry` per kernel."""
    low = Lowering(module)
    low.wgmma = arch in WGMMA_ARCHS
    entries = [*low.run()]
    entries[:0] = low.const_tables.values()  # module-scope .const tables, before the kernels that read them
    for op in list(module.ops):
        op.detach()
        op.erase()
    for e in entries:
        module.body.block.add_op(e)


@dataclass(frozen=True)
class LowerPtxPass(ModulePass):
    """Lower the sarek dialect to sarek_ptx instructions (one .entry per kernel, helpers inlined).

    Option `arch` (default sm_90): the PTX target; warpgroup fragments (wgmma) need sm_90a and are refused at
    their op otherwise."""

    name = "sarek-lower-ptx"
    arch: str = "sm_90"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_module(op, self.arch)


__all__ = ["LowerPtxPass", "lower_module", "entry_name"]
