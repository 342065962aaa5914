"""The reference executor: every GPU thread is a Python generator, compiled once from the IR to Python source.

`compile_module(module)` turns every kernel and helper into a Python function (a generator when it, or a helper
it calls, contains a barrier, a warp barrier or a warp shuffle: those `yield` an event to the scheduler). The
source is built once per module and cached on it; a launch only re-binds the launch constants (block and grid
dimensions, warp size) by calling the generated factory.

Scheduling, per block, threads in linear order (x fastest): each thread runs until it finishes or yields.
- Warp events (shuffle, warp barrier) are resolved per warp once every lane of that warp waits at the *same* warp
  op; a warp with some lanes elsewhere (finished, at a block barrier, at another warp op) is an error naming the op.
- When no warp event is pending and some threads wait at block barriers: if every unfinished thread waits at the
  same barrier and none has finished, all are resumed (any number of barriers in a row works); if some threads
  finished while others wait, or threads wait at different barriers, it is an error naming the barrier(s).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

from sarek.diagnostics import raised_by_user
from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import INTRINSICS, WARP_VOTES, Category, is_warp_exchange
from sarek.interp import common as C
from sarek.interp import coopmat as _cm
from sarek.interp.common import DEPTH_MESSAGE, Fault, InterpError, Types, kind
from sarek.interp.tables import table_values

EV_BARRIER, EV_SHUFFLE, EV_WARP_BARRIER, EV_GRID_BARRIER = 0, 1, 2, 3
_BLOCK_WIDE = (EV_BARRIER, EV_GRID_BARRIER)  # events every thread of the block waits at together

_YIELDING = (S.BarrierOp, S.GridBarrierOp, S.WarpBarrierOp)


def _is_shuffle(op: Operation) -> bool:
    return isinstance(op, S.IntrinsicOp) and is_warp_exchange(op.callee.data)


class Program:
    """A compiled module: `factory(bdx, bdy, bdz, gdx, gdy, gdz, ws)` returns {name: function}."""

    def __init__(self, module: ModuleOp):
        self.module = module
        self.types = Types.of(module)
        self.ops: list[Operation] = []
        self.gen: dict[str, bool] = {}
        self.grid: dict[str, bool] = {}  # reaches a grid barrier: its blocks run together (`_run_grid`)
        self.source = ""
        self.factory: Any = None
        self.errors: dict[str, InterpError] = {}
        self.calls: dict[str, set[str]] = {}
        self.kernels: dict[str, S.KernelOp] = {}


def compile_module(module: ModuleOp) -> Program:
    """The module compiled to Python (cached on the module until its ops change)."""

    def build() -> Program:
        prog = Program(module)
        _Compiler(prog).run()
        return prog

    return C.cached(module, "reference", build)


class _Compiler:

    def __init__(self, prog: Program):
        self.p = prog
        self.names: dict[SSAValue, str] = {}
        self.places: dict[SSAValue, str] = {}
        self.consts: dict[str, Any] = {}
        self.lines: list[str] = []
        self.counter = itertools.count()
        self.funcs: dict[str, S.KernelOp | S.HelperOp] = {}
        self.frags: dict[str, str] = {}  # fragment name -> its Python variable, per function

    # ------------------------------------------------------------------------------------------ driver

    def run(self) -> None:
        m = self.p.module
        for op in m.body.block.ops:
            if isinstance(op, S.KernelOp | S.HelperOp):
                self.funcs[op.sym_name.data] = op
                if isinstance(op, S.KernelOp):
                    self.p.kernels[op.sym_name.data] = op
        self._compute_gen()
        self.lines = ["def _factory(_bdx, _bdy, _bdz, _gdx, _gdy, _gdz, _ws):"]
        for name, f in self.funcs.items():
            mark = len(self.lines)
            try:
                self.function(name, f)
            except InterpError as err:  # refused: only launches that reach this function fail
                del self.lines[mark:]
                self.p.errors[name] = err
                params = "".join(f", a{i}" for i in range(len(f.body.block.args)))
                self.emit(1, f"def {self.fname(name)}(_t, _sh{params}):")
                self.emit(2, "raise AssertionError('refused function called')")
        self.lines.append("    return {" + ", ".join(f"{n!r}: {self.fname(n)}" for n in self.funcs) + "}")
        src = "\n".join(self.lines) + "\n"
        self.p.source = src
        ns: dict[str, Any] = dict(_RUNTIME)
        ns.update(self.consts)
        ns["_T"] = self.p.types
        ns["_OPS"] = self.p.ops
        exec(compile(src, f"<sarek-interp {id(self.p)}>", "exec"), ns)
        self.p.factory = ns["_factory"]

    def _compute_gen(self) -> None:
        direct: dict[str, bool] = {}
        calls: dict[str, set[str]] = {}
        for n, f in self.funcs.items():
            direct[n] = any(isinstance(o, _YIELDING) or _is_shuffle(o) for o in f.walk())
            calls[n] = {o.callee_name for o in f.walk() if isinstance(o, S.CallOp)}
        self.p.gen = _through_calls(direct, calls)
        self.p.grid = _through_calls({n: any(isinstance(o, S.GridBarrierOp) for o in f.walk())
                                      for n, f in self.funcs.items()}, calls)
        self.p.calls = calls

    def fname(self, name: str) -> str:
        return "f_" + "".join(c if c.isalnum() else "_" for c in name) + f"_{list(self.funcs).index(name)}"

    def opid(self, op: Operation) -> int:
        self.p.ops.append(op)
        return len(self.p.ops) - 1

    def fresh(self, base: str = "v") -> str:
        return f"{base}{next(self.counter)}"

    def name(self, v: SSAValue) -> str:
        return self.names[v]

    def flat_index(self, op: S.ArrayReadOp | S.ElemRefOp, ind: int) -> str:
        """The element index of an access: its index on rank 1; on rank N the row-major offset of its
        indices, each checked against its extent first."""
        if len(op.indices) == 1:
            return self.name(op.index)
        if "sarek.flat" in op.attributes:  # a packed word (sarek-pack-narrow): the last index is its offset
            return self.name(op.indices[-1])
        a, idx = self.name(op.array), [self.name(x) for x in op.indices]
        sh = self.fresh("s")
        self.emit(ind, f"{sh} = {a}.shape")
        ok = " and ".join(f"0 <= {x} < {sh}[{d}]" for d, x in enumerate(idx))
        self.emit(ind, f"if not ({ok}): _oob_nd({self.opid(op)}, ({', '.join(idx)},), {sh})")
        flat = idx[0]
        for d, x in enumerate(idx[1:], 1):
            flat = f"({flat}) * {sh}[{d}] + {x}"
        return flat

    def define(self, v: SSAValue) -> str:
        n = self.fresh()
        self.names[v] = n
        return n

    def const(self, value: Any) -> str:
        n = f"K{len(self.consts)}"
        self.consts[n] = value
        return n

    def emit(self, ind: int, line: str) -> None:
        self.lines.append("    " * ind + line)

    def refuse(self, op: Operation, msg: str) -> InterpError:
        return InterpError(msg, op)

    # ------------------------------------------------------------------------------------------ functions

    def function(self, name: str, f: Operation) -> None:
        assert isinstance(f, S.KernelOp | S.HelperOp)
        params = [self.define(a) for a in f.body.block.args]
        self.frags = {}
        self.emit(1, f"def {self.fname(name)}(_t, _sh{''.join(', ' + p for p in params)}):")
        self.emit(2, "_tx, _ty, _tz, _bx, _by, _bz, _lane = _t")
        if isinstance(f, S.HelperOp):
            for a, p in zip(f.body.block.args, params):
                if kind(a.type) in ("rec", "var"):
                    self.emit(2, f"{p} = _detach({p}, {self.opid(f)})")
        self.block(f.body.block, 2)
        if self.p.gen[name]:
            self.emit(2, "if False: yield None")
        if isinstance(f, S.HelperOp) and not f.returns_unit:
            self.emit(2, f"raise _Fault({self.opid(f)}, 'helper @{name} ended without returning a value')")

    def block(self, b: Block, ind: int) -> None:
        start = len(self.lines)
        for op in b.ops:
            self.op(op, ind)
        if len(self.lines) == start:
            self.emit(ind, "pass")

    # ------------------------------------------------------------------------------------------ ops

    def op(self, op: Operation, ind: int) -> None:  # noqa: C901 - one dispatch
        def e(line: str) -> None:
            self.emit(ind, line)

        if isinstance(op, S.ConstantOp):
            n = self.define(op.result)
            k = kind(op.result.type)
            v = op.value
            if k == "unit" or isinstance(v, UnitAttr):
                e(f"{n} = None")
            elif k == "i1":
                e(f"{n} = {bool(C.int_value(v))}")
            elif k in C.INTS:
                e(f"{n} = {C.wrap_kind(C.int_value(v), k)}")
            else:
                assert isinstance(v, FloatAttr)
                x = {"f32": np.float32, "f16": C.f16, "f64": np.float64}[k](v.value.data)
                e(f"{n} = {self.const(x)}")
        elif isinstance(op, S.BinOp):
            self.binop(op, e)
        elif isinstance(op, S.UnOp):
            n, a, k = self.define(op.result), self.name(op.operand), kind(op.operand.type)
            kd = op.op.value
            if kd == "neg":
                e(f"{n} = {self.wrap(k, '-' + a)}" if k in C.INTS else f"{n} = -{a}")
            elif kd == "not":
                e(f"{n} = not {a}")
            else:
                e(f"{n} = {self.wrap(k, '~' + a)}")
        elif isinstance(op, S.CastOp):
            self.cast(op, e)
        elif isinstance(op, S.BitcastOp):
            n = self.define(op.result)
            e(f"{n} = _bitcast({self.name(op.operand)}, {kind(op.result.type)!r})")
        elif isinstance(op, S.IntrinsicOp):
            self.intrinsic(op, e)
        elif isinstance(op, S.MakeRecordOp):
            n = self.define(op.result)
            ri = self.const(self.p.types.rec(op.result.type))
            e(f"{n} = _Rec({ri}, [{', '.join(self.name(v) for v in op.fields)}])")
        elif isinstance(op, S.MakeVariantOp):
            n = self.define(op.result)
            vi = self.p.types.var(op.result.type)
            e(f"{n} = _Var({self.const(vi)}, {vi.ctors.index(op.ctor.data)}, "
              f"[{', '.join(self.name(v) for v in op.payload)}])")
        elif isinstance(op, S.FieldOp):
            n = self.define(op.result)
            idx = self.p.types.rec(op.record.type).fields.index(op.field.data)
            e(f"{n} = {self.name(op.record)}.f[{idx}]")
        elif isinstance(op, S.PayloadOp):
            n = self.define(op.result)
            vi = self.p.types.var(op.variant.type)
            tag = vi.ctors.index(op.ctor.data)
            s = self.name(op.variant)
            e(f"{n} = {s}.p[{op.index.value.data}] if {s}.tag == {tag} else _bad_payload({s}, {tag}, "
              f"{self.opid(op)})")
        elif isinstance(op, S.ArrayReadOp):
            n, a, i = self.define(op.result), self.name(op.array), self.flat_index(op, ind)
            oid = self.opid(op)
            if len(op.indices) == 1:
                e(f"if not 0 <= {i} < len({a}): _oob({oid}, {i}, len({a}))")
            if kind(op.result.type) in ("rec", "var"):
                e(f"{n} = _detach({a}[{i}], {oid})")
            else:
                e(f"{n} = {a}[{i}]")
        elif isinstance(op, S.ArrayLenOp):
            e(f"{self.define(op.result)} = len({self.name(op.array)})")
        elif isinstance(op, S.ArrayDimOp):
            e(f"{self.define(op.result)} = {self.name(op.array)}.shape[{op.dim.data}]")
        elif isinstance(op, S.AllocArrayOp):
            n = self.define(op.result)
            oid = self.opid(op)
            t = self.const(op.array_type.element_type)
            if op.values is not None:  # a constant table: its values, never written (one list for every thread)
                vals = self.const(table_values(op.values, kind(op.array_type.element_type)))
                shape = tuple(cast(list[int], op.shape))
                new = vals if op.array_type.ndim == 1 else f"_ND.of({vals}, {shape})"
            elif op.array_type.ndim == 1:
                sz = self.name(op.size)
                e(f"if {sz} < 0: raise _Fault({oid}, 'array size ' + str({sz}) + ' is negative')")
                new = f"_T.alloc({t}, {sz})"
            else:  # constant extents (the verifier's rule)
                shape = tuple(cast(list[int], op.shape))
                new = f"_ND.of(_T.alloc({t}, {math.prod(shape)}), {shape})"
            if op.array_type.memspace == S.MemSpace.SHARED:
                e(f"{n} = _sh.get({oid})")
                e(f"if {n} is None: {n} = _sh[{oid}] = {new}")
            else:
                e(f"{n} = {new}")
        elif isinstance(op, S.CallOp):
            callee = op.callee_name
            if callee not in self.funcs:
                raise self.refuse(op, f"@{callee} is not a helper of this module")
            call = f"{self.fname(callee)}(_t, _sh{''.join(', ' + self.name(a) for a in op.args)})"
            if self.p.gen[callee]:
                call = f"(yield from {call})"
            if op.res:
                e(f"{self.define(op.res[0])} = {call}")
            else:
                e(call)
        elif isinstance(op, S.LetOp):
            n, v = self.define(op.result), self.name(op.value)
            e(f"{n} = {self.copy(op.value.type, v, op)}")
        elif isinstance(op, S.LetMutOp):
            n = self.define(op.result)
            self.places[op.result] = n
            e(f"{n} = {self.copy(op.init.type, self.name(op.init), op, store=True)}")
        elif isinstance(op, S.LoadOp):
            n = self.define(op.result)
            e(f"{n} = {self.copy(op.result.type, self.places[op.ref], op)}")
        elif isinstance(op, S.StoreOp):
            if op.place not in self.places:
                raise self.refuse(op, "store target is not a place")
            e(f"{self.places[op.place]} = {self.copy(op.value.type, self.name(op.value), op, store=True)}")
        elif isinstance(op, S.ElemRefOp):
            a, i = self.name(op.array), self.flat_index(op, ind)
            if len(op.indices) == 1:
                e(f"if not 0 <= {i} < len({a}): _oob({self.opid(op)}, {i}, len({a}))")
            self.places[op.result] = f"{a}[{i}]"
            self.names[op.result] = "None"
        elif isinstance(op, S.FieldRefOp):
            if op.base not in self.places:
                raise self.refuse(op, "field_ref base is not a place")
            rt = S.RefType
            assert isinstance(op.base.type, rt)
            idx = self.p.types.rec(op.base.type.element_type).fields.index(op.field.data)
            self.places[op.result] = f"{self.places[op.base]}.f[{idx}]"
            self.names[op.result] = "None"
        elif isinstance(op, S.IfOp):
            e(f"if {self.name(op.cond)}:")
            self.block(op.then_region.block, ind + 1)
            if op.else_region.blocks and list(op.else_region.block.ops):
                e("else:")
                self.block(op.else_region.block, ind + 1)
        elif isinstance(op, S.IfExprOp):
            n = self.define(op.result)
            e(f"if {self.name(op.cond)}:")
            self.yielding_block(op.then_region.block, ind + 1, n)
            e("else:")
            self.yielding_block(op.else_region.block, ind + 1, n)
        elif isinstance(op, S.WhileOp):
            c = self.fresh("c")
            e("while True:")
            self.yielding_block(op.cond_region.block, ind + 1, c)
            self.emit(ind + 1, f"if not {c}: break")
            self.block(op.body.block, ind + 1)
        elif isinstance(op, S.ForOp):
            i = self.define(op.index)
            if op.step_value is not None:
                e(f"for {i} in range({self.name(op.lo)}, {self.name(op.hi)}, {op.step_value}):")
            else:  # a run-time step: Python's range, a zero step running no iteration
                st = self.name(op.step_operand)
                e(f"for {i} in (range({self.name(op.lo)}, {self.name(op.hi)}, {st}) if {st} else ()):")
            self.block(op.body.block, ind + 1)
        elif isinstance(op, S.BreakOp):
            e("break")
        elif isinstance(op, S.ContinueOp):
            e("continue")
        elif isinstance(op, S.AssertOp):
            e("pass")  # release semantics: the debug pipeline turns asserts into checks
        elif isinstance(op, S.MatchOp | S.MatchExprOp):
            self.match(op, ind)
        elif isinstance(op, S.ReturnOp):
            e(f"return {self.name(op.value[0])}" if op.value else "return None")
        elif isinstance(op, S.PragmaOp | S.BlockOp):
            self.block(op.body.block, ind)
        elif isinstance(op, S.BarrierOp):
            e(f"yield ({EV_BARRIER}, {self.opid(op)})")
        elif isinstance(op, S.GridBarrierOp):
            e(f"yield ({EV_GRID_BARRIER}, {self.opid(op)})")
        elif isinstance(op, S.WarpBarrierOp):
            e(f"yield ({EV_WARP_BARRIER}, {self.opid(op)})")
        elif isinstance(op, S.MemFenceOp):
            e("pass")
        elif isinstance(op, S.NativeOp):
            self.native(op, e)
        elif isinstance(op, S.COOPMAT_OPS):
            e(self.coop(op))
        elif isinstance(op, S.YieldOp):
            raise AssertionError("yield handled by its parent")
        else:
            raise self.refuse(op, f"the interpreter does not support {op.name}")

    def coop(self, op: Operation) -> str:
        """A cooperative-matrix op as one line (sarek.interp.coopmat: the whole matrix in every invocation, stored
        once per warp, by its first lane: the lanes after it must not see the store before their own loads)."""
        oid = self.opid(op)

        def frag(name: str) -> str:
            return self.frags.setdefault(name, self.fresh("fr"))

        def read(name: str) -> str:
            return f"_cm.need({oid}, {frag(name)}, {name!r})"

        if isinstance(op, S.CoopmatMulAddOp):
            k = kind(S.fragment_decl(op, op.c.data).element_type)
            return f"{frag(op.d.data)} = _cm.mma({read(op.a.data)}, {read(op.b.data)}, {read(op.c.data)}, {k!r})"
        assert isinstance(op, S.CoopmatDeclOp | S.CoopmatFillOp | S.CoopmatLoadOp | S.CoopmatStoreOp)
        d = S.fragment_decl(op, op.frag.data)
        k, shape = kind(d.element_type), f"{d.rows.value.data}, {d.cols.value.data}"
        if isinstance(op, S.CoopmatDeclOp):
            return f"{frag(op.frag.data)} = None"
        if isinstance(op, S.CoopmatFillOp):
            return f"{frag(op.frag.data)} = _cm.fill({self.name(op.value)}, {shape}, {k!r})"
        mem = f"{self.name(op.array)}, {self.name(op.index)}, {self.name(op.stride)}"
        col = op.col_major is not None
        if isinstance(op, S.CoopmatLoadOp):
            return f"{frag(op.frag.data)} = _cm.run({oid}, _cm.load, {mem}, {shape}, {col}, {k!r})"
        return f"if _lane == 0: _cm.run({oid}, _cm.store, {read(op.frag.data)}, {mem}, {col}, {k!r})"

    def yielding_block(self, b: Block, ind: int, target: str) -> None:
        for op in b.ops:
            if isinstance(op, S.YieldOp):
                self.emit(ind, f"{target} = {self.name(op.value)}")
            else:
                self.op(op, ind)

    def match(self, op: S.MatchOp | S.MatchExprOp, ind: int) -> None:
        res = self.define(op.result) if isinstance(op, S.MatchExprOp) else None
        s = self.name(op.scrutinee)
        vi = self.p.types.var(op.scrutinee.type)
        tg = self.fresh("tag")
        self.emit(ind, f"{tg} = {s}.tag")
        first = True
        for c, _, r in op.case_list():
            if c == S.WILDCARD:
                self.emit(ind, "if True:" if first else "else:")
            else:
                self.emit(ind, f"{'if' if first else 'elif'} {tg} == {vi.ctors.index(c)}:")
            first = False
            for j, a in enumerate(r.block.args):
                n = self.define(a)
                self.emit(ind + 1, f"{n} = {s}" if c == S.WILDCARD else f"{n} = {s}.p[{j}]")
            if res is not None:
                self.yielding_block(r.block, ind + 1, res)
            else:
                self.block(r.block, ind + 1)
        # a statement match that no case covers does nothing (Python's match; the compiled backends fall
        # through); a value match has no value to give
        if res is not None and S.WILDCARD not in [c for c, _, _ in op.case_list()]:
            self.emit(ind, "else:")
            self.emit(ind + 1, f"raise _Fault({self.opid(op)}, 'no case matches constructor ' + "
                               f"{s}.t.ctors[{tg}])")

    def copy(self, t: Any, v: str, op: Operation, store: bool = False) -> str:
        k = kind(t)
        if k in ("rec", "var"):
            return f"_detach({v}, {self.opid(op)})"
        if k == "f16" and store:
            return f"_f16({v})"
        return v

    def wrap(self, k: str, expr: str) -> str:
        """Python code for `expr` modulo 2^width in integer kind k's range."""
        bits, unsigned = C.int_bits(k)
        if unsigned:
            return f"(({expr}) & {(1 << bits) - 1})"
        half = 1 << (bits - 1)
        return f"((({expr}) + {half}) & {(1 << bits) - 1}) - {half}"

    def binop(self, op: S.BinOp, e: Any) -> None:
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

    def cast(self, op: S.CastOp, e: Any) -> None:
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
        elif dst == "f32":
            e(f"{n} = _np.float32({a})")
        elif dst == "f16":
            e(f"{n} = _f16({a})")
        elif dst == "bf16":  # through f32 (an f64 or a wide integer rounds twice, as on every device)
            e(f"{n} = _bf16({a})")
        elif dst == "f64":
            e(f"{n} = _np.float64({a})")
        else:
            raise self.refuse(op, f"cast to {op.result.type} is not supported")

    def intrinsic(self, op: S.IntrinsicOp, e: Any) -> None:
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
            elif name in ("clz", "popcount", "bit_reverse"):  # on i32 / i64
                call = f"_{name}({args[0]}, {C.int_bits(kind(op.args[0].type))[0]})"
                e(f"{n} = {self.wrap(k, call) if name == 'bit_reverse' else call}")
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

    def native(self, op: S.NativeOp, e: Any) -> None:
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


def _through_calls(direct: dict[str, bool], calls: dict[str, set[str]]) -> dict[str, bool]:
    """`direct` (per function) closed over calls: true where the function or one it calls, transitively, is."""
    out = dict(direct)
    changed = True
    while changed:
        changed = False
        for n in out:
            if not out[n] and any(out.get(c, False) for c in calls[n]):
                out[n] = changed = True
    return out


def _oob(oid: int, i: int, n: int) -> None:
    raise Fault(oid, f"index {i} out of bounds for an array of length {n}")


def _oob_nd(oid: int, idx: tuple[int, ...], shape: tuple[int, ...]) -> None:
    d = next(d for d, (i, n) in enumerate(zip(idx, shape)) if not 0 <= i < n)
    raise Fault(oid, f"index {list(idx)} out of bounds for an array of shape {list(shape)} (dimension {d}: "
                     f"{idx[d]} not in 0..{shape[d] - 1})")


def _bad_payload(v: Any, tag: int, oid: int) -> None:
    raise Fault(oid, f"payload of constructor {v.t.ctors[tag]} read from a {v.t.ctors[v.tag]} value")


def _detach(v: Any, oid: int) -> Any:
    try:
        return C.detach(v)
    except C.DepthError:
        raise Fault(oid, DEPTH_MESSAGE) from None


def _native(code: Any, ns: dict[str, Any], oid: int) -> None:
    try:
        exec(code, {"np": np}, ns)
    except Exception as ex:  # noqa: BLE001
        raise Fault(oid, f"sarek.native python text raised {type(ex).__name__}: {ex}") from None


_RUNTIME: dict[str, Any] = {
    "_np": np, "_Rec": C.Rec, "_Var": C.Var, "_Fault": Fault, "_oob": _oob, "_oob_nd": _oob_nd, "_ND": C.NDList, "_cm": _cm, "_bad_payload": _bad_payload,
    "_detach": _detach, "_f16": C.f16, "_bf16": C.bf16_round, "_cdiv": C.cdiv, "_crem": C.crem, "_f2i": C.float_to_int, "_clz": C.clz,
    "_popcount": C.popcount, "_bit_reverse": C.bit_reverse, "_bitcast": C.bitcast_py, "_M": C.MATH, "_native": _native,
}


# ------------------------------------------------------------------------------------------------ launching


def run(module: ModuleOp, kernel: str, args: list[Any], grid: tuple[int, int, int],
        block: tuple[int, int, int], warp_size: int = 32) -> None:
    prog = compile_module(module)
    k = prog.kernels.get(kernel)
    if k is None:
        raise InterpError(f"no kernel @{kernel} in the module")
    reach: set[str] = set()
    todo = [kernel]
    while todo:
        n = todo.pop()
        if n not in reach:
            reach.add(n)
            todo += prog.calls.get(n, ())
    for n in prog.kernels.keys() | prog.errors.keys():
        if n in reach and n in prog.errors:
            raise prog.errors[n]
    types = prog.types
    ptypes = [a.type for a in k.body.block.args]
    if len(args) != len(ptypes):
        raise InterpError(f"kernel @{kernel} takes {len(ptypes)} argument(s), {len(args)} given", k)
    vals: list[Any] = []
    seen: dict[int, list[Any]] = {}
    back: list[tuple[list[Any], np.ndarray, Any]] = []
    held = k.attributes.get("sarek.packed")  # sarek-pack-narrow's word vectors: name -> original element type
    packed = dict(held.data) if isinstance(held, DictionaryAttr) else {}
    for (pname, a), x in zip(k.params, args):
        if kind(a.type) == "vec":
            vt = cast(S.VecType, a.type)
            et = vt.element_type
            orig = packed.get(pname, et)
            if isinstance(orig, IntegerAttr):  # packed records: the element size of the original layout
                C.PackedWords.check(x, orig.value.data, pname, k, vt.ndim)
            else:
                types.check_vector(x, orig, pname, k, vt.ndim)
            if id(x) in seen:  # one array passed twice: one storage, as on a device
                vals.append(seen[id(x)])
                continue
            flat = x.reshape(-1)
            if pname in packed:  # sarek-pack-narrow's words: the host's bytes, lengths in elements
                lst = C.PackedWords.of(flat, x.shape)
            elif vt.ndim == 1:
                lst = types.vec_to_list(flat, et)
            else:
                lst = C.NDList.of(types.vec_to_list(flat, et), x.shape)
            seen[id(x)] = lst
            vals.append(lst)
            back.append((lst, x, et))
        else:
            arr = C.as_ndarray(x)
            v: object = arr[()] if arr is not None and arr.ndim == 0 else x
            if pname in packed and isinstance(v, np.void):  # its narrow fields widened: given by name
                x = C.void_fields(v)
            vals.append(types.from_python(x, a.type))
    bdx, bdy, bdz = block
    gdx, gdy, gdz = grid
    fns = prog.factory(bdx, bdy, bdz, gdx, gdy, gdz, warp_size)
    fn = fns[kernel]
    gen = prog.gen[kernel]
    threads = [(tx, ty, tz) for tz in range(bdz) for ty in range(bdy) for tx in range(bdx)]

    def steps(bx: int, by: int, bz: int) -> Iterator[int]:
        """Block (bx, by, bz): runs to its end, pausing where every thread waits at a grid barrier."""
        sh: dict[int, Any] = {}
        ts = [(tx, ty, tz, bx, by, bz, i % warp_size) for i, (tx, ty, tz) in enumerate(threads)]
        if gen:
            yield from _schedule([fn(t, sh, *vals) for t in ts], warp_size, prog.ops)
        else:
            for t in ts:
                fn(t, sh, *vals)

    blocks = ((bx, by, bz) for bz in range(gdz) for by in range(gdy) for bx in range(gdx))
    with np.errstate(all="ignore"):
        try:
            if prog.grid[kernel]:
                _run_grid([steps(*b) for b in blocks], prog.ops)
            else:
                for b in blocks:
                    for _ in steps(*b):
                        pass
        except Fault as f:
            raise InterpError(f.message, prog.ops[f.opid]) from None
        except RecursionError:
            raise InterpError("helper recursion too deep", k) from None
        except (InterpError, KeyboardInterrupt):
            raise
        except Exception as ex:  # noqa: BLE001 - never a Python traceback for the user
            if raised_by_user(ex):  # a signal handler's exception: the user's (the device notes it)
                raise
            raise InterpError(f"internal interpreter error: {type(ex).__name__}: {ex}", k) from ex
    from sarek.analysis.writes import written_params

    written = written_params(module, kernel)
    wrote = {id(x) for i, x in enumerate(args) if i in written}
    for lst, arr, et in back:  # only vectors the kernel may write (a read-only input stays untouched)
        if id(arr) in wrote:
            if isinstance(lst, C.PackedWords):
                lst.unpack(arr)
            else:
                types.list_to_vec(lst, arr, et)


def _loc(op: Operation) -> str:
    return C.location_of(op)


def _run_grid(blocks: list[Iterator[int]], ops: list[Operation]) -> None:
    """The blocks of a launch that reaches a grid barrier, together: each runs until all its threads wait at a
    grid barrier (or it ends); every block must wait at the same one, then all go on."""
    live = blocks
    while live:
        at = [(b, k) for b in live if (k := next(b, None)) is not None]
        if not at:
            return
        if len(at) != len(live):
            raise InterpError(f"grid barrier reached by only {len(at)} of {len(blocks)} blocks (the others finished "
                              "without reaching it; a grid barrier needs every block)", ops[at[0][1]])
        bars = {k for _, k in at}
        if len(bars) > 1:
            locs = sorted(_loc(ops[k]) for k in bars)
            raise InterpError(f"blocks wait at different grid barriers: {', '.join(locs)}", ops[min(bars)])
        live = [b for b, _ in at]


def _schedule(gens: list[Any], ws: int, ops: list[Operation]) -> Iterator[int]:
    """The threads of one block, switched at barriers and warp operations; yields the op id of a grid barrier
    when every thread waits at it."""
    n = len(gens)
    runnable: list[int] = list(range(n))
    send: list[Any] = [None] * n
    waiting: dict[int, tuple[int, int, *tuple[Any, ...]]] = {}  # (event, op id, *operands)
    done = [False] * n
    while True:
        for i in runnable:
            try:
                waiting[i] = gens[i].send(send[i])
            except StopIteration:
                done[i] = True
        if not waiting:
            return
        runnable = []
        warp_waiters = [i for i, ev in waiting.items() if ev[0] not in _BLOCK_WIDE]
        if warp_waiters:
            for w in sorted({i // ws for i in warp_waiters}):
                members = range(w * ws, min(n, (w + 1) * ws))
                evs = [waiting.get(i) for i in members]
                first = next(ev for ev in evs if ev is not None and ev[0] not in _BLOCK_WIDE)
                op = ops[first[1]]
                for i, ev in zip(members, evs):
                    if ev is None or ev[1] != first[1]:
                        where = "finished" if done[i] else f"waits at {_loc(ops[ev[1]])}" if ev else "is elsewhere"
                        raise InterpError(f"warp operation reached by only some lanes of warp {w}: lane "
                                          f"{i - w * ws} {where} (warp operations need every lane of the warp)",
                                          op)
                if first[0] == EV_SHUFFLE and cast(S.IntrinsicOp, op).callee.data in WARP_VOTES:
                    r = _vote(cast(S.IntrinsicOp, op).callee.data, [bool(waiting[i][2]) for i in members])
                    for i in members:
                        send[i] = r
                elif first[0] == EV_SHUFFLE:
                    name = cast(S.IntrinsicOp, op).callee.data
                    cnt = len(members)
                    vals = [waiting[i][2] for i in members]
                    for lane, i in enumerate(members):
                        x = waiting[i][3]
                        src = _src_lane(name, lane, x, ws)
                        send[i] = vals[src] if src < cnt else vals[lane]
                else:
                    for i in members:
                        send[i] = None
                for i in members:
                    del waiting[i]
                    runnable.append(i)
            continue
        bar = {ev[1] for ev in waiting.values()}
        if len(bar) > 1:
            locs = sorted(_loc(ops[b]) for b in bar)
            raise InterpError(f"threads of a block wait at different barriers: {', '.join(locs)}",
                              ops[min(bar)])
        b = bar.pop()
        if len(waiting) != n:
            raise InterpError(f"barrier reached by only {len(waiting)} of {n} threads of the block (the others "
                              "finished without reaching it)", ops[b])
        if next(iter(waiting.values()))[0] == EV_GRID_BARRIER:
            yield b
        runnable = list(range(n))
        send = [None] * n
        waiting = {}


def _vote(name: str, conds: list[bool]) -> Any:
    """warp_any / warp_all / warp_ballot over the lanes of one warp (a ballot keeps lanes 0..31)."""
    if name == "warp_any":
        return any(conds)
    if name == "warp_all":
        return all(conds)
    return np.uint32(sum(1 << k for k, c in enumerate(conds) if c and k < 32))


def _src_lane(name: str, lane: int, x: int, w: int) -> int:
    """Guarded source lane (SAREK_SPEC §4.11); out of range gives the own lane."""
    if name == "warp_shuffle":
        return x if 0 <= x < w else lane
    if name == "warp_shuffle_down":
        return lane + x if x >= 0 and lane + x < w else lane
    if name == "warp_shuffle_up":
        return lane - x if 0 <= x <= lane else lane
    s = lane ^ x
    return s if 0 <= s < w else lane
