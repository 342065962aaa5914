"""sarek-legalize-names: every name the target source declares, decided once (Sarek_ir_names.legalize).

Binders (lets, let_muts, for indices, match binders, shared/local arrays, parameters, helper names) are renamed
in place; the names of types, fields, enum tags, constructor identifiers, constructor functions and entry
points are recorded as attributes (sarek.analysis.namer: `NAME`, `FIELD_NAMES`, `TAG_NAMES`, `CTOR_IDS`,
`MAKE_NAMES`, `ENTRY_NAME`; shaders: the module-scope names of sarek.analysis.shader_names, the interface
`BUFFER_NAMES`, `DIM_NAMES`, `PARAM_NAMES`, `PAYLOAD_NAMES` and each kernel's `GLOBAL_NAMES`) that the
lowerings read. The rules are sarek.analysis.namer's.
"""

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
from sarek.analysis.namer import (
    CTOR_IDS,
    ENTRY_NAME,
    FIELD_NAMES,
    GENERATED,
    MAKE_NAMES,
    NAME,
    TAG_NAMES,
    Namer,
    ctor_ids,
    entry_name,
    invalid_identifier,
    sanitize,
    set_names,
    too_long,
)
from sarek.analysis.names import mangle_name
from sarek.analysis.shader_names import name_shader_module
from sarek.analysis.reserved import GENERATED_PREFIX, RESERVED
from sarek.diagnostics import SarekError
from sarek.registry import C_TARGETS, SHADER_TARGETS
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
    RecordOp,
    VariantOp,
    VecType,
)

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")

__all__ = ["LegalizeNamesPass", "sanitize"]


@dataclass
class _Renamer:
    target: str
    shader: bool
    namer: Namer
    frozen: set[str] = field(default_factory=set[str])  # names a `sarek.native` text of this target mentions
    scopes: list[set[str]] = field(default_factory=lambda: [set()])

    def bad(self, name: str) -> bool:
        """A name renamed whatever the scope: not an ASCII identifier, too long, sarek's own prefix, or (C
        targets) reserved; shading languages escape reserved words when they print (namer.escape)."""
        if self.shader:
            return invalid_identifier(name) or name.startswith(GENERATED_PREFIX) or too_long(self.target, name)
        return self.namer.bad(name)

    def declare(self, name: str, rename: Callable[[str], None], what: str, op: Operation) -> None:
        """Declare `name` in the innermost scope, renamed when it is bad or already names a binder in scope;
        a name the function's native text mentions keeps its name (the text refers to it) and must be good."""
        if name in self.frozen:
            if self.bad(name):
                raise SarekError(f"{what} '{name}' is reserved and cannot be renamed: the sarek.native text of "
                                 "its function mentions it", op, self.target)
        elif self.bad(name) or any(name in s for s in self.scopes):
            name = self.namer.fresh(sanitize(name), bare=False)
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
            self.declare(op.sym.data, lambda n, op=op: rename_binder(op, n), "local", op)
        elif isinstance(op, ForOp):
            self.scopes.append(set())
            self.declare(op.sym.data, lambda n, op=op: rename_binder(op, n), "loop index", op)
            self.block(op.body.block, new_scope=False)
            self.scopes.pop()
            return
        elif isinstance(op, MatchOp | MatchExprOp):
            for i, (_, bs, region) in enumerate(op.case_list()):
                self.scopes.append(set())
                for j, b in enumerate(bs):
                    self.declare(b, lambda n, i=i, j=j, op=op: rename_match_binder(op, i, j, n), "match binder", op)
                self.block(region.block, new_scope=False)
                self.scopes.pop()
            return
        for region in op.regions:
            for block in region.blocks:
                self.block(block, new_scope=not isinstance(op, PragmaOp))

    def function(self, f: KernelOp | HelperOp) -> None:
        """Parameters and the body's top block are one scope, inside the file scope (helper names)."""
        self.frozen = _native_words(f, self.target)
        self.scopes.append(set())
        for i, (name, arg) in enumerate(f.params):
            buffer = self.shader and isinstance(arg.type, VecType)
            if buffer:
                self.scopes[-1].add(name)  # a shader buffer: never renamed, always avoided
            elif isinstance(f, HelperOp) or not self.shader:
                self.declare(name, lambda n, i=i: rename_param(f, i, n), "parameter", f)
            # shader kernel scalars keep their names and are not avoided (sarek-rename-shadowing-locals)
        self.block(f.body.block, new_scope=False)
        self.scopes.pop()
        self.frozen = set()


def _native_words(op: Operation, target: str) -> set[str]:
    """The identifiers the `sarek.native` texts for `target` inside `op` mention."""
    return {w for o in op.walk() if isinstance(o, NativeOp) for w in _WORD.findall(o.text_for(target) or "")}


def _ordinary_names(module: ModuleOp) -> set[str]:
    """Names the C source declares in the ordinary identifier namespace besides types and tags: kernels,
    helpers and every binder (a local named like an enumerator or a typedef would hide it in its scope)."""
    return all_binder_names(module) | {op.sym_name.data for op in module.ops if isinstance(op, KernelOp | HelperOp)}


def _name_c_decls(module: ModuleOp, target: str) -> None:
    """Record the C names of types, fields, tags, constructors and entry points (after the binders are final)."""
    avoid = _ordinary_names(module)
    records = [op for op in module.ops if isinstance(op, RecordOp)]
    variants = [op for op in module.ops if isinstance(op, VariantOp)]
    decls = [op for op in module.ops if isinstance(op, RecordOp | VariantOp)]
    # typedef names: the mangled name, unless reserved or a function or binder has it; then a fresh `<name>_t`
    types = Namer(target, {mangle_name(d.sym_name.data) for d in decls} | avoid)
    tn: dict[str, str] = {}
    for d in decls:
        name = mangle_name(d.sym_name.data)
        if types.bad(name) or name in avoid:
            name = types.fresh(f"{sanitize(name)}_t")
        tn[d.sym_name.data] = name
        d.attributes[NAME] = StringAttr(name)
    for r in records:  # members: the field's name unless it cannot be a member, then `<field>_f`
        fields = Namer(target, [n for n, _ in r.fields])
        set_names(r, FIELD_NAMES, [fields.member(n) for n, _ in r.fields])
    # enum tags: the bare constructor name (as Sarek spells it) unless two variants share it, the target
    # reserves it or a type, function or binder has it (enumerators share their namespace); then `<T>_<id>`
    avoid_tags = avoid | set(tn.values())
    count: dict[str, int] = {}
    for v in variants:
        for cn, _ in v.ctors:
            count[cn] = count.get(cn, 0) + 1
    bare = {cn for cn, k in count.items() if k == 1 and cn not in avoid_tags and not Namer(target).bad(cn)}
    tags = Namer(target, bare | avoid_tags)
    makes = Namer(target, avoid | set(tn.values()))
    for v in variants:
        vn = v.sym_name.data
        ids = ctor_ids([cn for cn, _ in v.ctors], target)
        set_names(v, CTOR_IDS, ids)
        set_names(v, TAG_NAMES, [cn if cn in bare else tags.fresh(sanitize(f"{mangle_name(vn)}_{i}"))
                                 for (cn, _), i in zip(v.ctors, ids)])
        set_names(v, MAKE_NAMES, [makes.fresh(f"make_{tn[vn]}_{i}") for i in ids])
    for k in module.ops:
        if isinstance(k, KernelOp):
            k.attributes[ENTRY_NAME] = StringAttr(entry_name(k.sym_name.data, target))


@dataclass(frozen=True)
class LegalizeNamesPass(ModulePass):
    """Decide every name the target declares: rename bad binders to `<name>_<k>`, record the rest as attributes.

    Options: `target` = cuda, hip, opencl, metal (C rules: invalid identifiers, reserved words, keywords,
    types and built-in functions of the language, names over the language's length limit, sarek's own
    `sarek_` prefix, any redeclaration or shadowing of a binder in scope, kernel parameters included) or
    glsl, wgsl (shader rules: only invalid identifiers, over-long names, `sarek_` names and locals that
    redeclare or shadow a binder in scope; kernel parameters keep their names, vector parameters (buffers)
    are avoided; reserved words stay with the backend's escaper). k is the smallest unused, from 1.
    Binders: lets, let_muts, for indices, match binders, shared/local arrays, parameters and helper names
    (calls follow). A name that a function's `sarek.native` text mentions keeps its name (an error if the
    target cannot declare it). C targets then get `sarek.name` on records and variants, `sarek.field_names`,
    `sarek.tag_names`, `sarek.ctor_ids`, `sarek.make_names` and `sarek.entry_name` on kernels; shader
    targets get `sarek.ctor_ids`, `sarek.name`, `sarek.field_names`, `sarek.make_names`,
    `sarek.payload_names` and, on kernels, `sarek.buffer_names`, `sarek.dim_names` (each vector's length or
    extents), `sarek.param_names` (scalar parameters) and `sarek.global_names` (shared arrays, helper
    specialisations, buffer blocks, integer helpers: sarek.analysis.shader_names).
    """

    name = "sarek-legalize-names"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.target not in RESERVED:
            raise SarekError(f"sarek-legalize-names: no name rules for target '{self.target}' "
                             f"(known: {', '.join(C_TARGETS + SHADER_TARGETS)})")
        r = _Renamer(self.target, self.target in SHADER_TARGETS, Namer(self.target, all_binder_names(op)))
        funcs = [f for f in op.ops if isinstance(f, KernelOp | HelperOp)]
        r.frozen = _native_words(op, self.target)  # helper names any native text may call
        for h in [f for f in funcs if isinstance(f, HelperOp)]:
            old = h.sym_name.data
            if GENERATED in h.attributes:  # a pass's `sarek_` helper (user names with the prefix are renamed)
                r.scopes[-1].add(old)
                continue
            r.declare(old, lambda n, old=old: _rename_helper(op, old, n), "helper", h)
        for f in funcs:
            r.function(f)
        if self.target in C_TARGETS:
            _name_c_decls(op, self.target)
        else:
            name_shader_module(op, self.target)


def _rename_helper(module: ModuleOp, old: str, new: str) -> None:
    for o in module.walk():
        if isinstance(o, HelperOp) and o.sym_name.data == old:
            o.sym_name = StringAttr(new)
        elif isinstance(o, CallOp) and o.callee_name == old:
            o.callee = SymbolRefAttr(new)
