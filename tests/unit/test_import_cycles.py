"""No import cycles between sarek's modules.

The graph: an edge A -> B when module A imports module B anywhere (at module level or inside a function;
not under `if TYPE_CHECKING:`); importing `p.q.r` also imports the packages `p.q` (their `__init__`), except
for the importer's own packages. A cycle is a strongly connected component of more than one module.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]

# The compiler's layers and the runtime must stay cycle-free: no cycle may hold one of these modules (the front
# end and the interpreters import each other lazily at run time; their cycles are listed by `cycles()` but not
# checked here).
CHECKED = ("sarek.registry", "sarek.universe", "sarek.tools", "sarek.targets", "sarek.passes", "sarek.lowering",
           "sarek.analysis", "sarek.diagnostics", "sarek.dialect", "sarek.validate", "sarek.runtime",
           "sarek.testing")  # the fuzzer's pass blame imported the fuzzer, which imported it (issue 18)

# cycles in those layers not yet removed, each with why; this list only shrinks
KNOWN: list[frozenset[str]] = []


def _modules() -> dict[str, pathlib.Path]:
    out: dict[str, pathlib.Path] = {}
    for p in (ROOT / "sarek").rglob("*.py"):
        name = ".".join(p.relative_to(ROOT).with_suffix("").parts)
        out[name.removesuffix(".__init__")] = p
    return out


def _imports(path: pathlib.Path, mods: dict[str, pathlib.Path]) -> set[str]:
    out: set[str] = set()

    def visit(nodes: list[ast.stmt] | list[ast.AST]) -> None:
        for n in nodes:
            if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n.test):
                continue
            if isinstance(n, ast.Import):
                out.update(a.name for a in n.names)
            elif isinstance(n, ast.ImportFrom) and n.module and n.level == 0:
                subs = [f"{n.module}.{a.name}" for a in n.names if f"{n.module}.{a.name}" in mods]
                out.update(subs)
                if len(subs) < len(n.names):
                    out.add(n.module)
            visit(list(ast.iter_child_nodes(n)))

    visit(ast.parse(path.read_text()).body)
    return {m for m in out if m in mods}


def import_graph() -> dict[str, set[str]]:
    mods = _modules()
    g = {m: _imports(p, mods) for m, p in mods.items()}
    for m, deps in g.items():
        for d in list(deps):
            parts = d.split(".")
            for i in range(2, len(parts)):
                pkg = ".".join(parts[:i])
                if pkg in mods and pkg != m and not m.startswith(pkg + "."):
                    deps.add(pkg)
        deps.discard(m)
    return g


def cycles(g: dict[str, set[str]]) -> list[frozenset[str]]:
    """Strongly connected components of more than one node (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(g):
        if root in index:
            continue
        work: list[tuple[str, list[str]]] = [(root, sorted(g[root]))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, todo = work[-1]
            if todo:
                w = todo.pop()
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, sorted(g[w])))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp: set[str] = set()
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [frozenset("abc")]


def _checked(c: frozenset[str]) -> bool:
    return any(m == p or m.startswith(p + ".") for m in c for p in CHECKED)


def test_no_new_import_cycles():
    new = [sorted(c) for c in cycles(import_graph()) if _checked(c) and c not in KNOWN]
    assert not new, f"import cycles: {new}"


def test_known_cycles_still_exist():
    """A cycle that was removed must leave KNOWN, so that it cannot come back unnoticed."""
    found = cycles(import_graph())
    gone = [sorted(c) for c in KNOWN if c not in found]
    assert not gone, f"remove from KNOWN (they are gone): {gone}"

