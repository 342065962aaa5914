"""The `ptx` target: sarek dialect -> `sarek_ptx` instructions -> PTX text (`-t ptx`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import IO

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.target import Target

from sarek.targets.ptx.printer import PTX_TARGET, PTX_VERSION, print_ptx


def _is_sarek(module: ModuleOp) -> bool:
    return any(op.name.startswith("sarek.") for op in module.ops)


def lower_to_ptx_dialect(ctx: Context, module: ModuleOp) -> None:
    """Run `sarek-pipeline{target=ptx}` (or, while no pipeline module exists, `sarek-lower-ptx`) in place."""
    import importlib.util

    if importlib.util.find_spec("sarek.passes.pipeline") is not None:
        from sarek.passes.pipeline import PipelinePass

        PipelinePass(target="ptx").apply(ctx, module)
        if not _is_sarek(module):
            return
    from sarek.lowering.ptx import LowerPtxPass

    LowerPtxPass().apply(ctx, module)


def allow_contraction(module: ModuleOp) -> None:
    """Drop `.rn` from f32/f64 add/sub/mul so ptxas may fuse them into fma (what NVRTC's default
    --fmad=true does to CUDA C); results then differ from the interpreter in the last bits."""
    from xdsl.dialects.builtin import ArrayAttr, StringAttr

    from sarek.targets.ptx.dialect import AddOp, MulOp, SubOp

    for op in module.walk():
        if isinstance(op, AddOp | SubOp | MulOp):
            mods = [m.data for m in op.mods]
            if mods[:1] == ["rn"] and mods[-1] in ("f32", "f64"):
                op.mods = ArrayAttr(StringAttr(m) for m in mods[1:])


@dataclass(frozen=True)
class PtxTarget(Target):
    """PTX assembly for sm_90 (.version 9.0, ptxas 13.0): kernels as .entry, helpers inlined.

    Options: `version` (PTX ISA, default 9.0), `arch` (default sm_90), `fmad` (default false: float add/sub/mul
    are `.rn`, bit-identical to the interpreter; true lets ptxas contract them into fma like NVRTC).
    """

    name = "ptx"
    version: str = PTX_VERSION
    arch: str = PTX_TARGET
    fmad: bool = False

    def emit(self, ctx: Context, module: ModuleOp, output: IO[str]) -> None:
        if _is_sarek(module):
            lower_to_ptx_dialect(ctx, module)
        if self.fmad:
            allow_contraction(module)
        output.write(print_ptx(module, self.version, self.arch))


def emit_ptx(module: ModuleOp, fmad: bool = False) -> str:
    """PTX text for a sarek-dialect module (the module is cloned, not changed)."""
    from io import StringIO

    from sarek.tools.ir import make_context

    out = StringIO()
    PtxTarget(fmad=fmad).emit(make_context(), module.clone(), out)
    return out.getvalue()


__all__ = ["PtxTarget", "allow_contraction", "emit_ptx", "print_ptx"]
