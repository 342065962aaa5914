"""Whole-kernel feature use and the per-target capability table.

`kernel_uses(feature, module)` folds over everything a backend emits for a kernel: parameter types, every
op's result and block-argument types, helper parameter and return types, record fields and variant
payloads. Per-type match arms in an emitter only fire where it asks for a type string, so an unread f16
vector parameter or an f16 helper return would otherwise pass silently.

Adding a width (bf16) is one `Feature` member, its detection in `_op_uses`, and one row per target in
`CAPABILITIES`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import Enum
from typing import cast

from xdsl.dialects.builtin import ArrayAttr, Float16Type, Float32Type, Float64Type, ModuleOp, Signedness
from xdsl.ir import Attribute, Operation, TypeAttribute

from sarek.diagnostics import SarekError
from sarek.dialect.intrinsics import INTRINSICS, Category, is_integer_type
from sarek.dialect.sarek import (
    ArrayType,
    CallOp,
    CoopmatDeclOp,
    CoopmatLoadOp,
    CoopmatMulAddOp,
    CoopmatStoreOp,
    HelperOp,
    IntrinsicOp,
    KernelOp,
    MemFenceOp,
    NativeOp,
    RefType,
    VecType,
    WarpBarrierOp,
)


class Feature(Enum):
    """Capabilities a target may lack; the value is the name diagnostics use."""

    FLOAT16 = "float16"
    FLOAT64 = "float64"
    INT64 = "int64"
    UINT8 = "uint8"
    COOPMAT = "cooperative matrices"
    FLOAT_ATOMICS = "atomics on floats"
    WARP = "warp operations"
    WARP_BARRIER = "warp barriers"
    MEM_FENCE = "device memory fences"


def feature_name(feature: Feature) -> str:
    return feature.value


TARGETS = ("cuda", "hip", "opencl", "metal", "glsl", "wgsl", "ptx")
BACKEND_NAMES = {"cuda": "CUDA", "hip": "HIP", "opencl": "OpenCL", "metal": "Metal", "glsl": "GLSL",
                 "wgsl": "WGSL", "ptx": "PTX"}


@dataclass(frozen=True)
class Refused:
    """A (target, feature) pair the backend does not implement; `hint` says why or what would."""

    hint: str | None = None


SUPPORTED = None
Support = Refused | None

_OPENCL_F16 = "measured: OpenCL devices fuse the f32 -> f16 narrowing, so stores are not correctly rounded"
_GLSL_F16 = "measured: Vulkan drivers fuse the f32 -> f16 narrowing, so stores are not correctly rounded"
_COOPMAT = "cooperative matrices need the Vulkan GL_KHR_cooperative_matrix path, which is not implemented"
_UINT8 = "ui8 exists only as a cooperative-matrix operand type"

# (target, feature) -> SUPPORTED or Refused(hint); a missing pair is supported.
CAPABILITIES: dict[tuple[str, Feature], Support] = {
    ("opencl", Feature.FLOAT16): Refused(_OPENCL_F16),
    ("metal", Feature.FLOAT16): Refused(),
    ("glsl", Feature.FLOAT16): Refused(_GLSL_F16),
    ("wgsl", Feature.FLOAT16): Refused("needs `enable f16;` and the shader-f16 device feature"),
    ("metal", Feature.FLOAT64): Refused("Metal has no double; sarek never narrows it to float silently"),
    ("wgsl", Feature.FLOAT64): Refused("WGSL has no f64"),
    ("wgsl", Feature.INT64): Refused("WGSL has no 64-bit integers"),
    **{(t, Feature.UINT8): Refused(_UINT8) for t in TARGETS},
    **{(t, Feature.COOPMAT): Refused(_COOPMAT) for t in TARGETS},
    ("opencl", Feature.FLOAT_ATOMICS): Refused("OpenCL C 1.2 has no floating-point atomics"),
    ("metal", Feature.FLOAT_ATOMICS): Refused("Metal has no threadgroup float atomics"),
    ("glsl", Feature.FLOAT_ATOMICS): Refused("needs GL_EXT_shader_atomic_float"),
    ("wgsl", Feature.FLOAT_ATOMICS): Refused("WGSL atomics are i32/u32 only"),
    ("wgsl", Feature.WARP_BARRIER): Refused("WGSL has no subgroup barrier"),
    ("wgsl", Feature.MEM_FENCE): Refused("WGSL has no device-scope memory fence"),
}


def support(target: str, feature: Feature) -> Support:
    """SUPPORTED (None) or the refusal for `feature` on `target`."""
    return CAPABILITIES.get((target, feature), SUPPORTED)


def refusal_message(feature: Feature, hint: str | None) -> str:
    """`<feature name> not yet supported (#57 slice 2[ — <hint>])`; SarekError prefixes the backend."""
    detail = f" — {hint}" if hint else ""
    return f"{feature_name(feature)} not yet supported (#57 slice 2{detail})"


# ------------------------------------------------------------------------------------------------ the fold


def _scalar_feature(t: Attribute) -> Feature | None:
    if isinstance(t, Float16Type):
        return Feature.FLOAT16
    if isinstance(t, Float64Type):
        return Feature.FLOAT64
    if is_integer_type(t) and t.width.data == 64:
        return Feature.INT64
    if is_integer_type(t) and t.width.data == 8 and t.signedness.data == Signedness.UNSIGNED:
        return Feature.UINT8
    return None


def type_features(t: Attribute) -> Iterator[Feature]:
    """Width features a type needs (records and variants are checked at their declarations)."""
    while isinstance(t, VecType | ArrayType | RefType):
        t = t.element_type
    f = _scalar_feature(t)
    if f is not None:
        yield f


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
    if isinstance(op, CoopmatDeclOp | CoopmatLoadOp | CoopmatStoreOp | CoopmatMulAddOp):
        yield Feature.COOPMAT
    elif isinstance(op, WarpBarrierOp):
        yield Feature.WARP_BARRIER
    elif isinstance(op, MemFenceOp):
        yield Feature.MEM_FENCE
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
NATIVE_KEYS: dict[str, tuple[str, ...]] = {t: (t,) for t in TARGETS} | {"hip": ("hip", "cuda")}


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


def check_target(module: ModuleOp, target: str, kernel: str | None = None) -> None:
    """Raise the first refusal `target` gives the kernel (every kernel when None), in module order.

    Errors are `SarekError`s tagged with the backend's display name and located at the using op.
    """
    if target not in TARGETS:
        raise SarekError(f"unknown target '{target}' (known: {', '.join(TARGETS)})")
    backend = BACKEND_NAMES[target]
    for op in kernel_ops(module, kernel):
        if isinstance(op, NativeOp) and native_text(op, target) is None:
            raise SarekError(native_refusal(target), op, backend)
        for f in _op_uses(op):
            s = support(target, f)
            if isinstance(s, Refused):
                raise SarekError(refusal_message(f, s.hint), op, backend)
    _check_shared_size(module, target, kernel)


# static shared (threadgroup) memory a kernel may declare, in bytes, where the language fixes it: CUDA's static
# __shared__ limit (sm_50 to sm_90; more needs dynamic shared memory and an opt-in), AMD's LDS, Apple GPUs'
# threadgroup memory. OpenCL and Vulkan report theirs per device (checked at launch).
SHARED_LIMITS = {"cuda": 48 * 1024, "ptx": 48 * 1024, "hip": 64 * 1024, "metal": 32 * 1024}


def _check_shared_size(module: ModuleOp, target: str, kernel: str | None) -> None:
    from sarek.analysis.layout import layout_of
    from sarek.dialect.sarek import AllocArrayOp, ConstantOp, MemSpace

    limit = SHARED_LIMITS.get(target)
    if limit is None:
        return
    for k in module.ops:
        if not isinstance(k, KernelOp) or (kernel is not None and k.sym_name.data != kernel):
            continue
        total = 0
        for op in k.walk():
            if isinstance(op, AllocArrayOp) and op.array_type.memspace == MemSpace.SHARED \
                    and isinstance(c := op.size.owner, ConstantOp):
                n = cast(int, getattr(c.value, "value").data)
                total += n * layout_of(module, op.array_type.element_type).size
                if total > limit:
                    raise SarekError(f"kernel '{k.sym_name.data}' declares {total} bytes of shared arrays up to "
                                     f"this one; {BACKEND_NAMES[target]} allows {limit} bytes of static shared "
                                     "memory per block", op, BACKEND_NAMES[target])
