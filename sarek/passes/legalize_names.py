"""sarek-legalize-names: binder names the target language can declare (Sarek_ir_names.legalize)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Block, Operation
from xdsl.passes import ModulePass

from sarek.analysis.binders import (
    all_binder_names,
    rename_binder,
    rename_match_binder,
    rename_param,
)
from sarek.analysis.reserved import RESERVED, invalid_identifier, is_reserved
from sarek.diagnostics import SarekError
from sarek.dialect.sarek import (
    AllocArrayOp,
    CallOp,
    ForOp,
    HelperOp,
    KernelOp,
    LetMutOp,
    LetOp,
    MatchExprOp,
    MatchOp,
    NativeOp,
    PragmaOp,
    VecType,
)

C_TARGETS = ("cuda", "hip", "opencl", "metal")
SHADER_TARGETS = ("glsl", "wgsl")


def sanitize(name: str) -> str:
    """A valid identifier stem for `name`: invalid characters become `_`, runs of `_` collapse, no leading or
    trailing `_`, a leading digit gets `v` (`x'` -> `x`, `1a` -> `v1a`)."""
    s = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_]", "_", name)).strip("_")
    return "v" + s if not s or s[0].isdigit() else s


@dataclass
class _Renamer:
    target: str
    shader: bool
    used: set[str]
    scopes: list[set[str]] = field(default_factory=lambda: [set()])

    def bad(self, name: str) -> bool:
        """A name this mode renames whatever the scope: not an identifier, or (C targets) reserved."""
        return invalid_identifier(name) or (not self.shader and is_reserved(self.target, name))

    def fresh(self, name: str) -> str:
        """`<stem>_<k>`, k >= 1 the smallest giving a name no binder of the module uses and the target does not
        reserve; a stem in a reserved family (`get_*` on OpenCL) becomes `v_<stem>`."""
        stem, k = sanitize(name), 1
        if is_reserved(self.target, stem + "_1") and is_reserved(self.target, stem + "_2"):
            stem = "v_" + stem
        while (c := f"{stem}_{k}") in self.used or is_reserved(self.target, c):
            k += 1
        self.used.add(c)
        return c

    def declare(self, name: str, rename: Callable[[str], None]) -> None:
        """Declare `name` in the innermost scope, renamed when it is bad or already names a binder in scope."""
        if self.bad(name) or any(name in s for s in self.scopes):
            name = self.fresh(name)
            rename(name)
        self.scopes[-1].add(name)

    def block(self, block: Block, new_scope: bool = True) -> None:
        if new_scope:
            self.scopes.append(set())
        for op in block.ops:
            self.op(op)
        if new_scope:
            self.scopes.pop()

    def op(self, op: Operation) -> None:
        if isinstance(op, LetOp | LetMutOp | AllocArrayOp):
            self.declare(op.sym.data, lambda n, op=op: rename_binder(op, n))
        elif isinstance(op, ForOp):
            self.scopes.append(set())
            self.declare(op.sym.data, lambda n, op=op: rename_binder(op, n))
            self.block(op.body.block, new_scope=False)
            self.scopes.pop()
            return
        elif isinstance(op, MatchOp | MatchExprOp):
            for i, (_, bs, region) in enumerate(op.case_list()):
                self.scopes.append(set())
                for j, b in enumerate(bs):
                    self.declare(b, lambda n, i=i, j=j, op=op: rename_match_binder(op, i, j, n))
                self.block(region.block, new_scope=False)
                self.scopes.pop()
            return
        for region in op.regions:
            for block in region.blocks:
                self.block(block, new_scope=not isinstance(op, PragmaOp))

    def function(self, f: KernelOp | HelperOp) -> None:
        """Parameters and the body's top block are one scope, inside the file scope (helper names)."""
        self.scopes.append(set())
        for i, (name, arg) in enumerate(f.params):
            buffer = self.shader and isinstance(arg.type, VecType)
            if buffer:
                self.scopes[-1].add(name)  # a shader buffer: never renamed, always avoided
            elif isinstance(f, HelperOp) or not self.shader:
                self.declare(name, lambda n, i=i: rename_param(f, i, n))
            # shader kernel scalars keep their names and are not avoided (sarek-rename-shadowing-locals)
        self.block(f.body.block, new_scope=False)
        self.scopes.pop()


def _has_native(op: Operation) -> bool:
    return any(isinstance(o, NativeOp) for o in op.walk())


@dataclass(frozen=True)
class LegalizeNamesPass(ModulePass):
    """Rename binders the target cannot declare to `<name>_<k>` (k the smallest unused, from 1).

    Options: `target` = cuda, hip, opencl, metal (C rules: invalid identifiers, reserved words, keywords,
    types and built-in functions of the language, any redeclaration or shadowing of a binder in scope,
    kernel parameters included) or glsl, wgsl (shader rules: only invalid identifiers and locals that
    redeclare or shadow a binder in scope; kernel parameters keep their names, vector parameters (buffers)
    are avoided; reserved words stay with the backend's escaper). Binders: lets, let_muts, for indices,
    match binders, shared/local arrays, parameters and helper names (calls follow). Fields, constructors,
    type and fragment names are left alone. A function containing `sarek.native` is left unchanged, and
    then so are all helper names (the text may call them).
    """

    name = "sarek-legalize-names"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in RESERVED:
            raise SarekError(f"sarek-legalize-names: no name rules for target '{self.target}' "
                             f"(known: {', '.join(C_TARGETS + SHADER_TARGETS)})")
        r = _Renamer(self.target, self.target in SHADER_TARGETS, all_binder_names(op))
        funcs = [f for f in op.ops if isinstance(f, KernelOp | HelperOp)]
        frozen = {id(f) for f in funcs if _has_native(f)}
        for h in [f for f in funcs if isinstance(f, HelperOp)]:
            old = h.sym_name.data
            if frozen:
                r.scopes[0].add(old)
                continue
            r.declare(old, lambda n, old=old: _rename_helper(op, old, n))
        for f in funcs:
            if id(f) not in frozen:
                r.function(f)


def _rename_helper(module: ModuleOp, old: str, new: str) -> None:
    for o in module.walk():
        if isinstance(o, HelperOp) and o.sym_name.data == old:
            o.sym_name = StringAttr(new)
        elif isinstance(o, CallOp) and o.callee_name == old:
            o.callee = SymbolRefAttr(new)
