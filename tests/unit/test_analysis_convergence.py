"""The barrier convergence analysis behind sarek-verify-barriers."""

from __future__ import annotations

from pathlib import Path

from sarek.analysis.convergence import divergent_collectives
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
