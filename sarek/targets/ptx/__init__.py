"""The `ptx` target: sarek dialect -> `sarek_ptx` instructions -> PTX text (`-t ptx`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from sarek.passes.pipeline import PipelinePass, check_one_module, holds_sarek
from sarek.registry import make_pass
from sarek.targets.ptx.printer import PTX_TARGET, PTX_VERSION, print_ptx


@dataclass(frozen=True)
class PtxTarget(Target):
    """PTX assembly for sm_90 (.version 9.0, ptxas 13.0): kernels as .entry, helpers inlined.

    Options: `version` (PTX ISA, default 9.0), `arch` (default sm_90), `fmad` (default false: float add/sub/mul
    are `.rn`, bit-identical to the interpreter; true lets ptxas contract them into fma like NVRTC: the
    pipeline's `sarek-contract{fma=on}`).
    """

    name = "ptx"
    version: str = PTX_VERSION
    arch: str = PTX_TARGET
    fmad: bool = False

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        check_one_module(module, "ptx")
        fma = "on" if self.fmad else "off"
        if holds_sarek(module):
            PipelinePass(target="ptx", fma=fma).apply(ctx, module)
        else:  # already sarek_ptx: only the contraction policy is left to apply
            make_pass("sarek-contract", fma=fma).apply(ctx, module)
        output.write(print_ptx(module, self.version, self.arch))


def emit_ptx(module: ModuleOp, fmad: bool = False) -> str:
    """PTX text for a sarek-dialect module (the module is cloned, not changed)."""
    from sarek.registry import emit_source

    return emit_source(module, "ptx", fmad=fmad)


__all__ = ["PtxTarget", "emit_ptx", "print_ptx"]
