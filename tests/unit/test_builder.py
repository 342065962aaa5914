"""The Python builder produces verified IR equal to the textual examples."""

from pathlib import Path

import pytest
from xdsl.dialects.builtin import f32, i32
from xdsl.utils.exceptions import VerifyException

from sarek.dialect import sarek as s
from sarek.dialect.builder import ModuleBuilder
from sarek.tools.ir import parse_module, print_module

EXAMPLES = Path(__file__).parents[2] / "examples"


def test_vector_add_matches_text():
    mb = ModuleBuilder()
    vec = s.VecType(f32)
    with mb.kernel("vector_add", [("a", vec), ("b", vec), ("c", vec), ("n", i32)]) as b:
        a, bb, c, n = b.params
        g = b.intrinsic("global_thread_id")
        g.name_hint = "g"
        tid = b.let("tid", g)
        lt = b.binop("lt", tid, n)
        lt.name_hint = "lt"
        with b.if_(lt):
            x = b.read(a, tid)
            y = b.read(bb, tid)
            x.name_hint, y.name_hint = "x", "y"
            sm = b.binop("add", x, y)
            sm.name_hint = "s"
            p = b.elem_ref(c, tid)
            p.name_hint = "p"
            b.store(p, sm)
    mb.module.verify()
    text = (EXAMPLES / "vector_add.mlir").read_text()
    assert print_module(mb.module) == print_module(parse_module(text))


def test_match_expr_and_while_and_for():
    mb = ModuleBuilder()
    shape = mb.variant("shape", [("Circle", [f32]), ("Empty", [])])
    with mb.kernel("k", [("v", s.VecType(shape)), ("o", s.VecType(f32))]) as b:
        v, o = b.params
        zero = b.const(0, i32)
        sv = b.read(v, zero)
        m = b.match(sv, f32)
        with m.case("Circle", ["r"], [f32]) as (r,):
            m.yield_(r)
        with m.case("_"):
            m.yield_(b.const(0.0, f32))
        m.finish()
        acc = b.let_mut("acc", m.result)
        with b.while_() as w:
            with w.cond():
                w.yield_(b.binop("lt", b.load(acc), b.const(10.0, f32)))
            with w.body():
                b.store(acc, b.binop("add", b.load(acc), b.const(1.0, f32)))
        with b.for_("i", zero, b.const(4, i32)) as i:
            b.store(b.elem_ref(o, i), b.load(acc))
    mb.module.verify()
    again = parse_module(print_module(mb.module))
    again.verify()
    assert print_module(again) == print_module(mb.module)


def test_builder_reports_verifier_errors():
    mb = ModuleBuilder()
    mb.record("p", [("x", f32)])
    with mb.kernel("k", [("o", s.VecType(f32))]) as b:
        b.make_record("p", b.const(1, i32))
    with pytest.raises(VerifyException, match="field 'x' of @p has type f32, given i32"):
        mb.module.verify()
