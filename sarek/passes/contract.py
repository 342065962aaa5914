"""sarek-contract{fma=on|off}: the floating-point contraction policy of the PTX output.

The PTX lowering writes every f32/f64 `add`/`sub`/`mul` with `.rn`, which forbids ptxas to fuse a multiply
and an add into an `fma`: results are bit-identical to the interpreter. `fma=on` drops that `.rn`, so
ptxas may contract them, as NVRTC's default `--fmad=true` does to CUDA C (results then differ from the
interpreter in the last bits). `fma=off` keeps every operation separately rounded (the module is unchanged).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, StringAttr
from xdsl.passes import ModulePass

from sarek.diagnostics import SarekError


@dataclass(frozen=True)
class ContractPass(ModulePass):
    """Let ptxas fuse f32/f64 multiply and add into fma (fma=on) or keep them separately rounded (fma=off).

    Options: `fma` = `off` (default: every `add`/`sub`/`mul` keeps `.rn`, bit-identical to the interpreter)
    or `on` (`.rn` is dropped from f32/f64 `add`/`sub`/`mul` of the sarek_ptx dialect). Runs after
    sarek-lower-ptx in `sarek-pipeline{target=ptx}` (whose `fma` option it takes).
    """

    name = "sarek-contract"

    fma: str = "off"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.fma not in ("on", "off"):
            raise SarekError(f"sarek-contract: fma must be on or off, not '{self.fma}'")
        if self.fma == "off":
            return
        from sarek.targets.ptx.dialect import AddOp, MulOp, SubOp

        for o in op.walk():
            if isinstance(o, AddOp | SubOp | MulOp):
                mods = [m.data for m in o.mods]
                if mods[:1] == ["rn"] and mods[-1] in ("f32", "f64"):
                    o.mods = ArrayAttr(StringAttr(m) for m in mods[1:])
