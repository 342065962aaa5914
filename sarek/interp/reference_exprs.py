"""The reference executor's expressions: binary ops, casts, intrinsics (math, warp, atomics) and native blocks
as lines of Python (the statement compiler, sarek/interp/reference_compile.py, derives from `ExprCompiler`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.ir import Operation, SSAValue

from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, Category
from sarek.dialect.optable import OpTable
from sarek.interp import arith as A
from sarek.interp import common as C
from sarek.interp.common import InterpError, kind

#: events a thread's generator yields to the scheduler
EV_BARRIER, EV_SHUFFLE, EV_WARP_BARRIER, EV_GRID_BARRIER = 0, 1, 2, 3

#: sarek op type -> the compiler method writing its Python, `(self, op, ind, e)` (`e` emits a line at indent
#: `ind`): one entry per op, stated by `@compiles(Op)` on the method; `_Compiler.op` dispatches on the op's
#: exact type
compiles = OpTable[Callable[..., None]]("reference executor")
BLOCK_WIDE = (EV_BARRIER, EV_GRID_BARRIER)  # events every thread of the block waits at together

#: float conversions by destination (bf16 goes through f32: an f64 or a wide integer rounds twice, as on every
#: device)
_FLOAT_CTOR = {"f32": "_np.float32", "f16": "_f16", "bf16": "_bf16", "f64": "_np.float64"}


class ExprCompiler:
    """Expression code generation over the compiler's naming (`define`, `name`, `opid`, `const`, `refuse`)."""

    def define(self, v: SSAValue) -> str:
        raise NotImplementedError

    def name(self, v: SSAValue) -> str:
        raise NotImplementedError

    def opid(self, op: Operation) -> int:
        raise NotImplementedError

    def const(self, value: Any) -> str:
        raise NotImplementedError

    def refuse(self, op: Operation, msg: str) -> InterpError:
        raise NotImplementedError

    def wrap(self, k: str, expr: str) -> str:
        """Python code for `expr` modulo 2^width in integer kind k's range."""
        bits, unsigned = C.int_bits(k)
        if unsigned:
            return f"(({expr}) & {(1 << bits) - 1})"
        half = 1 << (bits - 1)
        return f"((({expr}) + {half}) & {(1 << bits) - 1}) - {half}"

    @compiles(S.BinOp)
    def binop(self, op: S.BinOp, ind: int, e: Any) -> None:
        n, a, b = self.define(op.result), self.name(op.lhs), self.name(op.rhs)
        k, kd = kind(op.lhs.type), op.op.value
        cmp = {"eq": "==", "ne": "!=", "lt": "<", "le": "<=", "gt": ">", "ge": ">="}
        if kd in cmp:
            e(f"{n} = {a} {cmp[kd]} {b}")
        elif kd == "and":
            e(f"{n} = {a} and {b}")
        elif kd == "or":
            e(f"{n} = {a} or {b}")
        elif k in C.INTS:
            bits = C.int_bits(k)[0]
            if kd in ("add", "sub", "mul"):
                sym = {"add": "+", "sub": "-", "mul": "*"}[kd]
                e(f"{n} = {self.wrap(k, a + ' ' + sym + ' ' + b)}")
            elif kd in ("div", "rem"):
                oid = self.opid(op)
                what = "division" if kd == "div" else "remainder"
                e(f"if {b} == 0: raise _Fault({oid}, 'integer {what} by zero')")
                e(f"{n} = {self.wrap(k, '_c' + kd + '(' + a + ', ' + b + ')')}")
            elif kd == "shl":
                e(f"{n} = {self.wrap(k, a + ' << (' + b + ' & ' + str(bits - 1) + ')')}")
            elif kd == "shr":
                e(f"{n} = {a} >> ({b} & {bits - 1})")
            else:
                sym = {"bitand": "&", "bitor": "|", "bitxor": "^"}[kd]
                e(f"{n} = {a} {sym} {b}")
        else:
            sym = {"add": "+", "sub": "-", "mul": "*", "div": "/"}[kd]
            e(f"{n} = {a} {sym} {b}")

    @compiles(S.CastOp)
    def cast(self, op: S.CastOp, ind: int, e: Any) -> None:
        n, a = self.define(op.result), self.name(op.operand)
        src, dst = kind(op.operand.type), kind(op.result.type)
        if src == dst:
            e(f"{n} = {a}")
        elif dst in C.INTS:
            bits, unsigned = C.int_bits(dst)
            if src in ("f16", "bf16", "f32", "f64"):
                e(f"{n} = _f2i({a}, {bits}, {unsigned})")
            elif src == "i1":
                e(f"{n} = 1 if {a} else 0")
            else:
                e(f"{n} = {self.wrap(dst, a)}")
        elif dst == "i1":
            e(f"{n} = {a} != 0")
        elif dst in _FLOAT_CTOR:
            e(f"{n} = {_FLOAT_CTOR[dst]}({a})")
        else:
            raise self.refuse(op, f"cast to {op.result.type} is not supported")

    @compiles(S.IntrinsicOp)
    def intrinsic(self, op: S.IntrinsicOp, ind: int, e: Any) -> None:
        name = op.callee.data
        info = INTRINSICS.get(name)
        if info is None:
            raise self.refuse(op, f"unknown intrinsic '{name}'")
        n = self.define(op.result)
        args = [self.name(a) for a in op.args]
        if info.category == Category.INDEX:
            e(f"{n} = {_INDEX[name]}")
        elif name == "lane_id":
            e(f"{n} = _lane")
        elif name == "warp_size":
            e(f"{n} = _ws")
        elif name == "warp_id":
            e(f"{n} = (_tx + _bdx * (_ty + _bdy * _tz)) // _ws")
        elif info.category == Category.WARP:
            e(f"{n} = yield ({EV_SHUFFLE}, {self.opid(op)}, {args[0]}, {args[1] if len(args) > 1 else 0})")
        elif info.category == Category.MATH:
            k = kind(op.result.type)
            if name in ("abs", "min", "max") and k in C.INTS:
                if name == "abs":
                    e(f"{n} = {self.wrap(k, 'abs(' + args[0] + ')')}")
                else:
                    e(f"{n} = {name}({args[0]}, {args[1]})")
            elif name in A.INT_INTRINSICS:  # on the operand's bits (sarek.dialect.semantics)
                call = f"_{name}({args[0]}, {C.int_bits(kind(op.args[0].type))[0]})"
                e(f"{n} = {call if A.INT_INTRINSICS[name].is_count else self.wrap(k, call)}")
            elif name in ("abs", "min", "max"):
                fn = {"abs": "fabs", "min": "fmin", "max": "fmax"}[name]
                e(f"{n} = _M[{fn!r}]({', '.join(args)})")
            else:
                e(f"{n} = _M[{name!r}]({', '.join(args)})")
        elif info.category == Category.ATOMIC:
            a, i = args[0], args[1]
            oid = self.opid(op)
            k = kind(op.result.type)
            e(f"if not 0 <= {i} < len({a}): _oob({oid}, {i}, len({a}))")
            e(f"{n} = {a}[{i}]")
            x = args[2] if len(args) > 2 else None
            isint = k in C.INTS
            new = {
                "atomic_add": f"{n} + {x}", "atomic_sub": f"{n} - {x}", "atomic_inc": f"{n} + 1",
                "atomic_dec": f"{n} - 1", "atomic_exch": f"{x}", "atomic_min": f"min({n}, {x})",
                "atomic_max": f"max({n}, {x})", "atomic_and": f"{n} & {x}", "atomic_or": f"{n} | {x}",
                "atomic_xor": f"{n} ^ {x}",
            }
            if name == "atomic_cas" and k in ("f32", "f64"):  # float cas compares the bits (docs/KERNELS.md)
                bits = "'i32'" if k == "f32" else "'i64'"
                e(f"if _bitcast({n}, {bits}) == _bitcast({args[2]}, {bits}): {a}[{i}] = {args[3]}")
            elif name == "atomic_cas":
                e(f"if {n} == {args[2]}: {a}[{i}] = {args[3]}")
            else:
                expr = new[name]
                if isint and name in ("atomic_add", "atomic_sub", "atomic_inc", "atomic_dec"):
                    expr = self.wrap(k, expr)
                elif not isint and name in ("atomic_inc", "atomic_dec"):
                    expr = f"{n} {'+' if name == 'atomic_inc' else '-'} {self.const(C.NP_SCALAR[k](1))}"
                elif not isint and name in ("atomic_and", "atomic_or", "atomic_xor"):
                    raise self.refuse(op, f"'{name}' needs an integer element type")
                e(f"{a}[{i}] = {expr}")
        else:
            raise self.refuse(op, f"intrinsic '{name}' is not supported by the interpreter")

    @compiles(S.NativeOp)
    def native(self, op: S.NativeOp, ind: int, e: Any) -> None:
        text = op.text_for("python")
        if text is None:
            raise self.refuse(op, "sarek.native has no 'python' text; the interpreter runs only native blocks "
                                  "that provide one")
        f = enclosing = S.enclosing_function(op)
        assert f is not None and enclosing is not None
        names = ", ".join(f"{p!r}: {self.name(a)}" for p, a in f.params)
        code = self.const(compile(text, f"<sarek.native python {id(op)}>", "exec"))
        e(f"_native({code}, {{{names}, 'thread_idx': (_tx, _ty, _tz), 'block_idx': (_bx, _by, _bz), "
          f"'block_dim': (_bdx, _bdy, _bdz), 'grid_dim': (_gdx, _gdy, _gdz)}}, {self.opid(op)})")


_INDEX = {}
for _d in "xyz":
    _INDEX[f"thread_idx_{_d}"] = f"_t{_d}"
    _INDEX[f"block_idx_{_d}"] = f"_b{_d}"
    _INDEX[f"block_dim_{_d}"] = f"_bd{_d}"
    _INDEX[f"grid_dim_{_d}"] = f"_gd{_d}"
    _INDEX[f"global_idx_{_d}"] = f"_t{_d} + _b{_d} * _bd{_d}"
    _INDEX[f"global_size_{_d}"] = f"_bd{_d} * _gd{_d}"
_INDEX["global_thread_id"] = _INDEX["global_idx_x"]
_INDEX["global_size"] = _INDEX["global_size_x"]
