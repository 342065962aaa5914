"""One descriptor per target: every fact about a target outside its lowering, in one frozen record.

A target's capabilities and refusal hints, its atomic and intrinsic gaps, its shared-memory and binding limits,
the math it computes itself, its reserved words and prefixes, its identifier limit, its payload layout, its
validator, source-file extension, fuzz tool and batching live here; the gate (sarek.analysis.features), the
native-math table (sarek.analysis.native_math), the naming stage (sarek.analysis.namer, reserved), the payload
layout, the demo writer, the fuzzer and the batcher read them. A new C-family target is one `Language`
(sarek.targets.cfamily.languages) and one `_c(...)` entry in `DESCRIPTORS`; a new gap or limit is one argument
of its target's entry.

This module sits at the bottom layer (it imports only the keyword lists, sarek.keywords), so every layer
may read it; `sarek.registry.TARGETS` is `DESCRIPTORS`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType
from typing import Any, Literal, TypeVar

from sarek import keywords as kw

Family = Literal["c", "shader", "ptx"]


class Feature(Enum):
    """Capabilities a target may lack; the value is the name diagnostics use.

    The first nine are the seed's (SAREK_SPEC 4.1: refused as `<name> not yet supported (<hint>); <instead>`,
    see `sarek.analysis.features.refusal_message`); the others are refused with their own located message.
    """

    FLOAT16 = "float16"
    FLOAT64 = "float64"
    INT64 = "int64"
    SMALL_INT = "8/16-bit integers"
    UNSIGNED = "unsigned integers"
    BFLOAT16 = "bfloat16"
    COOPMAT = "cooperative matrices"
    FLOAT_ATOMICS = "atomics on floats"
    WARP = "warp operations"
    WARP_BARRIER = "warp barriers"
    MEM_FENCE = "device memory fences"
    GRID_BARRIER = "grid-wide barriers"
    RECURSION = "recursive helpers"
    DYNAMIC_ARRAY = "arrays of non-constant size"
    HELPER_SHARED_ARRAY = "shared arrays declared in helpers"
    NATIVE = "%native"
    ATOMIC_KIND = "atomics of a kind or element type"


@dataclass(frozen=True)
class Refused:
    """A (target, feature) pair the backend does not implement; `hint` says why or what would."""

    hint: str | None = None


class PayloadLayout(Enum):
    """Where a variant's payloads live in the emitted value (sarek.analysis.payload spells the chains)."""

    C = "c"
    GLSL = "glsl"
    WGSL = "wgsl"


@dataclass(frozen=True)
class Polyfill:
    """The intrinsic is computed by library routine `routine` at `width` bits (narrower types are widened
    exactly, then rounded back: f16 through f32, as the f16 storage rule says)."""

    routine: str
    width: int = 64


K = TypeVar("K")
V = TypeVar("V")
#: (operand or element type, the intrinsics or atomics the target lacks on it, why)
Gap = tuple[str, frozenset[str], str]
#: type key ("f16", "f32", "f64") -> function -> the library routine that computes it
MathTable = Mapping[str, Mapping[str, Polyfill]]


def _frozen(d: Mapping[K, V]) -> Mapping[K, V]:
    """A read-only copy (descriptors are frozen all the way down)."""
    return MappingProxyType(dict(d))


def _empty() -> Mapping[Any, Any]:
    return MappingProxyType({})


@dataclass(frozen=True)
class TargetDescriptor:
    """One target: everything outside its lowering that differs between targets."""

    name: str
    display: str  # the backend tag of diagnostics: "error: CUDA: ..."
    family: Family
    target_class: tuple[str, str]  # (module, class) of its xDSL Target
    # where a variant's payload fields live (`layout` of sarek-subst-match-payloads); None: the lowering lays
    # payloads out itself (PTX, in memory)
    payload: PayloadLayout | None
    native_keys: tuple[str, ...]  # the sarek.native keys it reads, in order of preference
    ext: str  # the extension of its source files (the demo, source snapshots)
    validator: str  # the module of sarek.validate whose `check` validates its source
    fuzz_tool: str  # the tool the validator needs (`--targets auto` keeps targets whose tool is installed)
    # the width of the element offsets its lowering computes (an N-dimensional vector's row-major offset is
    # 64-bit on the C family and PTX; the shaders index in i32): a vector of more elements is refused at launch
    index_bits: int = 64
    refused: Mapping[Feature, Refused] = field(default_factory=_empty)  # a feature not here is supported
    atomic_gaps: tuple[Gap, ...] = ()  # atomics it lacks per element type, beyond the width features
    intrinsic_gaps: tuple[Gap, ...] = ()  # math intrinsics it has only on narrower operands
    # shared memory a kernel may declare, in bytes (None: per device); CUDA and PTX: 227 KiB (Hopper's most per
    # block), arrays past 48 KiB placed in the dynamic window (sarek.analysis.shared_window)
    shared_limit: int | None = None
    storage_buffer_limit: int | None = None  # storage buffers (vector parameters) a kernel may bind
    # constant memory for module-level tables, in bytes (sarek-constant-tables); None: tables stay per thread
    constant_limit: int | None = None
    polyfilled: MathTable = field(default_factory=_empty)  # math it does not spell natively
    fast: MathTable = field(default_factory=_empty)  # at fp=default: single-precision routines instead
    # at fp=default: type key -> the functions the target's own approximate instructions compute (PTX's f32
    # exp2: ex2.approx, CUDA's exp2f), neither FAST nor POLYFILLED
    hardware: Mapping[str, frozenset[str]] = field(default_factory=_empty)
    reserved: frozenset[str] = frozenset()  # keywords, types, built-ins: never declared by sarek
    prefixes: tuple[str, ...] = ()  # name prefixes it reserves
    length_limit: int = 1024  # the longest identifier its tools take
    batched: bool = False  # the fuzzer validates many of its sources as one unit (sarek.testing.batch)
    async_copy: bool = False  # copy_async lowers to hardware copies (cp.async); else sarek-expand-copy-async
    widen_f16: bool = False  # f16 is stored as bits and computed in f32 (sarek-widen-f16): no half arithmetic

    @property
    def payload_layout(self) -> str | None:
        """The `layout` option of sarek-subst-match-payloads."""
        return None if self.payload is None else self.payload.value


# ------------------------------------------------------------------------------------------------ shared facts

_C_NAMES = ("cuda", "hip", "opencl", "metal")
_RECURSION = {"cuda": "sarek emits CUDA helpers callees first, without prototypes",
              "hip": "sarek emits HIP helpers callees first, without prototypes",
              "opencl": "OpenCL C forbids recursion", "metal": "Metal forbids recursion",
              "glsl": "GLSL forbids recursion", "wgsl": "WGSL forbids recursion",
              "ptx": "the PTX backend inlines helpers"}
_C_DYNAMIC = "C arrays are declared with a constant size; pass a Vector for data of run-time size"
_C_HELPER_SHARED = ("C-family shared memory is declared at kernel scope; declare it in the kernel and pass it to "
                    "the helper")
# grid_barrier() needs every block of the launch resident at once, which only a cooperative launch guarantees
_GRID = {"hip": "sarek has no HIP device to make the cooperative launch (hipLaunchCooperativeKernel) it needs",
         "opencl": "OpenCL has no cooperative launch: blocks of one launch may run one after another",
         "metal": "Metal has no cooperative launch: threadgroups of one dispatch may run one after another",
         "glsl": "Vulkan has no cooperative dispatch: workgroups of one dispatch may run one after another",
         "wgsl": "WebGPU has no cooperative dispatch: workgroups of one dispatch may run one after another"}
_NATIVE = ("its source text is for a named framework and the shader generators are given none; "
           "write the code in Python instead")

_ALL_ATOMICS = frozenset({"atomic_add", "atomic_sub", "atomic_min", "atomic_max", "atomic_exch", "atomic_and",
                          "atomic_or", "atomic_xor", "atomic_inc", "atomic_dec", "atomic_cas"})
_BITWISE = frozenset({"atomic_and", "atomic_or", "atomic_xor"})
_FLOAT_BITWISE = ("bitwise atomics need an integer element type; atomic_and/or/xor on the bits of a float is "
                  "atomic_cas in a loop over sarek.bitcast")
# Float add/sub/min/max/exch/cas/inc/dec are native where the target has them and compare-and-swap loops on the
# bits elsewhere (targets/cfamily/atomics.py, the PTX lowering, shader/atomics.py).
_FLOAT_BITS: tuple[Gap, ...] = (("f32", _BITWISE, _FLOAT_BITWISE), ("f64", _BITWISE, _FLOAT_BITWISE))
_GLSL_ATOMICS32 = "GLSL atomics are 32-bit (GL_EXT_shader_atomic_int64 is not used)"

# the library's routines that stand for an intrinsic of the same name (pow has only a narrow form)
_TRANSCENDENTAL = ("sin cos tan asin acos atan atan2 sinh cosh tanh exp exp2 log log2 log10 cbrt expm1 "
                   "log1p").split()
_PTX_MATH = {n: Polyfill(n) for n in (*_TRANSCENDENTAL, "hypot", "erf", "erfc", "atanh", "lgamma", "ldexp")}
# no language but the C family's has erf/erfc/lgamma: the library's (the f64 core where the target has doubles,
# else an f32 build of the same routines); atanh too (Mesa's f32 atanh is 86 ulp off near 0). ldexp is native
# on every language but PTX.
_ERF64 = {n: Polyfill(n) for n in ("erf", "erfc", "atanh", "lgamma")}
_ERF32 = {n: Polyfill(n, 32) for n in ("erf", "erfc", "atanh", "lgamma")}
_PTX_NARROW = _PTX_MATH | {"pow": Polyfill("pow_narrow")}
# C functions GLSL and WGSL spell differently or not at all (round halves to even or either way there, fmod
# is x - y trunc(x / y), pow is undefined for x <= 0); in f32, through the target's own exp/log/pow
_EXACT = ("fmod", "round", "copysign")
_SHADER_F32 = {n: Polyfill(n, 32) for n in _EXACT} | {
    "expm1": Polyfill("expm1_via_exp", 32), "log1p": Polyfill("log1p_via_log", 32),
    "pow": Polyfill("pow_via_pow", 32), "cbrt": Polyfill("cbrt_via_pow", 32),
    "hypot": Polyfill("hypot_scaled", 32)}
# Metal's standard library has fmod, round, copysign and pow, not these
_METAL_F32 = {n: _SHADER_F32[n] for n in ("expm1", "log1p", "cbrt", "hypot")}

# static shared (threadgroup) memory a kernel may declare, in bytes, where the language fixes it: CUDA's static
# __shared__ limit (sm_50 to sm_90; more needs dynamic shared memory and an opt-in), AMD's LDS, Apple GPUs'
# threadgroup memory; GLSL and WGSL: the most any Vulkan device offers (AMD and Intel: 64 KiB; a 4 MiB array was
# emitted, then failed at pipeline creation). OpenCL, and Vulkan devices below that, report theirs per device.
_KIB = 1024
# storage buffers (one per vector parameter) a shader kernel may bind: wgpu's Vulkan adapters report
# max_storage_buffers_per_shader_stage; lavapipe's, the smallest of the devices sarek runs shaders on, is 32.
# Past it wgpu failed at bind-group creation, after the kernel compiled. These are the portable constants of source
# without a device; a Vulkan device checks its own limits at launch (sarek-reject-features{limits=device}).
_VULKAN_BUFFERS = 32
# constant memory for module-level tables: CUDA's and HIP's __constant__ bank, the minimum OpenCL guarantees
# (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE), PTX's .const bank; Metal's program-scope constants share the budget
_CONSTANT = 64 * _KIB


def _c(name: str, display: str, cls: str, ext: str, tool: str, *, native: tuple[str, ...] = (),
       refused: Mapping[Feature, Refused] | None = None, **facts: Any) -> TargetDescriptor:
    """A C-family target: C arrays, kernel-scope shared memory, C payload layout."""
    return TargetDescriptor(
        name, display, "c", ("sarek.targets.cfamily.target", cls), PayloadLayout.C, native or (name,), ext,
        name, tool,
        refused=_frozen({Feature.RECURSION: Refused(_RECURSION[name]),
                         Feature.DYNAMIC_ARRAY: Refused(_C_DYNAMIC),
                         Feature.HELPER_SHARED_ARRAY: Refused(_C_HELPER_SHARED),
                         **({Feature.GRID_BARRIER: Refused(_GRID[name])} if name in _GRID else {}), **(refused or {})}),
        reserved=kw.RESERVED[name], prefixes=kw.PREFIXES[name], constant_limit=_CONSTANT, **facts)


def _shader(name: str, display: str, cls: str, ext: str, tool: str, payload: PayloadLayout, *,
            refused: Mapping[Feature, Refused] | None = None, **facts: Any) -> TargetDescriptor:
    """A shading-language target: 32-bit indices, no %native, Vulkan's binding limits, f16 widened."""
    return TargetDescriptor(
        name, display, "shader", (f"sarek.targets.{name}.target", cls), payload, (name,), ext, name, tool,
        index_bits=32,
        refused=_frozen({Feature.RECURSION: Refused(_RECURSION[name]), Feature.NATIVE: Refused(_NATIVE),
                         Feature.GRID_BARRIER: Refused(_GRID[name]), **(refused or {})}),
        shared_limit=64 * _KIB, storage_buffer_limit=_VULKAN_BUFFERS, widen_f16=True,
        reserved=kw.RESERVED[name], prefixes=kw.PREFIXES[name], **facts)


# f16 is supported everywhere: OpenCL, Metal, GLSL and WGSL store its bits and compute in f32 (sarek-widen-f16:
# their own f32 -> f16 narrowing was measured fused, or needs a device feature)
DESCRIPTORS: dict[str, TargetDescriptor] = {t.name: t for t in (
    _c("cuda", "CUDA", "CudaTarget", "cu", "nvcc", atomic_gaps=_FLOAT_BITS, shared_limit=227 * _KIB,
       batched=True, async_copy=True),
    _c("hip", "HIP", "HipTarget", "hip", "hipcc", native=("hip", "cuda"),  # HIP compiles CUDA text
       atomic_gaps=_FLOAT_BITS, shared_limit=64 * _KIB, batched=True),
    _c("opencl", "OpenCL", "OpenCLTarget", "cl", "", atomic_gaps=_FLOAT_BITS, length_limit=200, widen_f16=True),
    _c("metal", "Metal", "MetalTarget", "metal", "clang++",
       atomic_gaps=(("i64", _ALL_ATOMICS, "Metal atomics are 32-bit"), *_FLOAT_BITS),
       shared_limit=32 * _KIB, batched=True, widen_f16=True, polyfilled=_frozen({"f32": _METAL_F32 | _ERF32}),
       refused={Feature.FLOAT64: Refused("Metal has no double; sarek never narrows it to float silently")}),
    _shader("glsl", "GLSL", "GlslTarget", "comp", "glslangValidator", PayloadLayout.GLSL,
            atomic_gaps=(("i64", _ALL_ATOMICS, _GLSL_ATOMICS32), ("f64", _ALL_ATOMICS, _GLSL_ATOMICS32),
                         *_FLOAT_BITS),
            intrinsic_gaps=(("i64", frozenset({"clz", "popcount"}),
                             "GLSL's findMSB and bitCount take 32-bit integers"),),
            # GLSL's transcendental builtins are float-only (GL_ARB_gpu_shader_fp64 has sqrt, fma, floor ... only)
            polyfilled=_frozen({"f64": {n: Polyfill(n) for n in (*_TRANSCENDENTAL, "hypot", "pow", *_EXACT)} | _ERF64,
                                "f32": _SHADER_F32 | _ERF64, "f16": _SHADER_F32 | _ERF64})),
    _shader("wgsl", "WGSL", "WgslTarget", "wgsl", "", PayloadLayout.WGSL,
            refused={Feature.FLOAT64: Refused("WGSL has no f64"),
                     Feature.INT64: Refused("WGSL has no 64-bit integers"),
                     Feature.WARP_BARRIER: Refused("WGSL has no subgroup barrier"),
                     Feature.MEM_FENCE: Refused("WGSL has no device-scope memory fence")},
            atomic_gaps=_FLOAT_BITS, polyfilled=_frozen({"f32": _SHADER_F32 | _ERF32, "f16": _SHADER_F32 | _ERF32})),
    TargetDescriptor(
        "ptx", "PTX", "ptx", ("sarek.targets.ptx.target", "PtxTarget"), None, ("ptx",), "ptx", "ptx", "ptxas",
        refused=_frozen({Feature.RECURSION: Refused(_RECURSION["ptx"]),
                         Feature.DYNAMIC_ARRAY: Refused("PTX .shared/.local arrays need a constant size; pass a "
                                                        "Vector for data of run-time size")}),
        atomic_gaps=_FLOAT_BITS, shared_limit=227 * _KIB, batched=True, async_copy=True, constant_limit=_CONSTANT,
        # PTX has no math library at all: every transcendental is the library's, f32 and f16 through double
        polyfilled=_frozen({"f16": _PTX_NARROW, "f32": _PTX_NARROW,
                            "f64": _PTX_MATH | {n: Polyfill(n) for n in ("pow", "fmod")}}),
        fast=_frozen({"f32": {n: Polyfill(f"{n}_f32", 32)
                              for n in ("exp", "log", "log2", "log10", "sin", "cos")}}),
        hardware=MappingProxyType({"f32": frozenset({"exp2"})})),
)}
