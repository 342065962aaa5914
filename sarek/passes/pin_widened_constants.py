"""sarek-pin-widened-constants: a float constant expression that is widened goes through a local first (GLSL).

glslang folds constant float arithmetic in double precision and, when the result is converted to a wider
float type, keeps the unrounded double: `double((-7.0) / (abs(5.0) + 1.0))` becomes -7/6 in double
(-1.1666666666666667) instead of the f32 quotient widened (-1.1666666269302368; fuzz seed 202387). A folded
constant of a float variable's initialiser is rounded to the variable's type, so on the targets listed in
`FOLDS_WIDENED_IN_DOUBLE` the pass binds each widened constant expression to a `sarek.let "wide"` and widens
that instead; glslang folds no further than a (non-const) local:

    %q = sarek.binop div %c7, %d : f32              %q = sarek.binop div %c7, %d : f32
    %w = sarek.cast %q : f32 to f64         ==>     %wide = sarek.let "wide" %q : f32
                                                    %w = sarek.cast %wide : f32 to f64

A constant expression is a tree of constants, arithmetic, casts and math intrinsics (what sarek-canonicalize
leaves unfolded, such as `abs` of a constant). Other targets and expressions that read anything are unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import Float16Type, Float32Type, Float64Type, ModuleOp
from xdsl.ir import Attribute, OpResult, SSAValue
from xdsl.passes import ModulePass

from sarek.dialect import sarek as s
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.registry import target_info

#: the targets whose compiler folds widened float constant expressions without rounding them to their type
FOLDS_WIDENED_IN_DOUBLE = ("glsl",)


def _width(t: Attribute) -> int:
    return 16 if isinstance(t, Float16Type) else 32 if isinstance(t, Float32Type) else \
        64 if isinstance(t, Float64Type) else 0


def is_constant_tree(v: SSAValue) -> bool:
    """True when `v` is computed from constants only, through operations a compiler's folder evaluates."""
    todo = [v]
    while todo:
        x = todo.pop()
        if not isinstance(x, OpResult):
            return False
        op = x.op
        if isinstance(op, s.ConstantOp):
            continue
        math = isinstance(op, s.IntrinsicOp) and INTRINSICS[op.callee.data].category == Category.MATH
        if not (isinstance(op, s.BinOp | s.UnOp | s.CastOp) or math):
            return False
        todo += op.operands
    return True


def pin_widened_constants(module: ModuleOp) -> int:
    """Bind every widened float constant expression to a let; returns how many."""
    count = 0
    for op in list(module.walk()):
        if not isinstance(op, s.CastOp):
            continue
        src, dst = _width(op.operand.type), _width(op.result.type)
        if not (0 < src < dst) or isinstance(op.operand.owner, s.ConstantOp) or not is_constant_tree(op.operand):
            continue
        let = s.LetOp("wide", op.operand)
        let.location = op.location
        block = op.parent_block()
        assert block is not None
        block.insert_op_before(let, op)
        op.operands[0] = let.result
        count += 1
    return count


@dataclass(frozen=True)
class PinWidenedConstantsPass(ModulePass):
    """Widen float constant expressions through a local on GLSL (glslang would fold them in double).

    Options: `target` (any target name; only those in `FOLDS_WIDENED_IN_DOUBLE`, glsl, are changed).
    """

    name = "sarek-pin-widened-constants"

    target: str = "glsl"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target_info(self.target, self.name)  # an unknown target is an error
        if self.target in FOLDS_WIDENED_IN_DOUBLE:
            pin_widened_constants(op)
