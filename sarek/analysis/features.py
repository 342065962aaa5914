"""Whole-kernel feature use and the per-target capability table.

`kernel_uses(feature, module)` folds over everything a backend emits for a kernel: parameter types, every
op's result and block-argument types, helper parameter and return types, record fields and variant
payloads. Per-type match arms in an emitter only fire where it asks for a type string, so an unread f16
vector parameter or an f16 helper return would otherwise pass silently.

Adding a width (bf16) is one `Feature` member (sarek.descriptor), its detection in `_op_uses`, and
a `refused` entry in each refusing target's descriptor. The tables below (`CAPABILITIES`, `ATOMIC_GAPS`,
`INTRINSIC_GAPS`, `SHARED_LIMITS`, `STORAGE_BUFFER_LIMITS`) are views of the descriptors.

This is where a target refuses a feature (`check_target`, run by `sarek-reject-features` first in every
pipeline): the widths and kinds above, recursive helpers, arrays of run-time size, shared arrays in helpers,
%native, the atomics and math intrinsics a target lacks per type (`ATOMIC_GAPS`, `INTRINSIC_GAPS`).
What a shader's interface cannot hold (sarek.analysis.shader_params.interface_refusal: WGSL by-value records
of other than i32/f32 fields and buffer records with a bool field, GLSL push constants over 128 bytes) is
refused by `check_shader_interface`, which sarek-pack-narrow runs once the interface is final. The lowerings
assert what the gate guarantees instead of re-checking it.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, Float16Type, Float32Type, Float64Type, IntegerAttr, ModuleOp
from xdsl.ir import Attribute, Operation, TypeAttribute

from sarek.analysis.coopmat_support import REFUSALS as COOPMAT_REFUSALS
from sarek.analysis.coopmat_support import coopmat_refusal
from sarek.diagnostics import SarekError
from sarek.registry import SHADER_TARGETS, TARGET_NAMES
from sarek.registry import TARGETS as TARGET_INFO
from sarek.registry import target_info
from sarek.descriptor import Feature, Gap, Refused
from sarek.dialect import scalars
from sarek.dialect.intrinsics import INTRINSICS, Category, is_integer_type
from sarek.dialect.sarek import (
    AllocArrayOp,
    ArrayReadOp,
    ArrayType,
    CallOp,
    COOPMAT_OPS,
    ConstantOp,
    ElemRefOp,
    GridBarrierOp,
    HelperOp,
    IntrinsicOp,
    KernelOp,
    LetOp,
    MemFenceOp,
    MemSpace,
    NativeOp,
    RefType,
    VecType,
    WarpBarrierOp,
)


def feature_name(feature: Feature) -> str:
    return feature.value


TARGETS = TARGET_NAMES
BACKEND_NAMES = {n: t.display for n, t in TARGET_INFO.items()}


SUPPORTED = None
Support = Refused | None

# views of the target descriptors (sarek.descriptor), kept for their readers; a new row is an argument of
# the target's descriptor. (target, feature) -> Refused(hint); a missing pair is supported. Cooperative matrices'
# refusals are sarek.analysis.coopmat_support's.
CAPABILITIES: dict[tuple[str, Feature], Support] = {
    **{(n, f): r for n, t in TARGET_INFO.items() for f, r in t.refused.items()},
    **{(t, Feature.COOPMAT): Refused(h) for t, h in COOPMAT_REFUSALS.items()},
}
# target -> [(element type, atomics it lacks on that type, why)], beyond the width features (checked first)
ATOMIC_GAPS: dict[str, list[Gap]] = {n: list(t.atomic_gaps) for n, t in TARGET_INFO.items()}
# target -> [(operand type, intrinsics it lacks on that type, why)]: math intrinsics a language has only narrower
INTRINSIC_GAPS: dict[str, list[Gap]] = {n: list(t.intrinsic_gaps) for n, t in TARGET_INFO.items() if t.intrinsic_gaps}


def atomic_gap(target: str, name: str, element: Attribute, table: dict[str, list[Gap]] = ATOMIC_GAPS) -> str | None:
    """Why `target` lacks the atomic `name` on `element` (an ATOMIC_GAPS row, or a row of `table`), or None;
    u32/u64 share the rows of i32/i64 (the widths are what a target lacks)."""
    key = "f32" if isinstance(element, Float32Type) else "f64" if isinstance(element, Float64Type) \
        else f"i{element.width.data}" if is_integer_type(element) else None
    for t, names, why in table.get(target, []):
        if t == key and name in names:
            return why
    return None


def support(target: str, feature: Feature) -> Support:
    """SUPPORTED (None) or the refusal for `feature` on `target`."""
    return CAPABILITIES.get((target, feature), SUPPORTED)


#: what to write instead when a target refuses a feature (the last part of every gate refusal)
INSTEAD: dict[Feature, str] = {
    Feature.FLOAT16: "compute in f32 here (CUDA, HIP and PTX have float16)",
    Feature.FLOAT64: "use f32 here, or a target with float64 (CUDA, HIP, OpenCL, GLSL, PTX)",
    Feature.INT64: "use i32 here, or a target with 64-bit integers (every other one)",
    Feature.SMALL_INT: "use i32 elements on this target",
    Feature.UNSIGNED: "use i32 or i64 on this target",
    Feature.BFLOAT16: "use f32 on this target",
    Feature.COOPMAT: "write the tile product with shared memory and loops",
    Feature.FLOAT_ATOMICS: "accumulate in an integer (fixed point) with an integer atomic, or loop on atomic_cas "
                           "over the bits (sarek.bitcast)",
    Feature.WARP: "exchange values through shared memory with barrier()",
    Feature.WARP_BARRIER: "use barrier() (a block barrier)",
    Feature.MEM_FENCE: "use barrier() to order memory within a block, or split the work into two launches",
    Feature.GRID_BARRIER: "split the kernel into two launches at this point (a launch boundary is a grid-wide "
                          "barrier), or run it on CUDA or PTX",
}


def refusal_message(feature: Feature, hint: str | None) -> str:
    """`<feature name> not yet supported (<why>); <what to do instead>` — the seed's wording (SAREK_SPEC 4.1,
    `<name> not yet supported`) without its tracker reference, saying what to write instead; SarekError
    prefixes the backend."""
    why = f" ({hint})" if hint else ""
    instead = INSTEAD.get(feature)
    return f"{feature_name(feature)} not yet supported{why}" + (f"; {instead}" if instead else "")


# ------------------------------------------------------------------------------------------------ the fold


def _scalar_feature(t: Attribute) -> Feature | None:
    if isinstance(t, Float16Type):
        return Feature.FLOAT16
    if isinstance(t, Float64Type):
        return Feature.FLOAT64
    if is_integer_type(t) and t.width.data == 64:
        return Feature.INT64 if not scalars.is_unsigned(t) else None
    if scalars.is_small_int(t):
        return Feature.SMALL_INT
    if scalars.is_unsigned(t):
        return Feature.UNSIGNED
    if scalars.is_bf16(t):
        return Feature.BFLOAT16
    return None


def type_features(t: Attribute) -> Iterator[Feature]:
    """Width features a type needs (records and variants are checked at their declarations)."""
    while isinstance(t, VecType | ArrayType | RefType):
        t = t.element_type
    f = _scalar_feature(t)
    if f is not None:
        yield f
    if scalars.is_unsigned(t) and scalars.int_width(t) == 64:  # ui64 needs both
        yield Feature.INT64
        yield Feature.UNSIGNED


def _attr_types(a: Attribute) -> Iterator[Attribute]:
    # isinstance, not `isa(a, ArrayAttr[Attribute])`: the same test (every element is an Attribute), but isa
    # builds the generic's constraint on every call, which made check_target three times slower
    if isinstance(a, ArrayAttr):
        for x in cast(ArrayAttr[Attribute], a).data:
            yield from _attr_types(x)
    elif isinstance(a, TypeAttribute):
        yield a


def op_types(op: Operation) -> Iterator[Attribute]:
    """Every type an op carries: results, its regions' block arguments, type-valued properties
    (helper return types, record fields, variant payloads, fragment element types)."""
    yield from (r.type for r in op.results)
    for region in op.regions:
        for block in region.blocks:
            yield from (a.type for a in block.args)
    for p in op.properties.values():
        yield from _attr_types(p)


def _op_uses(op: Operation) -> Iterator[Feature]:
    """The features `op` itself needs: its kind first (a ui8 fragment is refused as a coopmat), then its types."""
    if isinstance(op, COOPMAT_OPS):
        yield Feature.COOPMAT
    elif isinstance(op, WarpBarrierOp):
        yield Feature.WARP_BARRIER
    elif isinstance(op, MemFenceOp):
        yield Feature.MEM_FENCE
    elif isinstance(op, GridBarrierOp):
        yield Feature.GRID_BARRIER
    elif isinstance(op, IntrinsicOp) and (info := INTRINSICS.get(op.callee.data)) is not None:
        if info.category == Category.WARP:
            yield Feature.WARP
        elif info.category == Category.ATOMIC and op.args:
            base = op.args[0].type
            if isinstance(base, VecType | ArrayType) and isinstance(base.element_type, Float32Type | Float64Type):
                yield Feature.FLOAT_ATOMICS
    for t in op_types(op):
        yield from type_features(t)


def kernel_ops(module: ModuleOp, kernel: str | None = None) -> Iterator[Operation]:
    """The ops a backend emits for `kernel` (every kernel when None), in module order: the module's type
    declarations, the kernel, and the helpers it calls, transitively, each walked whole."""
    funcs: list[Operation] = []
    helpers = {op.sym_name.data: op for op in module.ops if isinstance(op, HelperOp)}
    if kernel is None:
        funcs = [op for op in module.ops if isinstance(op, KernelOp | HelperOp)]
    else:
        roots: list[KernelOp | HelperOp] = [op for op in module.ops if isinstance(op, KernelOp) and op.sym_name.data == kernel]
        seen: set[str] = set()
        while roots:
            f = roots.pop()
            funcs.append(f)
            for c in f.walk():
                if isinstance(c, CallOp) and c.callee_name not in seen and c.callee_name in helpers:
                    seen.add(c.callee_name)
                    roots.append(helpers[c.callee_name])
    chosen = {id(f) for f in funcs}
    for op in module.ops:
        if not isinstance(op, KernelOp | HelperOp):
            yield op
        elif id(op) in chosen:
            yield from op.walk()


def feature_uses(feature: Feature, module: ModuleOp, kernel: str | None = None) -> Iterator[Operation]:
    """Ops that use `feature`, in module order."""
    for op in kernel_ops(module, kernel):
        if feature in _op_uses(op):
            yield op


def kernel_uses(feature: Feature, module: ModuleOp, kernel: str | None = None) -> bool:
    """True iff the kernel (every kernel when None), its helpers or the module's types use `feature`."""
    return next(feature_uses(feature, module, kernel), None) is not None


# ------------------------------------------------------------------------------------------------ the gate

# the sarek.native keys a target reads, in order of preference (HIP compiles CUDA text)
NATIVE_KEYS: dict[str, tuple[str, ...]] = {n: t.native_keys for n, t in TARGET_INFO.items()}


def native_text(op: NativeOp, target: str) -> str | None:
    """The source text `op` carries for `target`, or None."""
    for key in NATIVE_KEYS.get(target, (target,)):
        if (text := op.text_for(key)) is not None:
            return text
    return None


def native_refusal(target: str) -> str:
    """The one %native refusal all backends share."""
    return (f"%native not supported: this sarek.native carries no {target} source text, and a backend "
            "emits only text written for its own target")


#: where the gate's resource limits come from: the descriptor's portable constants (source for any device of the
#: target), or the device the kernel is compiled for (which checks its own limits at launch)
LIMIT_SOURCES = ("portable", "device")


def check_target(module: ModuleOp, target: str, kernel: str | None = None, limits: str = "portable") -> None:
    """Raise the first refusal `target` gives the kernel (every kernel when None), in module order.

    Errors are `SarekError`s tagged with the backend's display name and located at the using op. `limits`:
    "portable" checks shared memory and storage buffers against the descriptor's constants; "device" leaves
    them to the device, which checks its driver's values at launch (sarek.runtime.shader_device).
    """
    backend = target_info(target).display
    for op in kernel_ops(module, kernel):
        if isinstance(op, NativeOp) and native_text(op, target) is None:
            raise SarekError(native_refusal(target), op, backend)
        for f in _op_uses(op):
            s = support(target, f)
            if isinstance(s, Refused):
                raise SarekError(refusal_message(f, s.hint), op, backend)
        if (m := _structural_refusal(module, op, target)) is not None:
            raise SarekError(m, op, backend)
    _check_recursion(module, target, kernel)
    if limits == "portable":
        _check_shared_size(module, target, kernel)
        _check_buffer_count(module, target, kernel)


def constant_size(op: AllocArrayOp) -> int | None:
    """The array's size when it is an integer constant (through `sarek.let`s), else None (an N-dimensional
    array: the product of its constant extents)."""
    if op.array_type.ndim > 1:
        shape = op.shape
        return None if shape is None else math.prod(shape)
    c = op.size.owner
    while isinstance(c, LetOp):
        c = c.value.owner
    if isinstance(c, ConstantOp) and isinstance(c.value, IntegerAttr):
        return cast(IntegerAttr, c.value).value.data
    return None


def _refused(target: str, feature: Feature) -> str | None:
    s = support(target, feature)
    return s.hint if isinstance(s, Refused) else None


def _structural_refusal(module: ModuleOp, op: Operation, target: str) -> str | None:
    """The message of a refusal that names the op's parts (arrays, %native), or None."""
    if isinstance(op, AllocArrayOp):
        n = constant_size(op)
        name = op.sym.data
        if n is None and (h := _refused(target, Feature.DYNAMIC_ARRAY)) is not None:
            return f"the size of array '{name}' must be a constant ({h})"
        if op.array_type.memspace == MemSpace.SHARED and isinstance(_function_of(op), HelperOp) \
                and (h := _refused(target, Feature.HELPER_SHARED_ARRAY)) is not None:
            return f"shared array '{name}' must be declared in a kernel, not in a helper ({h})"
    if isinstance(op, NativeOp) and (h := _refused(target, Feature.NATIVE)) is not None:
        return f"%native is refused: {h}"
    if isinstance(op, COOPMAT_OPS) and (h := coopmat_refusal(op, target)) is not None:
        return f"cooperative matrices: {h}"
    if (neg := _negative_index(op)) is not None:
        return (f"index {neg} is negative: every access with it is out of bounds (arrays do not count from the "
                "end); index with the position itself, e.g. len - 1")
    if isinstance(op, IntrinsicOp) and op.args and (info := INTRINSICS.get(op.callee.data)) is not None \
            and info.category == Category.ATOMIC and isinstance(base := op.args[0].type, VecType | ArrayType):
        name = op.callee.data
        if (h := atomic_gap(target, name, base.element_type)) is not None:
            return f"'{name}' on {scalars.name(base.element_type) or base.element_type} is not supported ({h})"
    if isinstance(op, IntrinsicOp) and op.args and (h := atomic_gap(target, op.callee.data, op.args[0].type,
                                                                    INTRINSIC_GAPS)) is not None:
        return f"'{op.callee.data}' on {op.args[0].type} is not supported ({h})"
    return None


def _negative_index(op: Operation) -> int | None:
    """A constant negative index of an array access or an atomic (through `sarek.let`s), else None."""
    if isinstance(op, ArrayReadOp | ElemRefOp):
        indices = list(op.indices)
    elif isinstance(op, IntrinsicOp) and len(op.args) > 1 and isinstance(op.args[0].type, VecType | ArrayType) \
            and (info := INTRINSICS.get(op.callee.data)) is not None and info.category == Category.ATOMIC:
        indices = [op.args[1]]
    else:
        return None
    for v in indices:
        c = v.owner
        while isinstance(c, LetOp):
            c = c.value.owner
        if isinstance(c, ConstantOp) and isinstance(c.value, IntegerAttr) \
                and (x := cast(IntegerAttr, c.value).value.data) < 0:
            return x
    return None


def _function_of(op: Operation) -> Operation | None:
    p = op.parent_op()
    while p is not None and not isinstance(p, KernelOp | HelperOp):
        p = p.parent_op()
    return p


def _check_recursion(module: ModuleOp, target: str, kernel: str | None) -> None:
    """Refuse a helper that calls itself, directly or not: the call closing the first cycle, helpers visited in
    module order, callees in call order."""
    hint = _refused(target, Feature.RECURSION)
    if hint is None:
        return
    funcs = [op for op in kernel_ops(module, kernel) if isinstance(op, HelperOp)]
    helpers = {h.sym_name.data: h for h in funcs}
    done: set[str] = set()

    def visit(name: str, stack: list[str]) -> None:
        stack.append(name)
        for c in helpers[name].walk():
            if not isinstance(c, CallOp) or c.callee_name not in helpers or c.callee_name in done:
                continue
            if c.callee_name in stack:
                chain = " -> ".join([*stack[stack.index(c.callee_name):], c.callee_name])
                raise SarekError(f"recursive helper @{c.callee_name} is not supported ({chain}): {hint}; write "
                                 "the recursion as a loop", c, target_info(target).display)
            visit(c.callee_name, stack)
        stack.pop()
        done.add(name)

    for h in funcs:
        if h.sym_name.data not in done:
            visit(h.sym_name.data, [])


# views of the descriptors: static shared memory a kernel may declare, in bytes, where the language fixes it,
# and the storage buffers a shader kernel may bind (sarek.descriptor says where each number comes from)
SHARED_LIMITS = {n: t.shared_limit for n, t in TARGET_INFO.items() if t.shared_limit is not None}
STORAGE_BUFFER_LIMITS = {n: t.storage_buffer_limit for n, t in TARGET_INFO.items()
                         if t.storage_buffer_limit is not None}


def _check_buffer_count(module: ModuleOp, target: str, kernel: str | None) -> None:
    limit = STORAGE_BUFFER_LIMITS.get(target)
    if limit is None:
        return
    for k in module.ops:
        if isinstance(k, KernelOp) and kernel in (None, k.sym_name.data):
            vecs = [n for n, a in k.params if isinstance(a.type, VecType)]
            if len(vecs) > limit:
                raise SarekError(f"kernel '{k.sym_name.data}' has {len(vecs)} vector parameters; a Vulkan shader "
                                 f"binds at most {limit} storage buffers (one per vector) on the devices sarek "
                                 f"supports: pass fewer vectors, e.g. pack arrays of one type into one vector "
                                 f"(the first past the limit is '{vecs[limit]}')", k, BACKEND_NAMES[target])


def shared_arrays(module: ModuleOp, k: KernelOp) -> Iterator[tuple[AllocArrayOp, int]]:
    """Each shared array of constant size a kernel declares, with the bytes declared up to and including it."""
    from sarek.analysis.layout import layout_of

    total = 0
    for op in k.walk():
        if isinstance(op, AllocArrayOp) and op.array_type.memspace == MemSpace.SHARED \
                and (n := constant_size(op)) is not None:
            total += n * layout_of(module, op.array_type.element_type).size
            yield op, total


def shared_bytes(module: ModuleOp, kernel: str) -> int:
    """The static shared memory `kernel` declares, in bytes (checked at launch against the device's limit by the
    devices that report theirs: OpenCL, vulkan-glsl)."""
    k = next((op for op in module.ops if isinstance(op, KernelOp) and op.sym_name.data == kernel), None)
    return max((t for _, t in shared_arrays(module, k)), default=0) if k is not None else 0


def _check_shared_size(module: ModuleOp, target: str, kernel: str | None) -> None:
    limit = SHARED_LIMITS.get(target)
    if limit is None:
        return
    for k in module.ops:
        if not isinstance(k, KernelOp) or (kernel is not None and k.sym_name.data != kernel):
            continue
        for op, total in shared_arrays(module, k):
            if total > limit:
                raise SarekError(f"kernel '{k.sym_name.data}' declares {total} bytes of shared arrays up to "
                                 f"this one; {BACKEND_NAMES[target]} allows {limit} bytes of shared memory "
                                 "per block", op, BACKEND_NAMES[target])


def check_shader_interface(module: ModuleOp, target: str, limits: str = "portable") -> None:
    """Refuse, at the kernel, an interface the shading language cannot hold (shader_params.interface_refusal),
    judged on the module as the lowering sees it: sarek-pack-narrow runs this after it widened narrow types
    (so the gate need not run that pass on a clone to predict the interface)."""
    if target not in SHADER_TARGETS:
        return
    from sarek.analysis.layout import LayoutError
    from sarek.analysis.shader_params import interface_refusal

    for k in module.ops:
        if not isinstance(k, KernelOp):
            continue
        try:
            m = interface_refusal(module, k, target, portable=limits == "portable")
        except LayoutError:
            continue  # the lowering locates a type without a layout
        if m is not None:
            raise SarekError(m, k, target_info(target).display)
