"""Python AST -> sarek dialect: type inference, checking and lowering of one kernel or device function.

The function's source is parsed (never executed). Every op gets the `FileLineColLoc` of the Python node it
comes from; every refusal is a `CompileError` located at the offending node.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import weakref
from dataclasses import dataclass
from typing import Any, ClassVar, cast

import numpy as np

from xdsl.dialects.builtin import (
    AnyFloat,
    Float16Type,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue

from sarek.diagnostics import SarekError
from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import INTRINSICS, Category, is_float, is_int, is_integer_type
from sarek.frontend.analysis import BodyInfo, always_returns, analyze
from sarek.frontend.loop_else import desugar_loop_else
from sarek.frontend.decls import (
    VariantCtor,
    decl_ops,
    ir_type,
    normalize_type,
    record_info,
    type_name,
    variant_info,
)
from sarek.frontend.errors import CompileError, make_loc
from sarek.frontend.generics import Inference, TypeVar, substitute, type_vars
from sarek.gpu import GpuFunction, GpuValue
from sarek.math import MathFunction
from sarek.types import SCALARS, ArrayOf, ScalarType, VecOf

# ------------------------------------------------------------------------------------------------ source


class Source:
    """A function's AST with the mapping back to file positions. `text` (from `sarek.kernel(fn, source=...)`)
    is the source when Python cannot show it (`python -c`, `exec`); it is put in `linecache` for carets."""

    def __init__(self, fn: Any, text: str | None = None):
        fn = inspect.unwrap(fn)
        self.fn = fn
        self.file = fn.__code__.co_filename
        if text is not None:
            self._from_text(fn, text)
            return
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise CompileError(f"cannot read the source of '{fn.__qualname__}' ({e}): Python keeps no source for "
                               "code run by `python -c` or `exec`; define the kernel in a file, pass its text "
                               "with `sarek.kernel(fn, source=text)`, or put the text in `linecache` under the "
                               "name given to `compile`", self.file, fn.__code__.co_firstlineno, 1) from None
        text = "".join(lines)
        shift = start - 1
        if lines and lines[0][:1] in (" ", "\t"):
            text = "if 1:\n" + text
            shift -= 1
        self.shift = shift
        tree = ast.parse(text)
        node: ast.AST = tree.body[0]
        if isinstance(node, ast.If):
            node = node.body[0]
        if not isinstance(node, ast.FunctionDef):
            raise CompileError(f"'{fn.__qualname__}' is not a plain function definition", self.file, start, 1)
        self.fdef = node

    def _from_text(self, fn: Any, text: str) -> None:
        """The `def` of `fn` inside `text` (its own source, or the whole text given to `exec`): the one at the
        code's first line, else the only one of that name. Lines count from the start of `text`."""
        import linecache
        import os
        import textwrap

        if not os.path.isfile(self.file) and linecache.getline(self.file, 1) == "":
            if self.file == "<string>":  # every `python -c` and `exec` of a string: a name of its own
                self.file = f"<source of {fn.__qualname__}>"
            linecache.cache[self.file] = (len(text), None, text.splitlines(True), self.file)
        where = (self.file, 1, 1)
        try:
            tree = ast.parse(textwrap.dedent(text))
        except SyntaxError as e:
            raise CompileError(f"the source given for '{fn.__qualname__}' does not parse: {e.msg}", self.file,
                               e.lineno or 1, e.offset or 1) from None
        defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef) and n.name == fn.__name__]
        first = fn.__code__.co_firstlineno
        at = [d for d in defs if min([d.lineno, *(x.lineno for x in d.decorator_list)]) == first]
        if not at and len(defs) == 1:
            at = defs
        if not at:
            raise CompileError(f"the source given for '{fn.__qualname__}' has {len(defs) or 'no'} definition(s) "
                               f"of '{fn.__name__}'" + (" and none starts at its line" if defs else ""), *where)
        self.shift = 0
        self.fdef = at[0]

    def pos(self, node: ast.AST) -> tuple[int, int]:
        return getattr(node, "lineno", 1) + self.shift, getattr(node, "col_offset", 0) + 1

    def error(self, node: ast.AST, message: str) -> CompileError:
        line, col = self.pos(node)
        return CompileError(message, self.file, line, col)


_SOURCES: weakref.WeakKeyDictionary[Any, Source] = weakref.WeakKeyDictionary()


def source_of(fn: Any, text: str | None = None) -> Source:
    """`Source(fn)`, read and parsed once per function object (a device function's signature and body are
    lowered separately; the lowering never mutates the AST); `text` replaces what inspect would read."""
    key = inspect.unwrap(fn)
    src = _SOURCES.get(key)
    if src is None or text is not None:
        src = _SOURCES[key] = Source(key, text)
    return src


def resolve_env(fn: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    """(closure variables, globals) of a function."""
    fn = inspect.unwrap(fn)
    closure: dict[str, Any] = {}
    for name, cell in zip(fn.__code__.co_freevars, fn.__closure__ or ()):
        try:
            closure[name] = cell.cell_contents
        except ValueError:
            pass
    return closure, fn.__globals__


def tname(t: Attribute) -> str:
    """A dialect type as the user writes it in Python."""
    if t == i1:
        return "bool"
    if sc.name(t) is not None:
        return cast(str, sc.name(t))
    if is_integer_type(t):
        return f"i{t.width.data}"
    if isinstance(t, Float16Type):
        return "f16"
    if isinstance(t, Float32Type):
        return "f32"
    if isinstance(t, Float64Type):
        return "f64"
    if isinstance(t, s.VecType):
        return f"Vec[{tname(t.element_type)}]" if t.ndim == 1 else f"Array[{tname(t.element_type)}, {t.ndim}]"
    if isinstance(t, s.ArrayType):
        return f"{t.memspace.value} array of {tname(t.element_type)}"
    if isinstance(t, s.RecordType | s.VariantType):
        return t.decl_name
    if isinstance(t, s.UnitType):
        return "None"
    if isinstance(t, s.RefType):
        return tname(t.element_type)
    return str(t)


def _is_num(t: Attribute) -> bool:
    return sc.is_integer(t) or is_float(t) or sc.is_bf16(t)


# ------------------------------------------------------------------------------------------------ bindings


@dataclass
class Binding:
    kind: str                    # "val" | "ref" | "vec" | "arr" | "param" | "pending"
    value: SSAValue | None
    type: Attribute | None = None
    anchor: tuple[Block, Operation | None] | None = None


class Signature:
    """A function's IR signature; `types` are the record/variant classes it names (a caller registers them, so
    a value it only gets from the call can still be matched or read by field)."""

    def __init__(self, name: str, params: list[tuple[str, Attribute]], ret: Attribute, types: list[Any] | None = None):
        self.name, self.params, self.ret = name, params, ret
        self.types: list[Any] = types or []


BUILTIN_CASTS = {int: i32, float: Float32Type(), bool: i1}


def _unsupported_messages() -> dict[type, str]:
    return {
        ast.Try: "'try' is not supported in kernels",
        ast.Raise: "'raise' is not supported in kernels",
        ast.Global: "'global' is not supported in kernels",
        ast.Nonlocal: "'nonlocal' is not supported in kernels",
        ast.FunctionDef: "nested functions (closures) are not supported: declare a @sarek.device function at "
                         "module level",
        ast.AsyncFunctionDef: "nested functions (closures) are not supported",
        ast.ClassDef: "class definitions are not supported inside kernels",
        ast.Import: "'import' is not supported inside kernels",
        ast.ImportFrom: "'import' is not supported inside kernels",
        ast.Delete: "'del' is not supported in kernels",
        ast.AsyncFor: "'async for' is not supported in kernels",
        ast.AsyncWith: "'async with' is not supported in kernels",
        ast.Lambda: "lambdas (closures) are not supported in kernels",
        ast.Yield: "generators ('yield') are not supported in kernels",
        ast.YieldFrom: "generators ('yield from') are not supported in kernels",
        ast.Await: "'await' is not supported in kernels",
        ast.ListComp: "comprehensions are not supported in kernels",
        ast.SetComp: "comprehensions are not supported in kernels",
        ast.DictComp: "comprehensions are not supported in kernels",
        ast.GeneratorExp: "generator expressions are not supported in kernels",
        ast.List: "lists are not supported in kernels (use shared() or local_array())",
        ast.Dict: "dicts are not supported in kernels",
        ast.Set: "sets are not supported in kernels",
        ast.JoinedStr: "strings are not supported in kernels",
        ast.NamedExpr: "':=' is not supported in kernels",
        ast.Starred: "'*' unpacking is not supported in kernels",
        ast.Slice: "slices are not supported in kernels",
    }


UNSUPPORTED = _unsupported_messages()


# ------------------------------------------------------------------------------------------------ the lowerer


class FunctionLowerer:
    """Lowers one function. `resolve_device(obj)` gives the Signature of a @device function (and records the
    dependency); `kind` is "kernel" or "helper"."""

    def __init__(self, fn: Any, kind: str, resolve_device: Any, name: str | None = None,
                 binding: dict[TypeVar, Any] | None = None):
        self.binding: dict[TypeVar, Any] = binding or {}  # a generic function's instantiation
        self.src = source_of(fn)
        self.fn = self.src.fn
        self.kind = kind
        self.name = name or self.fn.__name__
        self.resolve_device = resolve_device
        self.closure, self.globals = resolve_env(self.fn)
        self.types: list[Any] = []           # record/variant classes used
        self.vars: dict[str, Binding] = {}
        self.assigned: set[str] = set()
        self.partial_matches: dict[int, list[str]] = {}  # id(ast.Match) -> constructors it does not cover
        self.terminated = False
        self.loops: list[list[set[str]]] = []  # per enclosing loop: the assigned names at each of its breaks
        self.node: ast.AST = self.src.fdef
        self.block: Block = Block()
        self.ret_type: Attribute = s.UnitType()
        self.decl_infos: dict[str, Any] = {}

    # -------------------------------------------------------------------------------------------- utilities

    def err(self, node: ast.AST | None, message: str) -> CompileError:
        return self.src.error(node if node is not None else self.node, message)

    def emit(self, op: Operation, node: ast.AST | None = None) -> Operation:
        line, col = self.src.pos(node if node is not None else self.node)
        op.location = make_loc(self.src.file, line, col)
        self.block.add_op(op)
        return op

    def v(self, op: Operation, node: ast.AST | None = None) -> SSAValue:
        self.emit(op, node)
        return op.results[0]

    def ty(self, pytype: Any, node: ast.AST | None = None) -> Attribute:
        pytype = substitute(pytype, self.binding)
        unbound = type_vars([pytype])
        if unbound:
            raise self.err(node, f"type variable {unbound[0].name} has no type here (only the parameters' "
                                 "annotations bind it)")
        try:
            t = normalize_type(pytype)
            self._register(t)
            return ir_type(t)
        except TypeError as e:
            raise self.err(node, str(e)) from None

    def _register(self, t: Any) -> None:
        if isinstance(t, VecOf | ArrayOf):
            self._register(t.element)
            return
        r, v = record_info(t), variant_info(t)
        if r is not None:
            name = r.name
        elif v is not None:
            name = v.name
        else:
            return
        if name in self.decl_infos:
            if self.decl_infos[name].cls is not t:
                raise TypeError(f"two different types are named '{name}'")
            return
        self.decl_infos[name] = r or v
        self.types.append(t)
        if r is not None:
            for _, ft in r.fields:
                self._register(ft)
        elif v is not None:
            for _, ps in v.ctors:
                for p in ps:
                    self._register(p)

    def record_fields(self, t: s.RecordType) -> list[tuple[str, Attribute]]:
        info = self.decl_infos[t.decl_name]
        return [(n, ir_type(ft)) for n, ft in info.fields]

    def variant_ctors(self, t: s.VariantType) -> list[tuple[str, list[Attribute]]]:
        info = self.decl_infos[t.decl_name]
        return [(c, [ir_type(p) for p in ps]) for c, ps in info.ctors]

    def const(self, value: Any, t: Attribute, node: ast.AST | None = None) -> SSAValue:
        if t == i1:
            return self.v(s.ConstantOp(IntegerAttr(int(bool(value)), i1), i1), node)
        if sc.is_integer(t):
            value = int(value)
            lo, hi = sc.int_range(t)
            if not lo <= value <= hi:
                raise self.err(node, f"integer literal {value} does not fit in {tname(t)}")
            return self.v(s.ConstantOp(IntegerAttr(value, cast(IntegerType, t)), t), node)
        if sc.is_bf16(t):  # an f32 constant, rounded to bf16 by a cast (bf16 has no literal of its own)
            return self.v(s.CastOp(self.const(value, sc.F32, node), t), node)
        if is_float(t):
            value = float(value)
            narrow = _NARROW_FLOATS.get(tname(t))
            if narrow is not None and np.isfinite(value):
                with np.errstate(over="ignore"):
                    overflows = bool(np.isinf(narrow(value)))
                if overflows:
                    raise self.err(node, f"float literal {value!r} does not fit in {tname(t)} (its largest finite "
                                         f"value is {float(np.finfo(narrow).max)!r}); use f64 or a smaller value")
            return self.v(s.ConstantOp(FloatAttr(value, cast(AnyFloat, t)), t), node)
        raise self.err(node, f"no literal of type {tname(t)}")

    def default(self, t: Attribute, node: ast.AST | None) -> list[Operation]:
        """Ops computing the default value of t (not inserted); the value is the last op's result."""
        line, col = self.src.pos(node or self.node)
        loc = make_loc(self.src.file, line, col)
        ops: list[Operation] = []

        def go(t: Attribute) -> SSAValue:
            if t == i1:
                op: Operation = s.ConstantOp(IntegerAttr(0, i1), i1)
            elif sc.is_integer(t) or is_float(t):
                op = s.ConstantOp.from_value(0, t)
            elif sc.is_bf16(t):
                zero = go(sc.F32)
                op = s.CastOp(zero, t)
            elif isinstance(t, s.RecordType):
                op = s.MakeRecordOp(t.decl_name, [go(ft) for _, ft in self.record_fields(t)])
            elif isinstance(t, s.VariantType):
                c, ps = self.variant_ctors(t)[0]
                op = s.MakeVariantOp(t.decl_name, c, [go(p) for p in ps])
            else:
                raise self.err(node, f"a variable of type {tname(t)} cannot be mutable")
            op.location = loc
            ops.append(op)
            return op.results[0]

        go(t)
        return ops

    # -------------------------------------------------------------------------------------------- names

    def lookup_global(self, name: str, node: ast.AST) -> Any:
        if name in self.closure:
            v = self.closure[name]
            if isinstance(v, bool | int | float) and not isinstance(v, ScalarType):
                raise self.err(node, f"'{name}' is a variable of an enclosing function (a closure): kernels "
                                     "cannot capture variables; use a module-level constant or a parameter")
            return v
        if name in self.globals:
            return self.globals[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.err(node, f"unknown name '{name}'")

    def is_local(self, name: str) -> bool:
        return name in self.vars or name in self.info.locals

    def static(self, node: ast.expr) -> tuple[bool, Any]:
        """(True, obj) when node is a name/attribute chain naming a Python object (not a kernel value)."""
        if isinstance(node, ast.Name):
            if self.is_local(node.id):
                return False, None
            return True, self.lookup_global(node.id, node)
        if isinstance(node, ast.Attribute):
            ok, base = self.static(node.value)
            if not ok:
                return False, None
            if not hasattr(base, node.attr):
                what = getattr(base, "__name__", type(base).__name__)
                raise self.err(node, f"'{what}' has no attribute '{node.attr}'")
            return True, getattr(base, node.attr)
        return False, None

    def const_eval(self, node: ast.expr) -> Any:
        """The value of a constant expression (literals, module-level int/float/bool constants, + - * and
        float /), or None."""
        if isinstance(node, ast.Constant):
            return node.value if isinstance(node.value, int | float) else None
        if isinstance(node, ast.Name | ast.Attribute):
            try:
                ok, obj = self.static(node)
            except CompileError:
                return None
            if ok and isinstance(obj, int | float) and not isinstance(obj, ScalarType):
                return obj
            return None
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            x = self.const_eval(node.operand)
            if x is None or isinstance(x, bool):
                return None
            return -x if isinstance(node.op, ast.USub) else x
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add | ast.Sub | ast.Mult | ast.Div | ast.FloorDiv
                                                      | ast.Mod | ast.LShift | ast.RShift | ast.BitAnd | ast.BitOr
                                                      | ast.BitXor):
            a, b = self.const_eval(node.left), self.const_eval(node.right)
            if a is None or b is None or isinstance(a, bool) or isinstance(b, bool):
                return None
            ints = isinstance(a, int) and isinstance(b, int)
            if isinstance(node.op, ast.Div):
                if ints:
                    return None
                return a / b if b != 0 else None
            if isinstance(node.op, ast.BitAnd | ast.BitOr | ast.BitXor):
                if not ints:
                    return None
                return {ast.BitAnd: lambda: a & b, ast.BitOr: lambda: a | b, ast.BitXor: lambda: a ^ b}[type(node.op)]()
            if isinstance(node.op, ast.FloorDiv | ast.Mod | ast.LShift | ast.RShift):
                divides = isinstance(node.op, ast.FloorDiv | ast.Mod)
                if not ints or (divides and b == 0) or (not divides and not 0 <= b < 64):
                    return None
                if isinstance(node.op, ast.LShift | ast.RShift):  # 0 <= b < 64 (checked above)
                    return a << b if isinstance(node.op, ast.LShift) else a >> b
                q = abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1)   # C: truncate toward zero
                return q if isinstance(node.op, ast.FloorDiv) else a - q * b
            return {ast.Add: lambda: a + b, ast.Sub: lambda: a - b, ast.Mult: lambda: a * b}[type(node.op)]()
        return None

    def literal(self, value: Any, hint: Attribute | None, node: ast.AST) -> SSAValue:
        if isinstance(value, bool):
            return self.const(value, i1, node)
        if isinstance(value, int):
            if hint is not None and _is_num(hint):
                return self.const(value, hint, node)
            t = i32 if -(1 << 31) <= value < (1 << 31) else i64
            return self.const(value, t, node)
        if isinstance(value, float):
            return self.const(value, hint if hint is not None and (is_float(hint) or sc.is_bf16(hint)) else Float32Type(), node)
        raise self.err(node, f"unsupported constant {value!r}")

    # -------------------------------------------------------------------------------------------- entry

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
        for (n, t), arg in zip(sig.params, body.args):
            kind = "vec" if isinstance(t, s.VecType) else "arr" if isinstance(t, s.ArrayType) else "param"
            self.vars[n] = Binding(kind, arg, t)
        params = {n for n, _ in sig.params}
        f.body[:] = desugar_loop_else(f.body)  # for/while ... else: a break flag (idempotent)
        try:
            self.info: BodyInfo = analyze(f.body, params)
            for n in sorted(params & self.info.locals):
                site = _first_store(f.body, n)
                raise self.err(site, f"cannot assign to parameter '{n}' (parameters are read-only; copy it to a "
                                     "new local first)")
            for n, where in self.info.conflicts.items():
                what = "a parameter" if n in params else "also assigned"
                raise self.err(where, f"'{n}' is a loop index or match binder and {what}; use another name")
            self.block = body
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

    # -------------------------------------------------------------------------------------------- statements

    def stmts(self, body: list[ast.stmt], top: bool = False) -> None:
        for i, st in enumerate(body):
            self.node = st
            for n in self.info.hoist.get(id(st), []):
                self.vars[n] = Binding("pending", None, None, (self.block, self.block.last_op))
            if (top and self.kind == "kernel" and isinstance(st, ast.If) and not st.orelse and len(st.body) == 1
                    and isinstance(st.body[0], ast.Return) and st.body[0].value is None):
                # `if c: return` in a kernel: the rest of the body runs under `not c`
                c = self.cond(st.test)
                nc = self.v(s.UnOp("not", c), st.test)
                op = s.IfOp(nc)
                self.emit(op, st)
                self.in_block(op.then_region.block, lambda: self.stmts(body[i + 1:], top=True))
                return
            self.stmt(st)
            if isinstance(st, ast.Break | ast.Continue | ast.Return):
                return  # what follows in this block is never reached (and would follow a terminator)

    def in_block(self, block: Block, fn: Any) -> Any:
        saved = self.block
        self.block = block
        try:
            return fn()
        finally:
            self.block = saved

    def stmt(self, st: ast.stmt) -> None:
        if type(st) in UNSUPPORTED:
            raise self.err(st, UNSUPPORTED[type(st)])
        m = getattr(self, f"stmt_{type(st).__name__}", None)
        if m is None:
            raise self.err(st, f"'{type(st).__name__}' statements are not supported in kernels")
        m(st)

    def stmt_Pass(self, st: ast.Pass) -> None:
        pass

    def stmt_Break(self, st: ast.Break) -> None:
        self.loop_exit(st, s.BreakOp(), "break")

    def stmt_Continue(self, st: ast.Continue) -> None:
        self.loop_exit(st, s.ContinueOp(), "continue")

    def loop_exit(self, st: ast.stmt, op: Operation, what: str) -> None:
        """`break` / `continue`: the op, and (for the definite-assignment rule) the path ends here; a `break`
        records what it has assigned, which is what a `while True:` loop has assigned after it."""
        if not self.loops:
            raise self.err(st, f"'{what}' outside a loop")
        if what == "break":
            self.loops[-1].append(set(self.assigned))
        self.emit(op, st)
        self.terminated = True

    def stmt_Assert(self, st: ast.Assert) -> None:
        """`assert cond, "message"`: checked in debug mode (the message, else the condition's text, located
        here); release builds drop it."""
        c = self.cond(st.test)
        if st.msg is None:
            msg = f"assert {ast.unparse(st.test)}"
        elif isinstance(st.msg, ast.Constant) and isinstance(st.msg.value, str):
            msg = st.msg.value
        else:
            raise self.err(st.msg, "the message of 'assert' must be a string literal, e.g. assert i < n, \"i out "
                                   "of range\"")
        self.emit(s.AssertOp(c, msg), st)

    def stmt_Expr(self, st: ast.Expr) -> None:
        e = st.value
        if isinstance(e, ast.Constant):
            return  # docstring / `...`
        if isinstance(e, ast.Call):
            self.call(e, None, statement=True)
            return
        if type(e) in UNSUPPORTED:
            raise self.err(e, UNSUPPORTED[type(e)])
        raise self.err(e, "this expression statement has no effect")

    def stmt_Return(self, st: ast.Return) -> None:
        if self.kind == "kernel":
            if st.value is not None and not (isinstance(st.value, ast.Constant) and st.value.value is None):
                raise self.err(st, "a kernel returns nothing: write a bare 'return' to end this thread's work "
                                   "(results go into its vectors)")
            self.emit(s.ReturnOp(), st)
        elif isinstance(self.ret_type, s.UnitType):
            if st.value is not None and not (isinstance(st.value, ast.Constant) and st.value.value is None):
                raise self.err(st, f"device function '{self.name}' returns nothing (annotate its return type to "
                                   "return a value)")
            self.emit(s.ReturnOp(), st)
        else:
            if st.value is None:
                raise self.err(st, f"device function '{self.name}' must return a {tname(self.ret_type)}")
            v = self.expr(st.value, self.ret_type)
            if v.type != self.ret_type:
                raise self.err(st.value, f"type mismatch: device function '{self.name}' returns "
                                         f"{tname(self.ret_type)}, this return gives {tname(v.type)}")
            self.emit(s.ReturnOp(v), st)
        self.terminated = True

    # assignments

    def stmt_Assign(self, st: ast.Assign) -> None:
        if len(st.targets) == 1 and isinstance(st.targets[0], ast.Name) and isinstance(st.value, ast.Call):
            ok, obj = self.static(st.value.func)
            if ok and isinstance(obj, GpuFunction) and obj.kind == "alloc":
                self.alloc(st.targets[0], st.value, obj)
                return
        if len(st.targets) == 1 and isinstance(st.targets[0], ast.Tuple | ast.List):
            t = st.targets[0]
            if not isinstance(st.value, ast.Tuple | ast.List) or len(st.value.elts) != len(t.elts):
                raise self.err(st, "tuple assignment needs a tuple of the same length on the right")
            hints = [self.target_type(x) for x in t.elts]
            vals = [self.expr(e, h) for e, h in zip(st.value.elts, hints)]
            for x, val, e in zip(t.elts, vals, st.value.elts):
                self.assign(x, val, e, None)
            return
        if len(st.targets) == 1:
            hint = self.target_type(st.targets[0])
            val = self.expr(st.value, hint)
            self.assign(st.targets[0], val, st.value, None)
            return
        val = self.expr(st.value, self.target_type(st.targets[0]))
        for t in st.targets:
            self.assign(t, val, st.value, None)

    def stmt_AnnAssign(self, st: ast.AnnAssign) -> None:
        if st.value is None:
            raise self.err(st, "a declaration needs a value (write 'x: f32 = 0.0')")
        if not isinstance(st.target, ast.Name):
            raise self.err(st.target, "only a local variable can be annotated")
        ok, ann = self.static(st.annotation)
        if not ok:
            raise self.err(st.annotation, "the annotation must name a type")
        t = self.ty(ann, st.annotation)
        val = self.expr(st.value, t)
        self.assign(st.target, val, st.value, t)

    def target_type(self, t: ast.expr) -> Attribute | None:
        """The type a store to t expects (a hint for literals), when already known."""
        if isinstance(t, ast.Name):
            b = self.vars.get(t.id)
            if b is not None and b.kind == "ref":
                return b.type
            return None
        try:
            if isinstance(t, ast.Subscript):
                ok, _ = self.static(t.value)
                if ok:
                    return None
                b = self._array_type_of(t.value)
                return b.element_type if b is not None else None
            if isinstance(t, ast.Attribute):
                base = self.target_type(t.value) if not isinstance(t.value, ast.Name) else self._name_type(t.value)
                if isinstance(base, s.RecordType):
                    return dict(self.record_fields(base)).get(t.attr)
        except CompileError:
            return None
        return None

    def _name_type(self, n: ast.Name) -> Attribute | None:
        b = self.vars.get(n.id)
        if b is None or b.kind == "pending":
            return None
        return b.type if b.type is not None else (b.value.type if b.value is not None else None)

    def _array_type_of(self, e: ast.expr) -> Any:
        if isinstance(e, ast.Name):
            t = self._name_type(e)
            return t if isinstance(t, s.VecType | s.ArrayType) else None
        return None

    def assign(self, target: ast.expr, val: SSAValue, vnode: ast.AST, ann: Attribute | None) -> None:
        if isinstance(target, ast.Name):
            self.assign_name(target, val, vnode, ann)
        elif isinstance(target, ast.Subscript | ast.Attribute):
            place = self.place(target)
            want = cast(s.RefType, place.type).element_type
            val = self.convert(val, want, vnode)
            if val.type != want:
                raise self.err(vnode, f"type mismatch: cannot store {tname(val.type)} into "
                                      f"{self._place_desc(target)} of type {tname(want)}")
            self.emit(s.StoreOp(place, val), target)
        else:
            raise self.err(target, "cannot assign to this expression")

    def _place_desc(self, t: ast.expr) -> str:
        return f"field '{t.attr}'" if isinstance(t, ast.Attribute) else "an element"

    def assign_name(self, target: ast.Name, val: SSAValue, vnode: ast.AST, ann: Attribute | None) -> None:
        n = target.id
        b = self.vars.get(n)
        if b is not None and b.kind in ("param", "vec", "arr") and n not in self.info.locals:
            what = "vector parameter" if b.kind == "vec" else "array" if b.kind == "arr" else "parameter"
            raise self.err(target, f"cannot assign to {what} '{n}' (parameters are read-only; copy it to a new "
                                   "local first)")
        if b is not None and b.kind in ("param", "vec", "arr"):
            raise self.err(target, f"cannot assign to parameter '{n}' (parameters are read-only)")
        if n in self.info.scoped and n not in self.info.locals:
            raise self.err(target, f"cannot assign to loop index or match binder '{n}'")
        if ann is not None:
            val = self.convert(val, ann, vnode)
        if ann is not None and val.type != ann:
            raise self.err(vnode, f"type mismatch: '{n}' is declared {tname(ann)}, the value is {tname(val.type)}")
        if isinstance(val.type, s.VecType | s.ArrayType):
            if n in self.info.mutable:
                raise self.err(target, f"'{n}' names a vector or array and cannot be reassigned")
            self.vars[n] = Binding("vec" if isinstance(val.type, s.VecType) else "arr", val, val.type)
            self.assigned.add(n)
            return
        if not s.is_element_type(val.type):
            raise self.err(vnode, f"cannot bind a value of type {tname(val.type)}")
        if n in self.info.mutable:
            if b is None:
                op = s.LetMutOp(n, val)
                self.emit(op, target)
                self.vars[n] = Binding("ref", op.result, val.type)
            else:
                if b.kind == "pending":
                    assert b.anchor is not None
                    ops = self.default(val.type, target)
                    cell = s.LetMutOp(n, ops[-1].results[0])
                    cell.location = ops[-1].location
                    ops.append(cell)
                    blk, after = b.anchor
                    if after is None:
                        if blk.first_op is None:
                            blk.add_ops(ops)
                        else:
                            blk.insert_ops_before(ops, blk.first_op)
                    else:
                        blk.insert_ops_after(ops, after)
                    b = Binding("ref", cell.result, val.type)
                    self.vars[n] = b
                val = self.convert(val, cast(Attribute, b.type), vnode)
                if b.type != val.type:
                    raise self.err(vnode, f"type mismatch: '{n}' has type {tname(cast(Attribute, b.type))} (fixed by its first "
                                          f"assignment), the value is {tname(val.type)}")
                self.emit(s.StoreOp(cast(SSAValue, b.value), val), target)
        else:
            op = s.LetOp(n, val)
            self.emit(op, target)
            self.vars[n] = Binding("val", op.result, val.type)
        self.assigned.add(n)

    def place(self, t: ast.expr) -> SSAValue:
        """The ref of an assignable place: `v[i]`, `p.f` (p a mutable local), `v[i].f`, nested fields."""
        if isinstance(t, ast.Subscript):
            arr = self.expr(t.value)
            if not isinstance(arr.type, s.VecType | s.ArrayType):
                raise self.err(t.value, f"cannot index a value of type {tname(arr.type)}")
            return self.v(s.ElemRefOp(arr, self.indices(arr, t)), t)
        if isinstance(t, ast.Attribute):
            if isinstance(t.value, ast.Name):
                n = t.value.id
                b = self.vars.get(n)
                if b is not None and b.kind == "param":
                    raise self.err(t, f"cannot assign to a field of parameter '{n}' (parameters are read-only; "
                                      "copy it to a local first)")
                self.check_assigned(t.value)
                if b is None or b.kind != "ref":
                    ok, _ = self.static(t.value)
                    if ok:
                        raise self.err(t, f"cannot assign to '{n}.{t.attr}'")
                    raise self.err(t, f"cannot assign to a field of '{n}'")
                base = b.value
            else:
                base = self.place(t.value)
            assert base is not None
            rt = cast(s.RefType, base.type).element_type
            if not isinstance(rt, s.RecordType):
                raise self.err(t, f"a value of type {tname(rt)} has no field '{t.attr}'")
            ft = dict(self.record_fields(rt)).get(t.attr)
            if ft is None:
                raise self.err(t, f"record {rt.decl_name} has no field '{t.attr}'")
            return self.v(s.FieldRefOp(base, t.attr, ft), t)
        raise self.err(t, "cannot assign to this expression")

    def stmt_AugAssign(self, st: ast.AugAssign) -> None:
        t = st.target
        if isinstance(t, ast.Name):
            b = self.vars.get(t.id)
            if b is not None and b.kind in ("param", "vec", "arr"):
                raise self.err(t, f"cannot assign to parameter '{t.id}' (parameters are read-only)")
            if t.id in self.info.scoped and t.id not in self.info.locals:
                raise self.err(t, f"cannot assign to loop index or match binder '{t.id}'")
            cur = self.expr(t)
            b = self.vars[t.id]
            new = self.convert(self.binop_values(st.op, cur, st.value, st), cur.type, st)
            if new.type != cur.type:
                raise self.err(st, f"type mismatch: '{t.id}' has type {tname(cur.type)}, the result is "
                                   f"{tname(new.type)}")
            self.emit(s.StoreOp(cast(SSAValue, b.value), new), st)
            return
        # otherwise t is an ast.Subscript or ast.Attribute (the only other AugAssign targets)
        p = self.place(t)
        cur = self.v(s.LoadOp(p), t)
        new = self.convert(self.binop_values(st.op, cur, st.value, st), cur.type, st)
        if new.type != cur.type:
            raise self.err(st, f"type mismatch: the place has type {tname(cur.type)}, the result is "
                               f"{tname(new.type)}")
        self.emit(s.StoreOp(p, new), st)

    def alloc(self, target: ast.Name, call: ast.Call, fn: GpuFunction) -> None:
        n = target.id
        if n in self.info.mutable:
            raise self.err(target, f"'{n}' names a {fn.name} array and cannot be reassigned")
        if call.keywords or len(call.args) != 2:
            raise self.err(call, f"{fn.name}(T, size) takes 2 arguments, {len(call.args)} given")
        ok, elt = self.static(call.args[0])
        if not ok:
            raise self.err(call.args[0], f"the first argument of {fn.name}() must be an element type")
        et = self.ty(elt, call.args[0])
        if not s.is_element_type(et):
            raise self.err(call.args[0], f"{type_name(elt)} cannot be an array element type")
        shape = call.args[1]
        dims = shape.elts if isinstance(shape, ast.Tuple) else [shape]
        if isinstance(shape, ast.Tuple) and not 1 <= len(dims) <= s.MAX_RANK:
            raise self.err(shape, f"{fn.name}() takes a shape of 1 to {s.MAX_RANK} extents, got {len(dims)}")
        sizes: list[SSAValue] = []
        for d in dims:
            c = self.const_eval(d)
            if isinstance(shape, ast.Tuple) and (not isinstance(c, int) or isinstance(c, bool)):
                raise self.err(d, f"the extents of an N-dimensional {fn.name}() array must be constant integers")
            if isinstance(c, int) and not isinstance(c, bool) and c <= 0:
                raise self.err(d, f"{fn.name}() needs a positive size, got {c}")
            size = self.expr(d, i32)
            if size.type != i32:
                raise self.err(d, f"type mismatch: an array size is i32, got {tname(size.type)}")
            sizes.append(size)
        space = "shared" if fn.name == "shared" else "local"
        a = self.v(s.AllocArrayOp(n, sizes, s.ArrayType(et, space, len(sizes))), call)
        self.vars[n] = Binding("arr", a, a.type)
        self.assigned.add(n)

    # control flow

    def cond(self, node: ast.expr) -> SSAValue:
        c = self.expr(node, i1)
        if c.type != i1:
            raise self.err(node, f"a condition must be bool, got {tname(c.type)} (compare it, e.g. 'x != 0')")
        return c

    def branch(self, block: Block, body: list[ast.stmt]) -> tuple[set[str], bool]:
        saved_a, saved_t = set(self.assigned), self.terminated
        self.terminated = False
        self.in_block(block, lambda: self.stmts(body))
        out = (self.assigned, self.terminated)
        self.assigned, self.terminated = saved_a, saved_t
        return out

    def join(self, outs: list[tuple[set[str], bool]]) -> None:
        live = [a for a, t in outs if not t]
        if not live:
            self.terminated = True
            return
        res = set(live[0])
        for a in live[1:]:
            res &= a
        self.assigned = res

    def stmt_If(self, st: ast.If) -> None:
        c = self.cond(st.test)
        op = s.IfOp(c, Region(Block()), Region(Block()) if st.orelse else Region())
        self.emit(op, st)
        outs = [self.branch(op.then_region.block, st.body)]
        if st.orelse:
            outs.append(self.branch(op.else_region.block, st.orelse))
        else:
            outs.append((set(self.assigned), False))
        self.join(outs)

    def stmt_While(self, st: ast.While) -> None:
        assert not st.orelse, "rewritten by sarek.frontend.loop_else"
        cond_block = Block()
        op = s.WhileOp(Region(cond_block), Region(Block()))

        def mk() -> None:
            c = self.cond(st.test)
            self.emit(s.YieldOp(c), st.test)

        self.in_block(cond_block, mk)
        self.emit(op, st)
        breaks = self.loop_body(op.body.block, st.body)
        if isinstance(st.test, ast.Constant) and st.test.value is True:
            # `while True:` ends only through a break: what every break has assigned is assigned after it
            if not breaks:
                self.terminated = True
            else:
                self.assigned = breaks[0].intersection(*breaks[1:])

    def loop_body(self, block: Block, body: list[ast.stmt]) -> list[set[str]]:
        """Lower a loop body; gives what each `break` of this loop had assigned."""
        self.loops.append([])
        try:
            self.branch(block, body)
        finally:
            breaks = self.loops.pop()
        return breaks

    def stmt_For(self, st: ast.For) -> None:
        assert not st.orelse, "rewritten by sarek.frontend.loop_else"
        if not isinstance(st.target, ast.Name):
            raise self.err(st.target, "the loop variable must be a plain name")
        it = st.iter
        ok, fn = (self.static(it.func) if isinstance(it, ast.Call) else (False, None))
        if not ok or fn is not range:
            raise self.err(it, "only 'for i in range(...)' loops are supported")
        assert isinstance(it, ast.Call)
        if it.keywords or not 1 <= len(it.args) <= 3:
            raise self.err(it, f"range() takes 1 to 3 arguments, {len(it.args)} given")
        args = it.args
        step: int | SSAValue = 1
        step_v = None
        if len(args) == 3:
            step_v = self.const_eval(args[2])
            if isinstance(step_v, bool) or isinstance(step_v, float):
                raise self.err(args[2], f"the range step must be an integer, got {step_v!r}")
            if step_v == 0:
                raise self.err(args[2], "the range step must not be zero")
            if isinstance(step_v, int):
                step = step_v
        if len(args) == 1:
            hi = self.expr(args[0], i32)
            lo = self.const(0, hi.type if is_int(hi.type) else i32, args[0])
        else:
            lo_n, hi_n = args[0], args[1]
            if len(args) == 3 and step_v is None and self.const_eval(lo_n) is not None and self.const_eval(hi_n) is not None:
                step = self.expr(args[2], i32)  # literal bounds take the run-time step's type
                lo = self.expr(lo_n, step.type)
                hi = self.expr(hi_n, step.type)
            elif self.const_eval(lo_n) is not None and self.const_eval(hi_n) is None:
                hi = self.expr(hi_n, i32)
                lo = self.expr(lo_n, hi.type)
            else:
                lo = self.expr(lo_n, i32)
                hi = self.expr(hi_n, lo.type)
        if sc.is_integer(lo.type) and sc.is_integer(hi.type):
            lo, hi = self.conversions(lo, hi, it)
        for v, n in ((lo, args[0] if len(args) > 1 else it), (hi, args[1] if len(args) > 1 else args[0])):
            if sc.is_unsigned(v.type):
                raise self.err(n, f"range bounds must be i32 or i64, got {tname(v.type)} (convert it, e.g. "
                                  f"range(i32(n)))")
            if not is_int(v.type):
                raise self.err(n, f"range bounds must be integers, got {tname(v.type)}")
        if lo.type != hi.type:
            raise self.err(it, f"type mismatch: range bounds are {tname(lo.type)} and {tname(hi.type)}")
        if len(args) == 3 and step_v is None:
            if not isinstance(step, SSAValue):
                step = self.expr(args[2], lo.type)
            if step.type != lo.type:
                raise self.err(args[2], f"type mismatch: the range bounds are {tname(lo.type)}, the step is "
                                        f"{tname(step.type)}")
            # a zero step is Python's ValueError: checked in debug mode, no iteration otherwise
            nonzero = self.v(s.BinOp("ne", step, self.const(0, step.type, args[2])), args[2])
            self.emit(s.AssertOp(nonzero, "range() step must not be zero"), args[2])
        op = s.ForOp(st.target.id, lo, hi, step)
        self.emit(op, st)
        name = st.target.id
        saved = self.vars.get(name)
        self.vars[name] = Binding("val", op.index, lo.type)
        self.loop_body(op.body.block, st.body)
        if saved is None:
            del self.vars[name]
        else:
            self.vars[name] = saved

    def stmt_Match(self, st: ast.Match) -> None:
        subj = self.expr(st.subject)
        if not isinstance(subj.type, s.VariantType):
            raise self.err(st.subject, f"match needs a variant value, got {tname(subj.type)}")
        vt = subj.type
        ctors = dict(self.variant_ctors(vt))
        cases: list[str] = []
        binders: list[list[str]] = []
        regions: list[Region] = []
        bodies: list[tuple[ast.match_case, Block, list[tuple[str, SSAValue]]]] = []
        has_default = False
        for i, c in enumerate(st.cases):
            if c.guard is not None:
                raise self.err(c.guard, "match guards ('case ... if ...') are not supported")
            p = c.pattern
            if isinstance(p, ast.MatchAs) and p.pattern is None:
                if i != len(st.cases) - 1:
                    raise self.err(p, "the catch-all case must be the last")
                has_default = True
                names = [p.name] if p.name else []
                blk = Block(arg_types=[vt] * len(names))
                cases.append(s.WILDCARD)
            elif isinstance(p, ast.MatchClass):
                ok, ctor = self.static(p.cls)
                if not ok or not isinstance(ctor, VariantCtor):
                    raise self.err(p.cls, "a case pattern must name a variant constructor, e.g. "
                                          "'case Shape.Circle(r):'")
                if ctor.variant.__name__ != vt.decl_name:
                    raise self.err(p.cls, f"type mismatch: {ctor!r} is a constructor of {ctor.variant.__name__}, "
                                          f"the value is {tname(vt)}")
                if p.kwd_patterns:
                    raise self.err(p, "keyword patterns are not supported; bind payloads by position")
                ps = ctors[ctor.name]
                if p.patterns and len(p.patterns) != len(ps):
                    raise self.err(p, f"{ctor!r} has {len(ps)} payload value(s), the pattern binds "
                                      f"{len(p.patterns)}")
                names: list[str] = []
                for q in p.patterns:
                    if not (isinstance(q, ast.MatchAs) and q.pattern is None):
                        raise self.err(q, "nested patterns are not supported; bind the payload to a name")
                    names.append(q.name or "_")
                if ctor.name in cases:
                    raise self.err(p, f"constructor {ctor!r} is matched twice")
                blk = Block(arg_types=ps if names else [])
                cases.append(ctor.name)
            else:
                raise self.err(p, "unsupported pattern: use 'case Variant.Ctor(x, ...):' or 'case _:'")
            binders.append(names)
            regions.append(Region(blk))
            bodies.append((c, blk, list(zip(names, blk.args))))
        op = s.MatchOp(subj, cases, binders, regions)
        self.emit(op, st)
        outs: list[tuple[set[str], bool]] = []
        for c, blk, binds in bodies:
            saved = {n: self.vars.get(n) for n, _ in binds}
            for n, a in binds:
                if n != "_":
                    self.vars[n] = Binding("val", a, a.type)
            outs.append(self.branch(blk, c.body))
            for n, b in saved.items():
                if b is None:
                    self.vars.pop(n, None)
                else:
                    self.vars[n] = b
        if not has_default and set(cases) != set(ctors):
            outs.append((set(self.assigned), False))
            self.partial_matches[id(st)] = [f"{vt.decl_name}.{c}" for c in ctors if c not in cases]
        self.join(outs)

    def stmt_With(self, st: ast.With) -> None:
        if len(st.items) != 1 or st.items[0].optional_vars is not None:
            raise self.err(st, "only 'with pragma(...):' and 'with superstep():' are supported")
        e = st.items[0].context_expr
        ok, fn = self.static(e.func) if isinstance(e, ast.Call) else (False, None)
        if not ok or not isinstance(fn, GpuFunction) or fn.kind != "context":
            raise self.err(e, "only 'with pragma(...):' and 'with superstep():' are supported")
        assert isinstance(e, ast.Call)
        if fn.name == "pragma":
            hints: list[str] = []
            for a in e.args:
                if not (isinstance(a, ast.Constant) and isinstance(a.value, str) and a.value):
                    raise self.err(a, "pragma hints are non-empty strings, e.g. pragma(\"unroll\")")
                hints.append(a.value)
            if e.keywords:
                raise self.err(e, "pragma() takes only string hints")
            op: Operation = s.PragmaOp(hints)
            self.emit(op, st)
            out = self.branch(op.regions[0].block, st.body)
            self.join([out])
        else:
            divergent = False
            for k in e.keywords:
                if k.arg != "divergent":
                    raise self.err(k, f"superstep() has no argument '{k.arg}'")
                divergent = self.const_eval(k.value)
                if not isinstance(divergent, bool):
                    raise self.err(k.value, "superstep(divergent=...) takes a constant True or False")
            if e.args:
                raise self.err(e, "superstep() takes no positional argument")
            op = s.BlockOp(superstep="divergent" if divergent else "")
            self.emit(op, st)
            out = self.branch(op.regions[0].block, st.body)
            self.join([out])
            self.emit(s.BarrierOp(), st)

    # -------------------------------------------------------------------------------------------- expressions

    def check_assigned(self, node: ast.Name) -> None:
        n = node.id
        if n in self.info.locals and n not in self.assigned:
            raise self.err(node, f"local variable '{n}' is used before it is assigned (on some path)")

    def expr(self, node: ast.expr, hint: Attribute | None = None) -> SSAValue:
        if type(node) in UNSUPPORTED:
            raise self.err(node, UNSUPPORTED[type(node)])
        saved = self.node
        self.node = node
        try:
            m = getattr(self, f"expr_{type(node).__name__}", None)
            if m is None:
                raise self.err(node, f"unsupported expression ({type(node).__name__})")
            return m(node, hint)
        finally:
            self.node = saved

    def expr_Constant(self, node: ast.Constant, hint: Attribute | None) -> SSAValue:
        if node.value is None:
            raise self.err(node, "None is not a value in kernels")
        if isinstance(node.value, str | bytes):
            raise self.err(node, "strings are not supported in kernels")
        return self.literal(node.value, hint, node)

    def expr_Name(self, node: ast.Name, hint: Attribute | None) -> SSAValue:
        n = node.id
        if n in self.vars and self.vars[n].kind != "pending" and (n not in self.info.locals or n in self.assigned):
            b = self.vars[n]
            if b.kind == "ref":
                return self.v(s.LoadOp(cast(SSAValue, b.value)), node)
            assert b.value is not None
            return b.value
        if n in self.info.locals or n in self.vars:
            self.check_assigned(node)
            raise self.err(node, f"local variable '{n}' is used before it is assigned (on some path)")
        if n in self.info.scoped:
            raise self.err(node, f"'{n}' is a loop index or match binder and is not defined here")
        obj = self.lookup_global(n, node)
        return self.static_value(obj, node, hint)

    def static_value(self, obj: Any, node: ast.AST, hint: Attribute | None) -> SSAValue:
        if isinstance(obj, bool | int | float) and not isinstance(obj, ScalarType):
            return self.literal(obj, hint, node)
        if hasattr(obj, "dtype") and hasattr(obj, "item") and getattr(obj, "shape", None) == ():
            return self.literal(cast(Any, obj).item(), hint, node)   # numpy scalar constant
        if isinstance(obj, GpuValue):
            return self.v(s.IntrinsicOp(obj.intrinsic, []), node)
        if isinstance(obj, VariantCtor):
            if obj.payload_types:
                raise self.err(node, f"{obj!r} needs its payload: {obj!r}(...)")
            vt = cast(s.VariantType, self.ty(obj.variant, node))
            return self.v(s.MakeVariantOp(vt.decl_name, obj.name, []), node)
        what = getattr(obj, "__name__", None) or repr(obj)
        if isinstance(obj, GpuFunction | MathFunction) or callable(obj):
            raise self.err(node, f"'{what}' is a function; call it")
        raise self.err(node, f"'{what}' cannot be used in a kernel (only int, float and bool module constants "
                             "are folded)")

    def expr_Attribute(self, node: ast.Attribute, hint: Attribute | None) -> SSAValue:
        ok, obj = self.static(node)
        if ok:
            return self.static_value(obj, node, hint)
        base = self.expr(node.value)
        if not isinstance(base.type, s.RecordType):
            raise self.err(node, f"a value of type {tname(base.type)} has no field '{node.attr}'")
        ft = dict(self.record_fields(base.type)).get(node.attr)
        if ft is None:
            raise self.err(node, f"record {base.type.decl_name} has no field '{node.attr}'")
        return self.v(s.FieldOp(base, node.attr, ft), node)

    def index(self, node: ast.expr) -> SSAValue:
        i = self.expr(node, i32)
        if not sc.is_integer(i.type):
            raise self.err(node, f"an index must be an integer, got {tname(i.type)}")
        if not is_int(i.type):  # 8/16-bit and ui32 indices are converted to i32, ui64 to i64
            i = self.v(s.CastOp(i, i64 if sc.int_width(i.type) == 64 else i32), node)
        return i

    def indices(self, arr: SSAValue, t: ast.Subscript) -> list[SSAValue]:
        """The indices of `a[i]` / `a[i, j]`, one per dimension of `a` (row-major)."""
        rank = cast(s.VecType | s.ArrayType, arr.type).ndim
        elts = t.slice.elts if isinstance(t.slice, ast.Tuple) else [t.slice]
        if len(elts) != rank:
            what = f"'{t.value.id}'" if isinstance(t.value, ast.Name) else "this array"
            raise self.err(t.slice, f"{what} is {tname(arr.type)}: it takes {rank} ind{'ex' if rank == 1 else 'ices'}"
                                    f" (a[{', '.join('ijkl'[:rank])}]), got {len(elts)}")
        return [self.index(e) for e in elts]

    def shape_of(self, arr: SSAValue, k: int, node: ast.AST) -> SSAValue:
        """Extent `k` of an array: the length or shape passed with a vector, the size of a shared/local one."""
        at = cast(s.VecType | s.ArrayType, arr.type)
        if not 0 <= k < at.ndim:
            raise self.err(node, f"shape[{k}] is out of range: the array is {tname(at)} (rank {at.ndim})")
        if isinstance(arr.owner, s.AllocArrayOp):
            return arr.owner.sizes[k]
        if not isinstance(at, s.VecType):
            raise self.err(node, f"the shape of a {tname(at)} parameter is not known here")
        return self.v(s.ArrayLenOp(arr) if at.ndim == 1 else s.ArrayDimOp(arr, k), node)

    def expr_Subscript(self, node: ast.Subscript, hint: Attribute | None) -> SSAValue:
        ok, obj = self.static(node.value)
        if ok:
            raise self.err(node, f"cannot index '{getattr(obj, '__name__', obj)}' in a kernel")
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            base = self.expr(node.value.value)
            if isinstance(base.type, s.VecType | s.ArrayType):
                k = self.const_eval(node.slice)
                if not isinstance(k, int) or isinstance(k, bool):
                    raise self.err(node.slice, "a.shape[k] needs a constant integer k")
                return self.shape_of(base, k, node)
        a = self.expr(node.value)
        if not isinstance(a.type, s.VecType | s.ArrayType):
            raise self.err(node.value, f"cannot index a value of type {tname(a.type)}")
        return self.v(s.ArrayReadOp(a, self.indices(a, node)), node)

    def operands(self, left: ast.expr, right: ast.expr, hint: Attribute | None) -> tuple[SSAValue, SSAValue]:
        lc, rc = self.const_eval(left), self.const_eval(right)
        if lc is not None and rc is None:
            r = self.expr(right, hint)
            return self.expr(left, sc.promote(r.type)), r
        if hint is None and _wider_literal(rc, lc):
            r = self.expr(right, None)
            return self.expr(left, r.type), r
        lv = self.expr(left, hint)
        return lv, self.expr(right, sc.promote(lv.type))

    def expr_BinOp(self, node: ast.BinOp, hint: Attribute | None) -> SSAValue:
        c = self.const_eval(node)
        if c is not None and not isinstance(c, bool):
            return self.literal(c, hint, node)
        lc, rc = self.const_eval(node.left), self.const_eval(node.right)
        if lc is not None and rc is None:
            r = self.expr(node.right, hint)
            lv = self.expr(node.left, sc.promote(r.type))
            return self.arith(node.op, lv, r, node)
        lv = self.expr(node.left, hint)
        return self.binop_values(node.op, lv, node.right, node)

    def binop_values(self, op: ast.operator, lv: SSAValue, right: ast.expr, node: ast.AST) -> SSAValue:
        rh = sc.promote(lv.type)
        if isinstance(op, ast.Pow) and sc.is_integer(lv.type):
            lv = self.promoted(lv, node)
            e = self.const_eval(right)
            if isinstance(e, int) and 0 <= e <= 32:
                if e == 0:
                    return self.const(1, lv.type, node)
                acc = lv
                for _ in range(e - 1):
                    acc = self.v(s.BinOp("mul", acc, lv), node)
                return acc
            raise self.err(node, "integer '**' needs a constant exponent between 0 and 32 (use floats and "
                                 "sarek.math.pow otherwise)")
        rv = self.expr(right, rh)
        return self.arith(op, lv, rv, node)

    OPS: ClassVar[dict[type[ast.operator], tuple[str, str]]] = {ast.Add: ("add", "+"), ast.Sub: ("sub", "-"), ast.Mult: ("mul", "*"), ast.Div: ("div", "/"),
           ast.FloorDiv: ("div", "//"), ast.Mod: ("rem", "%"), ast.LShift: ("shl", "<<"),
           ast.RShift: ("shr", ">>"), ast.BitAnd: ("bitand", "&"), ast.BitOr: ("bitor", "|"),
           ast.BitXor: ("bitxor", "^"), ast.Pow: ("pow", "**"), ast.MatMult: ("", "@")}

    def arith(self, op: ast.operator, lv: SSAValue, rv: SSAValue, node: ast.AST) -> SSAValue:
        kind, sym = self.OPS[type(op)]
        if not kind:
            raise self.err(node, f"operator '{sym}' is not supported")
        lv, rv = self.conversions(lv, rv, node, shift=kind in ("shl", "shr"))
        lt, rt = lv.type, rv.type
        if lt != rt:
            raise self.err(node, f"type mismatch in '{sym}': {tname(lt)} and {tname(rt)} (convert one side, e.g. "
                                 f"{tname(rt) if _is_num(rt) else 'f32'}(x))")
        t = lt
        if t == i1:
            if kind == "bitand":
                return self.v(s.BinOp("and", lv, rv), node)
            if kind == "bitor":
                return self.v(s.BinOp("or", lv, rv), node)
            if kind == "bitxor":
                return self.v(s.BinOp("ne", lv, rv), node)
            raise self.err(node, f"operator '{sym}' does not apply to bool")
        if not _is_num(t):
            raise self.err(node, f"operator '{sym}' does not apply to {tname(t)}")
        if is_float(t):
            if kind in ("shl", "shr", "bitand", "bitor", "bitxor"):
                raise self.err(node, f"operator '{sym}' needs integers, got {tname(t)}")
            if sym == "//":  # truncating, like integer `//` and like `%` (C's fmod): (x // y) * y + x % y == x
                q = self.v(s.BinOp("div", lv, rv), node)
                return self.v(s.IntrinsicOp("trunc", [q]), node)
            if kind == "rem":
                return self.v(s.IntrinsicOp("fmod", [lv, rv]), node)
            if kind == "pow":
                return self.v(s.IntrinsicOp("pow", [lv, rv]), node)
            return self.v(s.BinOp(kind, lv, rv), node)
        if sym == "/":
            raise self.err(node, f"'/' on integers ({tname(t)}) is not supported: use '//' for integer division "
                                 "or convert to a float type")
        if kind == "pow":
            raise self.err(node, "integer '**' needs a constant exponent")
        return self.v(s.BinOp(kind, lv, rv), node)

    def promoted(self, v: SSAValue, node: ast.AST) -> SSAValue:
        """C's integer promotions (8/16-bit integers to i32) and bf16 to f32, as an explicit cast."""
        p = sc.promote(v.type)
        return v if p == v.type else self.v(s.CastOp(v, p), node)

    def conversions(self, lv: SSAValue, rv: SSAValue, node: ast.AST, shift: bool = False) -> tuple[SSAValue, SSAValue]:
        """Both operands promoted; two integers then converted to their common type by C's usual arithmetic
        conversions (a shift keeps the promoted left operand's type and converts the count to it). Integers
        and floats are never mixed implicitly (the caller reports the mismatch)."""
        lv, rv = self.promoted(lv, node), self.promoted(rv, node)
        if lv.type == rv.type or not (sc.is_integer(lv.type) and sc.is_integer(rv.type)):
            return lv, rv
        t = lv.type if shift else sc.usual_int_conversion(lv.type, rv.type)
        return (lv if lv.type == t else self.v(s.CastOp(lv, t), node)), (rv if rv.type == t else self.v(s.CastOp(rv, t), node))

    def convert(self, v: SSAValue, want: Attribute, node: ast.AST) -> SSAValue:
        """C's assignment conversion where sarek allows it implicitly: integer to integer (wrapping modulo
        2^width), and f32/bf16 to bf16 (rounded to nearest even); anything else is returned unchanged for the
        caller's type check."""
        t = v.type
        if t == want:
            return v
        if (sc.is_integer(t) and sc.is_integer(want)) or (sc.is_bf16(want) and t == sc.F32):
            return self.v(s.CastOp(v, want), node)
        return v

    def expr_UnaryOp(self, node: ast.UnaryOp, hint: Attribute | None) -> SSAValue:
        c = self.const_eval(node)
        if c is not None:
            return self.literal(c, hint, node)
        if isinstance(node.op, ast.Not):
            x = self.expr(node.operand, i1)
            if x.type != i1:
                raise self.err(node, f"'not' needs a bool, got {tname(x.type)}")
            return self.v(s.UnOp("not", x), node)
        x = self.promoted(self.expr(node.operand, hint), node)
        if isinstance(node.op, ast.UAdd):
            if not _is_num(x.type):
                raise self.err(node, f"unary '+' does not apply to {tname(x.type)}")
            return x
        if isinstance(node.op, ast.USub):
            if not _is_num(x.type):
                raise self.err(node, f"unary '-' does not apply to {tname(x.type)}")
            return self.v(s.UnOp("neg", x), node)
        if not sc.is_arith_int(x.type):
            raise self.err(node, f"'~' needs an integer, got {tname(x.type)}")
        return self.v(s.UnOp("bitnot", x), node)

    def short_circuit(self, is_and: bool, left: SSAValue, right: ast.expr, node: ast.AST) -> SSAValue:
        then_b, else_b = Block(), Block()

        def rhs() -> None:
            r = self.expr(right, i1)
            if r.type != i1:
                raise self.err(right, f"'{'and' if is_and else 'or'}' needs bool operands, got {tname(r.type)}")
            self.emit(s.YieldOp(r), right)

        def const() -> None:
            c = self.const(not is_and, i1, node)
            self.emit(s.YieldOp(c), node)

        self.in_block(then_b if is_and else else_b, rhs)
        self.in_block(else_b if is_and else then_b, const)
        return self.v(s.IfExprOp(left, i1, Region(then_b), Region(else_b)), node)

    def expr_BoolOp(self, node: ast.BoolOp, hint: Attribute | None) -> SSAValue:
        is_and = isinstance(node.op, ast.And)
        acc = self.expr(node.values[0], i1)
        if acc.type != i1:
            raise self.err(node.values[0], f"'{'and' if is_and else 'or'}' needs bool operands, got "
                                           f"{tname(acc.type)}")
        for v in node.values[1:]:
            acc = self.short_circuit(is_and, acc, v, node)
        return acc

    CMP: ClassVar[dict[type[ast.cmpop], str]] = {ast.Eq: "eq", ast.NotEq: "ne", ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}

    def compare(self, op: ast.cmpop, lv: SSAValue, rv: SSAValue, node: ast.AST) -> SSAValue:
        if type(op) not in self.CMP:
            unsupported: dict[type[ast.cmpop], str] = {ast.Is: "is", ast.IsNot: "is not", ast.In: "in",
                                                      ast.NotIn: "not in"}
            sym = unsupported.get(type(op), "?")
            raise self.err(node, f"comparison '{sym}' is not supported in kernels")
        lv, rv = self.conversions(lv, rv, node)
        if lv.type != rv.type:
            raise self.err(node, f"type mismatch in comparison: {tname(lv.type)} and {tname(rv.type)}")
        k = self.CMP[type(op)]
        if lv.type == i1 and k not in ("eq", "ne") or not (lv.type == i1 or _is_num(lv.type)):
            raise self.err(node, f"cannot compare values of type {tname(lv.type)} with '{k}'")
        return self.v(s.BinOp(k, lv, rv), node)

    def expr_Compare(self, node: ast.Compare, hint: Attribute | None) -> SSAValue:
        chain_hint = None
        if self.const_eval(node.left) is not None and self.const_eval(node.comparators[0]) is not None:
            rest = [e for e in node.comparators[1:] if self.const_eval(e) is None]
            if rest:  # `7 != 1 <= a[i]`: the literals take a[i]'s type (found without emitting it twice)
                chain_hint = self.type_of(rest[0])
        lv, rv = self.operands(node.left, node.comparators[0], chain_hint)
        return self._chain(self.compare(node.ops[0], lv, rv, node), rv, node.ops[1:], node.comparators[1:], node)

    def type_of(self, node: ast.expr) -> Attribute:
        """The type `node` lowers to, found by lowering it into a scratch block that is then discarded."""
        scratch = Block()
        v = self.in_block(scratch, lambda: self.expr(node))
        t = v.type
        for op in reversed(list(scratch.ops)):
            scratch.erase_op(op, safe_erase=False)
        return t

    def _chain(self, res: SSAValue, prev: SSAValue, ops: list[ast.cmpop], comps: list[ast.expr],
               node: ast.AST) -> SSAValue:
        """a < b < c: (a < b) and (b < c) with b evaluated once and c only when needed."""
        if not ops:
            return res
        then_b, else_b = Block(), Block()

        def nxt() -> None:
            r = self.expr(comps[0], prev.type)
            c = self.compare(ops[0], prev, r, node)
            self.emit(s.YieldOp(self._chain(c, r, ops[1:], comps[1:], node)), node)

        self.in_block(then_b, nxt)
        self.in_block(else_b, lambda: self.emit(s.YieldOp(self.const(False, i1, node)), node))
        return self.v(s.IfExprOp(res, i1, Region(then_b), Region(else_b)), node)

    def expr_IfExp(self, node: ast.IfExp, hint: Attribute | None) -> SSAValue:
        c = self.cond(node.test)
        then_b, else_b = Block(), Block()
        first, second = (node.body, node.orelse)
        flip = self.const_eval(node.body) is not None and self.const_eval(node.orelse) is None
        if flip:
            e = self.in_block(else_b, lambda: self.expr(node.orelse, hint))
            t = self.in_block(then_b, lambda: self.expr(node.body, e.type))
        else:
            t = self.in_block(then_b, lambda: self.expr(first, hint))
            e = self.in_block(else_b, lambda: self.expr(second, t.type))
        if t.type != e.type:
            raise self.err(node, f"type mismatch in conditional expression: {tname(t.type)} and {tname(e.type)}")
        if not s.is_element_type(t.type):
            raise self.err(node, f"a conditional expression cannot give {tname(t.type)}")
        self.in_block(then_b, lambda: self.emit(s.YieldOp(t), node.body))
        self.in_block(else_b, lambda: self.emit(s.YieldOp(e), node.orelse))
        return self.v(s.IfExprOp(c, t.type, Region(then_b), Region(else_b)), node)

    def expr_Tuple(self, node: ast.Tuple, hint: Attribute | None) -> SSAValue:
        raise self.err(node, "tuples are not values in kernels (use a @record)")

    def expr_Call(self, node: ast.Call, hint: Attribute | None) -> SSAValue:
        v = self.call(node, hint, statement=False)
        assert v is not None
        return v

    # -------------------------------------------------------------------------------------------- calls

    def call(self, node: ast.Call, hint: Attribute | None, statement: bool) -> SSAValue | None:
        ok, fn = self.static(node.func)
        if not ok:
            if isinstance(node.func, ast.Attribute):
                raise self.err(node, f"methods are not supported in kernels ('.{node.func.attr}(...)')")
            raise self.err(node.func, "only device functions, constructors and intrinsics can be called")
        fname = ast.unparse(node.func)
        if isinstance(fn, GpuFunction):
            return self.gpu_call(fn, node, hint, statement)
        if any(k.arg is None for k in node.keywords):
            raise self.err(node, "'**' arguments are not supported")
        if isinstance(fn, TypeVar):  # `T(x)` in a generic function: a cast to (or record of) T's type
            fn = substitute(fn, self.binding)
            if isinstance(fn, TypeVar):
                raise self.err(node.func, f"type variable {fn.name} has no type here")
        if isinstance(fn, ScalarType) or fn in BUILTIN_CASTS:
            self.no_kw(node, fname)
            t = fn.ir if isinstance(fn, ScalarType) else BUILTIN_CASTS[fn]
            return self.cast(node, t, fname)
        if fn is abs or fn is min or fn is max:
            self.no_kw(node, fname)
            name = fn.__name__
            if name == "abs":
                return self.intrinsic("abs", node.args, node, hint, fname)
            if len(node.args) < 2:
                raise self.err(node, f"{name}() takes at least 2 arguments, {len(node.args)} given")
            vals = self.same_typed(node.args, hint)
            acc = vals[0]
            for v in vals[1:]:
                acc = self.intrinsic_values(name, [acc, v], node, fname)
            return acc
        if fn is len:
            self.no_kw(node, fname)
            if len(node.args) != 1:
                raise self.err(node, f"len() takes 1 argument, {len(node.args)} given")
            a = self.expr(node.args[0])
            if isinstance(a.type, s.ArrayType) and isinstance(a.owner, s.AllocArrayOp):
                return a.owner.sizes[0]
            if not isinstance(a.type, s.VecType):
                raise self.err(node.args[0], f"len() needs a vector, got {tname(a.type)}")
            return self.shape_of(a, 0, node)
        if isinstance(fn, GpuValue):
            if node.args or node.keywords:
                raise self.err(node, f"{fname} takes no argument")
            return self.v(s.IntrinsicOp(fn.intrinsic, []), node)
        if getattr(fn, "__module__", None) == "math" and getattr(fn, "__name__", None) in INTRINSICS \
                and INTRINSICS[fn.__name__].category == Category.MATH:
            fn = MathFunction(fn.__name__, INTRINSICS[fn.__name__].arity, fn)   # Python's math.sqrt & co.
        if isinstance(fn, MathFunction):
            self.no_kw(node, fname)
            if fn.name in ("min", "max") and len(node.args) > 2:
                vals = self.same_typed(node.args, hint)
                acc = vals[0]
                for v in vals[1:]:
                    acc = self.intrinsic_values(fn.name, [acc, v], node, fname)
                return acc
            return self.intrinsic(fn.name, node.args, node, hint, fname)
        if isinstance(fn, VariantCtor):
            self.no_kw(node, fname)
            vt = cast(s.VariantType, self.ty(fn.variant, node))
            ps = self.variant_ctors(vt)[fn.tag][1]
            if len(node.args) != len(ps):
                raise self.err(node, f"{fname} takes {len(ps)} payload value(s), {len(node.args)} given")
            vals: list[SSAValue] = []
            for i, (a, t) in enumerate(zip(node.args, ps)):
                v = self.convert(self.expr(a, t), t, a)
                if v.type != t:
                    raise self.err(a, f"type mismatch: payload {i} of {fname} is {tname(t)}, given {tname(v.type)}")
                vals.append(v)
            return self.v(s.MakeVariantOp(vt.decl_name, fn.name, vals), node)
        if record_info(fn) is not None:
            return self.make_record(fn, node, fname)
        if (vinfo := variant_info(fn)) is not None:
            raise self.err(node, f"build a {fname} value with one of its constructors, e.g. "
                                 f"{fname}.{vinfo.ctors[0][0]}(...)")
        if getattr(fn, "type_params", None):  # a generic @device function: the instance for these arguments
            fn = fn.instance(self.infer_binding(fn, node, fname))
        sig = self.resolve_device(fn, node, self)
        if sig is not None:
            for t in sig.types:
                self._register(t)
            return self.helper_call(sig, node, statement, fname)
        if fn is range:
            raise self.err(node, "range() is only supported in 'for i in range(...)'")
        if fn is print:
            return self.print_call(node, statement)
        what = getattr(fn, "__name__", fname)
        raise self.err(node.func, f"'{what}' is not a @sarek.device function or a sarek intrinsic and cannot be "
                                  "called from a kernel")

    def print_call(self, node: ast.Call, statement: bool) -> None:
        """`print(...)` of strings (f-strings with plain `{x}` too) and scalars, constant `sep=`/`end=`: one
        `sarek.print` whose format has a `{}` per value (printed by the runtime after the launch)."""
        if not statement:
            raise self.err(node, "print() returns nothing: call it as a statement")
        opts = {"sep": " ", "end": "\n"}
        for kw in node.keywords:
            ok = isinstance(kw.value, ast.Constant) and (
                isinstance(kw.value.value, str) if kw.arg in opts else kw.arg == "flush")
            if not ok:
                raise self.err(kw.value if kw.arg else node, "print() in a kernel takes constant strings for sep= "
                                                             "and end= (and flush=, ignored), nothing else")
            if kw.arg in opts:
                opts[kw.arg] = cast(str, cast(ast.Constant, kw.value).value)
        values: list[SSAValue] = []

        def value(e: ast.expr) -> str:
            if isinstance(e, ast.Constant) and isinstance(e.value, str):
                return e.value.replace("{", "{{").replace("}", "}}")
            if isinstance(e, ast.JoinedStr):
                return "".join(value(part) for part in e.values)
            if isinstance(e, ast.FormattedValue):
                if e.conversion != -1 or e.format_spec is not None:
                    raise self.err(e, "print() in a kernel formats f-string values plainly: write {x}, without "
                                      "a conversion or format spec")
                e = e.value
            v = self.expr(e, None)
            if not (_is_num(v.type) or v.type == i1):
                raise self.err(e, f"print() in a kernel prints strings, integers, floats and bools, not "
                                  f"{tname(v.type)}")
            values.append(v)
            return "{}"

        text = opts["sep"].replace("{", "{{").replace("}", "}}").join(value(a) for a in node.args)
        self.emit(s.PrintOp(text + opts["end"].replace("{", "{{").replace("}", "}}"), values), node)

    def no_kw(self, node: ast.Call, fname: str) -> None:
        if node.keywords:
            raise self.err(node.keywords[0], f"{fname}() takes no keyword arguments")

    def cast(self, node: ast.Call, t: Attribute, fname: str) -> SSAValue:
        if len(node.args) != 1:
            raise self.err(node, f"{fname}() takes 1 argument, {len(node.args)} given")
        c = self.const_eval(node.args[0])
        if isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, bool) and t != i1:
            c = int(node.args[0].value)  # i32(True) is 1, f32(False) is 0.0 (a number, not a bool)
        if c is not None and t != i1:
            if sc.is_integer(t) and isinstance(c, float):
                c = int(c)
            elif sc.is_integer(t) and isinstance(c, int):
                c = sc.wrap(c, t)  # C's conversion: u8(300) is 44, u32(-1) is 4294967295
            return self.literal(c if sc.is_integer(t) or t == i1 else float(c), t, node)
        # literals inside take the cast's type, except an unsigned or 8/16-bit one: C computes `u32(abs(-7))`
        # in int and converts (the literal -7 is no u32; found by the fuzz generator)
        x = self.expr(node.args[0], None if sc.is_unsigned(t) or sc.is_small_int(t) else t)
        if x.type == t:
            return x
        if not (x.type == i1 or _is_num(x.type)):
            raise self.err(node, f"cannot convert {tname(x.type)} to {tname(t)}")
        if t == i1:
            x = self.promoted(x, node)
            z = self.const(0, x.type, node)
            return self.v(s.BinOp("ne", x, z), node)
        return self.v(s.CastOp(x, t), node)

    def bitcast(self, node: ast.Call, fname: str) -> SSAValue:
        """`bitcast(x, T)`: x's bits read as the scalar type T of the same width (i32 <-> f32, i64 <-> f64)."""
        self.no_kw(node, fname)
        if len(node.args) != 2:
            raise self.err(node, f"{fname}(x, T) takes 2 arguments, {len(node.args)} given")
        ok, target = self.static(node.args[1])
        if not ok:
            raise self.err(node.args[1], f"the second argument of {fname}() must be a scalar type, e.g. {fname}(x, i32)")
        t = self.ty(target, node.args[1])
        x = self.expr(node.args[0])  # a literal keeps its own type (i32 / f32): its bits are what is meant
        ws, wd = s.scalar_width(x.type), s.scalar_width(t)
        if ws is None or wd is None or x.type == i1 or t == i1:
            raise self.err(node, f"{fname}() reinterprets the bits of a number as another number type of the same "
                                 f"width (i32 <-> f32, i64 <-> f64); got {tname(x.type)} to {tname(t)}")
        if ws != wd:
            raise self.err(node, f"{fname}() needs types of the same width: {tname(x.type)} has {ws} bits, "
                                 f"{tname(t)} {wd}")
        if x.type == t:
            return x
        return self.v(s.BitcastOp(x, t), node)

    def same_typed(self, args: list[ast.expr], hint: Attribute | None) -> list[SSAValue]:
        """Lower arguments that share one type: non-constant ones first, constants take their type."""
        vals: list[SSAValue | None] = [None] * len(args)
        t = None
        for i, a in enumerate(args):
            if self.const_eval(a) is None:
                v = self.expr(a, t or hint)
                vals[i] = v
                t = t or v.type
        for i, a in enumerate(args):
            if vals[i] is None:
                v = self.expr(a, t or hint)
                vals[i] = v
                t = t or v.type
        return cast(list[SSAValue], vals)

    def intrinsic(self, name: str, args: list[ast.expr], node: ast.Call, hint: Attribute | None,
                  fname: str) -> SSAValue:
        info = INTRINSICS[name]
        if len(args) != info.arity:
            raise self.err(node, f"{fname}() takes {info.arity} argument(s), {len(args)} given")
        if info.category == Category.MATH:
            h = hint if name in ("abs", "min", "max", "clz", "popcount") or (hint and is_float(hint)) else None
            if name in ("clz", "popcount"):
                h = None
            vals = self.same_typed(args, h)
        else:
            vals = [self.expr(a) for a in args]
        return self.intrinsic_values(name, vals, node, fname)

    def intrinsic_values(self, name: str, vals: list[SSAValue], node: ast.AST, fname: str) -> SSAValue:
        info = INTRINSICS[name]
        if info.category == Category.MATH:
            vals = [self.promoted(v, node) for v in vals]
            if len(vals) == 2 and name in ("min", "max"):
                vals = list(self.conversions(vals[0], vals[1], node))
            if sc.is_unsigned(vals[0].type) and name in ("abs", "min", "max") and all(v.type == vals[0].type for v in vals):
                return self.unsigned_minmax(name, vals, node)
        r = info.check([v.type for v in vals])
        if isinstance(r, str):
            got = ", ".join(tname(v.type) for v in vals)
            raise self.err(node, f"type mismatch: {fname}() {self._describe(info)}, got ({got})")
        return self.v(s.IntrinsicOp(name, vals, r), node)

    def unsigned_minmax(self, name: str, vals: list[SSAValue], node: ast.AST) -> SSAValue:
        """abs/min/max of unsigned integers: abs is the value itself, min/max a select on an unsigned compare
        (no backend needs an unsigned min/max builtin)."""
        if name == "abs":
            return vals[0]
        a, b = vals
        c = self.v(s.BinOp("lt" if name == "min" else "gt", a, b), node)
        then_b, else_b = Block(), Block()
        self.in_block(then_b, lambda: self.emit(s.YieldOp(a), node))
        self.in_block(else_b, lambda: self.emit(s.YieldOp(b), node))
        return self.v(s.IfExprOp(c, a.type, Region(then_b), Region(else_b)), node)

    @staticmethod
    def _describe(info: Any) -> str:
        n = info.name
        if info.category == Category.MATH:
            if n in ("abs", "min", "max"):
                return "needs integer or float operands of one type"
            if n in ("clz", "popcount"):
                return "needs an integer"
            return "needs float operands of one type (f16, f32 or f64)"
        if info.category == Category.ATOMIC:
            return "needs a vector or array of i32, i64, f32 or f64, an i32 index and values of the element type"
        return "needs an i32, i64, f32 or f64 value and an i32 lane"

    def gpu_call(self, fn: GpuFunction, node: ast.Call, hint: Attribute | None, statement: bool) -> SSAValue | None:
        fname = fn.name
        if fn.kind == "alloc":
            raise self.err(node, f"{fname}() declares an array: write 'name = {fname}(T, size)'")
        if fn.kind == "context":
            raise self.err(node, f"{fname}() is used as 'with {fname}(...):'")
        if fn.kind == "cast":
            return self.bitcast(node, fname)
        if fn.kind == "stmt":
            if not statement:
                raise self.err(node, f"{fname}() is a statement and has no value")
            if fname == "native":
                texts: dict[str, str] = {}
                for k in node.keywords:
                    if not (isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)) or k.arg is None:
                        raise self.err(k.value, "native(target=\"source\", ...) takes string texts")
                    texts[k.arg] = k.value.value
                if node.args or not texts:
                    raise self.err(node, "native() takes keyword texts per target, e.g. native(cuda=\"...\")")
                self.emit(s.NativeOp(texts), node)
                return None
            if node.args or node.keywords:
                raise self.err(node, f"{fname}() takes 0 arguments, {len(node.args) + len(node.keywords)} given")
            op = {"barrier": s.BarrierOp, "block_barrier": s.BarrierOp, "warp_barrier": s.WarpBarrierOp,
                  "mem_fence": s.MemFenceOp}[fname]()
            self.emit(op, node)
            return None
        self.no_kw(node, fname)
        info = INTRINSICS[fname]
        if len(node.args) != info.arity:
            raise self.err(node, f"{fname}() takes {info.arity} argument(s), {len(node.args)} given")
        if info.category == Category.ATOMIC:
            arr = self.expr(node.args[0])
            if not isinstance(arr.type, s.VecType | s.ArrayType):
                raise self.err(node.args[0], f"{fname}() needs a vector or array as first argument, got "
                                             f"{tname(arr.type)}")
            if arr.type.ndim != 1:
                raise self.err(node.args[0], f"{fname}() takes a one-dimensional array (one index), got "
                                             f"{tname(arr.type)}")
            idx = self.expr(node.args[1], i32)
            rest = [self.expr(a, arr.type.element_type) for a in node.args[2:]]
            return self.intrinsic_values(fname, [arr, idx, *rest], node, fname)
        x = self.expr(node.args[0], hint)
        lane = self.expr(node.args[1], i32)
        return self.intrinsic_values(fname, [x, lane], node, fname)

    def make_record(self, cls: Any, node: ast.Call, fname: str) -> SSAValue:
        rt = cast(s.RecordType, self.ty(cls, node))
        fields = self.record_fields(rt)
        names = [n for n, _ in fields]
        given: dict[str, ast.expr] = {}
        if len(node.args) > len(fields):
            raise self.err(node, f"{fname} has {len(fields)} field(s), {len(node.args)} given")
        for n, a in zip(names, node.args):
            given[n] = a
        for k in node.keywords:
            if k.arg not in names:
                raise self.err(k, f"record {fname} has no field '{k.arg}'")
            if k.arg in given:
                raise self.err(k, f"field '{k.arg}' of {fname} is given twice")
            given[k.arg] = k.value
        missing = [n for n in names if n not in given]
        if missing:
            raise self.err(node, f"record {fname} needs field(s) {', '.join(repr(m) for m in missing)}")
        vals: list[SSAValue] = []
        for n, t in fields:
            v = self.convert(self.expr(given[n], t), t, given[n])
            if v.type != t:
                raise self.err(given[n], f"type mismatch: field '{n}' of {fname} is {tname(t)}, given "
                                         f"{tname(v.type)}")
            vals.append(v)
        return self.v(s.MakeRecordOp(rt.decl_name, vals), node)

    def infer_binding(self, fn: Any, node: ast.Call, fname: str) -> dict[TypeVar, Any]:
        """The types of a generic helper's type variables at this call: from the types of the arguments that
        are not literals, then from the literals (their own types) for variables nothing else binds."""
        params: list[tuple[ast.arg, Any]] = fn.annotations()
        given: dict[str, ast.expr] = {p.arg: a for (p, _), a in zip(params, node.args)}
        given.update({k.arg: k.value for k in node.keywords if k.arg is not None})
        inf = Inference(fn.type_params)
        for p, ann in params:
            a = given.get(p.arg)
            if a is None or not type_vars([ann]):
                continue
            c = self.const_eval(a)
            if c is not None:
                if isinstance(ann, TypeVar):
                    inf.literal(ann, c, p.arg)
                continue
            ft = self.front_type(self.type_of(a))
            if ft is not None and (clash := inf.bind(ann, ft, p.arg)) is not None:
                raise self.err(a, f"type mismatch in {fname}(): {clash}")
        if (bad := inf.finish()) is not None:
            why, pname = bad
            if pname is None:
                raise self.err(node, f"{why} of this call of {fname}(); convert one, e.g. {fname}(f32(x), ...)")
            raise self.err(given[pname], f"type mismatch in {fname}(): {why}")
        binding = inf.binding
        return binding

    def front_type(self, t: Attribute) -> Any:
        """The front-end type (ScalarType, record/variant class, Vec/array of one) of an IR type, or None."""
        if isinstance(t, s.VecType):
            e = self.front_type(t.element_type)
            return None if e is None else VecOf(e)
        if isinstance(t, s.ArrayType):
            e = self.front_type(t.element_type)
            return None if e is None else ArrayOf(e, t.memspace.value)
        if isinstance(t, s.RecordType | s.VariantType):
            info = self.decl_infos.get(t.decl_name)
            return None if info is None else info.cls
        return next((x for x in SCALARS.values() if x.ir == t), None)

    def helper_call(self, sig: Signature, node: ast.Call, statement: bool, fname: str) -> SSAValue | None:
        names = [n for n, _ in sig.params]
        given: dict[str, ast.expr] = {}
        if len(node.args) > len(names):
            raise self.err(node, f"{fname}() takes {len(names)} argument(s), {len(node.args)} given")
        for n, a in zip(names, node.args):
            given[n] = a
        for k in node.keywords:
            if k.arg not in names:
                raise self.err(k, f"{fname}() has no parameter '{k.arg}'")
            given[k.arg] = k.value
        missing = [n for n in names if n not in given]
        if missing:
            raise self.err(node, f"{fname}() takes {len(names)} argument(s), {len(given)} given "
                                 f"(missing {', '.join(repr(m) for m in missing)})")
        vals: list[SSAValue] = []
        for n, t in sig.params:
            v = self.convert(self.expr(given[n], t), t, given[n])
            if v.type != t:
                raise self.err(given[n], f"type mismatch: parameter '{n}' of {fname}() is {tname(t)}, given "
                                         f"{tname(v.type)}")
            vals.append(v)
        op = s.CallOp(sig.name, vals, sig.ret)
        self.emit(op, node)
        if isinstance(sig.ret, s.UnitType):
            if not statement:
                raise self.err(node, f"{fname}() returns nothing and has no value")
            return None
        return op.results[0]


#: float types a finite Python float can overflow (rounding to infinity)
_NARROW_FLOATS: dict[str, Any] = {"f32": np.float32, "f16": np.float16}


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


def _first_store(body: list[ast.stmt], name: str) -> ast.AST | None:
    """The first assignment (plain or augmented) to `name` in `body`, in source order."""
    hits = [n for st in body for n in ast.walk(st)
            if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, ast.Store)]
    return min(hits, key=lambda n: (n.lineno, n.col_offset), default=None)


def _wider_literal(a: Any, b: Any) -> bool:
    """Integer constant `a` needs i64 while `b` fits in i32."""
    def wide(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and not -(1 << 31) <= x < (1 << 31)
    return wide(a) and not wide(b)


def module_decls(types: list[Any]) -> list[Operation]:
    return decl_ops(types)

