"""Queries over the record and variant declarations of a module."""

from __future__ import annotations

from collections.abc import Iterator

from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Attribute

from sarek.analysis.names import mangle_name
from sarek.dialect.sarek import ArrayType, RecordOp, RecordType, RefType, VariantOp, VariantType, VecType

TypeDecl = RecordOp | VariantOp


def type_decls(module: ModuleOp) -> list[TypeDecl]:
    """The module's record and variant declarations, in module order."""
    return [op for op in module.ops if isinstance(op, RecordOp | VariantOp)]


def decl_kind(decl: TypeDecl) -> str:
    return "record" if isinstance(decl, RecordOp) else "variant"


def decl_sites(decl: TypeDecl) -> list[tuple[str, list[Attribute]]]:
    """(field or constructor name, the types at that site) for each field / constructor."""
    if isinstance(decl, RecordOp):
        return [(n, [t]) for n, t in decl.fields]
    return [(c, ps) for c, ps in decl.ctors]


def direct_type_refs(t: Attribute) -> Iterator[str]:
    """Declared names a type mentions directly (through vectors, arrays and refs)."""
    while isinstance(t, VecType | ArrayType | RefType):
        t = t.element_type
    if isinstance(t, RecordType | VariantType):
        yield t.decl_name


def referenced_type_names(module: ModuleOp, t: Attribute) -> list[str]:
    """Mangled names of every record and variant reachable from `t` (itself included), sorted, deduplicated.

    Follows vectors, arrays, refs, record fields and variant payloads through the module's declarations.
    Types are nominal, so a cycle can only close through a declaration; the visited set is keyed on the
    declaration op (identity), so any cyclic type graph terminates. A name with no declaration is
    reported but not followed.
    """
    by_name: dict[str, TypeDecl] = {d.sym_name.data: d for d in type_decls(module)}
    seen: set[int] = set()
    out: set[str] = set()
    todo = [t]
    while todo:
        for name in direct_type_refs(todo.pop()):
            out.add(mangle_name(name))
            d = by_name.get(name)
            if d is None or id(d) in seen:
                continue
            seen.add(id(d))
            for _, ts in decl_sites(d):
                todo.extend(ts)
    return sorted(out)
