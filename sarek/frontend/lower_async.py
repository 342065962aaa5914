"""Front end, asynchronous copies (`from sarek.gpu import copy_async, copy_async_commit, copy_async_wait`):
`copy_async(dst[i, j], src[k, l], n)` copies n consecutive elements along the last dimension from a global
buffer into a shared array; `copy_async_commit()` closes the thread's group of copies; `copy_async_wait(n)`
waits until at most n of its groups are in flight. Checked at the user's line (a shared destination, a global
source, one element type, a constant count)."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING, cast

from xdsl.dialects.builtin import i32
from xdsl.ir import SSAValue

from sarek.dialect import sarek as s
from sarek.frontend.lower_base import tname

if TYPE_CHECKING:
    from sarek.frontend.lower_call import CallLowerer

#: the `sarek.gpu` names lowered here
COPY_FUNCTIONS = ("copy_async", "copy_async_commit", "copy_async_wait")


def _place(lw: CallLowerer, node: ast.expr, what: str) -> tuple[SSAValue, list[SSAValue]]:
    """The array and indices of `a[i, j]` (an element of the copy's destination or source)."""
    if not isinstance(node, ast.Subscript) or isinstance(node.slice, ast.Slice):
        raise lw.err(node, f"the {what} of copy_async() is an element, e.g. {'sa[r, c]' if what == 'destination' else 'A[i, k]'}"
                           f" (the first of the elements copied), got '{ast.unparse(node)}'")
    arr = lw.expr(node.value)
    if not isinstance(arr.type, s.VecType | s.ArrayType):
        raise lw.err(node.value, f"the {what} of copy_async() must be an array, got {tname(arr.type)}")
    idx = [i if i.type == i32 else lw.v(s.CastOp(i, i32), node.slice) for i in lw.indices(arr, node)]
    return arr, idx


def copy_async_call(lw: CallLowerer, name: str, node: ast.Call, statement: bool) -> None:
    """`copy_async(dst[i, j], src[k, l], n)`, `copy_async_commit()` or `copy_async_wait(n)`."""
    if not statement:
        raise lw.err(node, f"{name}() is a statement and has no value")
    arity = {"copy_async": 3, "copy_async_commit": 0, "copy_async_wait": 1}[name]
    if node.keywords or len(node.args) != arity:
        usage = {"copy_async": "copy_async(dst[i, j], src[k, l], n)", "copy_async_commit": "copy_async_commit()",
                 "copy_async_wait": "copy_async_wait(n)"}[name]
        raise lw.err(node, f"{usage} takes {arity} argument(s), {len(node.args) + len(node.keywords)} given")
    if name == "copy_async_commit":
        lw.emit(s.CopyAsyncCommitOp(), node)
        return
    n_node = node.args[-1]
    n = lw.const_eval(n_node)
    if name == "copy_async_wait":
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= 7:
            raise lw.err(n_node, "copy_async_wait(n) takes a constant n from 0 to 7 (the groups left in flight)")
        lw.emit(s.CopyAsyncWaitOp(n), node)
        return
    if not isinstance(n, int) or isinstance(n, bool) or n <= 0:
        raise lw.err(n_node, "the count of copy_async() is a positive integer constant")
    dst, di = _place(lw, node.args[0], "destination")
    src, si = _place(lw, node.args[1], "source")
    if not (isinstance(dst.type, s.ArrayType) and dst.type.memspace == s.MemSpace.SHARED):
        raise lw.err(node.args[0], f"copy_async() copies into a shared array (sarek.gpu.shared), not "
                                   f"{tname(dst.type)}")
    if isinstance(src.type, s.ArrayType) and src.type.memspace != s.MemSpace.GLOBAL:
        raise lw.err(node.args[1], f"copy_async() copies from a global array (a kernel parameter), not "
                                   f"{tname(src.type)}")
    et, st = dst.type.element_type, cast(s.VecType | s.ArrayType, src.type).element_type
    if et != st:
        raise lw.err(node.args[1], f"type mismatch: the destination holds {tname(et)}, the source {tname(st)}")
    if not s.is_scalar_type(et):
        raise lw.err(node.args[0], f"copy_async() copies scalar elements, not {tname(et)}")
    lw.emit(s.CopyAsyncOp(dst, di, src, si, n), node)
