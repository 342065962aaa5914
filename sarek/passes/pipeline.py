"""sarek-pipeline{target=T}: the passes target T needs, then its lowering to the target dialect.

The one entry point every target uses (the Targets run it on sarek-dialect input, sarek-opt with
`-p 'sarek-pipeline{target=T}'`). The pass list depends on the target's family (sarek.registry.TARGETS); an
option value `{x}` is the pipeline's option x, or `{layout}`, the target's payload layout.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from sarek.diagnostics import SarekError
from sarek.registry import Family, make_pass, target_info

PassSpec = tuple[str, dict[str, str]]

#: what every target runs first: the feature gate, the checks and the rewrites that leave plain sarek ops
#: (asserts and prints removed, async copies and block votes expanded, barriers verified, shared memory zeroed, math expanded)
CHECKS: list[PassSpec] = [
    ("sarek-reject-features", {"target": "{target}", "limits": "{limits}"}),
    ("sarek-strip-asserts", {}),
    ("sarek-expand-copy-async", {"target": "{target}"}),
    ("sarek-lower-print", {}),
    ("sarek-expand-block-votes", {"target": "{target}"}),
    ("sarek-verify-barriers", {}),
    ("sarek-zero-shared", {"target": "{target}"}),
    ("sarek-expand-math", {"target": "{target}", "fp": "{fp}"}),
]

#: the optimisation passes every target runs before its own passes (`opt=off` drops them): fold and merge,
#: unroll small loops, fold again what unrolling made constant, move invariants out, turn index products into
#: sums, and merge and clean up what moved
OPT: list[PassSpec] = [
    ("sarek-canonicalize", {}),
    ("sarek-cse", {}),
    ("sarek-unroll", {"mode": "{unroll}"}),
    ("sarek-canonicalize", {}),
    ("sarek-licm", {}),
    ("sarek-strength-reduce", {}),
    ("sarek-cse", {}),
    ("sarek-canonicalize", {}),
]
OPT_NAMES = frozenset(n for n, _ in OPT)
FP_POLICIES = ("default", "exact")

#: how each family unrolls (sarek-unroll's `mode`): the C family's compilers (NVRTC, clang, the OpenCL and Metal
#: drivers) unroll a `#pragma unroll` loop themselves, so the IR keeps one copy of the body; sarek's PTX
#: lowering is the last optimiser before ptxas, which unrolls little; the shading languages' drivers (naga, lavapipe, NVIDIA's SPIR-V compiler) were
#: not measured to unroll, so they get the copies
UNROLL: dict[Family, str] = {"c": "hint", "shader": "ir", "ptx": "ir"}

PIPELINES: dict[Family, list[PassSpec]] = {
    "c": [
        *CHECKS,
        ("sarek-widen-f16", {"target": "{target}"}),
        ("sarek-constant-tables", {"target": "{target}"}),
        *OPT,
        ("sarek-order-type-decls", {"first": "variants"}),
        ("sarek-subst-match-payloads", {"layout": "{layout}"}),
        ("sarek-hoist-match-breaks", {}),
        ("sarek-legalize-names", {"target": "{target}"}),
        ("sarek-lower-warp", {"target": "{target}"}),
        ("sarek-wide-vector-access", {}),
        ("sarek-lower-cfamily", {"target": "{target}"}),
        ("sarek-c-form-expressions", {}),
    ],
    "shader": [
        *CHECKS,
        ("sarek-widen-f16", {"target": "{target}"}),
        ("sarek-pack-narrow", {"target": "{target}", "limits": "{limits}"}),
        *OPT,
        ("sarek-order-type-decls", {"first": "records"}),
        ("sarek-subst-match-payloads", {"layout": "{layout}"}),
        ("sarek-hoist-match-breaks", {}),
        ("sarek-pin-widened-constants", {"target": "{target}"}),
        ("sarek-lower-warp", {"target": "{target}"}),  # before the names: its helpers are module-scope names
        ("sarek-legalize-names", {"target": "{target}"}),
        ("sarek-rename-shadowing-locals", {"target": "{target}"}),
        ("sarek-lower-{target}", {"block": "{block}", "kernel": "{kernel}"}),
    ],
    "ptx": [
        *CHECKS,
        ("sarek-constant-tables", {"target": "{target}"}),
        *OPT,
        ("sarek-order-type-decls", {}),
        ("sarek-lower-warp", {"target": "{target}"}),
        ("sarek-wide-vector-access", {}),
        ("sarek-wgmma-waits", {}),
        ("sarek-lower-ptx", {"arch": "{arch}"}),
        ("sarek-contract", {"fma": "{fma}"}),
    ],
}


def holds_sarek(module: ModuleOp) -> bool:
    """True while the module still holds sarek-dialect declarations (a Target then runs the pipeline)."""
    return any(op.name.startswith("sarek.") for op in module.ops)


def check_one_module(module: ModuleOp, target: str) -> None:
    """A target takes one module: an input of several (the parser wraps them in one) is refused, not emitted
    as nothing."""
    inner = [op for op in module.ops if isinstance(op, ModuleOp)]
    if inner:
        raise SarekError(f"the input holds {len(inner)} modules; a target takes one (put the kernels in one "
                         "builtin.module, or split the file with `// -----` and --split-input-file)",
                         inner[-1], target_info(target).display)


def contraction(fp: str, fma: str = "") -> str:
    """sarek-contract's `fma` for a floating-point policy: on at `default` (what NVRTC does), off at `exact`;
    an explicit `fma` (on|off) wins."""
    if fp not in FP_POLICIES:
        raise SarekError(f"sarek-pipeline: fp must be one of {', '.join(FP_POLICIES)}, not '{fp}'")
    return fma or ("on" if fp == "default" else "off")


#: the pass that leaves the sarek dialect, per family (`before-lowering` inserts right before it)
LOWERING: dict[Family, str] = {"c": "sarek-lower-cfamily", "shader": "sarek-lower-{target}", "ptx": "sarek-lower-ptx"}
#: the insertion points of sarek-pipeline: option name -> where its passes run
INSERTION_POINTS = ("before-opt", "after-opt", "before-lowering")


def pipeline_passes(target: str, block: str | tuple[int, ...] = "256,1,1", kernel: str = "",
                    fma: str = "", opt: str = "on", fp: str = "default", before_opt: str = "",
                    after_opt: str = "", before_lowering: str = "", limits: str = "portable",
                    arch: str = "sm_90") -> list[ModulePass]:
    """The pass instances of `target`'s pipeline (an unknown target is a SarekError), with the passes of the
    insertion points (pass list specs, sarek's or installed plugins' passes: sarek.plugins) in place."""
    from sarek.plugins import resolve_passes

    info = target_info(target, "sarek-pipeline")
    if opt not in ("on", "off"):
        raise SarekError(f"sarek-pipeline: opt must be on or off, not '{opt}'")
    values: dict[str, object] = {"target": target, "layout": info.payload_layout, "block": block,
                                 "kernel": kernel, "fma": contraction(fp, fma), "fp": fp,
                                 "unroll": UNROLL[info.family], "limits": limits, "arch": arch}
    specs = PIPELINES[info.family]
    first_opt = next(i for i, (n, _) in enumerate(specs) if n in OPT_NAMES)
    inserts = {first_opt: resolve_passes(before_opt, "sarek-pipeline{before-opt}"),
               first_opt + len(OPT): resolve_passes(after_opt, "sarek-pipeline{after-opt}"),
               next(i for i, (n, _) in enumerate(specs) if n == LOWERING[info.family]):
                   resolve_passes(before_lowering, "sarek-pipeline{before-lowering}")}
    out: list[ModulePass] = []
    for i, (name, opts) in enumerate(specs):
        out += inserts.get(i, [])
        if opt == "off" and name in OPT_NAMES:
            continue
        args = {k: values[v[1:-1]] if v.startswith("{") else v for k, v in opts.items()}
        out.append(make_pass(name.replace("{target}", target), **args))
    return out


@dataclass(frozen=True)
class PipelinePass(ModulePass):
    """The standard pipeline for a target: its feature gate, checks, renamings and lowering.

    Options: `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx); `verify-each` (default false: the module
    is verified once, after the lowering; true verifies it after every pass, like mlir-opt's -verify-each, to
    find the pass that breaks it); for glsl and wgsl `block=X,Y,Z` and `kernel=NAME` (the shader lowering's
    options); `opt=on|off` (default on: the optimisation passes `OPT` run first, after the feature gate and
    sarek-expand-math); `fp=default|exact`, the floating-point policy (default: what nvcc/NVRTC users get,
    multiply-add contracted into fma on ptx; exact: every operation separately rounded, bit-identical to the
    interpreter); for ptx `fma=on|off` overrides the policy's contraction (sarek-contract's option);
    `limits=portable|device` (sarek-reject-features' option: a device compiling for itself checks its own
    shared-memory and storage-buffer limits at launch); for ptx `arch` (sm_90 by default; sm_90a admits the
    warpgroup MMA, wgmma: sarek-lower-ptx's option).
    Insertion points, each a pass list (xDSL pipeline syntax, quoted; sarek's passes or those of installed
    `xdsl.universe` plugins): `before-opt` (after the feature gate and checks, before the optimisation passes),
    `after-opt` (after them: where the runtime puts its extra passes), `before-lowering` (right before the
    target's lowering, names legalized): `sarek-pipeline{target=cuda after-opt="my-pass{k=2},sarek-cse"}`. The pass
    list per target family is `PIPELINES` in sarek/passes/pipeline.py; `sarek-opt k.mlir -p 'sarek-pipeline{target=cuda}' -t cuda`
    prints the CUDA source.
    """

    name = "sarek-pipeline"

    target: str = "cuda"
    # Verifying after each of the 4-7 passes was 60% of the pipeline's time (benchmarks/bench_compile.py);
    # every pass is verified on its own by its lit tests, and tests/unit/test_pipeline_verify_each.py runs
    # the corpus with verify-each.
    verify_each: bool = False
    block: str | tuple[int, ...] = "256,1,1"  # `block=64,4,1` unquoted parses to a tuple
    kernel: str = ""
    fma: str = ""
    opt: str = "on"
    fp: str = "default"
    before_opt: str = ""
    after_opt: str = ""
    before_lowering: str = ""
    limits: str = "portable"
    arch: str = "sm_90"

    def passes(self) -> list[ModulePass]:
        """The passes this pipeline runs, in order."""
        return pipeline_passes(self.target, self.block, self.kernel, self.fma, self.opt, self.fp,
                               self.before_opt, self.after_opt, self.before_lowering, self.limits, self.arch)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        check_one_module(op, self.target)
        for p in self.passes():
            p.apply(ctx, op)
            if self.verify_each:
                op.verify()
        if not self.verify_each:
            op.verify()
