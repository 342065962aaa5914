"""sarek-expand-math: replace the math intrinsics a target lacks by calls to the sarek math library."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float16Type, Float32Type, ModuleOp, f32, f64
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.native_math import Polyfill, math_support
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import INTRINSICS, Category, is_float
from sarek.mathlib import fast32
from sarek.mathlib.helpers import build_helper, helper_name
from sarek.mathlib.ops import Guard
from sarek.registry import target_info

#: how each target keeps the routines' exact steps from its compiler (`Ops.fence`); the others do not
#: reassociate the routines (only the shader drivers were seen to)
GUARDS: dict[str, Guard] = {"glsl": "precise", "wgsl": "fence"}


@dataclass(frozen=True)
class ExpandMathPass(ModulePass):
    """Replace math intrinsics the target lacks by calls to double-precision helpers built in sarek IR.

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx), `fp` (exact: the f64-core routines;
    default: the table's HARDWARE approximations, left intrinsics for the target's lowering (PTX's f32 exp2:
    ex2.approx.f32), and its FAST single-precision routines where it has them, sarek/mathlib/fast32.py). The
    native-math table (sarek/analysis/native_math.py) says, per (function, type), whether the target computes
    an intrinsic itself or through a library routine (sarek/mathlib/helpers.py). A replaced
    `sarek.intrinsic "sin"(%x) : (f32) -> f32` becomes `sarek.cast` to f64, `sarek.call @sarek_sin_f64` and a
    cast back (f16 through f32), or, for a routine the table runs in f32 (targets without doubles), a call of
    `@sarek_<routine>_f32`; each helper is added once, before the first function.
    The interpreter runs the expanded module with the same bits as the target's device. On the shader
    targets each error-free sum and stepwise scaling is kept from the driver's reassociation (NVIDIA's Vulkan
    compiler and Mesa rewrite `(a + b) - a` to `b`; `Ops.fence`): GLSL marks the operations computing them
    `sarek.precise` (the lowering declares those values `precise`, glslang decorates NoContraction, which the
    driver honours now that glslang's SPIR-V reaches it directly); WGSL has no such qualifier, so there their
    bits xor a run-time zero (`grid_dim_x >> 31`) the compiler cannot see through.
    """

    name = "sarek-expand-math"

    target: str = "cuda"
    # the floating-point policy: "exact" (the f64-core routines, the default of this pass alone) or "default"
    # (sarek-pipeline's default: the native-math table's FAST f32 routines where it has them)
    fp: str = "exact"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target_info(self.target, self.name)  # an unknown target is an error
        if self.fp not in ("default", "exact"):
            raise SarekError(f"sarek-expand-math: fp must be default or exact, not '{self.fp}'")
        todo: list[tuple[s.IntrinsicOp, Polyfill]] = []
        for f in op.ops:
            if not isinstance(f, s.KernelOp | s.HelperOp):
                continue
            for o in f.walk():
                if not isinstance(o, s.IntrinsicOp) or INTRINSICS[o.callee.data].category != Category.MATH:
                    continue
                how = math_support(self.target, o.callee.data, o.result.type, self.fp)
                if how is not None:
                    todo.append((o, how))
        helpers: dict[str, s.HelperOp] = {}  # by routine (f64 and fast ones) or routine_f32 (f32 forms)
        guard = GUARDS.get(self.target, "none")
        for o, how in todo:
            routine = how.routine
            fast = routine.removesuffix("_f32") if routine.endswith("_f32") else None
            if fast:
                if routine not in helpers:
                    helpers[routine] = fast32.build_helper(fast)
                    for dep in fast32.NEEDS.get(fast, ()):
                        helpers.setdefault(dep, build_helper(dep, guard=guard))
                _replace_f32(o, fast)
                continue
            key = routine if how.width == 64 else f"{routine}_f{how.width}"
            if key not in helpers:
                helpers[key] = build_helper(routine, how.width, guard)
            _replace(o, helper_name(routine, how.width), how.width)
        if helpers:
            first = next((f for f in op.ops if isinstance(f, s.KernelOp | s.HelperOp)), None)
            for h in sorted(helpers):
                if first is None:
                    op.body.block.add_op(helpers[h])
                else:
                    op.body.block.insert_op_before(helpers[h], first)


def _replace_f32(o: s.IntrinsicOp, fn: str) -> None:
    """`f(x)` on f32 -> `call @sarek_<fn>_f32(x)` (the fast single-precision routine)."""
    call = s.CallOp(fast32.helper_name(fn), list(o.args), f32)
    call.location = o.location
    block = o.parent_block()
    assert block is not None
    block.insert_op_before(call, o)
    o.result.replace_all_uses_with(call.res[0])
    block.erase_op(o)


def _replace(o: s.IntrinsicOp, helper: str, width: int) -> None:
    """`f(x...)` -> `cast(call @helper(cast(x, W)...), T)` with W the routine's width; f16 rounds through
    f32 like the f16 rule."""
    t = o.result.type
    w = f64 if width == 64 else f32
    new: list[Operation] = []

    def add(op: Operation) -> SSAValue:
        new.append(op)
        return op.results[0]

    args = [a if a.type == w or not is_float(a.type) else add(s.CastOp(a, w)) for a in o.args]  # ldexp's n stays
    r = add(s.CallOp(helper, args, w))
    if isinstance(t, Float16Type) and w == f64 or isinstance(t, Float32Type) and w != f32:
        r = add(s.CastOp(r, f32))
    if isinstance(t, Float16Type):
        r = add(s.CastOp(r, t))
    for n in new:
        n.location = o.location
    block = o.parent_block()
    assert block is not None
    block.insert_ops_before(new, o)
    o.result.replace_all_uses_with(r)
    block.erase_op(o)
