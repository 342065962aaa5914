"""The reference executor's compiler: a module's kernels and helpers as Python source (sarek/interp/reference.py
says what it computes and how launches schedule it). Expressions are compiled by `reference_exprs.ExprCompiler`."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from functools import partial
from typing import Any, cast

import numpy as np
from xdsl.dialects.builtin import FloatAttr, ModuleOp, UnitAttr
from xdsl.ir import Block, Operation, SSAValue

from sarek.dialect import sarek as S
from sarek.dialect.intrinsics import is_warp_exchange
from sarek.interp import arith as A
from sarek.interp import common as C
from sarek.interp import coopmat as _cm
from sarek.interp.common import DEPTH_MESSAGE, Fault, InterpError, Types, kind
from sarek.interp.reference_exprs import EV_BARRIER, EV_GRID_BARRIER, EV_WARP_BARRIER, ExprCompiler, compiles
from sarek.interp.tables import table_values

_YIELDING = (S.BarrierOp, S.GridBarrierOp, S.WarpBarrierOp)

#: the event each barrier yields to the scheduler
_BARRIER_EVENTS: dict[type[Operation], int] = {S.BarrierOp: EV_BARRIER, S.GridBarrierOp: EV_GRID_BARRIER,
                                               S.WarpBarrierOp: EV_WARP_BARRIER}
_COMPILE = compiles.entries


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


class _Compiler(ExprCompiler):
    """Statements, blocks and functions (expressions: sarek.interp.reference_exprs.ExprCompiler)."""

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

    def op(self, op: Operation, ind: int) -> None:
        """Compiles `op` through its entry in the table of `@compiles` methods (`e` emits a line at `ind`); an op
        without one is refused."""
        f = _COMPILE.get(type(op))
        if f is None:
            raise self.refuse(op, f"the interpreter does not support {op.name}")
        f(self, op, ind, partial(self.emit, ind))

    @compiles(S.ConstantOp)
    def emit_constant(self, op: S.ConstantOp, ind: int, e: Callable[[str], None]) -> None:
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
            x = {"f32": np.float32, "f16": A.f16, "f64": np.float64}[k](v.value.data)
            e(f"{n} = {self.const(x)}")

    @compiles(S.UnOp)
    def emit_un(self, op: S.UnOp, ind: int, e: Callable[[str], None]) -> None:
        n, a, k = self.define(op.result), self.name(op.operand), kind(op.operand.type)
        kd = op.op.value
        if kd == "neg":
            e(f"{n} = {self.wrap(k, '-' + a)}" if k in C.INTS else f"{n} = -{a}")
        elif kd == "not":
            e(f"{n} = not {a}")
        else:
            e(f"{n} = {self.wrap(k, '~' + a)}")

    @compiles(S.BitcastOp)
    def emit_bitcast(self, op: S.BitcastOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        e(f"{n} = _bitcast({self.name(op.operand)}, {kind(op.result.type)!r})")

    @compiles(S.MakeRecordOp)
    def emit_make_record(self, op: S.MakeRecordOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        ri = self.const(self.p.types.rec(op.result.type))
        e(f"{n} = _Rec({ri}, [{', '.join(self.name(v) for v in op.fields)}])")

    @compiles(S.MakeVariantOp)
    def emit_make_variant(self, op: S.MakeVariantOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        vi = self.p.types.var(op.result.type)
        e(f"{n} = _Var({self.const(vi)}, {vi.ctors.index(op.ctor.data)}, "
          f"[{', '.join(self.name(v) for v in op.payload)}])")

    @compiles(S.FieldOp)
    def emit_field(self, op: S.FieldOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        idx = self.p.types.rec(op.record.type).fields.index(op.field.data)
        e(f"{n} = {self.name(op.record)}.f[{idx}]")

    @compiles(S.PayloadOp)
    def emit_payload(self, op: S.PayloadOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        vi = self.p.types.var(op.variant.type)
        tag = vi.ctors.index(op.ctor.data)
        s = self.name(op.variant)
        e(f"{n} = {s}.p[{op.index.value.data}] if {s}.tag == {tag} else _bad_payload({s}, {tag}, "
          f"{self.opid(op)})")

    @compiles(S.ArrayReadOp)
    def emit_array_read(self, op: S.ArrayReadOp, ind: int, e: Callable[[str], None]) -> None:
        n, a, i = self.define(op.result), self.name(op.array), self.flat_index(op, ind)
        oid = self.opid(op)
        if len(op.indices) == 1:
            e(f"if not 0 <= {i} < len({a}): _oob({oid}, {i}, len({a}))")
        if kind(op.result.type) in ("rec", "var"):
            e(f"{n} = _detach({a}[{i}], {oid})")
        else:
            e(f"{n} = {a}[{i}]")

    @compiles(S.ArrayLenOp)
    def emit_array_len(self, op: S.ArrayLenOp, ind: int, e: Callable[[str], None]) -> None:
        e(f"{self.define(op.result)} = len({self.name(op.array)})")

    @compiles(S.ArrayDimOp)
    def emit_array_dim(self, op: S.ArrayDimOp, ind: int, e: Callable[[str], None]) -> None:
        e(f"{self.define(op.result)} = {self.name(op.array)}.shape[{op.dim.data}]")

    @compiles(S.AllocArrayOp)
    def emit_alloc_array(self, op: S.AllocArrayOp, ind: int, e: Callable[[str], None]) -> None:
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

    @compiles(S.CallOp)
    def emit_call(self, op: S.CallOp, ind: int, e: Callable[[str], None]) -> None:
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

    @compiles(S.LetOp)
    def emit_let(self, op: S.LetOp, ind: int, e: Callable[[str], None]) -> None:
        n, v = self.define(op.result), self.name(op.value)
        e(f"{n} = {self.copy(op.value.type, v, op)}")

    @compiles(S.LetMutOp)
    def emit_let_mut(self, op: S.LetMutOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        self.places[op.result] = n
        e(f"{n} = {self.copy(op.init.type, self.name(op.init), op, store=True)}")

    @compiles(S.LoadOp)
    def emit_load(self, op: S.LoadOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        e(f"{n} = {self.copy(op.result.type, self.places[op.ref], op)}")

    @compiles(S.StoreOp)
    def emit_store(self, op: S.StoreOp, ind: int, e: Callable[[str], None]) -> None:
        if op.place not in self.places:
            raise self.refuse(op, "store target is not a place")
        e(f"{self.places[op.place]} = {self.copy(op.value.type, self.name(op.value), op, store=True)}")

    @compiles(S.ElemRefOp)
    def emit_elem_ref(self, op: S.ElemRefOp, ind: int, e: Callable[[str], None]) -> None:
        a, i = self.name(op.array), self.flat_index(op, ind)
        if len(op.indices) == 1:
            e(f"if not 0 <= {i} < len({a}): _oob({self.opid(op)}, {i}, len({a}))")
        self.places[op.result] = f"{a}[{i}]"
        self.names[op.result] = "None"

    @compiles(S.FieldRefOp)
    def emit_field_ref(self, op: S.FieldRefOp, ind: int, e: Callable[[str], None]) -> None:
        if op.base not in self.places:
            raise self.refuse(op, "field_ref base is not a place")
        rt = S.RefType
        assert isinstance(op.base.type, rt)
        idx = self.p.types.rec(op.base.type.element_type).fields.index(op.field.data)
        self.places[op.result] = f"{self.places[op.base]}.f[{idx}]"
        self.names[op.result] = "None"

    @compiles(S.IfOp)
    def emit_if(self, op: S.IfOp, ind: int, e: Callable[[str], None]) -> None:
        e(f"if {self.name(op.cond)}:")
        self.block(op.then_region.block, ind + 1)
        if op.else_region.blocks and list(op.else_region.block.ops):
            e("else:")
            self.block(op.else_region.block, ind + 1)

    @compiles(S.IfExprOp)
    def emit_if_expr(self, op: S.IfExprOp, ind: int, e: Callable[[str], None]) -> None:
        n = self.define(op.result)
        e(f"if {self.name(op.cond)}:")
        self.yielding_block(op.then_region.block, ind + 1, n)
        e("else:")
        self.yielding_block(op.else_region.block, ind + 1, n)

    @compiles(S.WhileOp)
    def emit_while(self, op: S.WhileOp, ind: int, e: Callable[[str], None]) -> None:
        c = self.fresh("c")
        e("while True:")
        self.yielding_block(op.cond_region.block, ind + 1, c)
        self.emit(ind + 1, f"if not {c}: break")
        self.block(op.body.block, ind + 1)

    @compiles(S.ForOp)
    def emit_for(self, op: S.ForOp, ind: int, e: Callable[[str], None]) -> None:
        i = self.define(op.index)
        if op.step_value is not None:
            e(f"for {i} in range({self.name(op.lo)}, {self.name(op.hi)}, {op.step_value}):")
        else:  # a run-time step: Python's range, a zero step running no iteration
            st = self.name(op.step_operand)
            e(f"for {i} in (range({self.name(op.lo)}, {self.name(op.hi)}, {st}) if {st} else ()):")
        self.block(op.body.block, ind + 1)

    @compiles(S.BreakOp)
    def emit_break(self, op: S.BreakOp, ind: int, e: Callable[[str], None]) -> None:
        e("break")

    @compiles(S.ContinueOp)
    def emit_continue(self, op: S.ContinueOp, ind: int, e: Callable[[str], None]) -> None:
        e("continue")

    @compiles(S.AssertOp)
    def emit_assert(self, op: S.AssertOp, ind: int, e: Callable[[str], None]) -> None:
        e("pass")  # release semantics: the debug pipeline turns asserts into checks

    @compiles(S.ReturnOp)
    def emit_return(self, op: S.ReturnOp, ind: int, e: Callable[[str], None]) -> None:
        e(f"return {self.name(op.value[0])}" if op.value else "return None")

    @compiles(S.PragmaOp, S.BlockOp)
    def emit_scope_block(self, op: S.PragmaOp | S.BlockOp, ind: int, e: Callable[[str], None]) -> None:
        self.block(op.body.block, ind)

    @compiles(*_BARRIER_EVENTS)
    def emit_barrier(self, op: Operation, ind: int, e: Callable[[str], None]) -> None:
        """The scheduler's synchronisation points."""
        e(f"yield ({_BARRIER_EVENTS[type(op)]}, {self.opid(op)})")

    @compiles(S.MemFenceOp, S.CoopmatWaitOp)  # a wait: the interpreters' mmas are synchronous
    def emit_mem_fence(self, op: Operation, ind: int, e: Callable[[str], None]) -> None:
        e("pass")

    @compiles(*S.COOPMAT_OPS)
    def emit_coopmat(self, op: Operation, ind: int, e: Callable[[str], None]) -> None:
        e(self.coop(op))

    @compiles(S.YieldOp)
    def emit_yield(self, op: S.YieldOp, ind: int, e: Callable[[str], None]) -> None:
        raise AssertionError("yield handled by its parent")

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
            core = _cm.core_of(op)
            return f"{frag(op.frag.data)} = _cm.run({oid}, _cm.load, {mem}, {shape}, {col}, {k!r}, {core})"
        return f"if _lane == 0: _cm.run({oid}, _cm.store, {read(op.frag.data)}, {mem}, {col}, {k!r})"

    def yielding_block(self, b: Block, ind: int, target: str) -> None:
        for op in b.ops:
            if isinstance(op, S.YieldOp):
                self.emit(ind, f"{target} = {self.name(op.value)}")
            else:
                self.op(op, ind)

    @compiles(S.MatchOp, S.MatchExprOp)
    def match(self, op: S.MatchOp | S.MatchExprOp, ind: int, e: Callable[[str], None]) -> None:
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
    "_detach": _detach, "_f16": A.f16, "_bf16": C.bf16_round, "_cdiv": A.cdiv, "_crem": A.crem, "_f2i": A.float_to_int,
    **{f"_{n}": s.one for n, s in A.INT_INTRINSICS.items()}, "_bitcast": A.bitcast_py, "_M": A.MATH, "_native": _native,
}
