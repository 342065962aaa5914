"""Build sarek IR from Python (tests, the front end and fuzzers use this).

    mb = ModuleBuilder()
    mb.record("point", [("x", f32), ("y", f32)])
    with mb.kernel("vadd", [("a", VecType(f32)), ("n", i32)]) as b:
        a, n = b.params
        i = b.let("i", b.intrinsic("global_thread_id"))
        with b.if_(b.binop("lt", i, n)):
            b.store(b.elem_ref(a, i), b.binop("add", b.read(a, i), b.const(1.0, f32)))
    module = mb.module          # verified with mb.module.verify()

Every method inserts at the current insertion block and returns the new value (or op); the context managers
(`if_`, `else_`, `while_`, `for_`, `match`, `case`, `block`, `pragma`) move the insertion point into a region
and back. `loc` (a FileLineColLoc) is attached to every op built while it is set.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field

from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, i1
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region, SSAValue

from sarek.dialect import sarek as s
from sarek.dialect.syntax import hint


@dataclass
class BodyBuilder:
    """Inserts statements and expressions into a block of a kernel or helper."""

    block: Block
    loc: FileLineColLoc | None = None
    _stack: list[Block] = field(default_factory=list[Block])

    @property
    def params(self) -> tuple[BlockArgument, ...]:
        return tuple(self._root.args)

    @property
    def _root(self) -> Block:
        return self._stack[0] if self._stack else self.block

    def at(self, file: str, line: int, col: int) -> BodyBuilder:
        """Attach this location to the ops built from now on."""
        self.loc = FileLineColLoc(StringAttr(file), IntAttr(line), IntAttr(col))
        return self

    def insert(self, op: Operation) -> Operation:
        if self.loc is not None:
            op.location = self.loc
        self.block.add_op(op)
        return op

    def _v(self, op: Operation) -> SSAValue:
        self.insert(op)
        return op.results[0]

    @contextmanager
    def into(self, block: Block) -> Generator[Block]:
        self._stack.append(self.block)
        self.block = block
        try:
            yield block
        finally:
            self.block = self._stack.pop()

    # expressions
    def const(self, value: int | float | bool | None, type: Attribute) -> SSAValue:
        return self._v(s.ConstantOp.from_value(value, type))

    def binop(self, kind: str, lhs: SSAValue, rhs: SSAValue) -> SSAValue:
        return self._v(s.BinOp(kind, lhs, rhs))

    def unop(self, kind: str, x: SSAValue) -> SSAValue:
        return self._v(s.UnOp(kind, x))

    def cast(self, x: SSAValue, type: Attribute) -> SSAValue:
        return self._v(s.CastOp(x, type))

    def bitcast(self, x: SSAValue, type: Attribute) -> SSAValue:
        return self._v(s.BitcastOp(x, type))

    def intrinsic(self, name: str, *args: SSAValue, type: Attribute | None = None) -> SSAValue:
        return self._v(s.IntrinsicOp(name, list(args), type))

    def make_record(self, record: str, *fields: SSAValue) -> SSAValue:
        return self._v(s.MakeRecordOp(record, list(fields)))

    def make_variant(self, variant: str, ctor: str, *payload: SSAValue) -> SSAValue:
        return self._v(s.MakeVariantOp(variant, ctor, list(payload)))

    def field(self, record: SSAValue, name: str, type: Attribute) -> SSAValue:
        return self._v(s.FieldOp(record, name, type))

    def payload(self, v: SSAValue, ctor: str, index: int, type: Attribute) -> SSAValue:
        return self._v(s.PayloadOp(v, ctor, index, type))

    def read(self, array: SSAValue, index: SSAValue) -> SSAValue:
        return self._v(s.ArrayReadOp(array, index))

    def length(self, vec: SSAValue) -> SSAValue:
        return self._v(s.ArrayLenOp(vec))

    def alloc(self, name: str, size: SSAValue, elt: Attribute, space: str = "shared") -> SSAValue:
        return self._v(s.AllocArrayOp(name, size, s.ArrayType(elt, space)))

    def call(self, helper: str, args: Sequence[SSAValue], return_type: Attribute) -> SSAValue | None:
        op = self.insert(s.CallOp(helper, list(args), return_type))
        return op.results[0] if op.results else None

    # binders and places
    def let(self, name: str, value: SSAValue) -> SSAValue:
        return self._v(s.LetOp(name, value))

    def let_mut(self, name: str, init: SSAValue) -> SSAValue:
        return self._v(s.LetMutOp(name, init))

    def load(self, ref: SSAValue) -> SSAValue:
        return self._v(s.LoadOp(ref))

    def store(self, place: SSAValue, value: SSAValue) -> None:
        self.insert(s.StoreOp(place, value))

    def elem_ref(self, array: SSAValue, index: SSAValue) -> SSAValue:
        return self._v(s.ElemRefOp(array, index))

    def field_ref(self, base: SSAValue, name: str, type: Attribute) -> SSAValue:
        return self._v(s.FieldRefOp(base, name, type))

    # statements
    def barrier(self) -> None:
        self.insert(s.BarrierOp())

    def warp_barrier(self) -> None:
        self.insert(s.WarpBarrierOp())

    def mem_fence(self) -> None:
        self.insert(s.MemFenceOp())

    def native(self, texts: dict[str, str]) -> None:
        self.insert(s.NativeOp(texts))

    def return_(self, value: SSAValue | None = None) -> None:
        self.insert(s.ReturnOp(value))

    @contextmanager
    def if_(self, cond: SSAValue) -> Generator[s.IfOp]:
        """`with b.if_(c) as op:` builds the then-branch; `with b.else_(op):` the else-branch."""
        op = s.IfOp(cond)
        self.insert(op)
        with self.into(op.then_region.block):
            yield op

    @contextmanager
    def else_(self, op: s.IfOp) -> Generator[None]:
        if not op.else_region.blocks:
            op.else_region.add_block(Block())
        with self.into(op.else_region.block):
            yield

    def if_expr(self, cond: SSAValue, type: Attribute) -> IfExprBuilder:
        """`e = b.if_expr(c, f32)`; `with e.then_(): ... e.yield_(v)`; `with e.else_(): ...`; `e.result`."""
        op = s.IfExprOp(cond, type, Region(Block()), Region(Block()))
        self.insert(op)
        return IfExprBuilder(self, op)

    def choose(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        """`cond ? a : b` of two values already computed (an if-expression yielding one or the other)."""
        e = self.if_expr(cond, a.type)
        with e.then_():
            e.yield_(a)
        with e.else_():
            e.yield_(b)
        return e.result

    @contextmanager
    def while_(self) -> Generator[WhileBuilder]:
        """`with b.while_() as w:` then `with w.cond(): ... w.yield_(c)` and `with w.body(): ...`."""
        op = s.WhileOp(Region(Block()))
        self.insert(op)
        yield WhileBuilder(self, op)

    @contextmanager
    def for_(self, name: str, lo: SSAValue, hi: SSAValue, step: int = 1) -> Generator[BlockArgument]:
        op = s.ForOp(name, lo, hi, step)
        self.insert(op)
        with self.into(op.body.block):
            yield op.index

    @contextmanager
    def block_(self) -> Generator[None]:
        op = s.BlockOp()
        self.insert(op)
        with self.into(op.body.block):
            yield

    @contextmanager
    def pragma(self, hints: Sequence[str]) -> Generator[None]:
        op = s.PragmaOp(hints)
        self.insert(op)
        with self.into(op.body.block):
            yield

    def match(self, scrutinee: SSAValue, result_type: Attribute | None = None) -> MatchBuilder:
        """Cases are added with `with m.case("Ctor", ["x"], [f32]) as (x,):`; call `m.finish()` at the end
        (it inserts the op); `m.result` for a match expression."""
        return MatchBuilder(self, scrutinee, result_type)


@dataclass
class IfExprBuilder:
    b: BodyBuilder
    op: s.IfExprOp

    @property
    def result(self) -> SSAValue:
        return self.op.result

    @contextmanager
    def then_(self) -> Generator[None]:
        with self.b.into(self.op.then_region.block):
            yield

    @contextmanager
    def else_(self) -> Generator[None]:
        with self.b.into(self.op.else_region.block):
            yield

    def yield_(self, v: SSAValue) -> None:
        self.b.insert(s.YieldOp(v))


@dataclass
class WhileBuilder:
    b: BodyBuilder
    op: s.WhileOp

    @contextmanager
    def cond(self) -> Generator[None]:
        with self.b.into(self.op.cond_region.block):
            yield

    def yield_(self, c: SSAValue) -> None:
        assert c.type == i1
        self.b.insert(s.YieldOp(c))

    @contextmanager
    def body(self) -> Generator[None]:
        with self.b.into(self.op.body.block):
            yield


@dataclass
class MatchBuilder:
    b: BodyBuilder
    scrutinee: SSAValue
    result_type: Attribute | None
    cases: list[str] = field(default_factory=list[str])
    binders: list[list[str]] = field(default_factory=list[list[str]])
    regions: list[Region] = field(default_factory=list[Region])
    op: s.MatchOp | s.MatchExprOp | None = None

    @contextmanager
    def case(self, ctor: str, binders: Sequence[str] = (), types: Sequence[Attribute] = ()) -> Generator[tuple[BlockArgument, ...]]:
        """`ctor` is a constructor name or `_` (default)."""
        block = Block(arg_types=list(types))
        for a, n in zip(block.args, binders):
            hint(a, n)
        self.cases.append(ctor)
        self.binders.append(list(binders))
        self.regions.append(Region(block))
        with self.b.into(block):
            yield tuple(block.args)

    def yield_(self, v: SSAValue) -> None:
        self.b.insert(s.YieldOp(v))

    def finish(self) -> Operation:
        if self.result_type is None:
            op: s.MatchOp | s.MatchExprOp = s.MatchOp(self.scrutinee, self.cases, self.binders, self.regions)
        else:
            op = s.MatchExprOp(self.scrutinee, self.result_type, self.cases, self.binders, self.regions)
        self.op = op
        self.b.insert(op)
        return op

    @property
    def result(self) -> SSAValue:
        assert isinstance(self.op, s.MatchExprOp)
        return self.op.result


@dataclass
class ModuleBuilder:
    """Builds a module of declarations, helpers and kernels, in the order they are added."""

    module: ModuleOp = field(default_factory=lambda: ModuleOp([]))

    def record(self, name: str, fields: Sequence[tuple[str, Attribute]]) -> s.RecordType:
        self.module.body.block.add_op(s.RecordOp(name, fields))
        return s.RecordType(name)

    def variant(self, name: str, ctors: Sequence[tuple[str, Sequence[Attribute]]]) -> s.VariantType:
        self.module.body.block.add_op(s.VariantOp(name, ctors))
        return s.VariantType(name)

    @contextmanager
    def kernel(self, name: str, params: Sequence[tuple[str, Attribute]]) -> Generator[BodyBuilder]:
        op = s.KernelOp(name, params)
        self.module.body.block.add_op(op)
        yield BodyBuilder(op.body.block)

    @contextmanager
    def helper(self, name: str, params: Sequence[tuple[str, Attribute]], return_type: Attribute) -> Generator[BodyBuilder]:
        op = s.HelperOp(name, params, return_type)
        self.module.body.block.add_op(op)
        yield BodyBuilder(op.body.block)
