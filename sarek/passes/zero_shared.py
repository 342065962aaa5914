"""sarek-zero-shared{target=T}: a kernel's shared arrays start at zero, written out in the IR.

The rule (docs/KERNELS.md): every slot of a shared array declared in a kernel holds zero (the element type's
zero: 0, 0.0, false, records of zeros, a variant's first constructor with zero payloads — the all-zero bytes)
when the kernel starts, on every target. The interpreters allocate zeroed storage; CUDA, HIP, OpenCL, Metal,
GLSL and PTX leave shared memory undefined, so this pass writes the zeroing. WGSL zero-initialises workgroup
memory by specification, but not every stack does it: on lavapipe through wgpu the second workgroup of a
launch found the first one's values (tests/conformance/kernels/tiled.py, `fresh_slots`), so WGSL gets the
zeroing too:

- each shared `sarek.alloc_array` of the kernel moves to the top of the kernel body (shared storage is per
  block whatever the declaration's nesting, as the interpreters and the C family's hoisted declarations have
  it), with its extents as fresh constants;
- after them, one loop per array that the kernel may read, strided over the block's threads (`zi = linear
  thread id; while zi < slots: a[zi] = 0; zi += threads per block`, row-major indices for N-D arrays; a
  `while`, as the step is known positive: a `for` with a run-time step tests its sign), stores the
  element's zero, and one `sarek.barrier` follows all the loops: a slot costs one store per thread and
  threads-per-block slots, and the kernel one barrier.

Skipped where it is cheap to prove the zeroing unobservable: an array the kernel never reads (its only uses
are stores through element/field places, `len` and `.shape`). A shared array declared in a helper (PTX, GLSL
and WGSL accept them; the C family refuses them) is not a kernel's and is left as the target has it (docs:
declare it in the kernel and pass it in). Run before the optimisation passes, so the loops get their strength
reduction; the pipelines of every target run it right after `sarek-verify-barriers`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, Float16Type, Float32Type, Float64Type, ModuleOp, i32
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass

from sarek.analysis.effects import is_pure_intrinsic
from sarek.analysis.features import constant_size
from sarek.dialect import sarek as s
from sarek.dialect.builder import BodyBuilder
from sarek.dialect.scalars import is_bf16
from sarek.diagnostics import SarekError
from sarek.registry import target_info

#: uses of an array that do not read its contents
_SHAPE_ONLY = (s.ArrayLenOp, s.ArrayDimOp)


def _only_written(ref: SSAValue) -> bool:
    """True when every use of the place `ref` writes it (a store's place, or a field place that is)."""
    for u in ref.uses:
        op = u.operation
        if isinstance(op, s.StoreOp) and u.index == 0:
            continue
        if isinstance(op, s.FieldRefOp) and _only_written(op.results[0]):
            continue
        return False
    return True


def never_read(alloc: s.AllocArrayOp) -> bool:
    """True when the kernel never reads the array's contents (so its initial contents cannot be observed)."""
    for u in alloc.result.uses:
        op = u.operation
        if isinstance(op, _SHAPE_ONLY):
            continue
        if isinstance(op, s.ElemRefOp) and _only_written(op.result):
            continue
        return False
    return True


def zero_value(b: BodyBuilder, t: Attribute, decls: dict[str, Operation]) -> SSAValue:
    """The element type's zero, built with `b`: the value whose bytes are all zero."""
    if isinstance(t, s.RecordType):
        rec = cast(s.RecordOp, decls[t.decl_name])
        return b.make_record(t.decl_name, *(zero_value(b, ft, decls) for _, ft in rec.fields))
    if isinstance(t, s.VariantType):
        var = cast(s.VariantOp, decls[t.decl_name])
        ctor, payload = var.ctors[0]
        return b.make_variant(t.decl_name, ctor, *(zero_value(b, pt, decls) for pt in payload))
    if isinstance(t, Float16Type | Float32Type | Float64Type) or is_bf16(t):
        return b.const(0.0, t)
    return b.const(0, t)


def _linear_thread(b: BodyBuilder) -> tuple[SSAValue, SSAValue]:
    """(the thread's linear index in its block, the threads of a block)."""
    tx, ty, tz = (b.intrinsic(f"thread_idx_{a}") for a in "xyz")
    bx, by, bz = (b.intrinsic(f"block_dim_{a}") for a in "xyz")
    tid = b.binop("add", tx, b.binop("mul", bx, b.binop("add", ty, b.binop("mul", by, tz))))
    return tid, b.binop("mul", bx, b.binop("mul", by, bz))


def _clone_size(v: SSAValue, out: list[Operation]) -> SSAValue | None:
    """A copy of the pure expression `v` (constants, index intrinsics, operators, lets), its ops appended to
    `out`; None when the size is computed otherwise."""
    op = v.owner
    if isinstance(op, s.LetOp):
        return _clone_size(op.value, out)
    if not (isinstance(op, s.ConstantOp | s.BinOp | s.UnOp | s.CastOp) or is_pure_intrinsic(cast(Operation, op))):
        return None
    new = cast(Operation, op).clone_without_regions()
    for i, a in enumerate(cast(Operation, op).operands):
        x = _clone_size(a, out)
        if x is None:
            return None
        new.operands[i] = x
    out.append(new)
    return new.results[0]


def _hoist(kernel: s.KernelOp, alloc: s.AllocArrayOp, at: Operation | None, target: str) -> None:
    """Move `alloc` to the kernel's top block before `at`, with a copy of its extents' computation."""
    top = kernel.body.block
    ops: list[Operation] = []
    sizes = [_clone_size(v, ops) for v in alloc.sizes]
    if any(x is None for x in sizes):
        raise SarekError(f"the size of shared array '{alloc.sym.data}' must be computed from constants and the "
                         "block's dimensions (shared arrays are allocated when the kernel starts)", alloc,
                         target_info(target).display)
    alloc.detach()
    for op in [*ops, alloc]:
        if at is None:
            top.add_op(op)
        else:
            top.insert_op_before(op, at)
    for i, v in enumerate(sizes):
        alloc.operands[i] = cast(SSAValue, v)


def zero_kernel(module: ModuleOp, kernel: s.KernelOp, target: str) -> bool:
    """Hoist the kernel's shared arrays and zero those it reads; True when it wrote a zeroing."""
    allocs = [op for op in kernel.body.walk() if isinstance(op, s.AllocArrayOp)
              and op.array_type.memspace == s.MemSpace.SHARED]
    if not allocs:
        return False
    top = kernel.body.block
    first = top.first_op
    for a in allocs:
        _hoist(kernel, a, first, target)
    zeroed = [a for a in allocs if not never_read(a)]
    if not zeroed:
        return False
    decls: dict[str, Operation] = {op.sym_name.data: op for op in module.ops
                                   if isinstance(op, s.RecordOp | s.VariantOp)}
    b = BodyBuilder(Block())
    tid, threads = _linear_thread(b)
    for a in zeroed:
        if isinstance(a.location, FileLineColLoc):
            b.loc = a.location  # a fault in the loop (a debug build) points at the declaration
        n = constant_size(a)
        hi = a.size if n is None else b.const(n, i32)
        zi = b.let_mut("zi", tid)
        with b.while_() as w:
            with w.cond():
                w.yield_(b.binop("lt", b.load(zi), hi))
            with w.body():
                i = b.load(zi)
                idx = [i] if a.array_type.ndim == 1 else _unflatten(b, i, cast(list[int], a.shape))
                place = b.insert(s.ElemRefOp(a.result, idx)).results[0]
                b.store(place, zero_value(b, a.array_type.element_type, decls))
                b.store(zi, b.binop("add", i, threads))
    b.barrier()
    for op in list(b.block.ops):
        op.detach()
        if first is None:
            top.add_op(op)
        else:
            top.insert_op_before(op, first)
    return True


def _unflatten(b: BodyBuilder, i: SSAValue, shape: list[int]) -> list[SSAValue]:
    """Row-major indices of flat slot `i` in `shape` (divisions by constants)."""
    out: list[SSAValue] = []
    for k in range(len(shape) - 1, 0, -1):
        n = b.const(shape[k], i32)
        out.append(b.binop("rem", i, n))
        i = b.binop("div", i, n)
    out.append(i)
    return out[::-1]


def zero_shared(module: ModuleOp, target: str) -> None:
    """Every kernel's shared arrays start at zero on `target` (see the module docstring)."""
    target_info(target, "sarek-zero-shared")  # an unknown target is an error
    for op in list(module.ops):
        if isinstance(op, s.KernelOp):
            zero_kernel(module, op, target)


@dataclass(frozen=True)
class ZeroSharedPass(ModulePass):
    """Zero every shared array a kernel reads: a loop over the block's threads and a barrier at kernel entry.

    Option `target` (cuda, hip, opencl, metal, glsl, wgsl, ptx): the backend tag of its diagnostics. Shared
    arrays move to the top of their kernel; an array the kernel never reads is not zeroed. Docs:
    docs/KERNELS.md (shared and local arrays start at zero).
    """

    name = "sarek-zero-shared"

    target: str = "cuda"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        zero_shared(op, self.target)
