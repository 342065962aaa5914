"""Front end, expressions: names, attributes, subscripts, operators with their promotions and conversions,
comparisons, short-circuit and conditional expressions, and conditions."""

from __future__ import annotations

import ast
from typing import Any, ClassVar, cast

import numpy as np

from xdsl.dialects.builtin import Float64Type, IntegerAttr, IntegerType, i1, i32, i64
from xdsl.ir import Attribute, Block, Region, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import is_float, is_int
from sarek.frontend.decls import VariantCtor
from sarek.frontend.lower_base import UNSUPPORTED, LowererBase, is_num, tname
from sarek.gpu import GpuFunction, GpuValue
from sarek.math import MathFunction
from sarek.types import SCALARS, ScalarType


#: the most elements a module-level constant table indexed in a kernel may have (each thread holds a copy)
TABLE_MAX = 1024


class ExprLowerer(LowererBase):
    """Lowers Python expressions to sarek values."""

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
            if b.kind == "view":
                raise self.err(node, f"'{n}' is an array view: index it ({n}[i]) or take len({n}); pass the arrays "
                                     "themselves (and the offset) to device functions and atomics")
            if b.kind == "frag":
                raise self.err(node, f"'{n}' is a cooperative-matrix fragment, not a value: use it in coop.fill, "
                                     "coop.load, coop.store or coop.mma")
            assert b.value is not None
            return b.value
        if n in self.info.locals or n in self.vars:
            self.check_assigned(node)
            raise self.err(node, f"local variable '{n}' is used before it is assigned (on some path)")
        if n in self.info.scoped:
            raise self.err(node, f"'{n}' is a loop index or match binder and is not defined here")
        if n in self.declared:
            raise self.err(node, f"local variable '{n}' is declared ({n}: {tname(self.declared[n])}) but never "
                                 "assigned")
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
        c = self.const_eval(node)
        if isinstance(c, int) and not isinstance(c, bool) and c < 0:
            raise self.err(node, f"index {c} is negative: arrays in kernels do not count from the end as Python "
                                 f"lists do; write the position itself (a[len(a) - {-c}] for a vector)")
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
        root, chain = _subscript_root(node)
        ok, obj = self.static(root)
        if ok and isinstance(obj, tuple | np.ndarray):
            return self.table_read(node, root, chain, obj, hint)
        ok, obj = self.static(node.value)
        if ok:
            raise self.err(node, f"cannot index '{getattr(obj, '__name__', obj)}' in a kernel (module-level "
                                 "tuples and numpy arrays of numbers can be indexed)")
        if isinstance(node.value, ast.Attribute) and node.value.attr == "shape":
            base = self.expr(node.value.value)
            if isinstance(base.type, s.VecType | s.ArrayType):
                k = self.const_eval(node.slice)
                if not isinstance(k, int) or isinstance(k, bool):
                    raise self.err(node.slice, "a.shape[k] needs a constant integer k")
                return self.shape_of(base, k, node)
        a = self.expr(node.value)
        if self.is_tuple_type(a.type):   # t[k] of a tuple value: its field k (a constant k)
            fields = self.record_fields(cast(s.RecordType, a.type))
            k = self.const_eval(node.slice)
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < len(fields):
                raise self.err(node.slice, f"a tuple of {len(fields)} values is indexed by a constant 0 to "
                                           f"{len(fields) - 1}")
            return self.v(s.FieldOp(a, *fields[k]), node)
        if not isinstance(a.type, s.VecType | s.ArrayType):
            raise self.err(node.value, f"cannot index a value of type {tname(a.type)}")
        return self.v(s.ArrayReadOp(a, self.indices(a, node)), node)

    def table(self, obj: Any, node: ast.expr, hint: Attribute | None) -> tuple[np.ndarray, Attribute]:
        """A module-level constant table (a tuple, nested tuples or a numpy array of numbers) as an array and
        its element type: a numpy array's integer or f32/f16 dtype; Python floats (and f64 numpy arrays, whose
        values are literals) take f64 where the use wants f64, else f32; Python ints i32 (or the integer hint)."""
        what = ast.unparse(node)
        try:
            arr = np.asarray(obj)
        except ValueError:
            arr = np.asarray(0)
        if arr.dtype.kind not in "biuf" or not 1 <= arr.ndim <= s.MAX_RANK or arr.size == 0:
            raise self.err(node, f"'{what}' is not a table of numbers: a module-level constant indexed in a "
                                 f"kernel is a tuple or a numpy array of numbers (1 to {s.MAX_RANK} dimensions)")
        if arr.size > TABLE_MAX:
            raise self.err(node, f"'{what}' has {arr.size} elements: a constant table is copied into each "
                                 f"thread (at most {TABLE_MAX}); pass a larger one as a Vec argument")
        k = arr.dtype.kind
        if k == "b":
            return arr, i1
        if k == "f":
            if arr.dtype == np.float64 and hint in (sc.F32, Float64Type()):
                return arr, hint
            if arr.dtype == np.float64:
                return arr, sc.F32
            return arr, self.ty(_scalar_of(arr.dtype), node)
        if isinstance(obj, tuple):
            t = hint if hint is not None and sc.is_integer(hint) else i64 if arr.dtype == np.int64 and \
                (arr.min() < -(1 << 31) or arr.max() >= (1 << 31)) else i32
            return arr, t
        return arr, self.ty(_scalar_of(arr.dtype), node)

    def table_read(self, node: ast.Subscript, root: ast.expr, chain: list[ast.expr], obj: Any,
                   hint: Attribute | None) -> SSAValue:
        """`TAPS[k]` of a module-level constant table: the constant where every index is one; otherwise a
        read of a per-thread local table (`sarek.alloc_array "TAPS" : !sarek.array<T, local>` and its
        stores), built once at the function's entry."""
        arr, t = self.table(obj, root, hint)
        elts = [e for sl in chain for e in (sl.elts if isinstance(sl, ast.Tuple) else [sl])]
        name = ast.unparse(root)
        if len(elts) != arr.ndim:
            raise self.err(node.slice, f"'{name}' has {arr.ndim} dimension(s): it takes {arr.ndim} ind"
                                       f"{'ex' if arr.ndim == 1 else 'ices'}, got {len(elts)}")
        consts = [self.const_eval(e) for e in elts]
        if all(isinstance(c, int) and not isinstance(c, bool) for c in consts):
            for c, e, n in zip(consts, elts, arr.shape):
                if not 0 <= c < n:
                    raise self.err(e, f"index {c} is out of range for '{name}' (extent {n})")
            return self.const(arr[tuple(consts)].item(), t, node)
        key = (name, str(t))
        if key not in self.tables:
            self.tables[key] = self.local_table(name, arr, t, node)
        tab = self.tables[key]
        return self.v(s.ArrayReadOp(tab, [self.index(e) for e in elts]), node)

    def local_table(self, name: str, arr: np.ndarray, t: Attribute, node: ast.AST) -> SSAValue:
        """The ops of a local array holding `arr`, inserted at the start of the function's entry block (the
        table is built once per thread, outside every loop)."""
        scratch = Block()

        def build() -> SSAValue:
            sizes = [self.const(n, i32, node) for n in arr.shape]
            sym = "".join(ch if ch.isalnum() else "_" for ch in name)
            a = self.v(s.AllocArrayOp(sym, sizes, s.ArrayType(t, "local", arr.ndim)), node)
            for idx in np.ndindex(*arr.shape):
                ref = self.v(s.ElemRefOp(a, [self.const(i, i32, node) for i in idx]), node)
                self.emit(s.StoreOp(ref, self.const(arr[idx].item(), t, node)), node)
            return a

        a = self.in_block(scratch, build)
        ops = list(scratch.ops)
        for op in ops:
            op.detach()
        entry = self.entry
        if entry.first_op is None:
            entry.add_ops(ops)
        else:
            entry.insert_ops_before(ops, entry.first_op)
        return a

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
        if isinstance(node.op, ast.LShift | ast.RShift | ast.BitAnd | ast.BitOr | ast.BitXor) and hint is not None \
                and (is_float(hint) or sc.is_bf16(hint)):
            hint = None  # `f32(1 << abs(-1))`: the literals of a bit operator stay integers
        c = self.const_eval(node)
        if c is not None and not isinstance(c, bool):
            return self.literal(c, hint, node)
        if self.literal_like(node.left) and not self.literal_like(node.right):
            r = self.expr(node.right, hint)
            lv = self.expr(node.left, sc.promote(r.type))
            return self.arith(node.op, lv, r, node)
        lv = self.expr(node.left, hint)
        return self.binop_values(node.op, lv, node.right, node)

    def literal_like(self, node: ast.expr) -> bool:
        """Whether `node` computes from literals only (a constant, or sarek.math functions and operators of
        literals, e.g. `sm.floor(100.0) + 0.5`): it takes its type from the other operand, as a literal does."""
        if self.const_eval(node) is not None or self.literal_table_read(node):
            return True
        if isinstance(node, ast.UnaryOp):
            return self.literal_like(node.operand)
        if isinstance(node, ast.BinOp):
            return self.literal_like(node.left) and self.literal_like(node.right)
        if isinstance(node, ast.Call) and node.args and not node.keywords:
            from sarek.math import MathFunction

            ok, fn = self.static(node.func)
            return ok and isinstance(fn, MathFunction) and all(self.literal_like(a) for a in node.args)
        return False

    def literal_table_read(self, node: ast.expr) -> bool:
        """Whether `node` reads a module-level table of float literals (a tuple of floats, an f64 numpy array):
        its element type follows the use (table()), so it types like a float literal does. (An integer table is
        i32 in a float context, as an int literal is not: it keeps its place in the order of lowering.)"""
        if not isinstance(node, ast.Subscript) or isinstance(node.slice, ast.Slice):
            return False
        ok, obj = self.static(_subscript_root(node)[0])
        if not ok or not isinstance(obj, tuple | np.ndarray):
            return False
        try:
            return bool(np.asarray(cast(Any, obj)).dtype == np.float64)  # (table() makes Python floats f64 arrays)
        except ValueError:
            return False

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
            self.widen_literal(lv, rt)
            self.widen_literal(rv, lt)
            if i1 in (lt, rt) and (sc.is_integer(lt) or sc.is_integer(rt)):
                it = rt if lt == i1 else lt
                raise self.err(node, f"type mismatch in '{sym}': {tname(lt)} and {tname(rt)}: a bool is not an "
                                     f"integer in kernels; convert the bool, e.g. {tname(it)}(c)")
            raise self.err(node, f"type mismatch in '{sym}': {tname(lt)} and {tname(rt)} (convert one side, e.g. "
                                 f"{tname(rt) if is_num(rt) else 'f32'}(x))")
        t = lt
        if t == i1:
            if kind == "bitand":
                return self.v(s.BinOp("and", lv, rv), node)
            if kind == "bitor":
                return self.v(s.BinOp("or", lv, rv), node)
            if kind == "bitxor":
                return self.v(s.BinOp("ne", lv, rv), node)
            raise self.err(node, f"operator '{sym}' does not apply to bool")
        if not is_num(t):
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
        if kind in ("div", "rem") and _constant_zero(rv):
            raise self.err(node, f"integer {'division' if kind == 'div' else 'remainder'} by zero: the divisor of "
                                 f"'{sym}' is the constant 0, undefined on every device (test the divisor before "
                                 "dividing, or divide by a non-zero value)")
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
        if (vector := self.vector_unary(node.op, x, node)) is not None:
            return vector
        if isinstance(node.op, ast.UAdd):
            if not is_num(x.type):
                raise self.err(node, f"unary '+' does not apply to {tname(x.type)}")
            return x
        if isinstance(node.op, ast.USub):
            if not is_num(x.type):
                raise self.err(node, f"unary '-' does not apply to {tname(x.type)}")
            return self.v(s.UnOp("neg", x), node)
        if not sc.is_arith_int(x.type):
            raise self.err(node, f"'~' needs an integer, got {tname(x.type)}")
        return self.v(s.UnOp("bitnot", x), node)

    def vector_unary(self, op: ast.unaryop, x: SSAValue, node: ast.UnaryOp) -> SSAValue | None:
        """`-v` / `~v` of a short vector (sarek.frontend.lower_vector); None for a scalar."""
        return None

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
            self.widen_literal(lv, rv.type)
            self.widen_literal(rv, lv.type)
            raise self.err(node, f"type mismatch in comparison: {tname(lv.type)} and {tname(rv.type)}")
        k = self.CMP[type(op)]
        if lv.type == i1 and k not in ("eq", "ne") or not (lv.type == i1 or is_num(lv.type)):
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
            self.widen_literal(t, e.type)
            self.widen_literal(e, t.type)
            raise self.err(node, f"type mismatch in conditional expression: {tname(t.type)} and {tname(e.type)}")
        if not s.is_element_type(t.type):
            raise self.err(node, f"a conditional expression cannot give {tname(t.type)}")
        self.in_block(then_b, lambda: self.emit(s.YieldOp(t), node.body))
        self.in_block(else_b, lambda: self.emit(s.YieldOp(e), node.orelse))
        return self.v(s.IfExprOp(c, t.type, Region(then_b), Region(else_b)), node)

    def expr_Tuple(self, node: ast.Tuple, hint: Attribute | None) -> SSAValue:
        raise self.err(node, "tuples are not values in kernels (use a @record)")

    def cond(self, node: ast.expr) -> SSAValue:
        c = self.expr(node, i1)
        if c.type != i1:
            raise self.err(node, f"a condition must be bool, got {tname(c.type)} ({self.condition_advice(c.type)})")
        return c

    def condition_advice(self, t: Attribute) -> str:
        """How to make a condition of a non-bool type `t` (a bool vector's is in lower_vector)."""
        return "compare it, e.g. 'x != 0'"


def _scalar_of(dtype: np.dtype) -> ScalarType:
    """The sarek scalar type of a numpy number dtype (not bool)."""
    return next(SCALARS[n] for n in ("f16", "f32", "f64", "i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64")
                if SCALARS[n].np_dtype == dtype)


def _wider_literal(a: Any, b: Any) -> bool:
    """Integer constant `a` needs i64 while `b` fits in i32."""
    def wide(x: Any) -> bool:
        return isinstance(x, int) and not isinstance(x, bool) and not -(1 << 31) <= x < (1 << 31)
    return wide(a) and not wide(b)


def _constant_zero(v: SSAValue) -> bool:
    """v is the integer constant 0, possibly converted (`u32(0)`, a literal the usual conversions widened)."""
    while isinstance(v.owner, s.CastOp):
        v = v.owner.operand
    return isinstance(v.owner, s.ConstantOp) and isinstance(v.owner.value, IntegerAttr) and \
        cast("IntegerAttr[IntegerType]", v.owner.value).value.data == 0


def _subscript_root(node: ast.Subscript) -> tuple[ast.expr, list[ast.expr]]:
    """`NESTED[i][j]`: the indexed expression `NESTED` and the indices, outermost first (a slice ends the chain)."""
    root, chain = node.value, [node.slice]
    while isinstance(root, ast.Subscript) and not isinstance(root.slice, ast.Slice):
        root, chain = root.value, [root.slice, *chain]
    return root, chain
