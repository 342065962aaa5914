"""The `sarek` kernel dialect: Sarek's IR as xDSL types and operations.

Expressions are SSA values, control flow is structured regions, records/variants/helpers are module-level
symbol ops. Every binder (let, let_mut, for index, match binder, parameter, array) carries its source name
as a property so that name legalization works on names while references stay use-def edges.
See docs/DIALECT.md for the syntax of every op.

This module is the aggregator: it re-exports every type and op and builds the `Sarek` dialect. The
definitions live in modules by concern; a new op goes in the module of its concern:
* `sarek.dialect.types`: types and attributes, and the predicates on types;
* `sarek.dialect.declarations`: module-level symbols (records, variants, kernels, helpers) and their lookups;
* `sarek.dialect.expressions`: values computed from values (constants, operators, casts and bitcasts);
* `sarek.dialect.calls`: values built by name (intrinsics, record and variant constructors, helper calls);
* `sarek.dialect.places`: binders, places and memory (let/let_mut, load/store, element and field access,
  payload reads, array allocation);
* `sarek.dialect.control`: control flow (if, while, for, return, break/continue, pragma, block);
* `sarek.dialect.match`: pattern matching on variants (match, match_expr);
* `sarek.dialect.statements`: the other statements (barriers, fences, assert, native, print);
* `sarek.dialect.coopmat`: cooperative matrices; `sarek.dialect.asynccopy`: asynchronous global-to-shared
  copies;
* `sarek.dialect.intrinsics`: the table of `sarek.intrinsic` names; `sarek.dialect.syntax`: custom-syntax
  helpers; `sarek.dialect.opformat`: the declarative op syntax (`FORMAT`) and the op-shape base classes.
"""

from __future__ import annotations

from typing import cast

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Dialect, Operation
from xdsl.irdl import IRDLOperation
from xdsl.traits import HasParent, OpTrait
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.asynccopy import *  # noqa: F403
from sarek.dialect.calls import *  # noqa: F403
from sarek.dialect.control import *  # noqa: F403
from sarek.dialect.coopmat import *  # noqa: F403
from sarek.dialect.declarations import *  # noqa: F403
from sarek.dialect.match import *  # noqa: F403
from sarek.dialect.expressions import *  # noqa: F403
from sarek.dialect.places import *  # noqa: F403
from sarek.dialect.statements import *  # noqa: F403
from sarek.dialect.types import *  # noqa: F403

# ------------------------------------------------------------------------------------------------ the dialect


class InFunction(OpTrait):
    """Statements and expressions live inside a kernel or helper, never directly in the module."""

    def verify(self, op: Operation) -> None:
        if isinstance(op.parent_op(), ModuleOp):
            raise VerifyException(f"{op.name} must be inside a sarek.kernel or sarek.helper, not at module level")


_DECLARATIONS: tuple[type[Operation], ...] = (RecordOp, VariantOp, KernelOp, HelperOp)


STATEMENT_OPS: tuple[type[Operation], ...] = (
    LetOp, LetMutOp, StoreOp, IfOp, WhileOp, ForOp, MatchOp, ReturnOp, BreakOp, ContinueOp, AssertOp, PragmaOp,
    BlockOp, BarrierOp, GridBarrierOp, WarpBarrierOp, MemFenceOp, NativeOp, PrintOp, AllocArrayOp, CoopmatDeclOp,
    CoopmatLoadOp, CoopmatStoreOp, CoopmatMulAddOp, CoopmatFillOp, CoopmatWaitOp, CopyAsyncOp, CopyAsyncCommitOp,
    CopyAsyncWaitOp,
)

Sarek = Dialect(
    "sarek",
    [
        RecordOp, VariantOp, KernelOp, HelperOp, ConstantOp, BinOp, UnOp, CastOp, BitcastOp, IntrinsicOp,
        MakeRecordOp, MakeVariantOp, FieldOp, PayloadOp, ArrayReadOp, ArrayLenOp, ArrayDimOp, AllocArrayOp, CallOp, LetOp,
        LetMutOp, LoadOp, StoreOp, ElemRefOp, FieldRefOp, YieldOp, IfOp, IfExprOp, WhileOp, ForOp, MatchOp, MatchExprOp,
        ReturnOp, BreakOp, ContinueOp, AssertOp, PragmaOp, BlockOp, BarrierOp, GridBarrierOp, WarpBarrierOp, MemFenceOp,
        NativeOp, PrintOp, CoopmatDeclOp, CoopmatLoadOp, CoopmatStoreOp, CoopmatMulAddOp, CoopmatFillOp,
        CoopmatWaitOp, CopyAsyncOp, CopyAsyncCommitOp, CopyAsyncWaitOp,
    ],
    [MemSpaceAttr, UnitType, RecordType, VariantType, VecType, ArrayType, RefType, BinOpKindAttr, UnOpKindAttr],
)

# the regions sarek.yield ends (stated here: sarek.dialect.match, which defines match_expr, imports control)
YieldOp.get_irdl_definition().traits.add_trait(HasParent(IfExprOp, MatchExprOp, WhileOp))

for _op in Sarek.operations:
    if _op not in _DECLARATIONS:
        cast(type[IRDLOperation], _op).get_irdl_definition().traits.add_trait(InFunction())  # each op class owns its OpTraits
