"""Printers of the shader target dialects: layout only (every spelling was decided by the lowering)."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation

from sarek.targets.glsl.common import SourcePrinter


class GlslPrinter(SourcePrinter):
    """GLSL: the `SourcePrinter` as it stands."""


class WgslPrinter(SourcePrinter):
    """WGSL: members end with `,`, loops are `loop`, a function's attributes stand on the line before it."""

    FIELD_END = ","
    STRUCT_END = "}"

    def loop_head(self) -> str:
        return "loop"

    def top(self, op: Operation) -> None:
        if self.kind(op) == "func" and "\n" in self.text(op):
            head, _, sig = self.text(op).rpartition("\n")
            self.out(head)
            self.out(sig + " {")
            self.body(op.regions[0])
            self.out("}")
            return
        super().top(op)


def print_glsl(module: ModuleOp) -> str:
    return GlslPrinter().print_module(list(module.body.block.ops))


def print_wgsl(module: ModuleOp) -> str:
    return WgslPrinter().print_module(list(module.body.block.ops))
