"""Assembling a kernel's module: the declarations, the helpers it calls (callees first) and the kernel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sarek.frontend.errors import CompileError

if TYPE_CHECKING:
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.ir import Operation

    from sarek.frontend.api import DeviceFunction


def assemble_module(name: str, kc: Any) -> ModuleOp:
    """Kernel `name`'s module from its lowered kernel `kc` (api._Compiled): the record/variant declarations,
    the helpers it reaches in call order (recursion and name clashes refused, located), the kernel; verified and
    checked for divergent barriers."""
    from xdsl.dialects.builtin import ModuleOp
    from xdsl.utils.exceptions import VerifyException

    from sarek.frontend.decls import decl_ops

    order: list[DeviceFunction] = []
    state: dict[int, str] = {}
    stack: list[DeviceFunction] = []

    def visit(df: DeviceFunction, site: CompileError) -> None:
        st = state.get(id(df))
        if st == "done":
            return
        if st == "active":
            cycle = " -> ".join(d.name for d in stack[stack.index(df):]) + f" -> {df.name}"
            raise CompileError(f"recursive call to device function '{df.name}' ({cycle}): recursion is not "
                               "supported, write it as a loop", site.file, site.line, site.col)
        state[id(df)] = "active"
        stack.append(df)
        for dep, dsite in df.compiled().deps:
            visit(dep, dsite)
        stack.pop()
        state[id(df)] = "done"
        order.append(df)

    for dep, site in kc.deps:
        visit(dep, site)
    names: dict[str, Any] = {name: kc}
    types: list[Any] = list(kc.types)
    for df in order:
        if df.name in names and names[df.name] is not df:
            site = df.compiled().op
            raise CompileError(f"two functions named '{df.name}' are used by kernel '{name}'; rename one",
                               *_loc_args(site))
        names[df.name] = df
        types.extend(df.compiled().types)
    seen: dict[str, Any] = {}
    for t in types:
        if t.__name__ in seen and seen[t.__name__] is not t:
            raise CompileError(f"two different types named '{t.__name__}' are used by kernel '{name}'",
                               *_loc_args(kc.op))
        seen[t.__name__] = t
    try:
        decls = decl_ops(list(seen.values()))
    except TypeError as e:
        raise CompileError(str(e), *_loc_args(kc.op)) from None
    ops: list[Operation] = [*decls, *(df.compiled().op.clone() for df in order), kc.op]
    module = ModuleOp(ops)
    try:
        module.verify()
    except VerifyException as e:
        raise CompileError(f"internal error: the front end built invalid IR: {e}", *_loc_args(kc.op)) from None
    from sarek.frontend.divergence import check_divergence

    check_divergence(module)  # sarek-verify-barriers' analysis, its findings worded for Python
    return module


def _loc_args(op: Operation) -> tuple[Any, ...]:
    from xdsl.dialects.builtin import FileLineColLoc

    loc = op.location
    if isinstance(loc, FileLineColLoc):
        return (loc.filename.data, loc.line.data, loc.column.data)
    return ()
