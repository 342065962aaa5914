"""sarek-lower-warp{target=...}: warp shuffles -> one helper per (operation, value type), after
Sarek_ir_warp_text.

Every `sarek.intrinsic "warp_shuffle[_up|_down|_xor]"(%v, %x)` becomes `sarek.call
@sarek_warp_<op>_<T>(%v, %x)`, so the operands are evaluated exactly once. Each helper computes a guarded
source lane from the signed operand (vendors differ on out-of-range deltas and on the high bits of a lane
operand, so no relative vendor shuffle is ever fed the raw operand):

    shuffle (absolute)  x             if 0 <= x < width          else own lane
    shuffle_down        lane + x      if 0 <= x < width - lane   else own lane
    shuffle_up          lane - x      if 0 <= x <= lane          else own lane
    shuffle_xor         lane ^ x      if 0 <= lane ^ x < width   else own lane

and reads the value there with an absolute `warp_shuffle` marked `{sarek.lane_in_range}`: the lane guard
lives here, once, and a backend lowers only that in-range shuffle to its plain index shuffle (CUDA
`__shfl_sync`, HIP `__shfl`, OpenCL `sub_group_shuffle`, MSL `simd_shuffle`, PTX `shfl.sync.idx.b32`, GLSL/WGSL
`subgroupShuffle` with the lane converted to unsigned), and refuses any other shuffle. `lane_id` and
`warp_size` are left to the backend; `warp_id` becomes `(thread_idx_x + block_dim_x * (thread_idx_y +
block_dim_y * thread_idx_z)) / warp_size` (after sarek-verify-barriers, which knows it is warp-uniform). The rewrite is the same for every target (`target` only names the
caller); the C family and PTX pipelines run it before their lowering.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float32Type, Float64Type, ModuleOp, UnitAttr, i1, i32
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.namer import GENERATED, IN_RANGE
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import is_integer_type
from sarek.registry import TARGET_NAMES


def type_suffix(t: Attribute) -> str:
    if is_integer_type(t):
        return f"i{t.width.data}"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    raise SarekError(f"warp shuffle of {t} is not supported")


def helper_name(callee: str, t: Attribute) -> str:
    """`warp_shuffle_down` on f32 -> `sarek_warp_shuffle_down_f32`."""
    return f"sarek_{callee}_{type_suffix(t)}"


class _B:
    """A tiny appender for the helper body."""

    def __init__(self, block: Block):
        self.block = block

    def v(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    def const(self, n: int) -> SSAValue:
        return self.v(s.ConstantOp.from_value(n, i32))

    def bin(self, k: str, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.v(s.BinOp(k, a, b))


def build_helper(callee: str, t: Attribute) -> s.HelperOp:
    """The helper for one (shuffle, value type)."""
    h = s.HelperOp(helper_name(callee, t), [("v", t), ("x", i32)], t)
    h.attributes[GENERATED] = UnitAttr()  # its `sarek_` name is sarek's (sarek-legalize-names keeps it)
    v, x = h.body.block.args
    b = _B(h.body.block)
    lane = b.v(s.LetOp("lane", b.v(s.IntrinsicOp("lane_id", []))))
    width = b.v(s.LetOp("width", b.v(s.IntrinsicOp("warp_size", []))))
    zero = b.const(0)
    then = Region(Block())
    tb = _B(then.block)
    op = callee.removeprefix("warp_shuffle").removeprefix("_") or "idx"
    if op == "idx":
        ok = b.bin("and", b.bin("ge", x, zero), b.bin("lt", x, width))
        cand = x
    elif op == "down":
        ok = b.bin("and", b.bin("ge", x, zero), b.bin("lt", x, b.bin("sub", width, lane)))
        cand = tb.bin("add", lane, x)
    elif op == "up":
        ok = b.bin("and", b.bin("ge", x, zero), b.bin("le", x, lane))
        cand = tb.bin("sub", lane, x)
    else:
        mixed = b.v(s.LetOp("mixed", b.bin("bitxor", lane, x)))
        ok = b.bin("and", b.bin("ge", mixed, zero), b.bin("lt", mixed, width))
        cand = mixed
    then.block.add_op(s.YieldOp(cand))
    els = Region(Block())
    els.block.add_op(s.YieldOp(lane))
    assert ok.type == i1
    src = b.v(s.LetOp("src", b.v(s.IfExprOp(ok, i32, then, els))))
    shuffle = s.IntrinsicOp("warp_shuffle", [v, src])
    shuffle.attributes[IN_RANGE] = UnitAttr()
    r = b.v(shuffle)
    h.body.block.add_op(s.ReturnOp(r))
    return h


def expand_warp_id(module: ModuleOp) -> None:
    """Rewrite every `sarek.intrinsic "warp_id"` into the linear thread index divided by the warp size."""
    for op in [o for o in module.walk() if isinstance(o, s.IntrinsicOp) and o.callee.data == "warp_id"]:
        parent = op.parent_block()
        assert parent is not None
        b = _B(Block())

        def idx(n: str) -> SSAValue:
            return b.v(s.IntrinsicOp(n, []))

        lin = b.bin("add", idx("thread_idx_x"), b.bin("mul", idx("block_dim_x"), b.bin(
            "add", idx("thread_idx_y"), b.bin("mul", idx("block_dim_y"), idx("thread_idx_z")))))
        w = b.bin("div", lin, idx("warp_size"))
        for o in list(b.block.ops):
            o.detach()
            o.location = op.location
            parent.insert_op_before(o, op)
        op.results[0].replace_all_uses_with(w)
        op.detach()
        op.erase()


def lower_warp(module: ModuleOp) -> list[s.HelperOp]:
    """Rewrite every unguarded warp shuffle of `module` into a helper call; returns the helpers added."""
    made: dict[str, s.HelperOp] = {}
    existing = {op.sym_name.data for op in module.ops if isinstance(op, s.HelperOp)}
    for op in [o for o in module.walk() if isinstance(o, s.IntrinsicOp)]:
        name = op.callee.data
        if not name.startswith("warp_shuffle") or IN_RANGE in op.attributes:
            continue
        t = op.args[0].type
        hn = helper_name(name, t)
        if hn not in made and hn not in existing:
            made[hn] = build_helper(name, t)
        call = s.CallOp(hn, [op.args[0], op.args[1]], t)
        call.location = op.location
        parent = op.parent_block()
        assert parent is not None
        parent.insert_op_before(call, op)
        op.results[0].replace_all_uses_with(call.res[0])
        op.detach()
        op.erase()
    if made:
        first = next((o for o in module.ops if isinstance(o, s.HelperOp | s.KernelOp)), None)
        for h in made.values():
            if first is None:
                module.body.block.add_op(h)
            else:
                module.body.block.insert_op_before(h, first)
    return list(made.values())


@dataclass(frozen=True)
class LowerWarpPass(ModulePass):
    """Lower warp shuffles to one helper per (operation, value type) with guarded source lanes.

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx; the rewrite is the same for all). Each
    shuffle becomes a call of `sarek_warp_shuffle[_up|_down|_xor]_<T>`, whose body computes the source lane
    (own lane when out of range) and reads it with an absolute shuffle marked `{sarek.lane_in_range}`. `warp_id`
    becomes the linear thread index in the block divided by `warp_size`.
    """

    name = "sarek-lower-warp"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in TARGET_NAMES:
            raise SarekError(f"sarek-lower-warp: unknown target '{self.target}' (known: {', '.join(TARGET_NAMES)})")
        expand_warp_id(op)
        lower_warp(op)
