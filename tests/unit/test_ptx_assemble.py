"""Every PTX the suite produces assembles with `ptxas -arch=sm_90` (a missing ptxas fails, never skips):
examples/*.mlir, the PTX test kernels, the conformance corpus, every math intrinsic; refusals carry reasons."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest

from sarek.diagnostics import SarekError
from sarek.registry import emit_source
from sarek.dialect.intrinsics import BINARY_FLOAT, UNARY_FLOAT
from sarek.targets.ptx.target import emit_ptx
from sarek.testing.batch import check_many, combine_ptx
from sarek.tools.ir import parse_module, print_module
from sarek.validate import ValidationError
from sarek.validate.ptx import check

ROOT = Path(__file__).parents[2]
EXAMPLES = sorted((ROOT / "examples").glob("*.mlir"))
KERNELS = sorted((Path(__file__).parent / "ptx_kernels").glob("*.mlir"))
# examples every backend refuses, with the reason's text
REFUSED: dict[str, str] = {}


@pytest.mark.parametrize("path", EXAMPLES + KERNELS, ids=lambda p: p.name)
def test_file_assembles(path: Path):
    m = parse_module(path.read_text(), str(path))
    if path.name in REFUSED and path.parent.name == "examples":
        with pytest.raises(SarekError, match=REFUSED[path.name]):
            emit_ptx(m)
        return
    src = emit_ptx(m)
    assert ".target sm_90" in src and ".address_size 64" in src
    check(src)


def _math_kernel(name: str, arity: int, t: str) -> str:
    ins = "".join(f'%a{i} : !sarek.vec<{t}> "a{i}", ' for i in range(arity))
    reads = "\n".join(f"    %x{i} = sarek.array_read %a{i}[%z] : !sarek.vec<{t}>" for i in range(arity))
    xs = ", ".join(f"%x{i}" for i in range(arity))
    return f'''builtin.module {{
  sarek.kernel @m({ins}%b : !sarek.vec<{t}> "b") {{
    %z = sarek.constant 0 : i32
{reads}
    %y = sarek.intrinsic "{name}"({xs}) : ({", ".join([t] * arity)}) -> {t}
    %p = sarek.elem_ref %b[%z] : !sarek.vec<{t}>
    sarek.store %p, %y : !sarek.ref<{t}>
  }}
}}'''


MATH = [(n, 1) for n in UNARY_FLOAT] + [(n, 2) for n in BINARY_FLOAT] + [("fma", 3), ("min", 2), ("max", 2),
                                                                          ("abs", 1)]


@pytest.mark.parametrize("t", ["f32", "f16"])
def test_math_f32_f16_assembles(t: str):
    """Every float intrinsic on f32 and f16 lowers (f16 through f32) and assembles, with no .approx but f32
    exp and exp2's ex2.approx.f32 (the hardware 2^x, at the default fp policy)."""
    srcs = [emit_ptx(parse_module(_math_kernel(n, a, t))) for n, a in MATH]
    for (n, _), s in zip(MATH, srcs):
        approx = {ln.split()[0] for ln in s.splitlines() if ".approx" in ln}
        assert approx == ({"ex2.approx.f32"} if t == "f32" and n in ("exp", "exp2") else set()), (n, approx)
    # one ptxas run per function is slow; assemble them as one module of many entries
    body = "\n".join(s.split(".address_size 64", 1)[1].replace(".entry m(", f".entry m{i}(")
                     .replace("m_param_", f"m{i}_param_") for i, s in enumerate(srcs))
    check(srcs[0].split(".address_size 64", 1)[0] + ".address_size 64\n" + body)


def test_math_f64_assembles():
    """f64: exact operations are PTX instructions, transcendentals, pow and fmod the math library's routines
    (assembled as one module); none is refused."""
    srcs = [emit_ptx(parse_module(_math_kernel(n, a, "f64"))) for n, a in MATH]
    body = "\n".join(s.split(".address_size 64", 1)[1].replace(".entry m(", f".entry m{i}(")
                     .replace("m_param_", f"m{i}_param_") for i, s in enumerate(srcs))
    check(srcs[0].split(".address_size 64", 1)[0] + ".address_size 64\n" + body)


def test_integer_intrinsics_assemble():
    for t in ("i32", "i64"):
        for n, a in (("abs", 1), ("min", 2), ("max", 2)):
            check(emit_ptx(parse_module(_math_kernel(n, a, t))))


def test_conformance_corpus_assembles():
    """The runtime's conformance corpus (front-end examples and IR examples): assembled or expected refusal."""
    from sarek.runtime.conformance import corpus, target_lacks

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cases, errors = corpus()
    assert not errors
    seen: set[int] = set()
    srcs: dict[str, str] = {}
    for c in cases:
        mod, _ = c.module_and_name
        if id(mod) in seen:
            continue
        seen.add(id(mod))
        expected = " ".join(str(v) for v in c.expect_error.values()) if c.expect_error else ""
        try:
            srcs[c.name] = emit_ptx(mod)
        except SarekError as e:
            if c.features & target_lacks("ptx"):  # a kernel needing what ptx lacks: refused, by the gate
                continue
            assert expected and any(w in str(e) for w in c.expect_error.values()), f"{c.name}: {e}"
    # one ptxas run for all of them (a failing batch is split down to the failing modules)
    verdicts = check_many("ptx", list(srcs.values()))
    bad = {n: v for n, v in zip(srcs, verdicts) if v is not None}
    assert not bad, bad


def test_lowered_ir_roundtrips_and_prints_same_ptx():
    from io import StringIO

    from sarek.targets.ptx.target import PtxTarget
    from sarek.tools.ir import make_context

    text = (ROOT / "examples" / "variant_match.mlir").read_text()
    m = parse_module(text)
    PtxTarget().emit(make_context(), m, StringIO())  # lowers m in place
    ir = print_module(m)
    assert "sarek_ptx.entry" in ir and "sarek." not in ir.replace("sarek_ptx.", "")
    again = parse_module(ir)
    a, b = StringIO(), StringIO()
    PtxTarget().emit(make_context(), m, a)
    PtxTarget().emit(make_context(), again, b)
    assert a.getvalue() == b.getvalue()
    assert print_module(again) == ir


def test_fmad_option_drops_rn_only_on_float_add_sub_mul():
    m = parse_module((ROOT / "examples" / "vector_add.mlir").read_text())
    exact, fused = emit_ptx(m, fp="exact"), emit_ptx(m)
    assert "add.rn.f32" in exact and "add.rn.f32" not in fused and "add.f32" in fused
    check(fused)


def test_invalid_ptx_raises_with_the_tools_message():
    bad = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k() { bogus.instr; ret; }\n"
    with pytest.raises(ValidationError, match="ptxas"):
        check(bad)


def test_missing_ptxas_fails(monkeypatch: pytest.MonkeyPatch):
    import sarek.validate.ptx as v

    monkeypatch.setattr(v.shutil, "which", lambda _name: None)
    monkeypatch.setattr(v.os.path, "exists", lambda _p: False)
    with pytest.raises(ValidationError, match="ptxas not found"):
        check(".version 9.0\n")


FILECHECK = sorted((ROOT / "tests" / "filecheck" / "targets" / "ptx").glob("*.mlir"))


@pytest.mark.parametrize("path", FILECHECK, ids=lambda p: p.name)
def test_filecheck_inputs_assemble(path: Path):
    """The PTX the FileCheck tests look at is also valid PTX (chunks that are refused must stay refused), for the
    arch the first RUN line names (wgmma needs sm_90a)."""
    text = path.read_text()
    arch = "sm_90a" if "ptx{arch=sm_90a}" in text.splitlines()[0] else "sm_90"
    for chunk in text.split("// -----"):
        if not any(line.strip() and not line.strip().startswith("//") for line in chunk.splitlines()):
            continue  # a chunk of CHECK lines only (after the last split marker)
        m = parse_module(chunk, str(path))
        try:
            src = emit_source(m, "ptx", arch=arch)
        except SarekError:
            assert "verify-diagnostics" in text
            continue
        check(src, arch)


BOOL_TARGETS = ["i8", "ui8", "i16", "ui16", "i32", "ui32", "i64", "ui64", "f16", "bf16", "f32", "f64"]


def test_bool_casts_to_every_type_assemble():
    """`T(bool)` for every integer and float type assembles (issue 34: `u32(a != b)` printed `selp.u32` with f64
    immediates, which ptxas refuses) and selects 1/0 of the destination's kind."""
    stores = "\n".join(f'''    %x{k} = sarek.cast %p : i1 to {t}
    %r{k} = sarek.elem_ref %o{k}[%z] : !sarek.vec<{t}>
    sarek.store %r{k}, %x{k} : !sarek.ref<{t}>''' for k, t in enumerate(BOOL_TARGETS))
    params = ", ".join(f'%o{k} : !sarek.vec<{t}> "o{k}"' for k, t in enumerate(BOOL_TARGETS))
    src = emit_ptx(parse_module(f'''builtin.module {{
  sarek.kernel @b(%n : i32 "n", {params}) {{
    %z = sarek.constant 0 : i32
    %p = sarek.binop ne %n, %z : i32
{stores}
  }}
}}'''))
    for line in src.splitlines():
        if "selp." in line and not ("selp.f" in line):
            assert "0d" not in line and "0f" not in line, line
    check(src)


def test_combined_ptx_keeps_each_modules_failure():
    """The gate's batching: modules with the same entry name assemble together, and an invalid module in a
    batch is found alone with ptxas's message (the others stay valid)."""
    good = emit_ptx(parse_module((ROOT / "examples" / "vector_add.mlir").read_text()))
    bad = good.replace("add.rn.f32", "selp.u32", 1).replace("add.f32", "selp.u32", 1)
    assert combine_ptx([good, good]).count(".visible .entry") == 2
    verdicts = check_many("ptx", [good, good, bad, good])
    assert verdicts[:2] == [None, None] and verdicts[3] is None
    assert verdicts[2] is not None and "ptxas" in verdicts[2]
