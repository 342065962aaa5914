"""`sarek-lower-glsl` and `sarek-lower-wgsl`: the sarek dialect to `sarek_glsl` (one GLSL 450 compute shader per
kernel) or `sarek_wgsl` (one WGSL compute shader per kernel).

One engine (sarek/lowering/shader/, whose docstring lists the decisions; the options `block=X,Y,Z` and
`kernel=NAME` are those of its `ShaderLoweringPass`), parametrised by the language's `Lang` table: each pass
names its `Lang`, and the op classes are those of the target dialect of the same name
(`sarek.targets.<lang>.dialect.OPS`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from importlib import import_module
from typing import ClassVar, cast

from xdsl.ir import Operation

from sarek.lowering.shader import GLSL, WGSL, Lang, ShaderLoweringPass


@dataclass(frozen=True)
class _LangPass(ShaderLoweringPass):
    LANG: ClassVar[Lang]

    def target(self) -> tuple[Lang, Mapping[str, Callable[..., Operation]]]:
        ops = getattr(import_module(f"sarek.targets.{self.LANG.name}.dialect"), "OPS")
        return self.LANG, cast(Mapping[str, Callable[..., Operation]], ops)


@dataclass(frozen=True)
class LowerGlslPass(_LangPass):
    """Lower sarek kernels to the sarek_glsl dialect (GLSL 450 compute for Vulkan)."""

    name = "sarek-lower-glsl"
    LANG = GLSL


@dataclass(frozen=True)
class LowerWgslPass(_LangPass):
    """Lower sarek kernels to the sarek_wgsl dialect (WGSL compute for WebGPU/wgpu)."""

    name = "sarek-lower-wgsl"
    LANG = WGSL
