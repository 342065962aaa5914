"""sarek.dialect.builder: every builder method, insertion points, locations, and the text it round-trips to."""

from __future__ import annotations

import pytest
from xdsl.dialects.builtin import FileLineColLoc, f16, f32, i1, i32, i64
from xdsl.ir import Operation

from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder, ModuleBuilder
from sarek.tools.ir import parse_module, print_module


def roundtrips(mb: ModuleBuilder) -> str:
    mb.module.verify()
    text = print_module(mb.module)
    again = parse_module(text)
    again.verify()
    assert print_module(again) == text
    assert print_module(parse_module(print_module(mb.module, generic=True))) == text
    return text


def ops(mb: ModuleBuilder) -> list[str]:
    return [o.name for o in mb.module.walk()]


def test_declarations_return_their_types_in_module_order():
    mb = ModuleBuilder()
    p = mb.record("point", [("x", f32), ("y", f32)])
    v = mb.variant("shape", [("Circle", [f32]), ("At", [p]), ("Empty", [])])
    assert p == s.RecordType("point") and v == s.VariantType("shape")
    text = roundtrips(mb)
    assert "sarek.record @point {x : f32, y : f32}\n  sarek.variant @shape {Circle(f32), At(!sarek.record<@point>), Empty}" in text


def test_every_expression_and_place():
    mb = ModuleBuilder()
    point = mb.record("point", [("x", f32), ("y", f32)])
    shape = mb.variant("shape", [("Circle", [f32]), ("Empty", [])])
    with mb.helper("sq", [("x", f32)], f32) as h:
        (x,) = h.params
        h.return_(h.binop("mul", x, x))
    with mb.helper("nothing", [], s.UnitType()) as h:
        h.return_()
    with mb.kernel("k", [("v", s.VecType(f32)), ("pts", s.VecType(point)), ("n", i32)]) as b:
        v, pts, n = b.params
        i = b.let("i", b.intrinsic("global_thread_id"))
        one = b.const(1.0, f32)
        assert b.const(True, i1).type == i1 and b.const(None, s.UnitType()).type == s.UnitType()
        assert b.const(2, i64).type == i64 and b.const(0.5, f16).type == f16
        neg = b.unop("neg", one)
        c = b.cast(i, f32)
        sq = b.call("sq", [c], f32)
        assert sq is not None and sq.type == f32
        assert b.call("nothing", [], s.UnitType()) is None
        root = b.intrinsic("sqrt", b.binop("add", neg, sq))
        assert root.type == f32
        old = b.intrinsic("atomic_add", v, i, one)
        assert old.type == f32
        r = b.make_record("point", root, old)
        assert r.type == point
        fx = b.field(r, "x", f32)
        sv = b.make_variant("shape", "Circle", fx)
        assert sv.type == shape and b.make_variant("shape", "Empty").type == shape
        pl = b.payload(sv, "Circle", 0, f32)
        length = b.length(v)
        assert length.type == i32
        sh = b.alloc("sh", length, f32)
        loc = b.alloc("loc", length, i32, "local")
        assert sh.type == s.ArrayType(f32, "shared") and loc.type == s.ArrayType(i32, "local")
        x = b.read(v, i)
        b.store(b.elem_ref(sh, i), b.binop("add", x, pl))
        m = b.let_mut("m", r)
        assert m.type == s.RefType(point)
        b.store(b.field_ref(m, "y", f32), b.load(b.field_ref(m, "x", f32)))
        e = b.elem_ref(pts, i)
        b.store(b.field_ref(e, "x", f32), fx)
        b.store(e, b.load(m))
        b.barrier()
        b.warp_barrier()
        b.mem_fence()
        b.native({"cuda": "__nanosleep(1);"})
    text = roundtrips(mb)
    names = set(ops(mb))
    for op in ("sarek.let", "sarek.constant", "sarek.unop", "sarek.cast", "sarek.call", "sarek.intrinsic",
               "sarek.make_record", "sarek.field", "sarek.make_variant", "sarek.payload", "sarek.array_len",
               "sarek.alloc_array", "sarek.array_read", "sarek.elem_ref", "sarek.store", "sarek.let_mut",
               "sarek.field_ref", "sarek.load", "sarek.barrier", "sarek.warp_barrier", "sarek.mem_fence",
               "sarek.native", "sarek.return"):
        assert op in names, op
    assert 'sarek.call @nothing() : () -> ()' in text
    assert 'sarek.native {cuda = "__nanosleep(1);"}' in text


def test_control_flow_contexts_restore_the_insertion_point():
    mb = ModuleBuilder()
    with mb.kernel("k", [("c", i1), ("n", i32)]) as b:
        c, n = b.params
        top = b.block
        with b.if_(c) as if_op:
            b.barrier()
            assert b.block is if_op.then_region.block
        assert b.block is top
        with b.else_(if_op):
            b.mem_fence()
        with b.if_(c):  # no else: stays without an else region
            pass
        e = b.if_expr(c, i32)
        with e.then_():
            e.yield_(n)
        with e.else_():
            e.yield_(b.const(0, i32))
        assert e.result.type == i32
        with b.while_() as w:
            with w.cond():
                w.yield_(b.binop("lt", e.result, n))
            with w.body():
                b.warp_barrier()
        with b.for_("i", b.const(0, i32), n, 2) as i:
            assert b.block.args[0] is i
            with b.for_("j", n, b.const(0, i32), -1) as j:
                b.let("s", b.binop("add", i, j))
        with b.pragma(["unroll"]):
            with b.block_():
                b.barrier()
        assert b.block is top
    text = roundtrips(mb)
    assert "} else {\n      sarek.mem_fence\n    }" in text
    assert "step 2 : i32 {" in text
    assert "step -1" in text
    assert 'sarek.pragma ["unroll"] {' in text
    ifs = [o for o in mb.module.walk() if isinstance(o, s.IfOp)]
    assert len(ifs) == 2 and ifs[0].else_region.blocks and not ifs[1].else_region.blocks


def test_insertion_point_restored_after_an_exception():
    mb = ModuleBuilder()
    with mb.kernel("k", [("c", i1)]) as b:
        top = b.block
        with pytest.raises(RuntimeError):
            with b.if_(b.params[0]):
                raise RuntimeError("boom")
        assert b.block is top


def test_match_statement_and_expression():
    mb = ModuleBuilder()
    shape = mb.variant("shape", [("Circle", [f32]), ("Rect", [f32, f32]), ("Empty", [])])
    with mb.kernel("k", [("v", s.VecType(shape)), ("o", s.VecType(f32))]) as b:
        v, o = b.params
        sv = b.read(v, b.const(0, i32))
        out = b.elem_ref(o, b.const(0, i32))
        m = b.match(sv)
        with m.case("Circle", ["r"], [f32]) as (r,):
            b.store(out, r)
        with m.case("Rect", ["w", "_"], [f32, f32]) as (w, _):
            b.store(out, w)
        with m.case("_", ["whole"], [shape]) as (whole,):
            b.let("again", whole)
        op = m.finish()
        assert isinstance(op, s.MatchOp) and [c for c, _, _ in op.case_list()] == ["Circle", "Rect", "_"]
        e = b.match(sv, i32)
        with e.case("Empty"):
            e.yield_(b.const(1, i32))
        with e.case("_"):
            e.yield_(b.const(0, i32))
        assert isinstance(e.finish(), s.MatchExprOp) and e.result.type == i32
    text = roundtrips(mb)
    assert 'case "Circle"(%r: f32 "r") {' in text
    assert 'case "Rect"(%w: f32 "w", %_: f32 "_") {' in text
    assert 'default(%whole: !sarek.variant<@shape> "whole") {' in text
    assert "sarek.match_expr %" in text and 'case "Empty" {' in text


def test_locations_are_attached():
    mb = ModuleBuilder()
    with mb.kernel("k", [("n", i32)]) as b:
        first = b.let("a", b.params[0])
        b.at("kernel.py", 3, 5)
        second = b.let("b", first)
        with b.if_(b.binop("lt", second, b.params[0])) as if_op:
            b.barrier()
    lets = [o for o in mb.module.walk() if isinstance(o, s.LetOp)]
    assert not isinstance(lets[0].location, FileLineColLoc)
    loc = lets[1].location
    assert isinstance(loc, FileLineColLoc)
    assert (loc.filename.data, loc.line.data, loc.column.data) == ("kernel.py", 3, 5)
    barrier: Operation = next(o for o in mb.module.walk() if isinstance(o, s.BarrierOp))
    assert barrier.location == loc and if_op.location == loc


def test_builder_on_a_bare_block():
    """BodyBuilder works on any block (passes and the front end build into existing regions)."""
    k = s.KernelOp("k", [("n", i32)])
    b = BodyBuilder(k.body.block)
    assert b.params == tuple(k.body.block.args)
    with b.block_():
        b.let("x", b.params[0])
    assert [o.name for o in k.walk()] == ["sarek.kernel", "sarek.block", "sarek.let"]


def test_builder_names_become_ssa_names():
    mb = ModuleBuilder()
    with mb.kernel("k", [("n", i32), ("a b", i32)]) as b:
        b.let("x", b.params[0])
        b.let_mut("total", b.params[1])
        b.alloc("tile", b.params[0], f32)
        with b.for_("i", b.params[0], b.params[0]):
            pass
    text = roundtrips(mb)
    assert '(%n: i32 "n", %0: i32 "a b")' in text
    assert '%x = sarek.let "x" %n : i32' in text
    assert '%total = sarek.let_mut "total" %0 : i32' in text
    assert '%tile = sarek.alloc_array "tile"[%n] : !sarek.array<f32, shared>' in text
    assert 'sarek.for "i" %i = %n to %n step 1 : i32 {' in text
