"""sarek-lower-print: `sarek.print` -> records in the hidden debug buffer, printed by the runtime after a launch.

Each print reserves `4 + words` i32 words of the buffer's print area with one atomic add on its cursor and,
when they fit, writes a record `[size, format id, linear block id, linear thread id, values...]` (ints of up
to 32 bits and bools as one word, f16/bf16/f32 as the bits of an f32, i64/u64/f64 as two words, low first);
when they do not fit it counts a dropped record. The format id indexes the module attribute
`sarek.debug_formats` (rows: location, the format with `{}` per value, each value's type). The runtime
(sarek.runtime.debug) sorts the records by block, thread and reservation order (a thread's atomics return
increasing offsets, so that is its program order) and prints them: the same text on every device. A kernel
without print is left as it is (no buffer, no cost).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, Float64Type, ModuleOp, f32, i32, i64
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.diagnostics import location_text
from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.dialect.types import is_float, scalar_width
from sarek.dialect.scalars import int_width, is_bf16
from sarek.passes.debug_buffer import (FORMATS_ATTR, PRINT_BASE, PRINT_DROPPED, PRINT_USED, add_table_entry,
                                       attach_buffers, building_before, function_of, mark_guard)

HEADER = 4  # size, format id, block, thread


def _words(b: BodyBuilder, v: SSAValue) -> list[SSAValue]:
    """`v` as i32 words (see the module docstring)."""
    if isinstance(v.type, Float64Type):
        v = b.bitcast(v, i64)
    elif (is_float(v.type) or is_bf16(v.type)) and not isinstance(v.type, Float32Type):  # f16, bf16: as an f32
        v = b.cast(v, f32)
    t: Attribute = v.type
    if t == f32:
        return [b.bitcast(v, i32)]
    if scalar_width(t) == 64 or int_width(t) == 64:  # i64, f64's bits, u64
        return [b.cast(v, i32), b.cast(b.binop("shr", v, b.const(32, t)), i32)]
    return [v if t == i32 else b.cast(v, i32)]


def _linear(b: BodyBuilder, idx: str, dim: str) -> SSAValue:
    """`x + dx * (y + dy * z)` of an id triple (`block_idx`/`grid_dim` or `thread_idx`/`block_dim`)."""
    x, y, z = (b.intrinsic(f"{idx}_{a}") for a in "xyz")
    dx, dy = b.intrinsic(f"{dim}_x"), b.intrinsic(f"{dim}_y")
    return b.binop("add", x, b.binop("mul", dx, b.binop("add", y, b.binop("mul", dy, z))))


def _lower(module: ModuleOp, op: s.PrintOp, buf: SSAValue) -> None:
    types = [str(v.type) for v in op.values]
    fid = add_table_entry(module, FORMATS_ATTR, [location_text(op) or "<unknown>", op.format.data, *types])
    with building_before(op) as b:
        words = [w for v in op.values for w in _words(b, v)]
        size = HEADER + len(words)
        pos = b.intrinsic("atomic_add", buf, b.const(PRINT_USED, i32), b.const(size, i32))
        room = b.binop("sub", b.binop("sub", b.length(buf), b.const(PRINT_BASE, i32)), b.const(size, i32))
        fits = b.binop("and", b.binop("ge", pos, b.const(0, i32)), b.binop("le", pos, room))
        with b.if_(fits) as guard:
            mark_guard(guard)
            base = b.binop("add", pos, b.const(PRINT_BASE, i32))
            head = [b.const(size, i32), b.const(fid, i32), _linear(b, "block_idx", "grid_dim"),
                    _linear(b, "thread_idx", "block_dim")]
            for k, w in enumerate([*head, *words]):
                b.store(b.elem_ref(buf, b.binop("add", base, b.const(k, i32))), w)
        with b.else_(guard):
            b.intrinsic("atomic_add", buf, b.const(PRINT_DROPPED, i32), b.const(1, i32))
    op.detach()
    op.erase()


def lower_prints(module: ModuleOp) -> None:
    """Lower every `sarek.print` of `module` (see the module docstring)."""
    prints = [op for op in module.walk() if isinstance(op, s.PrintOp)]
    if not prints:
        return
    funcs: list[Operation] = [f for f in (function_of(op) for op in prints) if f is not None]
    bufs = attach_buffers(module, {f.sym_name.data for f in funcs if isinstance(f, s.HelperOp)})
    for op in prints:
        f = function_of(op)
        assert f is not None
        _lower(module, op, bufs[f.sym_name.data])


@dataclass(frozen=True)
class LowerPrintPass(ModulePass):
    """Lower `print` in kernels and helpers to records in the hidden debug buffer (printed after the launch).

    Adds the `sarek_debug` buffer parameter only where a print needs it and the `sarek.debug_formats` table to
    the module; a module without print is unchanged. Run by the runtime before the target's pipeline.
    """

    name = "sarek-lower-print"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lower_prints(op)

