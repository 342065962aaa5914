"""The C-family targets `-t cuda`, `-t hip`, `-t opencl`, `-t metal`: one dialect, one printer, four tables.

`emit` accepts sarek-dialect IR (it then runs `sarek-pipeline{target=...}` itself) or IR already lowered to
`sarek_c`, and writes the source text.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO, ClassVar

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from sarek.descriptor import DESCRIPTORS
from sarek.passes.pipeline import PipelinePass, check_one_module, holds_sarek
from sarek.targets.cfamily.dialect import SarekC
from sarek.targets.cfamily.printer import print_c


def lower_to_c(ctx: Context, module: ModuleOp, target: str, opt: str = "on", fp: str = "default",
               passes: str = "") -> ModuleOp:
    """Run `sarek-pipeline{target=... opt=... fp=... after-opt=passes}` on a module that still holds sarek-dialect
    ops."""
    if holds_sarek(module):
        PipelinePass(target=target, opt=opt, fp=fp, after_opt=passes).apply(ctx, module)
    return module


@dataclass(frozen=True)
class _CFamilyTarget(Target):
    """Options (every C-family target): `opt=on|off` (the optimisation passes, default on) and
    `fp=default|exact` (the floating-point policy, sarek-pipeline's `fp`); `passes` (extra passes, a pass list
    run at sarek-pipeline's `after-opt`)."""

    language: ClassVar[str]
    opt: str = "on"
    fp: str = "default"
    passes: str = ""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        check_one_module(module, self.language)
        output.write(print_c(lower_to_c(ctx, module, self.language, self.opt, self.fp, self.passes)))


def _target(language: str) -> type[_CFamilyTarget]:
    """The Target class of C-family `language`, named as its descriptor says (sarek.descriptor): the four differ by
    name only, their languages' spelling tables (sarek.targets.cfamily.languages) do the rest."""
    d = DESCRIPTORS[language]
    cls = type(d.target_class[1], (_CFamilyTarget,), {
        "name": language, "language": language, "__module__": __name__, "__qualname__": d.target_class[1],
        "__doc__": f"{d.display} source; runs sarek-pipeline{{target={language}}} on sarek-dialect input."})
    return dataclass(frozen=True)(cls)


CudaTarget = _target("cuda")
HipTarget = _target("hip")
OpenCLTarget = _target("opencl")
MetalTarget = _target("metal")


__all__ = ["CudaTarget", "HipTarget", "OpenCLTarget", "MetalTarget", "SarekC", "lower_to_c"]
