"""sarek-order-type-decls: record and variant declarations in dependency order."""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.analysis.type_order import sort_type_decls
from sarek.analysis.types import type_decls
from sarek.diagnostics import SarekError
from sarek.dialect.sarek import RecordOp, VariantOp


@dataclass(frozen=True)
class OrderTypeDeclsPass(ModulePass):
    """Order record and variant declarations so each follows every declaration its fields/payloads name.

    Options: `first` = `none` (tie-break by module order, default), `records` or `variants` (that kind's
    declarations come first in the input, as Sarek's GLSL/WGSL and C-family emitters build it). A valid
    input comes back unchanged; the declarations keep the module slots they had. Errors: an undeclared
    type reference (one message per reference) and a cycle between distinct declarations.
    """

    name = "sarek-order-type-decls"

    first: str = "none"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        decls = type_decls(op)
        if self.first not in ("none", "records", "variants"):
            raise SarekError(f"sarek-order-type-decls: first must be none, records or variants, not '{self.first}'")
        if self.first != "none":
            records_first = self.first == "records"
            decls = ([d for d in decls if isinstance(d, RecordOp) == records_first]
                     + [d for d in decls if isinstance(d, RecordOp) != records_first])
        order = iter(sort_type_decls(decls))
        new = [next(order) if isinstance(o, RecordOp | VariantOp) else o for o in op.ops]
        if new == list(op.ops):
            return
        block = op.body.block
        for o in new:
            o.detach()
        for o in new:
            block.add_op(o)

