"""Dependency order of record and variant declarations (Sarek's sort_type_decls_by_dependency).

Node identity is the position in the list: two same-named declarations are two nodes, and a record's edge
to a same-mangled-name variant is kept. Declaration i depends on j (j != i) when one of i's field or
payload types names j's mangled name (kind-blind); only the positional self-edge is dropped. Placement
always takes the lowest-index ready declaration, so a list already in a valid order comes back unchanged
and `[a (needs c); b; c]` gives `[b; c; a]`. Completeness is checked before placement.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import Operation

from sarek.analysis.names import mangle_name
from sarek.analysis.types import TypeDecl, decl_kind, decl_sites, direct_type_refs
from sarek.diagnostics import SarekError


@dataclass(frozen=True)
class DeclNode:
    """One declaration: kind (`record`/`variant`), mangled name, and per field/constructor site the mangled
    names its types reference."""

    kind: str
    name: str
    sites: tuple[tuple[str, tuple[str, ...]], ...]

    @property
    def refs(self) -> set[str]:
        return {r for _, rs in self.sites for r in rs}


class UndeclaredTypeRef(SarekError):
    """Some declaration references a type that is not among the declarations (one message per reference)."""

    def __init__(self, messages: list[str], op: Operation | None = None):
        self.messages = messages
        super().__init__("; ".join(messages), op)


class TypeDeclCycle(SarekError):
    """The declarations form a cycle between distinct declarations; `names` are `record n` / `variant n`."""

    def __init__(self, names: list[str], op: Operation | None = None):
        self.names = names
        super().__init__(f"type declarations form a cycle: {', '.join(names)}", op)


def node_of(decl: TypeDecl) -> DeclNode:
    return DeclNode(decl_kind(decl), mangle_name(decl.sym_name.data),
                    tuple((s, tuple(mangle_name(n) for t in ts for n in direct_type_refs(t)))
                          for s, ts in decl_sites(decl)))


def undeclared_refs(nodes: Sequence[DeclNode]) -> list[tuple[int, str]]:
    """(index, message) per reference to a mangled name no declaration has, in declaration/site order."""
    declared = {n.name for n in nodes}
    out: list[tuple[int, str]] = []
    for i, n in enumerate(nodes):
        site = "field" if n.kind == "record" else "constructor"
        for s, refs in n.sites:
            for r in dict.fromkeys(refs):
                if r not in declared:
                    out.append((i, f'{n.kind} "{n.name}"\'s {site} "{s}" references undeclared type "{r}"'))
    return out


def dependency_order(nodes: Sequence[DeclNode], ops: Sequence[Operation] | None = None) -> list[int]:
    """The emission order, as input indices; raises UndeclaredTypeRef or TypeDeclCycle."""
    missing = undeclared_refs(nodes)
    if missing:
        raise UndeclaredTypeRef([m for _, m in missing], ops[missing[0][0]] if ops else None)
    deps = [{j for j, m in enumerate(nodes) if j != i and m.name in n.refs} for i, n in enumerate(nodes)]
    placed: list[int] = []
    done: set[int] = set()
    while len(placed) < len(nodes):
        ready = next((i for i in range(len(nodes)) if i not in done and deps[i] <= done), None)
        if ready is None:
            left = [i for i in range(len(nodes)) if i not in done]
            raise TypeDeclCycle([f"{nodes[i].kind} {nodes[i].name}" for i in left], ops[left[0]] if ops else None)
        placed.append(ready)
        done.add(ready)
    return placed


def sort_type_decls(decls: Sequence[TypeDecl]) -> list[TypeDecl]:
    """`decls` in dependency order (see the module docstring)."""
    return [decls[i] for i in dependency_order([node_of(d) for d in decls], decls)]
