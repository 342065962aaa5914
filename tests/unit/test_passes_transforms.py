"""Pass-level behaviour that lit cannot reach: IR the verifier refuses, helpers of the passes, registration."""

from __future__ import annotations

import dataclasses

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from sarek.analysis.namer import escape, invalid_identifier, sanitize
from sarek.analysis.reserved import RESERVED, is_reserved
from sarek.diagnostics import SarekError
from sarek.dialect.sarek import ArrayLenOp, MatchOp
from sarek.registry import PASSES, get_all_passes
from sarek.passes.rename_shadowing_locals import fresh_name
from sarek.passes.subst_match_payloads import SubstMatchPayloadsPass
from sarek.tools.ir import parse_module

MINE = ["sarek-reject-features", "sarek-order-type-decls", "sarek-subst-match-payloads", "sarek-legalize-names",
        "sarek-rename-shadowing-locals", "sarek-verify-barriers"]


@pytest.mark.parametrize("name", MINE)
def test_pass_is_registered_and_documented(name: str):
    cls = get_all_passes()[name]()
    assert cls.name == name and PASSES[name][1] == cls.__name__
    doc = cls.__doc__ or ""
    assert len(doc.strip().splitlines()[0]) > 30  # the line `sarek-opt --help` shows
    for option in dataclasses.fields(cls):
        assert f"`{option.name}`" in doc, f"option {option.name} is not documented"


def test_array_use_of_a_binder_is_refused():
    """Unreachable from verified IR (payloads are never vectors); built here by hand, unverified."""
    m = parse_module("""builtin.module {
      sarek.variant @opt {Some(i32), None}
      sarek.kernel @k(%o : !sarek.variant<@opt> "o") {
        sarek.match %o : !sarek.variant<@opt> {
          case "Some"(%x : i32 "x") {
          }
          default {
          }
        }
      }
    }""")
    match = next(op for op in m.walk() if isinstance(op, MatchOp))
    block = match.case_regions[0].block
    block.add_op(ArrayLenOp(block.args[0]))
    with pytest.raises(SarekError, match="match binder 'x' is used as an array"):
        SubstMatchPayloadsPass("c").apply(Context(), m)


def test_sanitize_makes_identifier_stems():
    assert [sanitize(n) for n in ("x'", "1a", "a.b", "__x__", "''", "a''b")] == ["x", "v1a", "a_b", "x", "v", "a_b"]
    assert all(not invalid_identifier(sanitize(n) + "_1") for n in ("x'", "1a", "", "-"))


def test_reserved_words_per_language():
    assert is_reserved("opencl", "get_global_id") and is_reserved("opencl", "half_cos")
    assert is_reserved("metal", "quad_broadcast") and is_reserved("glsl", "gl_Position")
    assert is_reserved("cuda", "__syncthreads") and is_reserved("cuda", "_Upper") and is_reserved("hip", "class")
    assert is_reserved("wgsl", "fn") and is_reserved("glsl", "step") and is_reserved("metal", "dot")
    assert not any(is_reserved(t, "tid") for t in RESERVED)
    assert invalid_identifier("x'") and not invalid_identifier("_x1")


def test_escapers_and_shadow_names():
    assert escape("glsl", "int") == "intv" and escape("glsl", "n") == "n"
    assert escape("wgsl", "fn") == "sarek_fn" and escape("wgsl", "__x") == "sarek___x" and escape("wgsl", "x") == "x"
    assert fresh_name("int", 2, "glsl") == "sarek_pc_shadow_intv_2"
    assert fresh_name("let", 1, "wgsl") == "sarek_scalar_shadow_sarek_let_1"


def test_unchanged_module_is_byte_identical():
    text = """builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %t = sarek.let "tid" %g : i32
  }
}"""
    from sarek.tools.ir import print_module
    from xdsl.passes import PassPipeline

    for spec in ("sarek-rename-shadowing-locals{target=glsl}", "sarek-order-type-decls",
                 "sarek-subst-match-payloads{layout=c}", "sarek-verify-barriers", "sarek-reject-features{target=wgsl}"):
        m = parse_module(text)
        before = print_module(m)
        PassPipeline.parse_spec(get_all_passes(), spec).apply(Context(), m)
        assert print_module(m) == before, spec
    assert isinstance(m, ModuleOp)
    m = parse_module(text)  # on a C target the pass only records the entry point's name
    before = print_module(m)
    PassPipeline.parse_spec(get_all_passes(), "sarek-legalize-names{target=cuda}").apply(Context(), m)
    assert print_module(m) == before.replace('"n") {', '"n") attributes {sarek.entry_name = "k"} {')
    m = parse_module(text)  # on a shader target it records the interface names and the global names it reserved
    PassPipeline.parse_spec(get_all_passes(), "sarek-legalize-names{target=wgsl}").apply(Context(), m)
    assert print_module(m) == before.replace('"n") {', '"n") attributes {sarek.buffer_names = ["a"], sarek.dim_names '
                                             '= ["sarek_a_length"], sarek.param_names = ["n"], sarek.global_names = '
                                             '{"helper:irem" = "sarek_irem", "helper:idiv" = "sarek_idiv", '
                                             '"helper:iabs" = "sarek_iabs", "helper:f2i_i32" = "sarek_f2i_i32", '
                                             '"helper:f2i_u32" = "sarek_f2i_u32", "helper:f2i_i64" = "sarek_f2i_i64", '
                                             '"helper:f2i_u64" = "sarek_f2i_u64"}} {')
