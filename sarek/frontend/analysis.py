"""Pre-lowering analysis of a function body: which names are locals, which need a mutable cell and where
the cell is declared.

Python scoping is function-wide; the dialect's binders are block-scoped. A name assigned exactly once whose
every use follows the assignment in the same statement list becomes a `sarek.let`; any other local becomes a
`sarek.let_mut` declared at the *anchor*: the first statement, in the innermost statement list holding every
occurrence, that contains one. When that statement is itself the name's first plain assignment the cell is
initialised there; otherwise it is declared with the type's default value just before it (the use-before-
assignment check keeps the default from ever being read).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field
from typing import cast
from collections.abc import Callable

Path = tuple[tuple[int, int], ...]


@dataclass
class NameInfo:
    sites: list[tuple[Path, ast.stmt]] = field(default_factory=list)   # plain assignments
    aug: bool = False                                                    # augmented assignment
    place: bool = False                                                  # `p.f = ...` on it
    occurrences: list[Path] = field(default_factory=list)


@dataclass
class BodyInfo:
    locals: set[str]
    mutable: set[str]
    hoist: dict[int, list[str]]          # id(stmt) -> names whose cell is declared (with a default) before it
    scoped: set[str]                     # for-loop indices and match binders
    conflicts: dict[str, ast.AST]        # a scoped binder that is also assigned
    param_cells: set[str] = field(default_factory=set)  # parameters assigned (or a field of): a cell each


def _target_names(t: ast.expr, out: list[ast.Name]) -> None:
    if isinstance(t, ast.Name):
        out.append(t)
    elif isinstance(t, ast.Tuple | ast.List):
        for e in t.elts:
            _target_names(e, out)


def _root_name(t: ast.expr) -> str | None:
    while isinstance(t, ast.Attribute | ast.Subscript):
        if isinstance(t, ast.Subscript):
            return None          # an element's field: the vector is the place
        t = t.value
    return t.id if isinstance(t, ast.Name) else None


def _pattern_names(p: ast.pattern, out: list[str]) -> None:
    if isinstance(p, ast.MatchAs):
        if p.name:
            out.append(p.name)
        if p.pattern:
            _pattern_names(p.pattern, out)
    elif isinstance(p, ast.MatchClass):
        for q in [*p.patterns, *p.kwd_patterns]:
            _pattern_names(q, out)
    elif isinstance(p, ast.MatchOr):
        for q in p.patterns:
            _pattern_names(q, out)
    elif isinstance(p, ast.MatchSequence):
        for q in p.patterns:
            _pattern_names(q, out)
    elif isinstance(p, ast.MatchStar) and p.name:
        out.append(p.name)


def analyze(body: list[ast.stmt], params: set[str]) -> BodyInfo:
    infos: dict[str, NameInfo] = {}
    scoped: dict[str, ast.AST] = {}

    def info(n: str) -> NameInfo:
        return infos.setdefault(n, NameInfo())

    def loads(node: ast.AST, path: Path) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name):
                info(sub.id).occurrences.append(path)

    def stmts(lst: list[ast.stmt], prefix: Path) -> None:
        for i, s in enumerate(lst):
            stmt(s, prefix + ((id(lst), i),))

    def stmt(s: ast.stmt, path: Path) -> None:
        if isinstance(s, ast.Assign | ast.AnnAssign | ast.AugAssign):
            targets = s.targets if isinstance(s, ast.Assign) else [s.target]
            for t in targets:
                target_names: list[ast.Name] = []
                _target_names(t, target_names)
                for n in target_names:
                    ni = info(n.id)
                    ni.occurrences.append(path)
                    if isinstance(s, ast.AugAssign):
                        ni.aug = True
                    elif not (isinstance(s, ast.AnnAssign) and s.value is None):
                        ni.sites.append((path, s))
                if not isinstance(t, ast.Name | ast.Tuple | ast.List):
                    r = _root_name(t)
                    if r is not None:
                        info(r).place = True
                    loads(t, path)
                elif isinstance(t, ast.Tuple | ast.List):
                    for e in t.elts:
                        if not isinstance(e, ast.Name):
                            r = _root_name(e)
                            if r is not None:
                                info(r).place = True
                            loads(e, path)
            if s.value is not None:
                loads(s.value, path)
            if isinstance(s, ast.AnnAssign):
                pass
            return
        if isinstance(s, ast.For):
            if isinstance(s.target, ast.Name):
                scoped.setdefault(s.target.id, s.target)
            loads(s.iter, path)
            for e in s.body:
                pass
            stmts(s.body, path)
            stmts(s.orelse, path)
            return
        if isinstance(s, ast.While | ast.If):
            loads(s.test, path)
            stmts(s.body, path)
            stmts(s.orelse, path)
            return
        if isinstance(s, ast.Match):
            loads(s.subject, path)
            for c in s.cases:
                names: list[str] = []
                _pattern_names(c.pattern, names)
                for n in names:
                    scoped.setdefault(n, c.pattern)
                if c.guard is not None:
                    loads(c.guard, path)
                stmts(c.body, path)
            return
        if isinstance(s, ast.With):
            for it in s.items:
                loads(it.context_expr, path)
            stmts(s.body, path)
            return
        if isinstance(s, ast.Try):
            return
        for sub in ast.iter_child_nodes(s):
            if isinstance(sub, ast.expr):
                loads(sub, path)

    stmts(body, ())

    local_names = {n for n, i in infos.items() if i.sites or i.aug}
    conflicts = {n: scoped[n] for n in scoped if n in local_names or n in params}
    mutable: set[str] = set()
    hoist: dict[int, list[str]] = {}
    for n in sorted(local_names):
        if n in params:
            continue
        i = infos[n]
        anchor = i.occurrences[0]
        for p in i.occurrences[1:]:
            anchor = _merge(anchor, p)
        first_site = min(i.sites, key=lambda ps: ps[0], default=None)
        direct = first_site is not None and first_site[0] == anchor and _plain(first_site[1], n)
        if len(i.sites) == 1 and not i.aug and not i.place and direct:
            continue
        mutable.add(n)
        if not direct:
            hoist.setdefault(_anchor_stmt(body, anchor), []).append(n)
    # a parameter is a local initialised with the argument: assigning it (or a field of it) gives it a cell
    param_cells = {n for n in params if n in local_names or (n in infos and infos[n].place)}
    return BodyInfo(local_names, mutable | param_cells, hoist, set(scoped), conflicts, param_cells)


def _plain(s: ast.stmt, name: str) -> bool:
    """`name = e` / `name: T = e` / `a, name = ...` (not an augmented assignment)."""
    if isinstance(s, ast.AnnAssign):
        return isinstance(s.target, ast.Name) and s.target.id == name and s.value is not None
    if isinstance(s, ast.Assign):
        names: list[ast.Name] = []
        for t in s.targets:
            _target_names(t, names)
        return any(x.id == name for x in names)
    return False


def _merge(a: Path, b: Path) -> Path:
    i = 0
    while i < len(a) and i < len(b) and a[i] == b[i]:
        i += 1
    if i == len(a):
        return a
    if i == len(b):
        return b
    if a[i][0] == b[i][0]:
        return a[:i] + ((a[i][0], min(a[i][1], b[i][1])),)
    return a[:i]


def _anchor_stmt(body: list[ast.stmt], path: Path) -> int:
    """id() of the statement a path designates."""
    lists: dict[int, list[ast.stmt]] = {}

    def collect(lst: list[ast.stmt]) -> None:
        lists[id(lst)] = lst
        for s in lst:
            for f in ("body", "orelse", "finalbody"):
                sub = getattr(s, f, None)
                if isinstance(sub, list) and sub and isinstance(sub[0], ast.stmt):
                    collect(cast("list[ast.stmt]", sub))
            if isinstance(s, ast.Match):
                for c in s.cases:
                    collect(c.body)

    collect(body)
    lst_id, idx = path[-1]
    return id(lists[lst_id][idx])


def always_returns(stmts: list[ast.stmt], exhaustive: Callable[[ast.Match], bool] = lambda m: True) -> bool:
    """Every path through the statements ends in a `return` (for helpers that return a value).

    `exhaustive(match)` says whether a `match` without `case _:` covers every constructor (the lowering knows
    the variant; this pass does not)."""
    for s in stmts:
        if isinstance(s, ast.Return):
            return True
        if isinstance(s, ast.If) and s.orelse and always_returns(s.body, exhaustive) \
                and always_returns(s.orelse, exhaustive):
            return True
        if isinstance(s, ast.Match) and s.cases and all(always_returns(c.body, exhaustive) for c in s.cases):
            last = s.cases[-1].pattern
            if isinstance(last, ast.MatchAs) and last.pattern is None:
                return True
            if exhaustive(s):
                return True
        if isinstance(s, ast.With) and always_returns(s.body, exhaustive):
            return True
        if isinstance(s, ast.While) and isinstance(s.test, ast.Constant) and s.test.value is True \
                and not breaks_out(s.body):
            return True  # a `while True:` without a break of its own only ends through a return
    return False


def breaks_out(stmts: list[ast.stmt]) -> bool:
    """Some `break` in the statements leaves the loop they are the body of (not one of a nested loop)."""
    for s in stmts:
        if isinstance(s, ast.Break):
            return True
        if isinstance(s, ast.For | ast.While):
            if breaks_out(s.orelse):
                return True
            continue
        if isinstance(s, ast.Match):
            if any(breaks_out(c.body) for c in s.cases):
                return True
            continue
        for f in ("body", "orelse"):
            sub = getattr(s, f, None)
            if isinstance(sub, list) and breaks_out(cast("list[ast.stmt]", sub)):
                return True
    return False
