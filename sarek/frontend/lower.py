"""Python AST -> sarek dialect: type inference, checking and lowering of one kernel or device function.

The function's source is parsed (never executed). Every op gets the `FileLineColLoc` of the Python node it
comes from; every refusal is a `CompileError` located at the offending node.

`FunctionLowerer` is one class made of a mixin a concern, each in its module:
* `sarek.frontend.source`: the source, its positions and environment (`Source`, `source_of`);
* `sarek.frontend.lower_base`: state, bindings, signatures, the unsupported-construct table, types,
  constants, default values, static evaluation and literals (`LowererBase`);
* `sarek.frontend.lower_expr`: expressions, operators, promotions and conversions (`ExprLowerer`);
* `sarek.frontend.lower_call`: calls: casts, print, intrinsics, records, helpers (`CallLowerer`);
* `sarek.frontend.lower_stmt`: statements and control flow (`StmtLowerer`);
* this module: the signature, the body and the function-level checks (`FunctionLowerer`, `MAX_NESTING`).
"""

from __future__ import annotations

import ast
from typing import Any, cast

from xdsl.ir import Attribute, Operation

from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.frontend.analysis import always_returns, analyze
from sarek.frontend.decls import decl_ops
from sarek.frontend.errors import CompileError, make_loc
from sarek.frontend.loop_else import desugar_loop_else
from sarek.frontend.lower_base import Binding, tname
from sarek.frontend.lower_base import Signature as Signature
from sarek.frontend.lower_stmt import StmtLowerer
from sarek.frontend.lower_view import rebuild_view, view_params
from sarek.frontend.source import source_of as source_of


class FunctionLowerer(StmtLowerer):
    """Lowers one function. `resolve_device(obj)` gives the Signature of a @device function (and records the
    dependency); `kind` is "kernel" or "helper"."""

    def annotations(self) -> tuple[list[tuple[ast.arg, Any]], Any]:
        """The parameters with their annotations (Python objects, strings evaluated) and the return annotation
        (None when there is none)."""
        f = self.src.fdef
        a = f.args
        if a.vararg or a.kwarg or a.kwonlyargs or a.posonlyargs:
            raise self.err(f, "kernels and device functions take plain positional parameters only")
        if a.defaults:
            raise self.err(a.defaults[0], "default parameter values are not supported")
        anns = dict(getattr(self.fn, "__annotations__", {}))
        params: list[tuple[ast.arg, Any]] = []
        for arg in a.args:
            ann = anns.get(arg.arg)
            if ann is None:
                raise self.err(arg, f"parameter '{arg.arg}' needs a type annotation (e.g. '{arg.arg}: f32' or "
                                    f"'{arg.arg}: Vec[f32]')")
            params.append((arg, self._eval_ann(ann, arg) if isinstance(ann, str) else ann))
        r = anns.get("return")
        return params, self._eval_ann(r, f) if isinstance(r, str) else r

    def lower_signature(self) -> Signature:
        f = self.src.fdef
        anns, r = self.annotations()
        params: list[tuple[str, Attribute]] = []
        for arg, ann in anns:
            t = self.ty(ann, arg)
            if self.kind == "kernel" and isinstance(t, s.ArrayType):
                raise self.err(arg, f"kernel parameter '{arg.arg}' cannot be an array; use Vec[T]")
            if arg.arg in self.views:  # an array view: its arrays, offsets, lengths and conditions
                taken = {a.arg for a, _ in anns} | {n for n, _ in params}
                params += view_params(arg.arg, t, self.views[arg.arg], taken)
                continue
            params.append((arg.arg, t))
        ret: Attribute = s.UnitType()
        if r is not None:
            if r is not type(None):
                if self.kind == "kernel":
                    raise self.err(f.returns or f, "a kernel returns nothing (remove the return annotation)")
                ret = self.ty(r, f.returns or f)
                if isinstance(ret, s.VecType | s.ArrayType):
                    raise self.err(f.returns or f, "a device function cannot return a vector or an array")
        return Signature(self.name, params, ret, list(self.types))

    def param_cells(self, sig: Signature, body: list[ast.stmt]) -> None:
        """Parameters the body assigns (or assigns a field of) are locals initialised with the argument: a
        `let_mut` cell each at the entry. Rebinding a vector or array parameter is refused (its elements are
        written in place; a view of it is `w = v[k:]`)."""
        for n in sorted(self.info.param_cells):
            b = self.vars[n]
            if b.kind in ("vec", "arr", "view"):
                site = _first_store(body, n) or _first_field_store(body, n)
                raise self.err(site, f"cannot rebind {'vector' if b.kind == 'vec' else 'array'} parameter '{n}' "
                                     "(its elements are written in place, e.g. v[i] = x; for another array bind a "
                                     "new name, e.g. w = v[k:])")
            assert b.value is not None, f"parameter {n} has no value"
            op = s.LetMutOp(n, b.value)
            self.emit(op, self.src.fdef)
            self.vars[n] = Binding("ref", op.result, b.type)
            self.assigned.add(n)

    def _eval_ann(self, text: str, node: ast.AST) -> Any:
        try:
            return eval(text, dict(self.globals), dict(self.closure))  # noqa: S307 - an annotation
        except Exception as e:  # noqa: BLE001
            raise self.err(node, f"cannot resolve annotation '{text}': {e}") from None

    def lower(self) -> Operation:
        sig = self.lower_signature()
        self.sig = sig
        f = self.src.fdef
        if self.kind == "kernel":
            op: Operation = s.KernelOp(self.name, sig.params)
        else:
            op = s.HelperOp(self.name, sig.params, sig.ret)
        self.ret_type = sig.ret
        line, col = self.src.pos(f)
        op.location = make_loc(self.src.file, line, col)
        body = op.regions[0].block
        args = iter(zip(sig.params, body.args))
        for src_arg, _ in self.annotations()[0]:
            (n, t), arg = next(args)
            if src_arg.arg in self.views:  # the view rebuilt from its parameters (lower_view.view_params)
                n = src_arg.arg
                view = rebuild_view(cast(s.VecType | s.ArrayType, t), self.views[n], arg, args)
                self.vars[n] = Binding("view", None, t, view=view)
                continue
            kind = "vec" if isinstance(t, s.VecType) else "arr" if isinstance(t, s.ArrayType) else "param"
            self.vars[n] = Binding(kind, arg, t)
        params = {a.arg for a, _ in self.annotations()[0]}
        f.body[:] = desugar_loop_else(f.body)  # for/while ... else: a break flag (idempotent)
        try:
            self.info = analyze(f.body, params)
            for n, where in self.info.conflicts.items():
                what = "a parameter" if n in params else "also assigned"
                if n not in params:  # located at the assignment, not at the loop or case that binds it
                    where = _first_store(f.body, n, skip_loop_targets=True) or where
                raise self.err(where, f"'{n}' is a loop index or match binder and {what}; use another name")
            self.block = self.entry = body
            self.param_cells(sig, f.body)
            self.stmts(f.body, top=True)
        except RecursionError:
            # the front end recurses once per nesting level of an expression (a 1000-term sum is 1000 levels)
            raise self.err(self.node, "this statement nests too deeply for the compiler (an expression of several "
                                      "hundred levels, e.g. a long chain of + or *): split it into several "
                                      "statements") from None
        if (deep := _nested_too_deep(op)) is not None:
            raise CompileError.from_sarek_error(SarekError(
                f"control flow nests more than {MAX_NESTING} levels deep here (each if/elif, conditional "
                f"expression, loop and match adds a level); sarek's limit is {MAX_NESTING}: flatten it, e.g. "
                "with a lookup in a Vec or local_array", deep))
        if self.kind == "helper":
            if isinstance(sig.ret, s.UnitType):
                if not self.terminated:
                    self.emit(s.ReturnOp(), f)
            elif not always_returns(f.body, lambda m: id(m) not in self.partial_matches):
                partial = [m for m in ast.walk(f) if isinstance(m, ast.Match) and id(m) in self.partial_matches]
                if partial:
                    missing = ", ".join(self.partial_matches[id(partial[0])])
                    raise self.err(partial[0], f"device function '{self.name}' returns {tname(sig.ret)} but this "
                                               f"match does not cover {missing}: add the missing case(s) or a "
                                               "'case _:' that returns")
                raise self.err(f, f"device function '{self.name}' returns {tname(sig.ret)} but can reach its end "
                                  "without a return")
        return op


#: the deepest nesting of regions (if, if_expr, for, while, match ...) a function may have: xDSL's printer and
#: parser, the interpreter and the shader compilers recurse once per level (a 200-deep conditional expression
#: exhausted Python's stack at launch, and WGSL was invalid from about 150 levels)
MAX_NESTING = 64


def _nested_too_deep(fn: Operation) -> Operation | None:
    """The first op nested more than MAX_NESTING regions deep inside `fn` (walked iteratively), else None."""
    stack: list[tuple[Operation, int]] = [(fn, 0)]
    while stack:
        op, d = stack.pop()
        for region in op.regions:
            for block in region.blocks:
                for inner in block.ops:
                    if inner.regions:
                        if d + 1 > MAX_NESTING:
                            return inner
                        stack.append((inner, d + 1))
    return None


def _first_store(body: list[ast.stmt], name: str, skip_loop_targets: bool = False) -> ast.AST | None:
    """The first assignment (plain or augmented) to `name` in `body`, in source order; with
    `skip_loop_targets`, a `for` loop's own index is no assignment."""
    loop_targets = {id(t) for st in body for f in ast.walk(st) if skip_loop_targets and isinstance(f, ast.For)
                    for t in ast.walk(f.target)}
    hits = [n for st in body for n in ast.walk(st)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store) and id(n) not in loop_targets]
    return min(hits, key=lambda n: (n.lineno, n.col_offset), default=None)


def _first_field_store(body: list[ast.stmt], name: str) -> ast.AST | None:
    """The first `name.f = ...` (a store to a field of `name`) in `body`."""
    for st in body:
        for n in ast.walk(st):
            if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store) and isinstance(n.value, ast.Name) \
                    and n.value.id == name:
                return n
    return None


def module_decls(types: list[Any]) -> list[Operation]:
    return decl_ops(types)
