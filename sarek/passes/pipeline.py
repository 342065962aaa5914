"""sarek-pipeline{target=T}: the passes target T needs, then its lowering to the target dialect."""

from __future__ import annotations

import importlib
import importlib.util
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.diagnostics import SarekError

# target -> [(pass name, options)]; "{target}" in an option value is the pipeline's target.
_C_FAMILY: list[tuple[str, dict[str, str]]] = [
    ("sarek-reject-features", {"target": "{target}"}),
    ("sarek-verify-barriers", {}),
    ("sarek-order-type-decls", {"first": "variants"}),
    ("sarek-subst-match-payloads", {"layout": "c"}),
    ("sarek-legalize-names", {"target": "{target}"}),
    ("sarek-lower-warp", {"target": "{target}"}),
    ("sarek-lower-cfamily", {"target": "{target}"}),
]

PIPELINES: dict[str, list[tuple[str, dict[str, str]]]] = {
    "cuda": _C_FAMILY,
    "hip": _C_FAMILY,
    "opencl": _C_FAMILY,
    "metal": _C_FAMILY,
    "glsl": [
        ("sarek-reject-features", {"target": "glsl"}),
        ("sarek-verify-barriers", {}),
        ("sarek-order-type-decls", {"first": "records"}),
        ("sarek-subst-match-payloads", {"layout": "glsl"}),
        ("sarek-legalize-names", {"target": "glsl"}),
        ("sarek-rename-shadowing-locals", {"target": "glsl"}),
        ("sarek-lower-glsl", {}),
    ],
    "wgsl": [
        ("sarek-reject-features", {"target": "wgsl"}),
        ("sarek-verify-barriers", {}),
        ("sarek-order-type-decls", {"first": "records"}),
        ("sarek-subst-match-payloads", {"layout": "wgsl"}),
        ("sarek-legalize-names", {"target": "wgsl"}),
        ("sarek-rename-shadowing-locals", {"target": "wgsl"}),
        ("sarek-lower-wgsl", {}),
    ],
    "ptx": [
        ("sarek-reject-features", {"target": "ptx"}),
        ("sarek-verify-barriers", {}),
        ("sarek-order-type-decls", {}),
        ("sarek-lower-warp", {"target": "ptx"}),
        ("sarek-lower-ptx", {}),
    ],
}


def pipeline_passes(target: str) -> list[ModulePass]:
    """The pass instances of `target`'s pipeline; a pass whose module does not exist yet is skipped."""
    from sarek.passes import PASSES

    if target not in PIPELINES:
        raise SarekError(f"sarek-pipeline: unknown target '{target}' (known: {', '.join(sorted(PIPELINES))})")
    out: list[ModulePass] = []
    for name, opts in PIPELINES[target]:
        if name not in PASSES:
            continue
        mod, cls = PASSES[name]
        if importlib.util.find_spec(mod) is None:
            continue
        pass_cls = getattr(importlib.import_module(mod), cls)
        out.append(pass_cls(**{k: v.replace("{target}", target) for k, v in opts.items()}))
    return out


@dataclass(frozen=True)
class PipelinePass(ModulePass):
    """The standard pipeline for a target: its feature gate, checks, renamings and lowering.

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx); `verify-each` (default false: the module
    is verified once, after the lowering; true verifies it after every pass, like mlir-opt's -verify-each, to
    find the pass that breaks it). The pass list per target is `PIPELINES` in sarek/passes/pipeline.py;
    `sarek-opt k.mlir -p 'sarek-pipeline{target=cuda}' -t cuda` prints the CUDA source.
    """

    name = "sarek-pipeline"

    target: str = "cuda"
    # Verifying after each of the 4-7 passes was 60% of the pipeline's time (benchmarks/bench_compile.py);
    # every pass is verified on its own by its lit tests, and tests/unit/test_pipeline_verify_each.py runs
    # the corpus with verify-each.
    verify_each: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for p in pipeline_passes(self.target):
            p.apply(ctx, op)
            if self.verify_each:
                op.verify()
        if not self.verify_each:
            op.verify()
