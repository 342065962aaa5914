"""The front end's lowerer state and shared helpers: bindings, signatures, the table of unsupported Python
constructs, and `LowererBase` (emitting ops with locations, types, constants, default values, static
evaluation, literals). The lowerer is one class built from a chain of mixins, one module a concern:
`lower_base` -> `lower_expr` (expressions) -> `lower_call` (calls, casts, intrinsics, records, helpers) ->
`lower_coop` (cooperative matrices) -> `lower_vector` (short vectors) -> `lower_stmt` (statements) -> `lower.FunctionLowerer` (signature and body)."""

from __future__ import annotations

import ast
import builtins
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from xdsl.dialects.builtin import (
    AnyFloat,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    i1,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import is_float, is_integer_type
from sarek.frontend.analysis import BodyInfo
from sarek.frontend.decls import ir_type, is_tuple_record, normalize_type, record_info, variant_info
from sarek.frontend.errors import CompileError, make_loc
from sarek.frontend.generics import TypeVar, substitute, type_vars
from sarek.frontend.source import resolve_env, source_of
from sarek.types import ArrayOf, ScalarType, VecOf


def tname(t: Attribute) -> str:
    """A dialect type as the user writes it in Python."""
    if t == i1:
        return "bool"
    if sc.name(t) is not None:
        return cast(str, sc.name(t))
    if is_integer_type(t):
        return f"i{t.width.data}"
    if (f := sc.float_name(t)) is not None:
        return f
    if isinstance(t, s.VecType):
        return f"Vec[{tname(t.element_type)}]" if t.ndim == 1 else f"Array[{tname(t.element_type)}, {t.ndim}]"
    if isinstance(t, s.ArrayType):
        return f"{t.memspace.value} array of {tname(t.element_type)}"
    if isinstance(t, s.RecordType) and t.decl_name.startswith("tuple_"):
        return f"tuple[{t.decl_name[6:].replace('_', ', ')}]"
    if isinstance(t, s.RecordType | s.VariantType):
        return t.decl_name
    if isinstance(t, s.UnitType):
        return "None"
    if isinstance(t, s.RefType):
        return tname(t.element_type)
    return str(t)


def is_num(t: Attribute) -> bool:
    return sc.is_integer(t) or is_float(t) or sc.is_bf16(t)


# ------------------------------------------------------------------------------------------------ bindings


@dataclass
class Binding:
    kind: str                    # "val" | "ref" | "vec" | "arr" | "param" | "frag" | "pending"
    value: SSAValue | None
    type: Attribute | None = None
    anchor: tuple[Block, Operation | None] | None = None
    view: Any = None             # kind "view": the `lower_view.View` the name is bound to


class Signature:
    """A function's IR signature; `types` are the record/variant classes it names (a caller registers them, so
    a value it only gets from the call can still be matched or read by field)."""

    def __init__(self, name: str, params: list[tuple[str, Attribute]], ret: Attribute, types: list[Any] | None = None):
        self.name, self.params, self.ret = name, params, ret
        self.types: list[Any] = types or []


class WidenLiteral(Exception):
    """Raised when a name first bound to a float literal (f32) meets an f64: the function is lowered again
    with that literal taking f64 (`t = 0.0` then `t = x` with x f64, as in Python where both are floats)."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


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


#: float types a finite Python float can overflow (rounding to infinity)
_NARROW_FLOATS: dict[str, Any] = {"f32": np.float32, "f16": np.float16}


class LowererBase:
    """The state of lowering one function and the helpers every concern uses. `resolve_device(obj)` gives
    the Signature of a @device function (and records the dependency); `kind` is "kernel" or "helper"."""

    info: BodyInfo  # the body's analysis (locals, hoisting, conflicts), set by `FunctionLowerer.lower`

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
        self.declared: dict[str, Attribute] = {}  # `x: T` without a value: the type of x's assignments
        self.tables: dict[tuple[str, str], SSAValue] = {}  # (name, element type) -> its local table
        self.entry: Block = Block()           # the function's entry block (constant tables are built there)
        self.f64_literals: set[str] = set()     # names whose first float literal takes f64 (see WidenLiteral)
        self.float_literal_names: set[str] = set()  # names first bound to an f32 float literal
        self.views: dict[str, Any] = {}  # a helper's parameters that take array views -> their shapes (lower_view)

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

    def is_tuple_type(self, t: Attribute) -> bool:
        """`t` is the record of a `tuple[...]` (see `decls.tuple_record`)."""
        return isinstance(t, s.RecordType) and t.decl_name in self.decl_infos \
            and is_tuple_record(self.decl_infos[t.decl_name].cls)

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
        if isinstance(node, ast.Call):
            return self.float_of_string(node)
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

    def float_of_string(self, node: ast.Call) -> float | None:
        """`float('inf')`, `float('-inf')`, `float('nan')` (any string Python's float() reads): the constant,
        else None (a string is no value in kernels, but Python's spelling of infinity is one)."""
        if len(node.args) != 1 or node.keywords or not isinstance(a := node.args[0], ast.Constant) \
                or not isinstance(a.value, str):
            return None
        try:
            ok, fn = self.static(node.func)
        except CompileError:
            return None
        if not ok or fn is not float:
            return None
        try:
            return float(a.value)
        except ValueError:
            raise self.err(a, f"float({a.value!r}) is not a number: write float('inf'), float('-inf') or "
                              "float('nan') (or math.inf, math.nan)") from None

    def literal(self, value: Any, hint: Attribute | None, node: ast.AST) -> SSAValue:
        if isinstance(value, bool):
            return self.const(value, i1, node)
        if isinstance(value, int):
            if hint is not None and is_num(hint):
                return self.const(value, hint, node)
            t = i32 if -(1 << 31) <= value < (1 << 31) else i64
            return self.const(value, t, node)
        if isinstance(value, float):
            return self.const(value, hint if hint is not None and (is_float(hint) or sc.is_bf16(hint)) else Float32Type(), node)
        raise self.err(node, f"unsupported constant {value!r}")

    def widen_literal(self, v: SSAValue, other: Attribute) -> None:
        """Where an f32 `v` meets an f64 and `v` is a name first bound to a float literal: lower again with
        that literal f64 (raises WidenLiteral); otherwise nothing (the caller reports the mismatch)."""
        if v.type != sc.F32 or other != Float64Type():
            return
        op = v.owner
        if isinstance(op, s.LoadOp):
            op = op.ref.owner
        name = op.sym.data if isinstance(op, s.LetOp | s.LetMutOp) else None
        if name in self.float_literal_names and name not in self.f64_literals:
            raise WidenLiteral(name)

    def note_float_literal(self, name: str, val: SSAValue, vnode: ast.AST) -> None:
        """`name`'s first binding is `vnode`: remember it when that is a float literal typed f32."""
        c = self.const_eval(vnode) if isinstance(vnode, ast.expr) else None
        if isinstance(c, float) and val.type == sc.F32:
            self.float_literal_names.add(name)

    def in_block(self, block: Block, fn: Any) -> Any:
        saved = self.block
        self.block = block
        try:
            return fn()
        finally:
            self.block = saved
