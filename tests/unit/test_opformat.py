"""sarek.dialect.opformat: an op's FORMAT gives its printer, its parser and its constructor (every kind of piece
round-trips, a type that is not its operand's is a located parse error naming the operand, the generated
constructor builds what a hand-written one does)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import Builtin, IntAttr, ModuleOp, StringAttr, i32
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, irdl_op_definition, operand_def, opt_operand_def, prop_def, result_def, var_operand_def
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError

from sarek.dialect.opformat import FormatSyntax


@irdl_op_definition
class _ConstOp(FormatSyntax):
    name = "fmt.const"
    FORMAT: ClassVar[str] = "type($out)"
    out = result_def()

    def __init__(self, t: Attribute):
        super().__init__(result_types=[t])


@irdl_op_definition
class _AllOp(FormatSyntax):
    name = "fmt.all"
    FORMAT: ClassVar[str] = '"$label" $x , int($n) to [$i] [$js] ($args) ($rest)? $opt attr-dict : type($x)'
    label = prop_def(StringAttr)
    n = prop_def(IntAttr)
    x = operand_def()
    i = operand_def()
    js = var_operand_def()
    args = var_operand_def()
    rest = var_operand_def()
    opt = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, label: str, x: SSAValue, n: int, i: SSAValue, js: Sequence[SSAValue], args: Sequence[SSAValue],
                 rest: Sequence[SSAValue], opt: SSAValue | None):
        super().__init__(operands=[x, i, js, args, rest, [opt] if opt is not None else []],
                         properties={"label": StringAttr(label), "n": IntAttr(n)})


@irdl_op_definition
class _GenOp(FormatSyntax):
    """`_AllOp`'s format and fields, with the constructor the format implies."""

    name = "fmt.gen"
    FORMAT: ClassVar[str] = _AllOp.FORMAT
    label = prop_def(StringAttr)
    n = prop_def(IntAttr)
    x = operand_def()
    i = operand_def()
    js = var_operand_def()
    args = var_operand_def()
    rest = var_operand_def()
    opt = opt_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)


@irdl_op_definition
class _DimOp(FormatSyntax):
    """A result the format does not state, whose constraint fixes its type (i32)."""

    name = "fmt.dim"
    FORMAT: ClassVar[str] = "$x , int($d) : type($x)"
    x = operand_def()
    d = prop_def(IntAttr)
    out = result_def(i32)


def _parse(text: str) -> ModuleOp:
    ctx = Context()
    ctx.load_dialect(Builtin)
    ctx.load_dialect(Dialect("fmt", [_ConstOp, _AllOp, _GenOp, _DimOp]))
    return Parser(ctx, text).parse_module()


TEXT = """builtin.module {
  %0 = fmt.const i32
  %1 = fmt.const f32
  fmt.all "l" %0, 3 to[%0][%0, %0](%1)(%0) %1 attributes {k = 1 : i32} : i32
  fmt.all "m" %1, 0 to[%0][%0]() : f32
}"""


def test_every_piece_round_trips() -> None:
    m = _parse(TEXT)
    assert str(m) == TEXT
    ops = list(m.body.block.ops)
    a, b = ops[2], ops[3]
    assert isinstance(a, _AllOp) and isinstance(b, _AllOp)
    assert (a.label.data, a.n.data, len(a.js), len(a.args), len(a.rest)) == ("l", 3, 2, 1, 1)
    assert a.opt is not None and "k" in a.attributes
    assert b.opt is None and not b.rest and not b.args
    assert a.x.type == i32


def test_a_type_that_is_not_the_operands_names_the_operand() -> None:
    with pytest.raises(ParseError, match="x has type i32, not f32"):
        _parse('%0 = "fmt.const"() : () -> i32\nfmt.all "l" %0, 3 to[%0][%0]() : f32')


def test_a_missing_keyword_is_a_parse_error() -> None:
    with pytest.raises(ParseError, match="'to'"):
        _parse('%0 = "fmt.const"() : () -> i32\nfmt.all "l" %0, 3 [%0][%0]() : i32')


def test_the_generated_constructor_builds_what_the_format_states() -> None:
    m = _parse(TEXT.replace("fmt.all", "fmt.gen"))
    assert str(m) == TEXT.replace("fmt.all", "fmt.gen")
    x, y = (o.results[0] for o in list(m.body.block.ops)[:2])
    built = _GenOp("l", x, 3, x, [x, x], [y], [], None)
    hand = _AllOp("l", x, 3, x, [x, x], [y], [], None)
    assert (built.label, built.n, built.properties.get("operandSegmentSizes")) == \
        (hand.label, hand.n, hand.properties.get("operandSegmentSizes"))
    assert list(built.operands) == list(hand.operands) and built.opt is None
    d = _DimOp(x, 1)
    assert d.out.type == i32 and d.d.data == 1
    d.verify()


def test_the_generated_constructor_counts_its_values() -> None:
    with pytest.raises(TypeError, match=r"fmt.dim takes 2 values \(\$x , int\(\$d\) : type\(\$x\)\), got 1"):
        _DimOp(_ConstOp(i32).results[0])
