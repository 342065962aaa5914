"""Lowering of the sarek dialect to the shader target dialects (`sarek_glsl`, `sarek_wgsl`).

Shared engine of `sarek-lower-glsl` and `sarek-lower-wgsl` (sarek/lowering/shaders.py); the two
languages differ only by the `Lang` table (language.py). One `shader` op is produced per kernel.

Modules, each one layer of `ShaderLowering` (a chain of classes, later layers call earlier ones):
  language.py      the two languages: the `Lang` spelling table, `GLSL`, `WGSL` (names: sarek.analysis.namer)
  state.py         `LoweringState`: per-kernel state, names, type spellings, literals, zero values
  declarations.py  records/variants/constructors in dependency order, type gate, pre-collections; element
                   layouts are sarek.analysis.layout.storage_layout's (host aligned C vs device)
  polyfills.py     `sarek_<fn>` math polyfills; the in-range warp shuffle (sarek-lower-warp guards)
  expressions.py   inline-or-temporary decisions, expression text, places, intrinsics
  atomics.py       atomics (native, float CAS loops, WGSL CAS loops)
  statements.py    statements, control flow, calls and helper specialisation
  kernel.py        `ShaderLowering.run`: interface (buffers, push constants / params), abi, assembly
  __init__.py      the pass, `lower_module`, `parse_block`, abi readers

Decisions made here (the printer decides nothing):
- Expressions: pure ops are rendered inline at their use (fully parenthesised); memory reads (`load`,
  `array_read`) are inlined only when their single use chain reaches a statement of the same block with no
  write in between, else they get a temporary. Calls, atomics, warp shuffles, if/match expressions always get
  a temporary, so every inlined text only names immutable values (re-evaluating it anywhere is exact).
- Buffers: one storage buffer per vector parameter, binding = ordinal among vectors. Scalars and vector lengths
  by name: GLSL a push-constant block (lengths first, then scalars, std430) with `#define x pc.x` macros, WGSL a
  `var<uniform> params : Params` (lengths `sarek_<v>_length`, then scalars, 4 bytes each, size rounded to 16)
  bound after the vectors.
- Workgroup size: a compile-time specialization. The `block` option (X,Y,Z; default 256,1,1) is printed into
  the source (`local_size_*` / `@workgroup_size`) and is part of the compiled kernel's key: the Vulkan device
  compiles one shader per (module, kernel, block shape). `block_dim_*` reads that specialization.
- Helpers taking vectors/shared arrays are specialised per actual buffer (`h__a_b`): the body names the
  caller's buffer, whatever the formal's name (the snapshot's same-name defect cannot happen).
- Variants: a struct with `tag` and one field per constructor payload: GLSL `C_v` (one payload) or a hoisted
  `<T>_<C>_payload` struct (several); WGSL flattened `C_v_<i>`. Constructor functions `make_<T>_<C>`. Device
  layouts differ from the host's aligned union layout; `abi` describes both so the runtime repacks.
- Names: every module-scope name is sarek.analysis.shader_names' (run by sarek-legalize-names, or by
  `lower_module` for what the pass did not record): the interface (`sarek.buffer_names`, `sarek.dim_names`,
  `sarek.param_names`), structs, members, constructor functions and payload structs (`sarek.name`,
  `sarek.field_names`, `sarek.make_names`, `sarek.payload_names`, the attributes the C family reads too),
  and per kernel (`sarek.global_names`) shared arrays, helper specialisations, buffer blocks and the integer
  helpers; the lowering only reads them. It names, as it lowers, the locals (escaped by `namer.escape`, GLSL
  `v` suffix, WGSL `sarek_` prefix, then `<name>_<k>` against the globals, macros and enclosing scopes; GLSL
  locals colliding with a push-constant macro `sarek_pc_shadow_<n>_<k>`) and the temporaries (`sarek_t<k>`,
  whose existence is its inline-or-temporary decision).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, cast

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from sarek.analysis.shader_names import name_shader_module
from sarek.diagnostics import SarekError
from sarek.dialect import sarek as S
from sarek.lowering.shader.kernel import ShaderLowering
from sarek.lowering.shader.language import GLSL, WGSL, Lang


#: the largest workgroup (threads per block) any Vulkan or WebGPU device runs (CUDA's limit too)
MAX_INVOCATIONS = 1024


def parse_block(text: str | int | tuple[int, ...] | None) -> tuple[int, int, int]:
    """The `block` option: "X,Y,Z" (or "XxYxZ", trailing dimensions 1), an int, or the tuple an unquoted
    `block=64,4,1` parses to. A shape past MAX_INVOCATIONS threads is refused: it is baked into the shader,
    and no Vulkan or WebGPU device runs a larger workgroup (a huge value would not even fit the u32 WGSL's
    `@workgroup_size` takes)."""
    if text is None or text == "":
        return (256, 1, 1)
    if isinstance(text, int):
        text = (text,)
    if isinstance(text, tuple):
        parts = list(text)
        if not parts or any(type(p) is not int for p in parts):
            raise SarekError(f"bad block shape {text}: expected X,Y,Z positive integers")
    else:
        try:
            parts = [int(x) for x in text.replace("x", ",").split(",") if x.strip()]
        except ValueError:
            raise SarekError(f"bad block shape '{text}': expected X,Y,Z positive integers") from None
        if not parts:
            raise SarekError(f"bad block shape '{text}': expected X,Y,Z positive integers")
    while len(parts) < 3:
        parts.append(1)
    if len(parts) != 3 or any(p <= 0 for p in parts):
        raise SarekError(f"bad block shape '{text}': expected X,Y,Z positive integers")
    if parts[0] * parts[1] * parts[2] > MAX_INVOCATIONS:
        raise SarekError(f"block shape {parts[0]}x{parts[1]}x{parts[2]} is {parts[0] * parts[1] * parts[2]} threads; "
                         f"a Vulkan/WebGPU workgroup holds at most {MAX_INVOCATIONS} (the largest any device "
                         "allows; most allow 256): use a smaller block and more blocks")
    return (parts[0], parts[1], parts[2])


def lower_module(module: ModuleOp, lang: Lang, ops: Mapping[str, Callable[..., Operation]], block: tuple[int, int, int],
                 kernel: str | None = None) -> None:
    """Replace the sarek declarations of `module` by one shader op per kernel (or only `kernel`)."""
    kernels = [o for o in module.body.block.ops if isinstance(o, S.KernelOp)]
    if kernel:
        kernels = [o for o in kernels if o.sym_name.data == kernel]
        if not kernels:
            raise SarekError(f"no kernel @{kernel} in the module", None, lang.name)
    name_shader_module(module, lang.name, overwrite=False)  # what sarek-legalize-names did not record
    shaders = [ShaderLowering(module, k, lang, block, ops).run() for k in kernels]
    for o in list(module.body.block.ops):
        if o.dialect_name() == "sarek":
            o.detach()
            o.erase(safe_erase=False)
    for sh in shaders:
        module.body.block.add_op(sh)


@dataclass(frozen=True)
class ShaderLoweringPass(ModulePass):
    """Shared by `sarek-lower-glsl` and `sarek-lower-wgsl`. Options: `block=X,Y,Z` — the workgroup size the
    shader is specialised for (default 256,1,1; part of the compiled kernel's key); `kernel=NAME` — lower only
    that kernel."""

    block: str | tuple[int, ...] = "256,1,1"  # `block=64,4,1` unquoted parses to a tuple
    kernel: str = ""

    def target(self) -> tuple[Lang, Mapping[str, Callable[..., Operation]]]:
        """The language and the op classes of its target dialect."""
        raise NotImplementedError

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        lang, ops = self.target()
        lower_module(op, lang, ops, parse_block(self.block), self.kernel or None)


def shader_abi(module: ModuleOp, kernel: str) -> dict[str, Any]:
    for o in module.body.block.ops:
        if o.name.endswith(".shader") and cast(StringAttr, o.properties["sym_name"]).data == kernel:
            return json.loads(cast(StringAttr, o.properties["abi"]).data)
    raise KeyError(kernel)


def iter_shaders(module: ModuleOp) -> Iterator[Operation]:
    for o in module.body.block.ops:
        if o.name.endswith(".shader"):
            yield o


__all__ = ["GLSL", "WGSL", "Lang", "ShaderLowering", "ShaderLoweringPass", "lower_module", "parse_block", "shader_abi", "iter_shaders"]
