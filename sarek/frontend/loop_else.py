"""`for ... else` and `while ... else` as the front end lowers them: a flag set by every `break` of the loop.

    for i in range(n):          sarek_broke_L_C = False
        if a[i] == x:           for i in range(n):
            break         ->        if a[i] == x:
    else:                               sarek_broke_L_C = True
        miss()                          break
                                if not sarek_broke_L_C:
                                    miss()

The `else` runs when the loop ends without a `break` (no iteration at all included), as in Python; a `break` of
a loop nested in the body is that loop's, a `break` in the `else` is the enclosing loop's. The rewrite runs on
the function's AST before the body analysis, so the flag is an ordinary mutable local; L_C is the loop's line
and column, and every new node carries the loop's (or the `break`'s) location.
"""

from __future__ import annotations

import ast
from typing import Any, cast


class _MarkBreaks(ast.NodeTransformer):
    """`flag = True` before each `break` of the loop whose body this visits (not of loops nested in it)."""

    def __init__(self, flag: str):
        self.flag = flag

    def visit_For(self, node: ast.For) -> ast.AST:
        return node  # its breaks are its own (its `else`, already rewritten, follows it as an `if`)

    visit_While = visit_For  # pyright: ignore[reportAssignmentType]

    def visit_Break(self, node: ast.Break) -> list[ast.stmt]:
        return [_assign(self.flag, True, node), node]


def _assign(name: str, value: bool, where: ast.AST) -> ast.stmt:
    return ast.copy_location(ast.Assign(targets=[ast.copy_location(ast.Name(name, ast.Store()), where)],
                                        value=ast.copy_location(ast.Constant(value), where)), where)


class _Desugar(ast.NodeTransformer):
    def _loop(self, node: ast.For | ast.While) -> Any:
        self.generic_visit(node)  # nested loops first
        if not node.orelse:
            return node
        flag = f"sarek_broke_{node.lineno}_{node.col_offset}"
        orelse, node.orelse = node.orelse, []
        node.body = _spliced(_MarkBreaks(flag), node.body)
        test = ast.copy_location(ast.UnaryOp(ast.Not(), ast.copy_location(ast.Name(flag, ast.Load()), node)), node)
        return [_assign(flag, False, node), node, ast.copy_location(ast.If(test, orelse, []), node)]

    visit_For = visit_While = _loop  # pyright: ignore[reportAssignmentType]


def _spliced(visitor: ast.NodeTransformer, body: list[ast.stmt]) -> list[ast.stmt]:
    """Each statement of `body` visited, the lists a visit returns spliced in."""
    out: list[ast.stmt] = []
    for s in body:
        r: Any = visitor.visit(s)
        out += cast("list[ast.stmt]", r) if isinstance(r, list) else [cast(ast.stmt, r)]
    return out


def desugar_loop_else(body: list[ast.stmt]) -> list[ast.stmt]:
    """`body` with every loop's `else` rewritten as above (in place: loops without one are unchanged). A body
    without a loop `else` is returned as it is, found by `ast.walk` (iterative), so a deeply nested expression
    reaches the front end's own depth limit (a located error), not a RecursionError here."""
    if not any(isinstance(n, ast.For | ast.While) and n.orelse for s in body for n in ast.walk(s)):
        return body
    return _spliced(_Desugar(), body)
