"""The aligned layout (Sarek_ir_layout) and its numpy dtypes, checked against gcc's offsetof/sizeof."""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sarek.analysis.layout import (
    LayoutError,
    LayoutErrorKind,
    RecordLayout,
    ScalarLayout,
    VariantLayout,
    layout_of,
    numpy_dtype,
)
from sarek.analysis.names import mangle_name
from sarek.dialect.sarek import RecordType, VariantType, VecType
from sarek.tools.ir import parse_module

SCALARS = {"i1": (4, 4), "i32": (4, 4), "f32": (4, 4), "i64": (8, 8), "f64": (8, 8), "f16": (2, 2),
           "ui8": (1, 1), "!sarek.unit": (4, 4)}


def _module(decls: str):
    return parse_module(f"builtin.module {{\n{decls}\n}}")


def _type(text: str):
    return parse_module(f'builtin.module {{ sarek.record @probe {{x : {text}}} }}').ops.first.field_types.data[0]


@pytest.mark.parametrize("name", sorted(SCALARS))
def test_scalar_sizes(name: str):
    t = _type(name) if name != "!sarek.unit" else parse_module(
        "builtin.module { sarek.helper @h() -> !sarek.unit { sarek.return } }").ops.first.return_type
    assert layout_of(_module(""), t) == ScalarLayout(*SCALARS[name])


def test_record_pads_to_alignment():
    m = _module("sarek.record @r {a : i32, b : f64}")
    lay = layout_of(m, RecordType("r"))
    assert isinstance(lay, RecordLayout)
    assert lay.fields == (("a", 0), ("b", 8)) and lay.size == 16 and lay.align == 8


def test_nested_record_leaves_are_flattened_with_dotted_paths():
    m = _module("sarek.record @in {b : i64, c : f16}\nsarek.record @out {a : ui8, inner : !sarek.record<@in>, d : f16}")
    lay = layout_of(m, RecordType("out"))
    assert isinstance(lay, RecordLayout)
    assert [(x.path, x.offset) for x in lay.leaves] == [("a", 0), ("inner.b", 8), ("inner.c", 16), ("d", 24)]
    assert lay.size == 32


def test_variant_payload_at_max_4_and_alignment():
    m = _module("sarek.variant @v {A(f64), B}\nsarek.variant @w {C(i32, f16), D(ui8)}\nsarek.variant @e {X, Y}")
    v = layout_of(m, VariantType("v"))
    assert isinstance(v, VariantLayout)
    assert (v.tag_offset, v.payload_offset, v.size) == (0, 8, 16)
    assert [(c.name, c.tag) for c in v.ctors] == [("A", 0), ("B", 1)]
    w = layout_of(m, VariantType("w"))
    assert isinstance(w, VariantLayout)
    assert w.payload_offset == 4 and w.ctors[0].offsets == (4, 8) and w.ctors[0].payload_size == 8 and w.size == 12
    assert [x.path for x in w.ctors[0].leaves] == ["C._0", "C._1"]
    e = layout_of(m, VariantType("e"))
    assert isinstance(e, VariantLayout) and e.size == 4 and e.payload_offset == 4


def test_nested_variant_is_refused_with_type_field_offset_alignment():
    m = _module("sarek.variant @color {Red, Value(f64)}\nsarek.record @cp {a : f32, c : !sarek.variant<@color>}")
    with pytest.raises(LayoutError) as e:
        layout_of(m, RecordType("cp"))
    err = e.value
    assert (err.kind, err.type_name, err.field, err.offset, err.align) == \
        (LayoutErrorKind.NESTED_VARIANT, "cp", "c", 8, 8)
    assert 'no layout for type "cp": field "c" (offset 8, alignment 8)' in str(err)


def test_variant_in_a_payload_record_is_nested():
    m = _module("sarek.variant @color {Red}\nsarek.record @box {c : !sarek.variant<@color>}\n"
                "sarek.variant @outer {Boxed(!sarek.record<@box>)}")
    with pytest.raises(LayoutError) as e:
        layout_of(m, VariantType("outer"))
    assert (e.value.kind, e.value.type_name, e.value.field, e.value.offset, e.value.align) == \
        (LayoutErrorKind.NESTED_VARIANT, "outer", "Boxed._0.c", 4, 4)


def test_vectors_have_no_layout():
    with pytest.raises(LayoutError) as e:
        layout_of(_module(""), VecType(_type("f32")))
    assert e.value.kind == LayoutErrorKind.UNSUPPORTED_FIELD and "!sarek.vec<f32>" in str(e.value)


def test_undeclared_record_is_an_error():
    with pytest.raises(LayoutError) as e:
        layout_of(_module(""), RecordType("ghost"))
    assert e.value.kind == LayoutErrorKind.UNDECLARED_TYPE


def test_numpy_dtypes_match_the_layout():
    m = _module("sarek.record @in {b : i64, c : f16}\nsarek.record @out {a : ui8, inner : !sarek.record<@in>}\n"
                "sarek.variant @w {C(i32, f16), D(f64), E}")
    d = numpy_dtype(m, RecordType("out"))
    assert d.itemsize == 24 and d.fields["inner"][1] == 8 and d["inner"].fields["c"][1] == 8
    v = numpy_dtype(m, VariantType("w"))
    assert v.itemsize == 16 and v.names == ("tag", "C_v", "D_v")
    assert v.fields["C_v"][1] == 8 and v["C_v"].fields["_1"][1] == 4 and v.fields["D_v"][1] == 8
    a = np.zeros(2, v)
    a[1]["tag"] = 1
    a[1]["D_v"] = 2.5
    assert a.tobytes()[16:20] == (1).to_bytes(4, "little") and np.frombuffer(a.tobytes()[24:32]) == 2.5


# ------------------------------------------------------------------------------------------------ gcc

C_TYPES = {"i1": "int", "i32": "int", "i64": "long long", "f16": "_Float16", "f32": "float", "f64": "double",
           "ui8": "unsigned char"}


def _c_decls(decls: list[tuple[str, str, list]]) -> str:
    """The C structs the C-family backends emit (typedef struct; tag + union for variants)."""
    out = []
    for kind, name, body in decls:
        n = mangle_name(name)
        ctype = lambda t: C_TYPES.get(t, mangle_name(t[1:]))  # noqa: E731  '@rec' -> its struct
        if kind == "record":
            out.append("typedef struct {\n" + "".join(f"  {ctype(t)} {f};\n" for f, t in body) + f"}} {n};")
        else:
            members = []
            for c, ps in body:
                if len(ps) == 1:
                    members.append(f"    {ctype(ps[0])} {c}_v;\n")
                elif ps:
                    members.append("    struct {" + " ".join(f"{ctype(p)} _{i};" for i, p in enumerate(ps))
                                   + f"}} {c}_v;\n")
            union = f"  union {{\n{''.join(members)}  }} data;\n" if members else ""
            out.append(f"typedef struct {{\n  int tag;\n{union}}} {n};")
    return "\n".join(out)


def _probe(decls: list[tuple[str, str, list]]) -> str:
    lines = ['#include <stdio.h>', '#include <stddef.h>', _c_decls(decls), "int main(void) {"]
    for kind, name, body in decls:
        n = mangle_name(name)
        lines.append(f'  printf("{n} size %zu align %zu\\n", sizeof({n}), _Alignof({n}));')
        if kind == "record":
            for f, _ in body:
                lines.append(f'  printf("{n} {f} %zu\\n", offsetof({n}, {f}));')
        else:
            for c, ps in body:
                for i in range(len(ps)):
                    member = f"data.{c}_v" + (f"._{i}" if len(ps) > 1 else "")
                    lines.append(f'  printf("{n} {c}.{i} %zu\\n", offsetof({n}, {member}));')
    lines += ["  return 0;", "}"]
    return "\n".join(lines)


def _gcc(source: str) -> list[str]:
    gcc = shutil.which("gcc")
    assert gcc is not None, "gcc is required for the layout check"
    with tempfile.TemporaryDirectory() as d:
        c, exe = Path(d) / "probe.c", Path(d) / "probe"
        c.write_text(source)
        subprocess.run([gcc, "-std=c11", "-o", str(exe), str(c)], check=True, capture_output=True, text=True)
        return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout.splitlines()


def _ours(decls: list[tuple[str, str, list]]) -> list[str]:
    text = []
    for kind, name, body in decls:
        if kind == "record":
            text.append(f'sarek.record @"{name}" {{' + ", ".join(f"{f} : {_mlir(t)}" for f, t in body) + "}")
        else:
            text.append(f'sarek.variant @"{name}" {{' + ", ".join(
                c + (f"({', '.join(_mlir(p) for p in ps)})" if ps else "") for c, ps in body) + "}")
    m = _module("\n".join(text))
    out = []
    for kind, name, body in decls:
        n = mangle_name(name)
        lay = layout_of(m, RecordType(name) if kind == "record" else VariantType(name))
        assert not isinstance(lay, ScalarLayout)
        out.append(f"{n} size {lay.size} align {lay.align}")
        assert numpy_dtype(m, RecordType(name) if kind == "record" else VariantType(name)).itemsize == lay.size
        if isinstance(lay, RecordLayout):
            out += [f"{n} {f} {o}" for f, o in lay.fields]
        else:
            assert isinstance(lay, VariantLayout)
            out += [f"{n} {c.name}.{i} {o}" for c in lay.ctors for i, o in enumerate(c.offsets)]
    return out


def _mlir(t: str) -> str:
    return f'!sarek.record<@"{t[1:]}">' if t.startswith("@") else t


@st.composite
def _decl_lists(draw: st.DrawFn) -> list[tuple[str, str, list]]:
    """Records (possibly nesting earlier records) and top-level variants with scalar/record payloads."""
    decls: list[tuple[str, str, list]] = []
    records: list[str] = []
    scalar = st.sampled_from(sorted(C_TYPES))
    for i in range(draw(st.integers(1, 6))):
        field_t = st.one_of(scalar, st.sampled_from(["@" + r for r in records])) if records else scalar
        if draw(st.booleans()):
            name = f"M{i}.rec" if draw(st.booleans()) else f"rec{i}"
            fields = draw(st.lists(field_t, min_size=1, max_size=6))
            decls.append(("record", name, [(f"f{j}", t) for j, t in enumerate(fields)]))
            records.append(name)
        else:
            ctors = draw(st.lists(st.lists(field_t, max_size=4), min_size=1, max_size=4))
            decls.append(("variant", f"var{i}", [(f"C{j}", ps) for j, ps in enumerate(ctors)]))
    return decls


@settings(max_examples=12, deadline=None)
@given(_decl_lists())
def test_layout_matches_gcc(decls: list[tuple[str, str, list]]):
    assert _ours(decls) == _gcc(_probe(decls))


def test_layout_matches_gcc_on_mixed_alignments():
    decls = [("record", "Geo.pt", [("x", "f16"), ("y", "f64"), ("z", "ui8")]),
             ("record", "seg", [("a", "ui8"), ("p", "@Geo.pt"), ("b", "i1")]),
             ("variant", "shape", [("Dot", ["@Geo.pt"]), ("Line", ["f16", "@seg", "ui8"]), ("Empty", [])]),
             ("variant", "small", [("A", ["ui8"]), ("B", ["f16", "ui8"])])]
    assert _ours(decls) == _gcc(_probe(decls))
