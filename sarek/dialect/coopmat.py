"""Cooperative-matrix (tensor core) statements of the sarek dialect: fragment declarations, fills, loads, stores
and the multiply-accumulate.

A fragment is owned by one warp / subgroup: every lane executes each op with the same operands (the convergence
analysis checks they are warp-uniform). Loads and stores address a buffer's flat row-major storage: element
(r, c) of the fragment is `buf[index + r * stride + c]`, or `buf[index + c * stride + r]` with `col_major`.
What the ops compute is defined once, in `sarek.interp.coopmat`."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, Self, cast

from xdsl.dialects.builtin import Float16Type, IntegerAttr, StringAttr, UnitAttr, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import AnyAttr, IRDLOperation, irdl_op_definition, operand_def, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException
from xdsl.utils.str_enum import StrEnum

from sarek.dialect.opformat import FormatSyntax, NullarySyntax
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_subscript as _parse_subscript
from sarek.dialect.syntax import parse_type_of as _parse_type_of
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_typed_tail as _print_typed_tail
from sarek.dialect.syntax import print_subscript as _print_subscript
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.syntax import print_name as _print_name
from sarek.dialect.syntax import check_name as _check_name
from sarek.dialect.types import ArrayType, VecType, is_scalar_type
from sarek.dialect.declarations import enclosing_function


#: on a load/store (or fill) whose buffer (value) sarek-widen-f16 made u16 bits or sarek-pack-narrow widened to
#: 32-bit words: the fragment keeps its element type, the shader lowering addresses the buffer's bytes in it
WORDS = "sarek.words"


def _widened(op: Operation, got: Attribute, want: Attribute) -> bool:
    """`got` is the 32-bit form sarek-pack-narrow gave a narrow `want` (op marked WORDS)."""
    from sarek.dialect import scalars

    return WORDS in op.attributes and (scalars.is_narrow(want) or isinstance(want, Float16Type)) and \
        got in (i32, scalars.U16, scalars.F32, scalars.promote(want))


class FragUse(StrEnum):
    A = "a"
    B = "b"
    ACC = "acc"


@irdl_op_definition
class CoopmatDeclOp(IRDLOperation):
    """`sarek.coopmat_decl "fa" a 16x16 : f16` — declares a cooperative-matrix fragment (fragments are a
    namespace of their own: not values, never indexed, passed or assigned). `sarek.coopmat_decl "acc" acc 64x128
    warpgroup : f32`: a fragment owned by a warpgroup (4 consecutive warps, warpgroup-uniform operands): a 64x16
    'a', a 16xN 'b' or a 64xN accumulator, N a multiple of 8 up to 256 (Hopper's wgmma)."""

    name = "sarek.coopmat_decl"
    frag = prop_def(StringAttr)
    use = prop_def(StringAttr)
    rows = prop_def(IntegerAttr)
    cols = prop_def(IntegerAttr)
    element_type = prop_def(AnyAttr())
    warpgroup = opt_prop_def(UnitAttr)

    def __init__(self, frag: str, use: str, rows: int, cols: int, element_type: Attribute, warpgroup: bool = False):
        props: dict[str, Attribute] = {"frag": StringAttr(frag), "use": StringAttr(use),
                                       "rows": IntegerAttr(rows, i32), "cols": IntegerAttr(cols, i32),
                                       "element_type": element_type}
        if warpgroup:
            props["warpgroup"] = UnitAttr()
        super().__init__(properties=props)

    def verify_(self) -> None:
        _check_name(self.frag, "fragment")
        if self.use.data not in {u.value for u in FragUse}:
            raise VerifyException(f"fragment use must be a, b or acc, got '{self.use.data}'")
        if self.rows.value.data <= 0 or self.cols.value.data <= 0:
            raise VerifyException("fragment shape must be positive")
        if not is_scalar_type(self.element_type):
            raise VerifyException(f"fragment element type must be a scalar, got {self.element_type}")
        if self.warpgroup is not None and (why := warpgroup_shape_error(self.use.data, self.rows.value.data,
                                                                        self.cols.value.data)):
            raise VerifyException(why)

    def print(self, printer: Printer) -> None:
        _print_name(printer, self.frag)
        wg = " warpgroup" if self.warpgroup is not None else ""
        printer.print_string(f" {self.use.data} {self.rows.value.data}x{self.cols.value.data}{wg} : ")
        printer.print_attribute(self.element_type)
        _print_attrs(printer, self)

    @classmethod
    def parse(cls, parser: Parser) -> CoopmatDeclOp:
        frag = parser.parse_str_literal()
        use = parser.parse_identifier()
        rows, cols = _parse_shape(parser)
        wg = parser.parse_optional_keyword("warpgroup") is not None
        parser.parse_punctuation(":")
        return _parse_attrs(parser, cls(frag, use, rows, cols, parser.parse_type(), wg))


def warpgroup_shape_error(use: str, rows: int, cols: int) -> str | None:
    """Why a warpgroup fragment of `use` cannot be rows x cols (wgmma's m64nNk16: a 64x16, b 16xN, acc 64xN,
    N a multiple of 8 up to 256), or None."""
    want = {"a": "64x16", "b": "16xN", "acc": "64xN"}[use] if use in ("a", "b", "acc") else "?"
    n = cols
    ok = (rows, cols) == (64, 16) if use == "a" else (rows == (16 if use == "b" else 64) and n % 8 == 0 and
                                                        0 < n <= 256)
    return None if ok else (f"a warpgroup '{use}' fragment is {want} (N a multiple of 8 up to 256: wgmma "
                            f"m64nNk16), not {rows}x{cols}")


def is_warpgroup(op: Operation, frag: str) -> bool:
    """Whether fragment `frag` (declared in the function holding `op`) is owned by a warpgroup."""
    return _frag_decl(op, frag).warpgroup is not None


def _parse_shape(parser: Parser) -> tuple[int, int]:
    """ROWSxCOLS, lexed as an integer then a bare identifier `xCOLS`."""
    pos = parser.pos
    rows = parser.parse_integer(allow_negative=False)
    x = parser.parse_identifier()
    if not (x.startswith("x") and x[1:].isdigit()):
        _raise_since(parser, "expected ROWSxCOLS", pos)
    return rows, int(x[1:])


def fragment_decl(op: Operation, frag: str) -> CoopmatDeclOp:
    """The `sarek.coopmat_decl` of fragment `frag` in the function holding `op` (VerifyException if none)."""
    return _frag_decl(op, frag)


def _frag_decl(op: Operation, frag: str) -> CoopmatDeclOp:
    f = enclosing_function(op)
    if f is not None:
        for o in f.walk():
            if isinstance(o, CoopmatDeclOp) and o.frag.data == frag:
                return o
    raise VerifyException(f"fragment '{frag}' is not declared by a sarek.coopmat_decl")


class _CoopmatMemMixin:
    if TYPE_CHECKING:  # defined by _CoopmatMemOp
        frag: StringAttr
        array: SSAValue
        index: SSAValue
        stride: SSAValue
        col_major: UnitAttr | None
        core: UnitAttr | None

    def _verify_mem(self) -> None:
        op = cast(Operation, self)
        d = _frag_decl(op, self.frag.data)
        elt = cast(VecType, self.array.type).element_type
        if elt != d.element_type and not _widened(op, elt, d.element_type):
            raise VerifyException(f"fragment '{self.frag.data}' holds {d.element_type}, the buffer {elt}")

    def _print_mem(self, printer: Printer, word: str) -> None:
        _print_name(printer, self.frag)
        printer.print_string(f" {word} ")
        printer.print_operand(self.array)
        _print_subscript(printer, self.index)
        printer.print_string(" stride ")
        printer.print_operand(self.stride)
        if self.col_major is not None:
            printer.print_string(" col_major")
        if self.core is not None:
            printer.print_string(" core")
        _print_typed_tail(printer, cast(Operation, self), self.array.type)

    @staticmethod
    def _parse_mem(parser: Parser, word: str) -> tuple[str, SSAValue, SSAValue, SSAValue, bool, bool]:
        frag = parser.parse_str_literal()
        parser.parse_keyword(word)
        a = _operand(parser)
        i = _parse_subscript(parser)
        parser.parse_keyword("stride")
        s = _operand(parser)
        col = parser.parse_optional_keyword("col_major") is not None
        core = parser.parse_optional_keyword("core") is not None
        _parse_type_of(parser, a, "buffer")
        return frag, a, i, s, col, core


class _CoopmatMemOp(_CoopmatMemMixin, IRDLOperation):
    """Shared shape of coopmat_load / coopmat_store: a fragment, a buffer, an element index, a row stride (a
    column stride with `col_major`). `core`: the buffer is a shared array in the core-matrix layout (`shared(T,
    (R, C), layout="core")`, stride C, index the position of element (i, j), i and j multiples of 8): element
    (r, c) is `buf[index + core_offset(r, c, stride)]` (sarek.analysis.layout.core_offset)."""

    WORD: ClassVar[str] = ""
    frag = prop_def(StringAttr)
    array = operand_def(VecType | ArrayType)
    index = operand_def(i32)
    stride = operand_def(i32)
    col_major = opt_prop_def(UnitAttr)
    core = opt_prop_def(UnitAttr)

    def __init__(self, frag: str, array: SSAValue, index: SSAValue, stride: SSAValue, col_major: bool = False,
                 core: bool = False):
        props: dict[str, Attribute] = {"frag": StringAttr(frag)}
        if col_major:
            props["col_major"] = UnitAttr()
        if core:
            props["core"] = UnitAttr()
        super().__init__(operands=[array, index, stride], properties=props)

    def verify_(self) -> None:
        self._verify_mem()
        if self.core is not None and (self.col_major is not None or not isinstance(self.array.type, ArrayType)
                                      or self.array.type.memspace.value != "shared"):
            raise VerifyException("a core-layout fragment load/store reads a shared array, row-major")

    def print(self, printer: Printer) -> None:
        self._print_mem(printer, self.WORD)

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        return _parse_attrs(parser, cls(*cls._parse_mem(parser, cls.WORD)))


@irdl_op_definition
class CoopmatLoadOp(_CoopmatMemOp):
    """`sarek.coopmat_load "fa" from %v[%i] stride %s [col_major] : !sarek.vec<f16>` — row-major (column-major
    with `col_major`), stride in elements."""

    name = "sarek.coopmat_load"
    WORD: ClassVar[str] = "from"


@irdl_op_definition
class CoopmatStoreOp(_CoopmatMemOp):
    """`sarek.coopmat_store "fc" to %v[%i] stride %s [col_major] : !sarek.vec<f32>`."""

    name = "sarek.coopmat_store"
    WORD: ClassVar[str] = "to"


@irdl_op_definition
class CoopmatMulAddOp(FormatSyntax):
    """`sarek.coopmat_muladd "fd" = "fa" * "fb" + "fc"` — D = A·B + C."""

    name = "sarek.coopmat_muladd"
    FORMAT: ClassVar[str] = '"$d" = "$a" * "$b" + "$c"'
    d = prop_def(StringAttr)
    a = prop_def(StringAttr)
    b = prop_def(StringAttr)
    c = prop_def(StringAttr)

    def verify_(self) -> None:
        fd, fa, fb, fc = (_frag_decl(self, x.data) for x in (self.d, self.a, self.b, self.c))
        for f, u in ((fa, FragUse.A), (fb, FragUse.B), (fc, FragUse.ACC), (fd, FragUse.ACC)):
            if f.use.data != u.value:
                raise VerifyException(f"fragment '{f.frag.data}' is a '{f.use.data}' fragment, '{u.value}' expected")
        m, k = fa.rows.value.data, fa.cols.value.data
        k2, n = fb.rows.value.data, fb.cols.value.data
        if k != k2 or (fc.rows.value.data, fc.cols.value.data) != (m, n) or \
                (fd.rows.value.data, fd.cols.value.data) != (m, n):
            raise VerifyException(f"fragment shapes do not compose: A {m}x{k}, B {k2}x{n}, "
                                  f"C {fc.rows.value.data}x{fc.cols.value.data}, D {fd.rows.value.data}x{fd.cols.value.data}")


@irdl_op_definition
class CoopmatFillOp(FormatSyntax):
    """`sarek.coopmat_fill "fc", %x : f32` — every element of the fragment set to %x (of its element type)."""

    name = "sarek.coopmat_fill"
    FORMAT: ClassVar[str] = '"$frag" , $value : type($value)'
    frag = prop_def(StringAttr)
    value = operand_def(AnyAttr())

    def verify_(self) -> None:
        d = _frag_decl(self, self.frag.data)
        if self.value.type != d.element_type and not _widened(self, self.value.type, d.element_type):
            raise VerifyException(f"fragment '{self.frag.data}' holds {d.element_type}, the value is {self.value.type}")


@irdl_op_definition
class CoopmatWaitOp(NullarySyntax):
    """`sarek.coopmat_wait` — the warpgroup multiply-accumulates issued so far have completed (their accumulators
    may be read, their operand arrays written): wgmma.wait_group 0 on PTX. Placed by sarek-wgmma-waits; every
    executor but PTX has nothing to wait for."""

    name = "sarek.coopmat_wait"


#: every cooperative-matrix op (the analyses' and lowerings' one list)
COOPMAT_OPS = (CoopmatDeclOp, CoopmatFillOp, CoopmatLoadOp, CoopmatStoreOp, CoopmatMulAddOp)
