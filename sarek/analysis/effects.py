"""What evaluating a sarek op reads or does: the effects analysis shared by the C-family and shader lowerings.

An expression may be printed where it is used instead of where it stands only if nothing in between could
change what it reads; these are the facts that decision needs, computed once here:
- `Effect`: NONE (pure arithmetic, index and math builtins, `lane_id`, `warp_size`), READ (reads vector or
  array memory), WRITE (writes memory, synchronises, or exchanges values between lanes: atomics, warp
  shuffles, helpers doing any of these).
- `HelperEffects`: the effect of calling each helper of a module (recursion: assumed WRITE).
- `op_effect`: the effect of one expression op itself (not its operands).
- `may_write`: could an op change memory or move a convergent op (what a read may not be moved across)?
- `MAX_INLINE_DEPTH`: the deepest expression tree printed inline; deeper ones are split with temporaries
  (clang stops at 256 brackets, OpenCL and Metal included, and shader compilers limit nesting too; a
  400-term sum printed inline did not compile).
"""

from __future__ import annotations

from enum import IntEnum

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import INTRINSICS, Category, is_warp_exchange

MAX_INLINE_DEPTH = 64


class Effect(IntEnum):
    """Ordered: the effect of a tree is the max of its parts."""

    NONE = 0
    READ = 1
    WRITE = 2


def place_root(v: SSAValue) -> Operation | None:
    """The op a place (`elem_ref`, `field_ref` chain, `let_mut`) starts from."""
    op = v.owner
    while isinstance(op, s.FieldRefOp):
        op = op.base.owner
    return op if isinstance(op, Operation) else None


def intrinsic_effect(name: str) -> Effect:
    """Atomics, warp shuffles and votes write (they exchange values between lanes), block votes synchronise;
    index and math builtins, `lane_id` and `warp_size` are pure."""
    info = INTRINSICS.get(name)
    if info is not None and (info.category in (Category.ATOMIC, Category.BLOCK) or is_warp_exchange(name)):
        return Effect.WRITE
    return Effect.NONE


def _stmt_writes(o: Operation) -> bool:
    if isinstance(o, s.StoreOp):
        return isinstance(place_root(o.place), s.ElemRefOp)
    if isinstance(o, s.IntrinsicOp):
        return o.callee.data in INTRINSICS and intrinsic_effect(o.callee.data) == Effect.WRITE
    return isinstance(o, (s.BarrierOp, s.GridBarrierOp, s.WarpBarrierOp, s.MemFenceOp, s.NativeOp, s.CoopmatStoreOp,
                          *s.COPY_ASYNC_OPS))


class HelperEffects:
    """Per helper of a module: does a call write memory / synchronise (WRITE), only read memory (READ), or
    neither (NONE)?"""

    def __init__(self, module: ModuleOp):
        self.helpers = {op.sym_name.data: op for op in module.ops if isinstance(op, s.HelperOp)}
        self.cache: dict[str, Effect] = {}

    def of(self, name: str) -> Effect:
        if name in self.cache:
            return self.cache[name]
        self.cache[name] = Effect.WRITE  # recursion: assume the worst
        out = Effect.NONE
        for o in self.helpers[name].walk():
            if _stmt_writes(o):
                out = Effect.WRITE
            elif isinstance(o, s.CallOp):
                out = max(out, self.of(o.callee_name))
            elif isinstance(o, s.ArrayReadOp) or (isinstance(o, s.LoadOp) and not isinstance(place_root(o.ref), s.LetMutOp)):
                out = max(out, Effect.READ)
        self.cache[name] = out
        return out


def op_effect(op: Operation, helpers: HelperEffects) -> Effect:
    """The effect of evaluating `op` itself (its operands aside); a load of a `let_mut` is NONE here (it
    reads a variable, not memory)."""
    if isinstance(op, s.LoadOp):
        return Effect.NONE if isinstance(place_root(op.ref), s.LetMutOp) else Effect.READ
    if isinstance(op, s.ArrayReadOp):
        return Effect.READ
    if isinstance(op, s.CallOp):
        return helpers.of(op.callee_name)
    if isinstance(op, s.IntrinsicOp):
        return intrinsic_effect(op.callee.data)
    return Effect.NONE


def is_pure_intrinsic(op: Operation) -> bool:
    """An index or math builtin, `lane_id` or `warp_size`."""
    return isinstance(op, s.IntrinsicOp) and intrinsic_effect(op.callee.data) == Effect.NONE


def may_write(op: Operation) -> bool:
    """Ops that may change memory or move a convergent op (reads may not be moved across them): any op with
    regions, a store, call, barrier, fence, native text, return, cooperative-matrix op, asynchronous copy or
    impure intrinsic."""
    if isinstance(op, s.IntrinsicOp):
        return not is_pure_intrinsic(op)
    if op.regions:
        return True
    return isinstance(op, (s.StoreOp, s.CallOp, s.BarrierOp, s.GridBarrierOp, s.WarpBarrierOp, s.MemFenceOp,
                           s.NativeOp, s.ReturnOp, s.CoopmatLoadOp, s.CoopmatStoreOp, s.CoopmatMulAddOp,
                           *s.COPY_ASYNC_OPS))
