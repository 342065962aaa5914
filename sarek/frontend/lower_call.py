"""Front end, calls: built-in casts and bitcasts, print, intrinsics (math, gpu, atomics), record
constructors, generic instantiation and calls of @device helpers."""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import Any, cast

from xdsl.dialects.builtin import IntegerType, i1, i32
from xdsl.ir import Attribute, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect import scalars as sc
from sarek.dialect.intrinsics import INTRINSICS, WARP_VOTES, Category, is_float
from sarek.dialect.semantics import INT_INTRINSICS
from sarek.frontend.decls import VariantCtor, record_info, variant_info
from sarek.frontend.generics import Inference, TypeVar, substitute, type_vars
from sarek.frontend.lower_base import BUILTIN_CASTS, Signature, is_num, tname
from sarek.frontend.lower_expr import ExprLowerer
from sarek.frontend.lower_math import EXPANDED, block_vote, expand_math, select, warp_width_check
from sarek.frontend.lower_async import copy_async_call
from sarek.gpu import GpuFunction, GpuValue
from sarek.math import MathFunction
from sarek.types import SCALARS, ArrayOf, ScalarType, VecOf


class CallLowerer(ExprLowerer):
    """Lowers calls (as expressions and as statements)."""

    def expr_Call(self, node: ast.Call, hint: Attribute | None) -> SSAValue:
        if (c := self.float_of_string(node)) is not None:
            return self.literal(c, hint, node)
        v = self.call(node, hint, statement=False)
        assert v is not None
        return v

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
        if getattr(fn, "__module__", None) == "math" and getattr(fn, "__name__", None) in EXPANDED:
            return expand_math(self, fn.__name__, node, hint, fname)  # Python's math.isnan & co.
        if getattr(fn, "__module__", None) == "math" and getattr(fn, "__name__", None) in INTRINSICS \
                and INTRINSICS[fn.__name__].category == Category.MATH:
            fn = MathFunction(fn.__name__, INTRINSICS[fn.__name__].arity, fn)   # Python's math.sqrt & co.
        if isinstance(fn, MathFunction) and fn.name in EXPANDED:
            return expand_math(self, fn.name, node, hint, fname)
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
            if not (is_num(v.type) or v.type == i1):
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
        if not (x.type == i1 or is_num(x.type)):
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
        """Lower arguments that share one type: non-constant ones first, then constants and reads of literal
        tables (`min(TAB[i], f32(x))` in an f64 context: TAB's floats are f32 there, as a literal would be)."""
        vals: list[SSAValue | None] = [None] * len(args)
        t = None
        for i, a in enumerate(args):
            if self.const_eval(a) is None and not self.literal_table_read(a):
                v = self.expr(a, t or hint)
                vals[i] = v
                t = t or v.type
        for i, a in enumerate(args):
            if vals[i] is None:
                v = self.expr(a, t or hint)
                vals[i] = v
                t = t or v.type
        for v in vals:     # `best = -math.inf` then `max(best, x64)`: best's literal takes f64
            for w in vals:
                self.widen_literal(cast(SSAValue, v), cast(SSAValue, w).type)
        return cast(list[SSAValue], vals)

    def intrinsic(self, name: str, args: list[ast.expr], node: ast.Call, hint: Attribute | None,
                  fname: str) -> SSAValue:
        info = INTRINSICS[name]
        if len(args) != info.arity:
            raise self.err(node, f"{fname}() takes {info.arity} argument(s), {len(args)} given")
        if name == "ldexp":
            return self.ldexp(args, node, hint, fname)
        if info.category == Category.MATH:
            ints = INT_INTRINSICS.get(name)
            h = hint if name in ("abs", "min", "max") or ints or (hint and is_float(hint)) else None
            if ints and (ints.is_count or (h is not None and is_float(h))):
                h = None  # integer-only: a float context (`f32(bit_reverse(0))`) must not make the literal f32
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
            if name in INT_INTRINSICS and sc.is_unsigned(t := vals[0].type) and sc.int_width(t) in (32, 64):
                # the same bits: through the signed type of its width (same-width casts keep the bits)
                signed = self.v(s.CastOp(vals[0], IntegerType(sc.int_width(t))), node)
                if INT_INTRINSICS[name].is_count:
                    return self.v(s.IntrinsicOp(name, [signed], i32), node)
                return self.v(s.CastOp(self.v(s.IntrinsicOp(name, [signed], signed.type), node), t), node)
        r = info.check([v.type for v in vals])
        if isinstance(r, str):
            got = ", ".join(tname(v.type) for v in vals)
            raise self.err(node, f"type mismatch: {fname}() {self._describe(info)}, got ({got})")
        return self.v(s.IntrinsicOp(name, vals, r), node)

    def ldexp(self, args: list[ast.expr], node: ast.Call, hint: Attribute | None, fname: str) -> SSAValue:
        """`ldexp(x, n)`: a float x (f16, bf16, f32, f64) and an integer exponent, taken as an i32."""
        x = self.promoted(self.expr(args[0], hint if hint is not None and is_float(hint) else None), node)
        n = self.expr(args[1], i32)
        if not is_float(x.type):
            raise self.err(args[0], f"{fname}() needs a float (f16, bf16, f32 or f64) first, got {tname(x.type)}")
        if not sc.is_integer(n.type) or n.type == i1:
            raise self.err(args[1], f"{fname}() needs an integer exponent second, got {tname(n.type)} (write "
                                    f"{fname}(x, i32(n)))")
        if n.type != i32:
            n = self.v(s.CastOp(n, i32), node)
        return self.v(s.IntrinsicOp("ldexp", [x, n], x.type), node)

    def unsigned_minmax(self, name: str, vals: list[SSAValue], node: ast.AST) -> SSAValue:
        """abs/min/max of unsigned integers: abs is the value itself, min/max a select on an unsigned compare
        (no backend needs an unsigned min/max builtin)."""
        if name == "abs":
            return vals[0]
        a, b = vals
        return select(self, self.v(s.BinOp("lt" if name == "min" else "gt", a, b), node), a, b, node)

    @staticmethod
    def _describe(info: Any) -> str:
        n = info.name
        if info.category == Category.MATH:
            if n in ("abs", "min", "max"):
                return "needs integer or float operands of one type"
            if n in INT_INTRINSICS:
                return "needs an integer" if INT_INTRINSICS[n].is_count else "needs a 32- or 64-bit integer"
            return "needs float operands of one type (f16, f32 or f64)"
        if info.category == Category.ATOMIC:
            return "needs a vector or array of i32, i64, u32, u64, f32 or f64, an i32 index and values of the element type"
        return "needs an i32, i64, f32 or f64 value and an i32 lane"

    def gpu_call(self, fn: GpuFunction, node: ast.Call, hint: Attribute | None, statement: bool) -> SSAValue | None:
        fname = fn.name
        if fn.kind == "alloc":
            raise self.err(node, f"{fname}() declares an array: write 'name = {fname}(T, size)'")
        if fn.kind == "context":
            raise self.err(node, f"{fname}() is used as 'with {fname}(...):'")
        if fn.kind == "cast":
            return self.bitcast(node, fname)
        if fn.kind == "block_vote":
            return block_vote(self, fname, node)
        if fn.kind == "copy":
            return copy_async_call(self, fname, node, statement)
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
                  "mem_fence": s.MemFenceOp, "grid_barrier": s.GridBarrierOp}[fname]()
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
            if isinstance(arr.type, s.ArrayType) and arr.type.memspace == s.MemSpace.LOCAL:
                raise self.err(node.args[0], f"{fname}() on a local_array: a local array is private to its "
                                             "thread, so nothing can race on it; write the plain update "
                                             "(t[i] = t[i] + x) instead")
            idx = self.atomic_index(arr, node.args[1], fname)
            rest = [self.expr(a, arr.type.element_type) for a in node.args[2:]]
            return self.intrinsic_values(fname, [arr, idx, *rest], node, fname)
        if fname in WARP_VOTES:
            return self.intrinsic_values(fname, [self.cond(node.args[0])], node, fname)
        x = self.expr(node.args[0], hint)
        lane = self.expr(node.args[1], i32)
        if lane.type == i32:
            warp_width_check(self, fname, lane, node)
        return self.intrinsic_values(fname, [x, lane], node, fname)

    def atomic_index(self, arr: SSAValue, node: ast.expr, fname: str) -> SSAValue:
        """An atomic's i32 index into `arr`: any integer for a vector, `(i, j, ...)` (one per dimension) for an
        N-D array, flattened row-major as the array is stored (each index checked against its extent with
        debug=True)."""
        rank = cast(s.VecType | s.ArrayType, arr.type).ndim
        elts = node.elts if isinstance(node, ast.Tuple) else [node]
        if len(elts) != rank:
            want = "one index" if rank == 1 else f"a tuple of {rank} indices, e.g. {fname}(a, (i, j), x)"
            raise self.err(node, f"{fname}() on {tname(arr.type)} takes {want}, got {len(elts)}")
        flat: SSAValue | None = None
        for k, e in enumerate(elts):
            i = self.index(e)  # any integer index converts to i32 (atomics take an i32 index)
            if i.type != i32:
                i = self.v(s.CastOp(i, i32), e)
            if rank == 1:
                return i
            n = self.shape_of(arr, k, e)
            if n.type != i32:
                n = self.v(s.CastOp(n, i32), e)
            ok = self.v(s.BinOp("and", self.v(s.BinOp("ge", i, self.const(0, i32, e)), e),
                                self.v(s.BinOp("lt", i, n), e)), e)
            self.emit(s.AssertOp(ok, f"{fname}: index {k} is out of bounds of the array's dimension {k}"), e)
            flat = i if flat is None else self.v(s.BinOp("add", self.v(s.BinOp("mul", flat, n), e), i), e)
        assert flat is not None
        return flat

    def bind_args(self, node: ast.Call, names: list[str], too_many: str, unknown: Callable[[str | None], str],
                  twice: Callable[[str], str] | None = None) -> dict[str, ast.expr]:
        """A call's arguments by name: the positional ones in order, then the keywords. The messages: more
        positional arguments than names, a keyword not among them, a name given twice (`twice`; None: the
        keyword wins)."""
        if len(node.args) > len(names):
            raise self.err(node, too_many)
        given: dict[str, ast.expr] = dict(zip(names, node.args))
        for k in node.keywords:
            if k.arg not in names:
                raise self.err(k, unknown(k.arg))
            if twice is not None and k.arg in given:
                raise self.err(k, twice(k.arg))
            given[k.arg] = k.value
        return given

    def make_record(self, cls: Any, node: ast.Call, fname: str) -> SSAValue:
        rt = cast(s.RecordType, self.ty(cls, node))
        fields = self.record_fields(rt)
        names = [n for n, _ in fields]
        given = self.bind_args(node, names, f"{fname} has {len(fields)} field(s), {len(node.args)} given",
                               lambda k: f"record {fname} has no field '{k}'",
                               lambda k: f"field '{k}' of {fname} is given twice")
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

    def infer_binding(self, fn: Any, node: ast.Call, fname: str,
                      known: dict[str, Attribute] | None = None) -> dict[TypeVar, Any]:
        """The types of a generic helper's type variables at this call: from the types of the arguments that
        are not literals, then from the literals (their own types) for variables nothing else binds; `known`:
        the types of arguments already lowered (array views)."""
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
            ft = self.front_type(known[p.arg] if known and p.arg in known else self.type_of(a))
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

    def helper_args(self, node: ast.Call, names: list[str], fname: str) -> dict[str, ast.expr]:
        """A helper call's argument per parameter name (every one given, each once)."""
        given = self.bind_args(node, names, f"{fname}() takes {len(names)} argument(s), {len(node.args)} given",
                               lambda k: f"{fname}() has no parameter '{k}'")
        missing = [n for n in names if n not in given]
        if missing:
            raise self.err(node, f"{fname}() takes {len(names)} argument(s), {len(given)} given "
                                 f"(missing {', '.join(repr(m) for m in missing)})")
        return given

    def helper_arg(self, n: str, t: Attribute, a: ast.expr, fname: str) -> SSAValue:
        """Argument `a` of parameter `n` (type `t`), converted as an assignment would."""
        v = self.convert(self.expr(a, t), t, a)
        if v.type != t:
            self.widen_literal(v, t)
            raise self.err(a, f"type mismatch: parameter '{n}' of {fname}() is {tname(t)}, given {tname(v.type)}")
        return v

    def helper_call(self, sig: Signature, node: ast.Call, statement: bool, fname: str) -> SSAValue | None:
        given = self.helper_args(node, [n for n, _ in sig.params], fname)
        return self.emit_call(sig, [self.helper_arg(n, t, given[n], fname) for n, t in sig.params], node, statement,
                              fname)

    def emit_call(self, sig: Signature, vals: list[SSAValue], node: ast.Call, statement: bool,
                  fname: str) -> SSAValue | None:
        op = s.CallOp(sig.name, vals, sig.ret)
        self.emit(op, node)
        if isinstance(sig.ret, s.UnitType):
            if not statement:
                raise self.err(node, f"{fname}() returns nothing and has no value")
            return None
        return op.results[0]
