"""The `ptx` target: sarek dialect -> `sarek_ptx` instructions -> PTX text (`-t ptx`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from sarek.passes.pipeline import PipelinePass, check_one_module, contraction, holds_sarek
from sarek.registry import make_pass
from sarek.targets.ptx.printer import PTX_TARGET, PTX_VERSION, print_ptx


@dataclass(frozen=True)
class PtxTarget(Target):
    """PTX assembly for sm_90 (.version 9.0, ptxas 13.0): kernels as .entry, helpers inlined.

    Options: `version` (PTX ISA, default 9.0), `arch` (default sm_90; sm_90a, which only compute capability
    9.0 devices load, admits warpgroup fragments: wgmma), `fp` (the floating-point policy:
    `default` lets ptxas contract float multiply and add into fma, as NVRTC does; `exact` keeps every add/sub/
    mul `.rn`, bit-identical to the interpreter), `fmad` (true/false overrides the policy's contraction:
    the pipeline's `sarek-contract{fma=on|off}`), `opt` (on|off: the optimisation passes), `passes` (extra
    passes, a pass list run at sarek-pipeline's `after-opt`).
    """

    name = "ptx"
    version: str = PTX_VERSION
    arch: str = PTX_TARGET
    fp: str = "default"
    fmad: bool | None = None
    opt: str = "on"
    passes: str = ""

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        check_one_module(module, "ptx")
        fma = contraction(self.fp, "" if self.fmad is None else ("on" if self.fmad else "off"))
        if holds_sarek(module):
            PipelinePass(target="ptx", fma=fma, opt=self.opt, fp=self.fp, after_opt=self.passes,
                         arch=self.arch).apply(ctx, module)
        else:  # already sarek_ptx: only the contraction policy is left to apply
            make_pass("sarek-contract", fma=fma).apply(ctx, module)
        output.write(print_ptx(module, self.version, self.arch))


def emit_ptx(module: ModuleOp, fmad: bool | None = None, fp: str = "default", opt: str = "on", passes: str = "") -> str:
    """PTX text for a sarek-dialect module (the module is cloned, not changed)."""
    from sarek.registry import emit_source

    return emit_source(module, "ptx", fmad=fmad, fp=fp, opt=opt, passes=passes)


__all__ = ["PtxTarget", "emit_ptx", "print_ptx"]
