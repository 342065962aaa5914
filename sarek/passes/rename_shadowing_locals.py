"""sarek-rename-shadowing-locals: locals that a shader's by-name parameters would capture get fresh names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from sarek.analysis.binders import rename_binder, rename_match_binder
from sarek.analysis.namer import escape
from sarek.diagnostics import SarekError
from sarek.registry import SHADER_TARGETS
from sarek.dialect.sarek import AllocArrayOp, ForOp, HelperOp, KernelOp, LetMutOp, LetOp, MatchExprOp, MatchOp, VecType


def shadow_names(kernel: KernelOp, target: str) -> set[str]:
    """Names a kernel's parameters occupy in the shader: GLSL `#define` macros (escaped scalar parameters
    and `<vector>_len`, `<array>_dim0`..), WGSL scalar parameter names (read as `params.<name>`)."""
    if target == "glsl":
        return {escape("glsl", n) + sfx for n, a in kernel.params for sfx in (
            ("_len",) if isinstance(a.type, VecType) and a.type.ndim == 1 else
            tuple(f"_dim{d}" for d in range(a.type.ndim)) if isinstance(a.type, VecType) else ("",))}
    return {n for n, a in kernel.params if not isinstance(a.type, VecType)}


def collides(name: str, target: str, names: set[str]) -> bool:
    return (escape("glsl", name) if target == "glsl" else name) in names


def fresh_name(name: str, n: int, target: str) -> str:
    """The n-th (1-based) shadow name for binder `name`."""
    if target == "glsl":
        return f"sarek_pc_shadow_{escape('glsl', name)}_{n}"
    return f"sarek_scalar_shadow_{escape('wgsl', name)}_{n}"


def rename_locals(f: KernelOp | HelperOp, target: str, names: set[str]) -> int:
    """Rename `f`'s colliding local binders in program order, numbering from 1; returns how many."""
    count = 0

    def visit(name: str, rename: Callable[[str], None]) -> None:
        nonlocal count
        if collides(name, target, names):
            count += 1
            rename(fresh_name(name, count, target))

    op: Operation
    for op in f.body.walk():
        if isinstance(op, LetOp | LetMutOp | AllocArrayOp | ForOp):
            visit(op.sym.data, lambda n, op=op: rename_binder(op, n))
        elif isinstance(op, MatchOp | MatchExprOp):
            for i, (_, bs, _) in enumerate(op.case_list()):
                for j, b in enumerate(bs):
                    visit(b, lambda n, i=i, j=j, op=op: rename_match_binder(op, i, j, n))
    return count


@dataclass(frozen=True)
class RenameShadowingLocalsPass(ModulePass):
    """Rename locals that a shader's by-name parameters would capture (`sarek_pc_shadow_*`, `sarek_scalar_shadow_*`).

    GLSL names them `sarek_pc_shadow_<name>_<n>`, WGSL `sarek_scalar_shadow_<name>_<n>`.

    Options: `target` = glsl (push-constant `#define`s of scalar parameters and `<vector>_len` macros) or
    wgsl (scalar parameters, read as `params.<name>`). Lets, let_muts, for indices, match binders and arrays
    of each kernel are numbered per kernel from 1; parameters are never renamed. On GLSL the macros are
    file-wide, so helper locals that collide with any kernel's macros are renamed too (numbered per helper).
    Collision-free modules are unchanged.
    """

    name = "sarek-rename-shadowing-locals"

    target: str = "glsl"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in SHADER_TARGETS:
            raise SarekError(f"sarek-rename-shadowing-locals: target must be glsl or wgsl, not '{self.target}'")
        kernels = [k for k in op.ops if isinstance(k, KernelOp)]
        for k in kernels:
            rename_locals(k, self.target, shadow_names(k, self.target))
        if self.target == "glsl":
            macros = {n for k in kernels for n in shadow_names(k, "glsl")}
            for h in op.ops:
                if isinstance(h, HelperOp):
                    rename_locals(h, "glsl", macros)
