"""The runtime's compile entry: (kernel IR, target, options, extra passes) -> source text, through the cache.

Devices ask here for what they build (`compile_source`), never run passes or lowerings themselves; the cache
key is derived from what runs: the IR's hash, the target, its options, the extra passes (canonically spelled)
and the compiler's fingerprint (sarek's version and sources, xDSL's version).

Extra passes (sarek's or installed `xdsl.universe` plugins' passes, sarek.plugins) run at sarek-pipeline's
`after-opt` insertion point, for every kernel this process compiles afterwards (cuda, ptx, opencl and the
Vulkan devices): `set_extra_passes("my-pass")`, or `$SAREK_PASSES` read at the first compile. Setting them drops the programs already built in this process, so
the next launch of any kernel compiles with them. One launch's extra passes (`k.launch(..., passes="my-pass")`)
run after those, in a copy of the kernel's spec with its own programs (`with_passes`).

The Vulkan devices (sarek.runtime.shader_device) ask here too, for a shader artifact per block shape:
`compile_shader` -> (source, buffer ABI), the ABI (bindings, push-constant offsets, packed vectors, features)
being what the device packs arguments by; built by `shader_artifact` (the same pipeline, `sarek-pipeline` with
the extra passes at `after-opt` and the device's limits checked at launch), keyed by `artifact_key` like the
rest, so a warm start loads it with no IR built.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from sarek.runtime import cache
from sarek.runtime.specs import KernelSpec

if TYPE_CHECKING:  # xDSL's IR only for the annotations: a warm start imports none of it
    from xdsl.dialects.builtin import ModuleOp

_EXTRA: list[str] = []  # [canonical pass list] once set (from set_extra_passes or $SAREK_PASSES)


def set_extra_passes(spec: str) -> None:
    """Run the pass list `spec` (xDSL pipeline syntax, e.g. `example-replace-constant{old=1 new=2},sarek-cse`) in
    every kernel compiled from now on, at sarek-pipeline's `after-opt`; "" runs none. A pass that is neither
    sarek's nor an installed plugin's is a SarekError now, not at the next launch."""
    from sarek.plugins import canonical_spec
    from sarek.runtime.specs import live_specs

    canonical = canonical_spec(spec)
    _EXTRA[:] = [canonical]
    for s in live_specs():  # programs built with the old passes (the overrides tests set stay)
        for k in [k for k in s.cache if not k.startswith("source:")]:
            del s.cache[k]
        s.plans.clear()


def extra_passes() -> str:
    """The process-wide extra passes, canonically spelled ("" when none)."""
    if not _EXTRA:
        from sarek.plugins import canonical_spec

        _EXTRA.append(canonical_spec(os.environ.get("SAREK_PASSES", "")))
    return _EXTRA[0]


_CANONICAL: dict[str, str] = {}  # a launch's `passes=` as given -> canonically spelled


def with_passes(spec: KernelSpec, passes: str) -> KernelSpec:
    """`spec` compiling with one launch's extra passes `passes` as well (after the process-wide ones): a copy with
    its own program caches, made once per pass list and kept in `spec.cache`, so each pass list is compiled once
    per device and its programs are never another's. "" is `spec` itself. An unknown pass is a LaunchError."""
    canonical = _CANONICAL.get(passes)
    if canonical is None:
        from sarek.diagnostics import SarekError
        from sarek.plugins import canonical_spec
        from sarek.runtime.errors import LaunchError

        try:
            canonical = canonical_spec(passes)
        except SarekError as e:
            raise LaunchError(f"passes={passes!r}: {e.message}") from None
        _CANONICAL[passes] = canonical
    if not canonical:
        return spec
    key = f"passes:{canonical}"
    got = spec.cache.get(key)
    if got is None:
        import copy

        from sarek.runtime.specs import add_live

        got = copy.copy(spec)
        got.cache = {k: v for k, v in spec.cache.items() if k == "shared-bytes"}  # (a warm record's: no IR)
        got.dims, got.plans, got.passes = {}, {}, canonical
        spec.cache[key] = got
        add_live(got)
    return got


def spec_passes(spec: KernelSpec) -> str:
    """The extra passes `spec` compiles with: the process-wide ones, then its launch's (canonical)."""
    return ",".join(p for p in (extra_passes(), spec.passes) if p)


def source_key(spec: KernelSpec, target: str, options: dict[str, Any], passes: str) -> str:
    """The cache key of a kernel's source: exactly the inputs of the compile."""
    return artifact_key("source", spec, target, options, passes)


def artifact_key(kind: str, spec: KernelSpec, target: str, options: dict[str, Any], passes: str) -> str:
    """The cache key of what `spec` compiles to (`kind`: "source", or "shader" for the Vulkan devices' source and
    ABI) for `target` with `options` and extra passes `passes`: the IR's hash, the target, the options, the
    passes and their plugins' code, the compiler's fingerprint. Every device's compile is keyed here."""
    opts = ",".join(f"{k}={options[k]}" for k in sorted(options))
    from sarek.plugins import code_fingerprint

    return cache.make_key(kind, spec.ir_hash, target, opts, passes, code_fingerprint(passes),
                          cache.compiler_fingerprint())


def compile_source(spec: KernelSpec, target: str, **options: Any) -> str:
    """The source of the spec's module for `target` with the Target's `options` and the process's extra passes,
    through the compile cache (a tool's or test's `source:<target>` override in spec.cache wins)."""
    from sarek.registry import emit_source

    override = spec.cache.get(f"source:{target}")
    if override is not None:
        return override
    passes = spec_passes(spec)
    key = source_key(spec, target, options, passes)
    return cache.get_or_build_text("source", key, lambda: emit_source(spec.module, target, passes=passes, **options))


def shader_artifact(module: ModuleOp, kernel: str, lang: str, block: tuple[int, int, int], fold: bool = False,
                    passes: str = "") -> tuple[str, dict[str, Any]]:
    """(shader source, buffer ABI) of `kernel` in `module` for `lang` (glsl or wgsl) and one block shape, not
    cached (`compile_shader` caches it); refusals raise SarekError. `fold`: the kernel through sarek-fold-grid
    first (a grid beyond the device's limit, run as several dispatches); `passes`: extra passes at the pipeline's
    after-opt. The shared-memory and storage-buffer limits are left to the device (`limits=device`), which
    checks its own at launch. The ABI marks the vectors stored packed (sarek.runtime.shader_codec)."""
    from sarek.lowering.shader import shader_abi
    from sarek.registry import make_context
    from sarek.runtime.shader_codec import mark_packed
    from sarek.targets.glsl.printer import print_glsl, print_wgsl
    from sarek.targets.glsl.target import lower_shader

    m = module.clone()
    if fold:
        from sarek.passes.fold_grid import fold_grid

        fold_grid(m, kernel)
    lower_shader(make_context(), m, lang, ",".join(map(str, block)), kernel, passes=passes, limits="device")
    abi = shader_abi(m, kernel)
    mark_packed(module, kernel, abi)
    return (print_glsl(m) if lang == "glsl" else print_wgsl(m)), abi


def compile_shader(spec: KernelSpec, lang: str, block: tuple[int, int, int],
                   fold: bool = False) -> tuple[str, dict[str, Any]]:
    """`shader_artifact` of the spec's kernel with the process's and the launch's extra passes, through the
    compile cache, keyed (`artifact_key`) by the IR, language, kernel, block, fold, the extra passes, the compiler
    and the pipeline function (a test's substitute pipeline is its own key). A hit needs no IR: a warm start's
    spec parses none."""
    import json
    import sys

    # the pipeline function, named without importing its module (and the passes) on a warm start: a test
    # substitutes it only once that module is imported
    mod = sys.modules.get("sarek.passes.pipeline")
    fn = getattr(mod, "pipeline_passes", None)
    name = f"{fn.__module__}.{fn.__qualname__}" if fn is not None else "sarek.passes.pipeline.pipeline_passes"
    passes = spec_passes(spec)
    key = artifact_key("shader", spec, lang, {"kernel": spec.name, "block": block, "fold": fold,
                                              "pipeline": name, "limits": "device"}, passes)
    text = cache.get_or_build_text("shader", key, lambda: json.dumps(shader_artifact(
        spec.module, spec.name, lang, block, fold, passes)))
    src, abi = json.loads(text)
    return src, abi
