"""The hidden per-launch debug buffer: its layout, the IR plumbing the debug passes share, and its decoding.

Debug mode (`launch(debug=True)`, `SAREK_DEBUG=1`; the pass `sarek-check-bounds`) and `print` in kernels write
into one `!sarek.vec<i32>` that every kernel of the module gets as a trailing parameter named `sarek_debug`
(helpers that need it get it too, and their calls pass it). The passes emit only ordinary sarek ops (compares,
ifs, an atomic compare-and-swap, element stores), so every target runs them unchanged. Layout, in i32 words:

    0  failure flag (0: none; the first failing check exchanges in 1 and writes words 1..10)
    1  check id (an index into the module's `sarek.debug_checks` table: location, kind, detail)
    2..4 block id x, y, z     5..7 thread id x, y, z
    8, 9 index (low and high 32 bits)     10 extent
    11 print words used       12 print records dropped (the buffer was full)     13 failed checks
    16.. print records (see sarek.passes.lower_print)

The runtime (sarek.runtime.debug) appends the buffer to the launch, then raises the first failure as a
`sarek.LaunchError` located in the kernel's source and prints the print records in a fixed order.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import contextmanager
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, FileLineColLoc, ModuleOp, StringAttr, UnitAttr, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.rewriter import Rewriter

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder

DEBUG_PARAM = "sarek_debug"
FAIL_HELPER = "sarek_check_failed"
CHECKS_ATTR = "sarek.debug_checks"
FORMATS_ATTR = "sarek.debug_formats"
#: marks the `sarek.if`s the debug passes insert: they hold no barrier, so a superstep may contain them even
#: where their condition varies by thread (sarek.analysis.convergence reads it)
GUARD_ATTR = "sarek.debug_guard"


def mark_guard(op: s.IfOp) -> s.IfOp:
    op.attributes[GUARD_ATTR] = UnitAttr()
    return op

FLAG, CHECK_ID, BLOCK, THREAD, INDEX_LO, INDEX_HI, EXTENT = 0, 1, 2, 5, 8, 9, 10
PRINT_USED, PRINT_DROPPED, FAILURES, PRINT_BASE = 11, 12, 13, 16


# ------------------------------------------------------------------------------------------------ IR plumbing


Function = s.KernelOp | s.HelperOp


def debug_param(f: Function) -> SSAValue | None:
    """The function's hidden buffer parameter, if it has one."""
    for n, a in f.params:
        if n == DEBUG_PARAM and a.type == s.VecType(i32):
            return a
    return None


def attach_buffers(module: ModuleOp, needy: set[str]) -> dict[str, SSAValue]:
    """Give every kernel, every helper named in `needy` and every helper calling one of those the hidden buffer
    parameter (kept where present; calls to a helper that gains it pass the caller's). Returns function name
    -> its buffer value."""
    helpers = {op.sym_name.data: op for op in module.ops if isinstance(op, s.HelperOp)}
    need = {n for n in needy if n in helpers}
    changed = True
    while changed:
        changed = False
        for n, h in helpers.items():
            if n not in need and any(isinstance(o, s.CallOp) and o.callee_name in need for o in h.walk()):
                need.add(n)
                changed = True
    funcs: list[Function] = [op for op in module.ops if isinstance(op, s.KernelOp) or
                             (isinstance(op, s.HelperOp) and op.sym_name.data in need)]
    out: dict[str, SSAValue] = {}
    gained: set[str] = set()
    for f in funcs:
        v = debug_param(f)
        if v is None:
            block = f.body.block
            v = block.insert_arg(s.VecType(i32), len(block.args))
            v.name_hint = DEBUG_PARAM
            f.properties["param_names"] = ArrayAttr([*f.param_names.data, StringAttr(DEBUG_PARAM)])
            if isinstance(f, s.HelperOp):
                gained.add(f.sym_name.data)
        out[f.sym_name.data] = v
    for f in funcs:
        for call in [o for o in f.walk() if isinstance(o, s.CallOp) and o.callee_name in gained]:
            new = s.CallOp(call.callee_name, [*call.args, out[f.sym_name.data]], helpers[call.callee_name].return_type)
            new.location = call.location
            new.attributes |= call.attributes
            Rewriter.replace_op(call, [new], list(new.results))
    return out


def function_of(op: Operation) -> Function | None:
    p: Operation | None = op
    while p is not None and not isinstance(p, s.KernelOp | s.HelperOp):
        p = p.parent_op()
    return p


@contextmanager
def building_before(anchor: Operation) -> Generator[BodyBuilder]:
    """A builder whose ops (located at `anchor`) end up just before `anchor`."""
    tmp = Block()
    loc = anchor.location if isinstance(anchor.location, FileLineColLoc) else None
    b = BodyBuilder(tmp, loc)
    yield b
    parent = anchor.parent_block()
    assert parent is not None
    for op in list(tmp.ops):
        op.detach()
        parent.insert_op_before(op, anchor)


def table(module: ModuleOp, attr: str) -> list[list[str]]:
    """The module's string table `attr` (checks or print formats): one row of strings per id."""
    old = module.attributes.get(attr)
    rows: list[list[str]] = []
    for r in cast("ArrayAttr[Attribute]", old).data if isinstance(old, ArrayAttr) else ():
        cells = cast("ArrayAttr[Attribute]", r).data if isinstance(r, ArrayAttr) else ()
        rows.append([x.data for x in cells if isinstance(x, StringAttr)])
    return rows


def add_table_entry(module: ModuleOp, attr: str, entry: Sequence[str]) -> int:
    """Append `entry` to the module's table `attr`; returns its id."""
    rows = [*table(module, attr), list(entry)]
    module.attributes[attr] = ArrayAttr([ArrayAttr([StringAttr(x) for x in row]) for row in rows])
    return len(rows) - 1


def ensure_fail_helper(module: ModuleOp) -> None:
    """`sarek_check_failed(buf, check, lo, hi, extent)`: the first caller of a launch records itself."""
    if any(isinstance(op, s.HelperOp) and op.sym_name.data == FAIL_HELPER for op in module.ops):
        return
    v = s.VecType(i32)
    h = s.HelperOp(FAIL_HELPER, [(DEBUG_PARAM, v), ("check", i32), ("lo", i32), ("hi", i32), ("extent", i32)],
                   s.UnitType())
    b = BodyBuilder(h.body.block)
    buf, check, lo, hi, extent = b.params
    zero, one = b.const(0, i32), b.const(1, i32)
    b.intrinsic("atomic_add", buf, b.const(FAILURES, i32), one)
    # an exchange: the first failing thread sees 0 and writes the record
    old = b.intrinsic("atomic_exch", buf, b.const(FLAG, i32), one)
    with b.if_(b.binop("eq", old, zero)):
        words: list[tuple[int, SSAValue]] = [(CHECK_ID, check)]
        words += [(BLOCK + d, b.intrinsic(f"block_idx_{x}")) for d, x in enumerate("xyz")]
        words += [(THREAD + d, b.intrinsic(f"thread_idx_{x}")) for d, x in enumerate("xyz")]
        words += [(INDEX_LO, lo), (INDEX_HI, hi), (EXTENT, extent)]
        for w, val in words:
            b.store(b.elem_ref(buf, b.const(w, i32)), val)
    b.return_()
    first = next((op for op in module.ops if isinstance(op, s.HelperOp | s.KernelOp)), None)
    if first is None:
        module.body.block.add_op(h)
    else:
        module.body.block.insert_op_before(h, first)
