"""PTX lowering, the emitter: the virtual registers, labels, immediates and instruction list of one function."""

from __future__ import annotations

import functools
from typing import Any, cast

from xdsl.dialects.builtin import ArrayAttr, FloatAttr, StringAttr, f32, f64
from xdsl.ir import Attribute, Operation

from sarek.targets.ptx import dialect as px
from sarek.targets.ptx.dialect import AddrAttr, RegAttr, imm


# Attributes are immutable values, so the registers, immediates and names every function uses again are built
# (and verified) once per process: that saves about a tenth of this lowering's time (bench_compile.py).
_reg_attr = functools.lru_cache(maxsize=4096)(RegAttr)
imm_attr = functools.lru_cache(maxsize=1024)(imm)
_str_attr = functools.lru_cache(maxsize=1024)(StringAttr)


class Emitter:
    """Registers, labels and the instruction list of one function."""

    def __init__(self, fname: str):
        self.fname = fname
        self.ops: list[Operation] = []
        self.decls: list[Operation] = []
        self.counts: dict[str, int] = {}
        self.nlabels = 0
        self.narrays = 0
        #: registers holding a scalar constant -> the constant as an immediate operand (instructions take it
        #: directly; the constant's own `mov` is dropped when nothing reads the register, `drop_dead_consts`)
        self.imms: dict[RegAttr, Attribute] = {}

    def imm(self, r: RegAttr) -> Attribute:
        """The immediate a constant's register stands for, else the register."""
        return self.imms.get(r, r)

    def drop_dead_consts(self) -> None:
        """Remove the `mov` of every constant whose register no instruction reads (they all took the immediate)."""
        read: set[Attribute] = set()

        def walk(a: Attribute) -> None:
            if isinstance(a, RegAttr):
                read.add(a)
            elif isinstance(a, AddrAttr):
                walk(a.base)
            elif isinstance(a, ArrayAttr):
                for x in cast(ArrayAttr[Attribute], a).data:
                    walk(x)

        defs: dict[int, RegAttr] = {}
        for i, o in enumerate(self.ops):
            if not isinstance(o, px.Instr):
                continue
            args = o.args.data
            if isinstance(o, px.MovOp) and args and isinstance(args[0], RegAttr) and args[0] in self.imms:
                defs[i] = args[0]
                args = args[1:]
            for a in args:
                walk(a)
            if o.guard is not None:
                read.add(o.guard)
        self.ops = [o for i, o in enumerate(self.ops) if i not in defs or defs[i] in read]

    def reg(self, ty: str) -> RegAttr:
        n = self.counts.get(ty, 0) + 1
        self.counts[ty] = n
        return _reg_attr(ty, n)

    def label(self, hint: str) -> str:
        self.nlabels += 1
        return f"$L_{hint}_{self.nlabels}"

    def emit(self, cls: type[px.Instr], mods: list[str] | str, *args: Any, guard: RegAttr | None = None,
             neg: bool = False) -> None:
        ms = mods.split(".") if isinstance(mods, str) else mods
        self.ops.append(cls([m for m in ms if m], [self._opnd(a) for a in args], guard, neg))

    def place_label(self, name: str) -> None:
        self.ops.append(px.LabelOp(name))

    def bra(self, target: str, guard: RegAttr | None = None, neg: bool = False) -> None:
        self.emit(px.BraOp, "", StringAttr(target), guard=guard, neg=neg)

    @staticmethod
    def _opnd(a: Any) -> Attribute:
        if isinstance(a, bool):
            return imm_attr(int(a))
        if isinstance(a, int):
            return imm_attr(a)
        if isinstance(a, str):
            return _str_attr(a)
        if isinstance(a, list):
            from xdsl.dialects.builtin import ArrayAttr

            return ArrayAttr([Emitter._opnd(x) for x in cast(list[Any], a)])
        return cast(Attribute, a)

    # -- small helpers used everywhere

    def mov(self, ty: str, d: RegAttr | list[RegAttr], s: Any) -> None:
        # PTX has no mov.f16: a half register moves as its 16 bits (a record copy with an f16 field, an f16 let)
        self.emit(px.MovOp, "b16" if ty == "f16" else ty, d, s)

    def fconst(self, v: float, ty: str = "f32") -> RegAttr:
        r = self.reg(ty)
        self.mov(ty, r, FloatAttr(v, f32 if ty == "f32" else f64))
        return r

    def iconst(self, v: int, ty: str = "s32") -> RegAttr:
        r = self.reg(ty)
        self.mov(ty, r, v)
        return r

    def op2(self, cls: type[px.Instr], mods: str, ty: str, a: Any, b: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(cls, mods, d, a, b)
        return d

    def op1(self, cls: type[px.Instr], mods: str, ty: str, a: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(cls, mods, d, a)
        return d

    def op3(self, cls: type[px.Instr], mods: str, ty: str, a: Any, b: Any, c: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(cls, mods, d, a, b, c)
        return d

    def setp(self, cmp: str, ty: str, a: Any, b: Any) -> RegAttr:
        p = self.reg("pred")
        self.emit(px.SetpOp, f"{cmp}.{ty}", p, a, b)
        return p

    def selp(self, ty: str, a: Any, b: Any, p: RegAttr) -> RegAttr:
        d = self.reg(ty)
        self.emit(px.SelpOp, ty, d, a, b, p)
        return d

    def cvt(self, mods: str, ty: str, a: Any) -> RegAttr:
        d = self.reg(ty)
        self.emit(px.CvtOp, mods, d, a)
        return d
