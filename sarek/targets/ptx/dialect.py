"""The `sarek_ptx` target dialect: PTX at the instruction level.

Registers are typed virtual registers (`#sarek_ptx.reg<f32, 3>` prints as `%f3`); an instruction is an op whose
properties hold its modifiers (`mods`, joined with dots after the mnemonic: `["rn", "f32"]` -> `div.rn.f32`),
its operands (`args`: registers, integer/float immediates, `#sarek_ptx.addr<...>` memory operands, strings for
special registers, labels and symbols, arrays for `{lo, hi}` vectors) and an optional guard predicate. A kernel is
a `sarek_ptx.entry` with its `.param` space; `.shared`/`.local` arrays are `sarek_ptx.array` ops inside it.
Helpers are `sarek_ptx.func` (the lowering inlines sarek helpers, so it does not emit them). The printer
(`sarek.targets.ptx.printer`) writes the PTX text; register declarations are derived from the registers used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import cast

from xdsl.dialects.builtin import (
    ArrayAttr,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    StringAttr,
    SymbolNameConstraint,
    UnitAttr,
    i64,
)
from xdsl.ir import Attribute, Block, Dialect, ParametrizedAttribute, Region
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_attr_definition,
    irdl_op_definition,
    opt_prop_def,
    prop_def,
    region_def,
    traits_def,
)
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.traits import NoTerminator, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

# register types -> register name prefix; every type has its own prefix so declarations are one line per type
REG_PREFIX: dict[str, str] = {
    "pred": "p", "b8": "rb", "b16": "rs", "f16": "h", "b32": "r", "s32": "s", "u32": "u", "f32": "f",
    "b64": "rd", "s64": "sd", "u64": "ud", "f64": "fd",
}
STATE_SPACES = ("global", "shared", "local", "param", "const")


def _parse_pair(parser: AttrParser, first: Callable[[], Attribute]) -> tuple[Attribute, IntAttr]:
    """`<first, n>`: the parameters of a register (`<f32, 3>`) or an address (`<#sarek_ptx.reg<u64, 1>, 8>`)."""
    with parser.in_angle_brackets():
        a = first()
        parser.parse_punctuation(",")
        n = parser.parse_integer()
    return a, IntAttr(n)


@irdl_attr_definition
class RegAttr(ParametrizedAttribute):
    """`#sarek_ptx.reg<f32, 3>`: virtual register number 3 of type .f32 (`%f3`)."""

    name = "sarek_ptx.reg"
    ty: StringAttr
    n: IntAttr

    def __init__(self, ty: str, n: int):
        super().__init__(StringAttr(ty), IntAttr(n))

    def verify(self) -> None:
        if self.ty.data not in REG_PREFIX:
            raise VerifyException(f"unknown PTX register type .{self.ty.data}")

    @property
    def text(self) -> str:
        return f"%{REG_PREFIX[self.ty.data]}{self.n.data}"

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.ty.data}, {self.n.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_pair(parser, lambda: StringAttr(parser.parse_identifier()))


@irdl_attr_definition
class AddrAttr(ParametrizedAttribute):
    """`#sarek_ptx.addr<#sarek_ptx.reg<u64, 1>, 8>`: the memory operand `[%ud1+8]` (base: register or symbol)."""

    name = "sarek_ptx.addr"
    base: Attribute
    offset: IntAttr

    def __init__(self, base: RegAttr | str, offset: int = 0):
        super().__init__(StringAttr(base) if isinstance(base, str) else base, IntAttr(offset))

    @property
    def text(self) -> str:
        b = self.base.text if isinstance(self.base, RegAttr) else cast(StringAttr, self.base).data
        o = self.offset.data
        return f"[{b}]" if o == 0 else f"[{b}+{o}]"  # a negative offset is `[%r+-4]` (ptxas's syntax)

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string("<")
        printer.print_attribute(self.base)
        printer.print_string(f", {self.offset.data}>")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        return _parse_pair(parser, parser.parse_attribute)


def operand_text(a: Attribute) -> str:
    """PTX spelling of one instruction operand."""
    import struct

    if isinstance(a, RegAttr | AddrAttr):
        return a.text
    if isinstance(a, StringAttr):
        return a.data
    if isinstance(a, IntegerAttr):
        return str(a.value.data)
    if isinstance(a, FloatAttr):
        w = cast(FloatAttr, a).type.bitwidth
        v = a.value.data
        if w == 32:
            return "0f%08X" % struct.unpack("<I", struct.pack("<f", v))[0]
        return "0d%016X" % struct.unpack("<Q", struct.pack("<d", v))[0]
    if isinstance(a, ArrayAttr):
        return "{" + ", ".join(operand_text(x) for x in cast(ArrayAttr[Attribute], a).data) + "}"
    raise ValueError(f"not a PTX operand: {a}")


def imm(v: int) -> IntegerAttr:
    return IntegerAttr(v, i64)


# ------------------------------------------------------------------------------------------------ instructions


class Instr(IRDLOperation):
    """Base of every instruction: `mnemonic(.mod)* args;` with an optional `@%p` / `@!%p` guard."""

    mods = prop_def(ArrayAttr[StringAttr])
    args = prop_def(ArrayAttr)
    guard = opt_prop_def(RegAttr)
    guard_neg = opt_prop_def(UnitAttr)
    assembly_format = "attr-dict"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, mods: Sequence[str], args: Sequence[Attribute], guard: RegAttr | None = None,
                 negate: bool = False):
        props: dict[str, Attribute] = {"mods": ArrayAttr(StringAttr(m) for m in mods), "args": ArrayAttr(args)}
        if guard is not None:
            props["guard"] = guard
            if negate:
                props["guard_neg"] = UnitAttr()
        super().__init__(properties=props)

    @property
    def mnemonic(self) -> str:
        return self.name.split(".", 1)[1]

    @property
    def ptx_text(self) -> str:
        g = ""
        if self.guard is not None:
            g = f"@{'!' if self.guard_neg is not None else ''}{self.guard.text} "
        head = ".".join([self.mnemonic, *(m.data for m in self.mods)])
        ops = ", ".join(operand_text(a) for a in self.args.data)
        return f"{g}{head}{' ' + ops if ops else ''};"


def _instr(cls_name: str, mnemonic: str, doc: str) -> type[Instr]:
    cls = type(cls_name, (Instr,), {"name": f"sarek_ptx.{mnemonic}", "__doc__": doc, "__module__": __name__})
    return irdl_op_definition(cls)


MovOp = _instr("MovOp", "mov", "mov: copy, special registers (%tid.x), symbol addresses, {lo, hi} packing")
LdOp = _instr("LdOp", "ld", "ld.<space>.<type> d, [addr]")
StOp = _instr("StOp", "st", "st.<space>.<type> [addr], a")
CvtaOp = _instr("CvtaOp", "cvta", "cvta.to.global.u64: generic to global address")
AddOp = _instr("AddOp", "add", "add")
SubOp = _instr("SubOp", "sub", "sub")
MulOp = _instr("MulOp", "mul", "mul (.lo/.wide for integers)")
MadOp = _instr("MadOp", "mad", "mad.lo / mad.wide")
FmaOp = _instr("FmaOp", "fma", "fma.rn")
DivOp = _instr("DivOp", "div", "div (.rn on floats: correctly rounded)")
RemOp = _instr("RemOp", "rem", "rem (C remainder: sign of the dividend)")
AbsOp = _instr("AbsOp", "abs", "abs")
NegOp = _instr("NegOp", "neg", "neg")
MinOp = _instr("MinOp", "min", "min")
MaxOp = _instr("MaxOp", "max", "max")
AndOp = _instr("AndOp", "and", "and")
OrOp = _instr("OrOp", "or", "or")
XorOp = _instr("XorOp", "xor", "xor")
NotOp = _instr("NotOp", "not", "not")
ShlOp = _instr("ShlOp", "shl", "shl")
ShrOp = _instr("ShrOp", "shr", "shr (.s: arithmetic)")
SetpOp = _instr("SetpOp", "setp", "setp.<cmp>.<type> p, a, b")
SelpOp = _instr("SelpOp", "selp", "selp.<type> d, a, b, p")
CvtOp = _instr("CvtOp", "cvt", "cvt[.<rounding>].<dst>.<src>")
SqrtOp = _instr("SqrtOp", "sqrt", "sqrt.rn")
RcpOp = _instr("RcpOp", "rcp", "rcp.rn")
Ex2Op = _instr("Ex2Op", "ex2", "ex2.approx.f32: the hardware 2^x (MUFU.EX2; 2 ulp, CUDA's exp2f)")
CopysignOp = _instr("CopysignOp", "copysign", "copysign")
PopcOp = _instr("PopcOp", "popc", "popc")
ClzOp = _instr("ClzOp", "clz", "clz")
BrevOp = _instr("BrevOp", "brev", "brev.b32 / brev.b64 (bit reversal)")
TestpOp = _instr("TestpOp", "testp", "testp.<op>.<type>")
BraOp = _instr("BraOp", "bra", "bra LABEL (guarded: conditional)")
BarOp = _instr("BarOp", "bar", "bar.sync 0")
MembarOp = _instr("MembarOp", "membar", "membar.gl / .cta")
AtomOp = _instr("AtomOp", "atom", "atom.<space>.<op>.<type> d, [addr], b[, c]")
ShflOp = _instr("ShflOp", "shfl", "shfl.sync.<mode>.b32 d, a, lane, clamp, mask")
VoteOp = _instr("VoteOp", "vote", "vote.sync.<any.pred|all.pred|ballot.b32> d, p, mask")
RetOp = _instr("RetOp", "ret", "ret")
MmaOp = _instr("MmaOp", "mma", "mma.sync.aligned.<shape>.<layouts>.<types> {d..}, {a..}, {b..}, {c..}: a warp's "
               "matrix multiply-accumulate")
LdmatrixOp = _instr("LdmatrixOp", "ldmatrix", "ldmatrix.sync.aligned.m8n8.x<n>[.trans].shared.b16 {d..}, [addr]: a "
                    "warp's 8x8 b16 matrices from shared memory, each lane giving one 16-byte row's address")
WgmmaOp = _instr("WgmmaOp", "wgmma", "wgmma.mma_async.sync.aligned.m64n<N>k16.f32.<t>.<t> {d..}, a-desc, b-desc, p, 1, "
                 "1, 0, 1; wgmma.fence / commit_group / wait_group n: a warpgroup's asynchronous matrix "
                 "multiply-accumulate, operands read from shared memory through matrix descriptors (sm_90a)")
FenceOp = _instr("FenceOp", "fence", "fence.proxy.async.shared::cta: shared-memory writes of the generic proxy made "
                 "visible to the async proxy (wgmma's operand reads)")
CpOp = _instr("CpOp", "cp", "cp.async.{cg|ca}.shared.global [dst], [src], bytes; cp.async.commit_group; "
               "cp.async.wait_group n: asynchronous global -> shared copies (sm_80+)")


class _TextOp(IRDLOperation):
    """An op that is one string (`$text attr-dict`)."""

    text = prop_def(StringAttr)
    assembly_format = "$text attr-dict"

    def __init__(self, text: str):
        super().__init__(properties={"text": StringAttr(text)})


@irdl_op_definition
class LabelOp(_TextOp):
    """`LABEL:` — a branch target (`text` is the label)."""

    name = "sarek_ptx.label"

    @property
    def ptx_text(self) -> str:
        return f"{self.text.data}:"


@irdl_op_definition
class RawOp(_TextOp):
    """Verbatim PTX text (a `sarek.native` op's ptx text, comments)."""

    name = "sarek_ptx.raw"

    @property
    def ptx_text(self) -> str:
        return self.text.data


@irdl_op_definition
class ArrayDeclOp(IRDLOperation):
    """`.shared .align A .b8 name[bytes];` / `.local ...` — a block-shared or per-thread array; `.const ... =
    {bytes}` — a constant table at module scope with its bytes."""

    name = "sarek_ptx.array"
    space = prop_def(StringAttr)
    sym = prop_def(StringAttr)
    nbytes = prop_def(IntAttr)
    align = prop_def(IntAttr)
    init = opt_prop_def(ArrayAttr[IntAttr])
    assembly_format = "attr-dict"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, space: str, sym: str, nbytes: int, align: int, init: bytes | None = None):
        props: dict[str, Attribute] = {"space": StringAttr(space), "sym": StringAttr(sym), "nbytes": IntAttr(nbytes),
                                       "align": IntAttr(align)}
        if init is not None:
            props["init"] = ArrayAttr(IntAttr(b) for b in init)
        super().__init__(properties=props)

    def verify_(self) -> None:
        if self.space.data not in ("shared", "local", "const"):
            raise VerifyException(f"arrays live in .shared, .local or .const, not .{self.space.data}")
        if (self.space.data == "const") != (self.init is not None):
            raise VerifyException("a .const array, and only one, has its initial bytes")

    @property
    def ptx_text(self) -> str:
        head = f".{self.space.data} .align {self.align.data} .b8 {self.sym.data}[{max(self.nbytes.data, 1)}]"
        if self.init is None:
            return head + ";"
        return head + " = {" + ", ".join(str(b.data) for b in self.init.data) + "};"


class _FunctionLike(IRDLOperation):
    sym_name = prop_def(SymbolNameConstraint())
    param_names = prop_def(ArrayAttr[StringAttr])
    # `.u64`, `.s32`, `.f32`, ... or `b8[N]` for an aggregate passed by value (with its alignment in param_aligns)
    param_types = prop_def(ArrayAttr[StringAttr])
    param_aligns = prop_def(ArrayAttr[IntAttr])
    body = region_def("single_block")
    traits = traits_def(SymbolOpInterface(), NoTerminator())
    assembly_format = "attr-dict-with-keyword $body"
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, name: str, params: Sequence[tuple[str, str, int]], body: Region | None = None):
        super().__init__(properties={
            "sym_name": StringAttr(name),
            "param_names": ArrayAttr(StringAttr(n) for n, _, _ in params),
            "param_types": ArrayAttr(StringAttr(t) for _, t, _ in params),
            "param_aligns": ArrayAttr(IntAttr(a) for _, _, a in params),
        }, regions=[body or Region(Block())])

    def verify_(self) -> None:
        if not (len(self.param_names) == len(self.param_types) == len(self.param_aligns)):
            raise VerifyException("parameter names, types and alignments differ in number")

    @property
    def params(self) -> list[tuple[str, str, int]]:
        return [(n.data, t.data, a.data) for n, t, a in zip(self.param_names, self.param_types, self.param_aligns)]


@irdl_op_definition
class EntryOp(_FunctionLike):
    """`.visible .entry name(.param ...) { ... }` — a kernel."""

    name = "sarek_ptx.entry"


@irdl_op_definition
class FuncOp(_FunctionLike):
    """`.func name(.param ...) { ... }` — a device function (the lowering inlines helpers instead)."""

    name = "sarek_ptx.func"


INSTRUCTIONS: tuple[type[Instr], ...] = (
    MovOp, LdOp, StOp, CvtaOp, AddOp, SubOp, MulOp, MadOp, FmaOp, DivOp, RemOp, AbsOp, NegOp, MinOp, MaxOp, AndOp,
    OrOp, XorOp, NotOp, ShlOp, ShrOp, SetpOp, SelpOp, CvtOp, SqrtOp, RcpOp, CopysignOp, PopcOp, ClzOp, TestpOp, BraOp,
    Ex2Op, BrevOp, BarOp, MembarOp, AtomOp, ShflOp, VoteOp, RetOp, MmaOp, LdmatrixOp,
    CpOp, WgmmaOp, FenceOp,
)

SarekPtx = Dialect(
    "sarek_ptx",
    [*INSTRUCTIONS, LabelOp, RawOp, ArrayDeclOp, EntryOp, FuncOp],
    [RegAttr, AddrAttr],
)
