"""Asynchronous global-to-shared copies of the sarek dialect: the copy, the group commit and the wait.

`sarek.copy_async` copies `count` consecutive elements along the last dimension from a global buffer into a
shared array; the copies a thread issued since its last `sarek.copy_async_commit` form one group, and
`sarek.copy_async_wait N` waits until at most N of the thread's committed groups are still in flight. Another
thread's copies are visible after the wait *and* a barrier, as for plain stores. Targets with hardware copies
(CUDA, PTX: `cp.async` on sm_80+) lower the ops as they are; every other target and both interpreters run
`sarek-expand-copy-async`, which makes each copy `count` plain element copies and drops the commits and waits
(a copy that completes at once satisfies every wait)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from sarek.dialect.opformat import NullarySyntax
from sarek.dialect.syntax import operand as _operand
from sarek.dialect.syntax import parse_attrs as _parse_attrs
from sarek.dialect.syntax import parse_subscripts as _parse_subscripts
from sarek.dialect.syntax import parse_type_of as _parse_type_of
from sarek.dialect.syntax import print_attrs as _print_attrs
from sarek.dialect.syntax import print_subscripts as _print_subscripts
from sarek.dialect.syntax import raise_since as _raise_since
from sarek.dialect.types import ArrayType, MemSpace, VecType, is_scalar_type

#: the byte sizes one hardware copy moves (cp.async: 4, 8 or 16 bytes)
COPY_BYTES = (4, 8, 16)


@irdl_op_definition
class CopyAsyncOp(IRDLOperation):
    """`sarek.copy_async %dst[%i, %j], %src[%k, %l] count 8 : !sarek.array<f16, shared, 2>, !sarek.vec<f16, 2>`
    — dst[i, j + e] = src[k, l + e] for e < count, completed by a later `sarek.copy_async_wait` (dst a shared
    array, src a global buffer of the same element type; `indices` holds dst's then src's)."""

    name = "sarek.copy_async"
    dst = operand_def(ArrayType)
    src = operand_def(VecType | ArrayType)
    indices = var_operand_def(i32)
    count = prop_def(IntegerAttr)

    def __init__(self, dst: SSAValue, dst_idx: Sequence[SSAValue], src: SSAValue, src_idx: Sequence[SSAValue],
                 count: int):
        super().__init__(operands=[dst, src, [*dst_idx, *src_idx]], properties={"count": IntegerAttr(count, i32)})

    @property
    def dst_indices(self) -> tuple[SSAValue, ...]:
        return tuple(self.indices[:cast(ArrayType, self.dst.type).ndim])

    @property
    def src_indices(self) -> tuple[SSAValue, ...]:
        return tuple(self.indices[cast(ArrayType, self.dst.type).ndim:])

    @property
    def n(self) -> int:
        return self.count.value.data

    @property
    def element_type(self) -> Attribute:
        return cast(ArrayType, self.dst.type).element_type

    def verify_(self) -> None:
        dt, st = cast(ArrayType, self.dst.type), cast(VecType | ArrayType, self.src.type)
        if dt.memspace != MemSpace.SHARED:
            raise VerifyException(f"copy_async writes a shared array, not a {dt.memspace.value} one")
        if isinstance(st, ArrayType) and st.memspace != MemSpace.GLOBAL:
            raise VerifyException(f"copy_async reads a global buffer, not a {st.memspace.value} array")
        if dt.element_type != st.element_type or not is_scalar_type(dt.element_type):
            raise VerifyException(f"copy_async copies between buffers of one scalar element type, got "
                                  f"{dt.element_type} and {st.element_type}")
        if len(self.indices) != dt.ndim + st.ndim:
            raise VerifyException(f"copy_async needs {dt.ndim} + {st.ndim} indices, got {len(self.indices)}")
        if self.n <= 0:
            raise VerifyException(f"copy_async count must be positive, got {self.n}")

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_operand(self.dst)
        _print_subscripts(printer, self.dst_indices)
        printer.print_string(", ")
        printer.print_operand(self.src)
        _print_subscripts(printer, self.src_indices)
        printer.print_string(f" count {self.n} : ")
        printer.print_attribute(self.dst.type)
        printer.print_string(", ")
        printer.print_attribute(self.src.type)
        _print_attrs(printer, self, ("count",))

    @classmethod
    def parse(cls, parser: Parser) -> CopyAsyncOp:
        dst = _operand(parser)
        di = _parse_subscripts(parser)
        parser.parse_punctuation(",")
        src = _operand(parser)
        si = _parse_subscripts(parser)
        parser.parse_keyword("count")
        n = parser.parse_integer(allow_negative=False)
        _parse_type_of(parser, dst, "destination")
        parser.parse_punctuation(",")
        pos = parser.pos
        if parser.parse_type() != src.type:
            _raise_since(parser, f"source has type {src.type}", pos)
        return _parse_attrs(parser, cls(dst, di, src, si, n))


@irdl_op_definition
class CopyAsyncCommitOp(NullarySyntax):
    """`sarek.copy_async_commit` — the thread's copies issued since its last commit become one group."""

    name = "sarek.copy_async_commit"


@irdl_op_definition
class CopyAsyncWaitOp(IRDLOperation):
    """`sarek.copy_async_wait 1` — wait until at most that many of the thread's committed groups are pending
    (0: all of them are complete)."""

    name = "sarek.copy_async_wait"
    pending = prop_def(IntegerAttr)

    def __init__(self, pending: int):
        super().__init__(properties={"pending": IntegerAttr(pending, i32)})

    def verify_(self) -> None:
        if not 0 <= self.pending.value.data <= 7:
            raise VerifyException(f"copy_async_wait takes 0..7 pending groups, got {self.pending.value.data}")

    def print(self, printer: Printer) -> None:
        printer.print_string(f" {self.pending.value.data}")
        _print_attrs(printer, self, ("pending",))

    @classmethod
    def parse(cls, parser: Parser) -> CopyAsyncWaitOp:
        return _parse_attrs(parser, cls(parser.parse_integer(allow_negative=False)))


def expand_copy(op: CopyAsyncOp) -> None:
    """`op` as `count` element copies before it (array_read, elem_ref, store; the last index + e), in order,
    located at `op`; `op` erased. What a copy computes, for the expansion pass and the interpreters."""
    from sarek.dialect.expressions import BinOp, ConstantOp
    from sarek.dialect.places import ArrayReadOp, ElemRefOp, StoreOp

    new: list[Operation] = []

    def at(idx: tuple[SSAValue, ...], e: int) -> list[SSAValue]:
        if e == 0:
            return list(idx)
        c = ConstantOp(IntegerAttr(e, i32), i32)
        add = BinOp("add", idx[-1], c.results[0])
        new.extend((c, add))
        return [*idx[:-1], add.results[0]]

    for e in range(op.n):
        read = ArrayReadOp(op.src, at(op.src_indices, e))
        ref = ElemRefOp(op.dst, at(op.dst_indices, e))
        new.extend((read, ref, StoreOp(ref.results[0], read.results[0])))
    for o in new:
        o.location = op.location  # a bounds error names the copy's line
    parent = op.parent_block()
    assert parent is not None
    parent.insert_ops_before(new, op)
    op.detach()
    op.erase()


def plain_copies(module: ModuleOp) -> ModuleOp:
    """`module` itself when it has no asynchronous copies, else a clone where every copy is element copies and
    the commits and waits are gone (the interpreters run that: a copy completes when issued)."""
    ops = [o for o in module.walk() if isinstance(o, COPY_ASYNC_OPS)]
    if not ops:
        return module
    out = module.clone()
    for o in [o for o in out.walk() if isinstance(o, COPY_ASYNC_OPS)]:
        if isinstance(o, CopyAsyncOp):
            expand_copy(o)
        else:
            o.detach()
            o.erase()
    return out


#: every asynchronous-copy op (the expansion pass's and lowerings' one list)
COPY_ASYNC_OPS: tuple[type[IRDLOperation], ...] = (CopyAsyncOp, CopyAsyncCommitOp, CopyAsyncWaitOp)

__all__ = ["CopyAsyncOp", "CopyAsyncCommitOp", "CopyAsyncWaitOp", "COPY_ASYNC_OPS", "COPY_BYTES", "expand_copy",
           "plain_copies"]

