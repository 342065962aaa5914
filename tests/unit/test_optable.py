"""sarek.dialect.optable: one entry per op and stage. A second entry for an op type is an error at import; the
shader lowering's, the C lowering's and both executors' tables cover every sarek op but those each says it
leaves to others."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from sarek.dialect import sarek as S
from sarek.dialect.optable import OpTable
from sarek.interp.fast_control import runs
from sarek.interp.reference_compile import compiles
from sarek.lowering.cfamily import module as c_layers
from sarek.lowering.cfamily.statements import lowers as c_lowers
from sarek.lowering.ptx.kernel import Lowering as PtxLowering
from sarek.lowering.ptx.state import lowers as ptx_lowers
from sarek.lowering.shader.expressions import renders
from sarek.lowering.shader.state import PURE_INLINE, READ_OPS
from sarek.lowering.shader.statements import lowers

# module-level declarations (run or lowered as whole functions and types) and what the pipelines remove first
# (sarek-expand-copy-async makes asynchronous copies plain ones everywhere but CUDA, which the C lowering has)
_EVERYWHERE = {"sarek.kernel", "sarek.helper", "sarek.record", "sarek.variant", "sarek.print"}
_COPIES = {"sarek.copy_async", "sarek.copy_async_commit", "sarek.copy_async_wait"}
_LEFT = {
    "fast executor": {"sarek.native", "sarek.yield", *_COPIES},  # %native: the reference executor; yield: `block`
    "reference executor": _COPIES,
    # refused or removed by the gate
    "shader lowering": {"sarek.native", "sarek.grid_barrier", "sarek.assert", *_COPIES},
    "C lowering": {"sarek.assert"},  # sarek-strip-asserts removes it (a debug build checks it before)
    "PTX lowering": {"sarek.assert", "sarek.yield"},  # yield: the region lowering reads it
}


def test_a_second_entry_for_an_op_type_is_an_error() -> None:
    t = OpTable[Callable[..., None]]("test table")

    @t(S.BinOp)
    def first() -> None: ...

    with pytest.raises(AssertionError, match="test table: BinOp has two entries"):
        @t(S.UnOp, S.BinOp)
        def second() -> None: ...

    assert t.entries == {S.BinOp: first}  # nothing of the refused registration


@pytest.mark.parametrize("table", [runs, compiles, lowers, c_lowers, ptx_lowers], ids=lambda t: t.what)
def test_every_sarek_op_has_an_entry_in_each_stage(table: OpTable[Callable[..., None]]) -> None:
    names = {op.name for op in S.Sarek.operations}
    missing = {n for n in names if not any(t.name == n for t in table.entries)}
    assert missing == _EVERYWHERE | _LEFT[table.what]


def test_every_shader_value_op_renders() -> None:
    """What the shader statements treat as a value (printed where used, or named by a temporary) has text."""
    values = {*PURE_INLINE, *READ_OPS, S.MakeVariantOp, S.IntrinsicOp}
    assert values - {S.ElemRefOp, S.FieldRefOp} == set(renders.entries)  # references are places, not values


def test_the_c_lowering_table_holds_later_layers_entries() -> None:
    """The cooperative-matrix and cp.async layers register into the statements' table (no `lower_op` override)."""
    assert c_lowers.entries[S.CoopmatMulAddOp].__qualname__ == "CCoopmat.coopmat"
    assert c_lowers.entries[S.CopyAsyncOp].__qualname__ == "CAsyncCopy.copy_async"
    assert all("lower_op" not in vars(k) for k in c_layers.CLowering.__mro__ if k.__name__ != "CStatements")


def test_the_ptx_lowering_table_holds_every_concerns_entries() -> None:
    """The PTX lowering's concerns (arith ... wgmma, coopmat, asynccopy) register into one table; none overrides
    the dispatch or another concern's entry (a barrier's proxy fence is the control concern's, not an override)."""
    assert ptx_lowers.entries[S.CoopmatWaitOp].__qualname__ == "WgmmaLowering.op_CoopmatWaitOp"
    assert ptx_lowers.entries[S.BarrierOp].__qualname__ == "ControlLowering.op_BarrierOp"
    assert ptx_lowers.entries[S.CopyAsyncOp].__qualname__ == "AsyncCopyLowering.op_CopyAsyncOp"
    assert all("op" not in vars(k) for k in PtxLowering.__mro__ if k.__name__ != "LoweringBase")
    assert not [n for k in PtxLowering.__mro__ for n in vars(k) if n.startswith("op_")
                if ptx_lowers.entries.get(getattr(S, n[3:], type(None))) is not vars(k)[n]]


def test_every_c_value_op_has_a_value() -> None:
    """What the C statements lower as a value (one temporary each) has a value entry, but the value regions
    (an if/switch assigning a temporary, CStatements.value_region_stmt)."""
    from sarek.lowering.cfamily.expressions import values
    from sarek.lowering.cfamily.statements import _EXPR_OPS  # pyright: ignore[reportPrivateUsage]
    assert set(_EXPR_OPS) - {S.IfExprOp, S.MatchExprOp} == set(values.entries)
