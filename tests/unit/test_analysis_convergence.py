"""The barrier convergence analysis behind sarek-verify-barriers."""

from __future__ import annotations

from pathlib import Path

from xdsl.dialects.builtin import StringAttr

from sarek.analysis.convergence import convergence_findings, divergent_collectives
from sarek.dialect.sarek import BlockOp, IfOp
from sarek.tools.ir import parse_module

EXAMPLES = Path(__file__).parents[2] / "examples"


def _errors(body: str, params: str = '%n : i32 "n"') -> list[str]:
    return [msg for _, msg in divergent_collectives(parse_module(
        f"builtin.module {{ sarek.kernel @k({params}) {{\n{body}\n}} }}"))]


def test_reduction_example_is_convergent():
    assert divergent_collectives(parse_module((EXAMPLES / "reduce.mlir").read_text())) == []


def test_block_uniform_intrinsics_are_uniform():
    for name in ("block_idx_y", "block_dim_z", "grid_dim_x", "global_size", "warp_size"):
        assert _errors(f'%v = sarek.intrinsic "{name}"() : () -> i32\n%c = sarek.binop gt %v, %n : i32\n'
                       "sarek.if %c { sarek.barrier }") == []


def test_thread_varying_intrinsics_are_divergent():
    for name in ("thread_idx_y", "global_idx_z", "global_thread_id", "lane_id"):
        errs = _errors(f'%v = sarek.intrinsic "{name}"() : () -> i32\n%c = sarek.binop gt %v, %n : i32\n'
                       "sarek.if %c { sarek.barrier }")
        assert errs == [f"sarek.barrier under thread-divergent control flow (the condition of the enclosing "
                        f"sarek.if depends on {name})"]


def test_if_expr_result_is_divergent_when_its_condition_is():
    errs = _errors('%t = sarek.intrinsic "thread_idx_x"() : () -> i32\n%c = sarek.binop gt %t, %n : i32\n'
                   "%v = sarek.if_expr %c -> i32 { sarek.yield %n : i32 } else { sarek.yield %n : i32 }\n"
                   "%d = sarek.binop gt %v, %n : i32\nsarek.if %d { sarek.barrier }")
    assert len(errs) == 1 and "depends on thread_idx_x" in errs[0]


def test_atomic_results_are_divergent_and_each_op_is_reported_once():
    errs = _errors('%z = sarek.constant 0 : i32\n%o = sarek.intrinsic "atomic_add"(%a, %z, %n) : '
                   "(!sarek.vec<i32>, i32, i32) -> i32\n%c = sarek.binop gt %o, %n : i32\n"
                   "sarek.if %c { sarek.barrier\n sarek.warp_barrier }", '%a : !sarek.vec<i32> "a", %n : i32 "n"')
    assert [e.split(" under")[0] for e in errs] == ["sarek.barrier", "sarek.warp_barrier"]
    assert "the result of 'atomic_add'" in errs[0]


def test_findings_name_the_offending_op_and_the_deciding_op():
    m = parse_module('builtin.module { sarek.kernel @k(%n : i32 "n") {\n'
                     '%t = sarek.intrinsic "thread_idx_x"() : () -> i32\n%c = sarek.binop gt %t, %n : i32\n'
                     "sarek.block superstep { sarek.if %c { } }\nsarek.barrier\n"
                     "sarek.if %c { sarek.barrier }\n} }")
    ss, bad = convergence_findings(m)
    assert ss.kind == "superstep" and ss.op.name == "sarek.if" and ss.why.at is ss.op
    assert isinstance(ss.superstep, BlockOp) and ss.why.value is not None and ss.why.cause == "thread_idx_x"
    assert bad.kind == "collective" and bad.what == "sarek.barrier" and bad.why.what == "the condition"
    assert isinstance(bad.why.at, IfOp) and bad.op.parent_op() is bad.why.at
    assert [msg for _, msg in divergent_collectives(m)] == [ss.message, bad.message]


def test_superstep_rule_allows_expressions_and_divergent_supersteps():
    assert _errors('%t = sarek.intrinsic "thread_idx_x"() : () -> i32\n%c = sarek.binop gt %t, %n : i32\n'
                   "sarek.block superstep {\n"
                   "%v = sarek.if_expr %c -> i32 { sarek.yield %n : i32 } else { sarek.yield %t : i32 }\n"
                   "sarek.block superstep divergent { sarek.if %c { } }\nsarek.barrier\n}\nsarek.barrier") == []
    assert _errors('%t = sarek.intrinsic "thread_idx_x"() : () -> i32\n%c = sarek.binop gt %t, %n : i32\n'
                   "sarek.block superstep { sarek.if %c { } }\nsarek.barrier")[0].startswith(
        "thread-divergent sarek.if inside a non-divergent superstep")


def test_every_divergent_superstep_of_the_corpus_is_needed():
    """Unmarking a `superstep(divergent=True)` of examples/*.py makes the superstep rule refuse it."""
    from sarek.frontend.corpus import all_cases

    seen = 0
    for _, case in all_cases():
        module = case.kernel.module.clone()
        for b in [op for op in module.walk() if isinstance(op, BlockOp) and op.is_divergent_superstep]:
            b.superstep = StringAttr("")
            assert any(f.kind == "superstep" and f.superstep is b for f in convergence_findings(module)), case.name
            b.superstep = StringAttr("divergent")
            seen += 1
    assert seen >= 5


def test_quick_path_agrees_with_the_full_analysis_on_the_lit_cases():
    """convergence_findings skips the analysis for a module without collectives or non-divergent supersteps:
    on every case of the verify-barriers lit tests (errors and clean ones) it reports what the analysis does."""
    from sarek.analysis.convergence import ConvergenceAnalysis

    cases = 0
    for path in sorted((Path(__file__).parents[2] / "tests" / "filecheck" / "passes").glob("verify_barriers*.mlir")):
        for chunk in path.read_text().split("// -----"):
            module = parse_module(chunk)
            full = ConvergenceAnalysis(module).run()
            grid = [f for f in ConvergenceAnalysis(module, grid=True).run() if id(f.op) not in {id(g.op) for g in full}]
            if "sarek.grid_barrier" in chunk:
                full += grid
            assert [f.message for f in convergence_findings(module)] == [f.message for f in full], path.name
            cases += 1
    assert cases >= 30


def test_quick_path_keeps_the_call_depth_check():
    """A module with no barrier still refuses a call chain deeper than MAX_CALL_DEPTH (the analysis's first
    check, which the quick path keeps)."""
    from sarek.analysis.convergence import MAX_CALL_DEPTH
    from sarek.diagnostics import SarekError

    helpers = ['sarek.helper @h0(%x : i32 "x") -> i32 { sarek.return %x : i32 }']
    for k in range(1, MAX_CALL_DEPTH + 2):
        helpers.append(f'sarek.helper @h{k}(%x : i32 "x") -> i32 {{ %r = sarek.call @h{k - 1}(%x) : (i32) -> i32 '
                       "sarek.return %r : i32 }")
    kernel = (f'sarek.kernel @k(%n : i32 "n") {{ %r = sarek.call @h{MAX_CALL_DEPTH + 1}(%n) : (i32) -> i32 }}')
    module = parse_module("builtin.module {\n" + "\n".join([*helpers, kernel]) + "\n}")
    try:
        convergence_findings(module)
    except SarekError as e:
        assert "calls deep" in str(e)
    else:
        raise AssertionError("a call chain past MAX_CALL_DEPTH was accepted")
