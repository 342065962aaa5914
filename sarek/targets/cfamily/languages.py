"""The spelling tables of the four C-family languages: the only place CUDA, HIP, OpenCL C and Metal differ.

The lowering (sarek/lowering/cfamily/) asks a `Language` how to spell a type, a builtin, a barrier, a math
function, an atomic or a warp operation, and which qualifiers kernels, helpers and parameters carry. An entry
of None (or a missing key) means the language has no such thing; the lowering turns that into a diagnostic.
Templates use `{0}`, `{1}` ... for already printed operands (the place of an atomic is `{0}`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from sarek.registry import display_name

# math names every C family prints as a call (CUDA adds the `f` suffix for f32)
FLOAT_MATH = ("sin cos tan asin acos atan sinh cosh tanh exp exp2 log log2 log10 sqrt rsqrt cbrt floor ceil "
              "round trunc fabs expm1 log1p atan2 pow fmin fmax fmod hypot copysign fma erf erfc atanh lgamma "
              "ldexp").split()


@dataclass(frozen=True)
class FloatCas:
    """How a language spells the pieces of a float atomic's compare-and-swap loop on the bits (the one loop is
    built by sarek.targets.cfamily.atomics); `{q}` is the place's address-space qualifier (`atomic_space`)."""

    bits: str       # the integer type holding the float's bits
    ptr: str        # the integer pointer type the place is viewed through
    load: str       # a read of the bits through that pointer, {0}
    cas: str        # compare-and-swap returning the old bits: {0} pointer, {1} expected, {2} new
    exch: str       # exchange returning the old bits: {0} pointer, {1} new
    to_bits: str    # {0} a float -> its bits
    from_bits: str  # {0} bits -> the float


@dataclass(frozen=True)
class Language:
    target: str                      # registry name: cuda, hip, opencl, metal
    types: dict[str, str | None]     # i1 i32 i64 f16 f32 f64 -> C type (None: refused)
    bool_storage: str                # the type of an i1 in memory (buffers, struct fields)
    int64_suffix: str
    true_false: tuple[str, str]
    header: tuple[str, ...]
    extern_c: bool
    kernel_prefix: str
    helper_prefix: str
    ctor_prefix: str
    kernel_vec: str                  # kernel vector parameter type, {t} the element type
    helper_ptr: dict[str, str]       # helper pointer parameter type per memspace (global = vectors)
    kernel_scalar: str               # kernel scalar/record parameter type
    buffer_slots: bool               # Metal: ` [[buffer(i)]]` after every kernel parameter
    shared_decl: str
    record_designated: bool          # (T){.x = a} rather than (T){a}
    builtins: dict[str, str]
    entry_params: tuple[tuple[str, str, str], ...]   # (type, name, suffix) appended to every kernel (Metal)
    barrier: str
    warp_barrier: str
    mem_fence: str
    lane_id: str
    warp_size: str
    shuffle: str                     # absolute shuffle at an in-range lane: {0} value, {1} lane
    warp_preamble: tuple[str, ...]   # top-level lines when a warp operation is used
    math: Callable[[str, str], str | None]       # (name, C type of the operands) -> template
    atomic: Callable[[str, str, str], str | None]  # (name, C element type, memspace) -> template
    bitcast: dict[tuple[str, str], str] = field(default_factory=dict[tuple[str, str], str])  # (from, to) C types
    polyfills: dict[str, str] = field(default_factory=dict[str, str])  # function name -> its definition
    f16_preamble: tuple[str, ...] = ()
    f64_preamble: tuple[str, ...] = ()  # top-level lines when f64 is used (OpenCL's extension pragma)
    i64_atomic_preamble: tuple[str, ...] = ()  # top-level lines when a 64-bit atomic is used
    bf16_preamble: tuple[str, ...] = ()  # sarek_bf16_to_f32 / sarek_f32_to_bf16, when bf16 is used
    inline_prefix: str = "static inline"  # qualifiers of a generated device helper function
    #: access width in bits -> the unsigned vector type one load/store of that width moves
    #: (sarek-wide-vector-access); empty: whole-element accesses stay plain struct copies
    wide_carrier: dict[int, str] = field(default_factory=dict[int, str])
    float_cas: dict[str, FloatCas] = field(default_factory=dict[str, FloatCas])  # float C type -> CAS loop pieces
    # warp_any / warp_all / warp_ballot -> template ({0} the condition); the whole warp/sub-group votes
    vote: dict[str, str] = field(default_factory=dict[str, str])
    vote_preamble: tuple[str, ...] = ()  # top-level lines (after the warp preamble) when a vote is used
    # barrier_count / barrier_and / barrier_or -> template ({0} the condition); empty: sarek-expand-block-votes
    block_vote: dict[str, str] = field(default_factory=dict[str, str])
    atomic_space: dict[str, str] = field(default_factory=dict[str, str])  # memspace -> {q} of FloatCas.ptr
    # (op, float C type, memspace) -> (#if condition, native expression: {0} the float pointer, {1} the operand)
    # for a float atomic the compiler may have natively; the CAS loop is the #else
    float_native: Callable[[str, str, str], tuple[str, str] | None] = field(default=lambda _o, _t, _s: None)
    # integer C types whose `abs` is spelled `(x < 0 ? -x : x)`: NVIDIA's ptxas (H200, CUDA 12) miscompiles
    # `abs(v) % 2` after a warp shuffle at its default optimisation level (computes 200: fuzz seeds 202272,
    # 401754; right at -Xptxas -O0 or with the select), so CUDA and PTX never hand it an integer abs
    int_abs_select: tuple[str, ...] = ()
    # (float C type, integer C type) -> the function that converts exactly as documented (truncate toward zero,
    # saturate to the integer's range, NaN -> 0); a missing pair is the lowering's compare-and-select helper
    # `sarek_sat_<T>_<float>`, since a plain C cast of an out-of-range float is undefined (pocl gives INT_MIN
    # for 3e9, inf and NaN)
    float_to_int: dict[tuple[str, str], str] = field(default_factory=dict[tuple[str, str], str])
    # the grid-wide barrier (a cooperative launch's) and its top-level lines; "": refused by the gate
    grid_barrier: str = ""
    grid_preamble: tuple[str, ...] = ()
    constant_decl: str = ""  # a module-scope table in constant memory ({t} the element type)

    @property
    def backend(self) -> str:
        """The display name in diagnostics (sarek.registry's one table)."""
        return display_name(self.target)


#: CUDA's round-toward-zero conversions: cvt.rzi, which saturates (PTX ISA, cvt), where `(int)x` is LLVM's fptosi,
#: poison out of range. NaN gives 0 only for these on NVIDIA (measured on the H200: __float2ll_rz, __float2ull_rz and every __double2*_rz
#: give the destination's lowest value or high bit for NaN); the other pairs take the sarek_sat helper
_CUDA_F2I = {("float", "int"): "__float2int_rz", ("float", "unsigned int"): "__float2uint_rz"}
#: OpenCL C's saturating conversions (OpenCL C 6.2.3.3: out-of-range values clamp, NaN converts to 0); NVIDIA's
#: OpenCL gives LONG_MIN / the high bit for NaN from float to long/ulong and from double to any integer (H200), so
#: those pairs take the sarek_sat helper
_CL_F2I = {("float", i): f"convert_{i}_sat_rtz" for i in ("char", "uchar", "short", "ushort", "int", "uint")}

#: C spellings of the 8/16-bit and unsigned integers and of bf16 (held as its 16 bits): CUDA/HIP, then the
#: OpenCL C / Metal names
_C_SMALL = {"i8": "signed char", "i16": "short", "u8": "unsigned char", "u16": "unsigned short",
            "u32": "unsigned int", "u64": "unsigned long long", "bf16": "unsigned short"}
_CL_SMALL = {"i8": "char", "i16": "short", "u8": "uchar", "u16": "ushort", "u32": "uint", "u64": "ulong",
             "bf16": "ushort"}


def _bf16_preamble(prefix: str, u16: str, u32: str, as_uint: str, as_float: str) -> tuple[str, ...]:
    """The one f32 <-> bf16 conversion every backend spells the same way: widening shifts the bits up;
    narrowing rounds to nearest even, every NaN is the quiet NaN 0x7fc0 (sarek.dialect.scalars.bf16_round)."""
    return (
        "/* bf16 is a storage type held as its 16 bits: arithmetic runs in f32, stores round to nearest even */",
        f"{prefix} float sarek_bf16_to_f32({u16} h) {{ return {as_float.format(f'(({u32})h << 16)')}; }}",
        f"{prefix} {u16} sarek_f32_to_bf16(float f) {{",
        f"  {u32} u = {as_uint.format('f')};",
        f"  return (u & 0x7fffffffu) > 0x7f800000u ? ({u16})0x7fc0u",
        f"                                         : ({u16})((u + 0x7fffu + ((u >> 16) & 1u)) >> 16);",
        "}",
    )


def _index_builtins(tid: str, bid: str, bdim: str, gdim: str) -> dict[str, str]:
    out: dict[str, str] = {}
    for i, d in enumerate("xyz"):
        out[f"thread_idx_{d}"] = tid.format(d=d, i=i)
        out[f"block_idx_{d}"] = bid.format(d=d, i=i)
        out[f"block_dim_{d}"] = bdim.format(d=d, i=i)
        out[f"grid_dim_{d}"] = gdim.format(d=d, i=i)
    return out


# ------------------------------------------------------------------------------------------------ CUDA / HIP


def _cuda_math(name: str, t: str) -> str | None:
    is_f = t in ("float", "double")
    if name in FLOAT_MATH:
        return f"{name}f" if t == "float" else name
    if name == "abs":
        return {"float": "fabsf", "double": "fabs", "int": "abs", "long long": "llabs"}.get(t)
    if name in ("min", "max"):
        if is_f:
            return f"f{name}f" if t == "float" else f"f{name}"
        return f"ll{name}" if t == "long long" else name
    if name == "clz":
        return "__clzll" if t == "long long" else "__clz"
    if name == "popcount":
        return "__popcll" if t == "long long" else "__popc"
    if name == "bit_reverse":
        return "(long long)__brevll({0})" if t == "long long" else "(int)__brev({0})"
    return None


def _cuda_atomic(name: str, t: str, space: str) -> str | None:
    op = name.removeprefix("atomic_")
    fn = {"add": "atomicAdd", "sub": "atomicSub", "min": "atomicMin", "max": "atomicMax", "exch": "atomicExch",
          "and": "atomicAnd", "or": "atomicOr", "xor": "atomicXor", "cas": "atomicCAS"}
    if t in ("int", "unsigned int"):  # CUDA/HIP overload every 32-bit atomic for int and unsigned int
        if op == "inc":
            return "atomicAdd(&{0}, 1)" if t == "int" else "atomicAdd(&{0}, 1u)"
        if op == "dec":
            return "atomicSub(&{0}, 1)" if t == "int" else "atomicSub(&{0}, 1u)"
        return f"{fn[op]}(&{{0}}, {{1}}{', {2}' if op == 'cas' else ''})"
    if t == "unsigned long long":  # native except sub/dec: an add of the two's complement (wraps as sub does)
        if op in ("inc", "dec", "sub"):
            delta = {"inc": "1ull", "dec": "0ull - 1ull", "sub": "0ull - ({1})"}[op]
            return f"atomicAdd(&{{0}}, {delta})"
        return f"{fn[op]}(&{{0}}, {{1}}{', {2}' if op == 'cas' else ''})"
    if t == "long long":
        u = "(unsigned long long)"
        if op in ("min", "max"):
            return f"{fn[op]}(&{{0}}, {{1}})"
        if op in ("inc", "dec", "sub"):
            delta = {"inc": "1", "dec": "-1", "sub": "-({1})"}[op]
            return f"(long long)atomicAdd((unsigned long long*)&{{0}}, {u}({delta}))"
        extra = f", {u}{{2}}" if op == "cas" else ""
        return f"(long long){fn[op]}((unsigned long long*)&{{0}}, {u}{{1}}{extra})"
    if t in ("float", "double"):
        one = "1.0f" if t == "float" else "1.0"
        return {"add": "atomicAdd(&{0}, {1})", "sub": "atomicAdd(&{0}, -({1}))", "inc": f"atomicAdd(&{{0}}, {one})",
                "dec": f"atomicAdd(&{{0}}, -{one})", "exch": "atomicExch(&{0}, {1})" if t == "float" else None}.get(op)
    return None


_CUDA_F16 = (
    "#if !defined(__HIP__) && !defined(__HIP_PLATFORM_AMD__)",
    "#include <cuda_fp16.h>",
    "#endif",
    "/* f16 is a storage type: arithmetic runs in f32 and is rounded back to nearest even; the barrier keeps",
    "   the compiler from fusing an operation with its narrowing */",
    "#if defined(__HIP_PLATFORM_AMD__)",
    "__device__ __forceinline__ float sarek_f32_barrier(float x) { asm volatile(\"\" : \"+v\"(x)); return x; }",
    "#else",
    "__device__ __forceinline__ float sarek_f32_barrier(float x) { return x; }",
    "#endif",
)

CUDA = Language(
    target="cuda",
    types={"i1": "int", "i32": "int", "i64": "long long", "f16": "__half", "f32": "float", "f64": "double",
           **_C_SMALL},
    bool_storage="int", int64_suffix="LL", true_false=("1", "0"),
    header=(), extern_c=False,
    kernel_prefix='extern "C" __global__', helper_prefix="__device__", ctor_prefix="__device__ __host__ inline",
    kernel_vec="{t}* __restrict__", helper_ptr={"global": "{t}*", "shared": "{t}*", "local": "{t}*"},
    kernel_scalar="{t}", buffer_slots=False, shared_decl="__shared__ {t}", record_designated=False,
    builtins=_index_builtins("(int)threadIdx.{d}", "(int)blockIdx.{d}", "(int)blockDim.{d}", "(int)gridDim.{d}")
    | {f"global_idx_{d}": f"(int)(blockIdx.{d} * blockDim.{d} + threadIdx.{d})" for d in "xyz"}
    | {f"global_size_{d}": f"(int)(blockDim.{d} * gridDim.{d})" for d in "xyz"},
    entry_params=(),
    barrier="__syncthreads()", warp_barrier="__syncwarp()", mem_fence="__threadfence()",
    lane_id="sarek_lane_id()", warp_size="warpSize", shuffle="__shfl_sync(0xffffffffu, {0}, {1})",
    vote={"warp_any": "__any_sync(0xffffffffu, {0})", "warp_all": "__all_sync(0xffffffffu, {0})",
          "warp_ballot": "__ballot_sync(0xffffffffu, {0})",
          "warp_ballot64": "(unsigned long long)__ballot_sync(0xffffffffu, {0})"},
    block_vote={"barrier_count": "__syncthreads_count({0})", "barrier_and": "(__syncthreads_and({0}) != 0)",
                "barrier_or": "(__syncthreads_or({0}) != 0)"},  # HIP: the same names (replace(CUDA, ...))
    warp_preamble=("__device__ __forceinline__ int sarek_lane_id(void) {",
                   "  unsigned int lane;",
                   "  asm volatile(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));",
                   "  return (int)lane;",
                   "}"),
    math=_cuda_math, atomic=_cuda_atomic, f16_preamble=_CUDA_F16,
    bf16_preamble=_bf16_preamble("__device__ __forceinline__", "unsigned short", "unsigned int", "__float_as_uint({0})",
                                 "__uint_as_float({0})"),
    inline_prefix="__device__ __forceinline__", int_abs_select=("int", "long long"), float_to_int=_CUDA_F2I,
    wide_carrier={32: "unsigned int", 64: "uint2", 128: "uint4"},
    float_cas={"float": FloatCas("int", "int*", "*{0}", "atomicCAS({0}, {1}, {2})", "atomicExch({0}, {1})",
                                 "__float_as_int({0})",
                                 "__int_as_float({0})"),
               "double": FloatCas("unsigned long long", "unsigned long long*", "*{0}", "atomicCAS({0}, {1}, {2})",
                                  "atomicExch({0}, {1})", "(unsigned long long)__double_as_longlong({0})",
                                  "__longlong_as_double((long long){0})")},
    atomic_space={"global": "", "shared": ""},
    bitcast={("float", "int"): "__float_as_int({0})", ("int", "float"): "__int_as_float({0})",
             ("double", "long long"): "__double_as_longlong({0})", ("long long", "double"): "__longlong_as_double({0})"},
    # NVRTC compiles it without -rdc (CUDA 11+); the workspace it synchronises on comes with the cooperative
    # launch (a plain launch traps at it)
    grid_barrier="cooperative_groups::this_grid().sync()", grid_preamble=("#include <cooperative_groups.h>",),
    constant_decl="__constant__ {t}",
)

def _hip_math(name: str, t: str) -> str | None:
    """CUDA's names, except: HIP's __popc/__popcll/__clzll return unsigned int (CUDA's return int), so the result
    is cast back (`abs(__popc(x))` is ambiguous for hipcc); HIP has no llmin/llmax, its min/max are overloaded
    for long long."""
    if name in ("min", "max") and t == "long long":
        return name
    f = _cuda_math(name, t)
    return f"(int){f}" if f is not None and name in ("popcount", "clz") else f


HIP = replace(
    CUDA,
    target="hip", header=("#include <hip/hip_runtime.h>",), math=_hip_math,
    lane_id="(int)__lane_id()", shuffle="__shfl({0}, {1})", warp_barrier="__builtin_amdgcn_wave_barrier()",
    vote={"warp_any": "__any({0})", "warp_all": "__all({0})", "warp_ballot": "(unsigned int)__ballot({0})",
          "warp_ballot64": "(unsigned long long)__ballot({0})"},
    warp_preamble=(), f16_preamble=("#include <hip/hip_fp16.h>", *_CUDA_F16[3:]),
    int_abs_select=(),  # AMD's compiler: no ptxas
    float_to_int={},  # HIP's __float2int_rz is a plain cast (fptosi): the helper
    grid_barrier="", grid_preamble=(),  # refused by the gate: sarek makes no HIP launch
)

# ------------------------------------------------------------------------------------------------ OpenCL C


def _c_math(name: str, t: str) -> str | None:
    """OpenCL C and MSL: overloaded generic names; integer abs/clz/popcount results cast back (what MSL lacks,
    expm1 log1p cbrt hypot, is the math library's: sarek-expand-math)."""
    is_f = t in ("float", "double")
    if name in FLOAT_MATH:
        return name
    if name == "abs":
        return "fabs" if is_f else f"({t})abs({{0}})"
    if name in ("min", "max"):
        return f"f{name}" if is_f else name
    if name in ("clz", "popcount"):
        return f"(int){name}({{0}})"
    if name == "bit_reverse":
        return "reverse_bits({0})"  # MSL's; OpenCL C has none (_opencl_math)
    return None


def _bit_reverse_c(name: str, t: str, u: str, bits: int, suffix: str) -> str:
    """A C function reversing the bits of a `t` through its unsigned twin `u`: swap adjacent bits, pairs,
    nibbles, ... halves."""
    lines = [f"{t} {name}({t} x) {{", f"  {u} v = ({u})x;"]
    for sh in (1, 2, 4, 8, 16, 32)[:6 if bits == 64 else 5]:
        m = "0x" + format(int(("0" * sh + "1" * sh) * (bits // (2 * sh)), 2), f"0{bits // 4}X") + suffix
        lines.append(f"  v = ((v >> {sh}) & {m}) | ((v & {m}) << {sh});")
    return "\n".join([*lines, f"  return ({t})v;", "}"])


_CL_BIT_REVERSE = {"int": "sarek_bit_reverse32", "long": "sarek_bit_reverse64"}


def _opencl_math(name: str, t: str) -> str | None:
    """_c_math, but OpenCL C 1.2/2.0 has no bit reversal (cl_khr_extended_bit_ops is optional): a function of
    sarek's (_OPENCL_POLYFILL)."""
    if name == "bit_reverse":
        return f"{_CL_BIT_REVERSE[t]}({{0}})" if t in _CL_BIT_REVERSE else None
    return _c_math(name, t)


def _opencl_atomic(name: str, t: str, space: str) -> str | None:
    op = name.removeprefix("atomic_")
    if t == "float" and op == "exch":
        return "atomic_xchg(&{0}, {1})"  # OpenCL C 1.2 has this one float atomic
    pre = {"int": "atomic_", "uint": "atomic_", "long": "atom_", "ulong": "atom_"}.get(t)
    if pre is None:
        return None
    if op in ("inc", "dec"):
        return f"{pre}{op}(&{{0}})"
    fn = {"exch": "xchg", "cas": "cmpxchg"}.get(op, op)
    return f"{pre}{fn}(&{{0}}, {{1}}{', {2}' if op == 'cas' else ''})"


def _nv_atom_add(t: str, ptx: str, reg: str) -> str:
    """NVIDIA's OpenCL compiles inline PTX: its native float fetch-add, where sarek's CAS loop under contention
    is quadratic (measured on the H200: 2^18 threads adding to one float took 4.7 s through the loop; 2^24 took
    0.03 s through `atom.global.add.f32`; bench_gpu's atomics_warp never finished on NVIDIA OpenCL)."""
    return (f"static inline {t} sarek_nv_atom_add_{ptx}(volatile __global {t}* p, {t} v) {{\n"
            f"  {t} old;\n"
            f"  asm volatile(\"atom.global.add.{ptx} %0, [%1], %2;\" : \"={reg}\"(old) : \"l\"(p), \"{reg}\"(v) : "
            "\"memory\");\n"
            "  return old;\n"
            "}")


#: the native branches' conditions: every NVIDIA OpenCL compiler defines __NV_CL_C_VERSION; atom.add.f64 needs
#: compute capability 6.0, which the runtime states with -DSAREK_NV_F64_ATOMIC_ADD (OpenCLDevice.build_options)
_NV_ATOM_ADD = {"float": ("defined(__NV_CL_C_VERSION)", "f32", "f"),
                "double": ("defined(__NV_CL_C_VERSION) && defined(SAREK_NV_F64_ATOMIC_ADD)", "f64", "d")}
_OPENCL_POLYFILL = {f"sarek_nv_atom_add_{ptx}": f"#if {cond}\n{_nv_atom_add(t, ptx, reg)}\n#endif"
                    for t, (cond, ptx, reg) in _NV_ATOM_ADD.items()} | {
    "sarek_bit_reverse32": _bit_reverse_c("sarek_bit_reverse32", "int", "uint", 32, "u"),
    "sarek_bit_reverse64": _bit_reverse_c("sarek_bit_reverse64", "long", "ulong", 64, "UL")}


def _opencl_float_native(op: str, t: str, space: str) -> tuple[str, str] | None:
    """Float add/sub on global memory on NVIDIA's OpenCL: `atom.global.add` (sub adds the negated operand)."""
    if space != "global" or op not in ("add", "sub") or t not in _NV_ATOM_ADD:
        return None
    cond, ptx, _ = _NV_ATOM_ADD[t]
    return cond, f"sarek_nv_atom_add_{ptx}({{0}}, {'-' if op == 'sub' else ''}{{1}})"


OPENCL = Language(
    target="opencl",
    types={"i1": "int", "i32": "int", "i64": "long", "f16": None, "f32": "float", "f64": "double", **_CL_SMALL},
    bool_storage="int", int64_suffix="L", true_false=("1", "0"),
    bf16_preamble=_bf16_preamble("static inline", "ushort", "uint", "as_uint({0})", "as_float({0})"),
    f64_preamble=("#pragma OPENCL EXTENSION cl_khr_fp64 : enable",),
    i64_atomic_preamble=(
        "#ifndef cl_khr_int64_base_atomics",
        '#error "64-bit atomics (on i64, u64 or f64) need cl_khr_int64_base_atomics, which this OpenCL device '
        'lacks: use 32-bit elements"',
        "#endif",
        "#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable",
        "#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable"),
    header=(), extern_c=False,
    kernel_prefix="__kernel", helper_prefix="", ctor_prefix="static inline",
    kernel_vec="__global {t}* restrict",
    helper_ptr={"global": "__global {t}*", "shared": "__local {t}*", "local": "{t}*"},
    kernel_scalar="{t}", buffer_slots=False, shared_decl="__local {t}", record_designated=True,
    constant_decl="__constant {t}",
    builtins=_index_builtins("(int)get_local_id({i})", "(int)get_group_id({i})", "(int)get_local_size({i})",
                             "(int)get_num_groups({i})")
    | {f"global_idx_{d}": f"(int)get_global_id({i})" for i, d in enumerate("xyz")}
    | {f"global_size_{d}": f"(int)get_global_size({i})" for i, d in enumerate("xyz")},
    entry_params=(),
    barrier="barrier(CLK_LOCAL_MEM_FENCE)", warp_barrier="SAREK_SUB_GROUP_BARRIER()",
    mem_fence="mem_fence(CLK_GLOBAL_MEM_FENCE)",
    lane_id="SAREK_LANE_ID()", warp_size="SAREK_WARP_SIZE()", shuffle="SAREK_SHUFFLE({0}, {1})",
    vote={"warp_any": "SAREK_ANY({0})", "warp_all": "SAREK_ALL({0})", "warp_ballot": "SAREK_BALLOT({0})",
          "warp_ballot64": "SAREK_BALLOT64({0})"},
    warp_preamble=(
        "#if defined(cl_khr_subgroups) && defined(cl_khr_subgroup_shuffle)",
        "#pragma OPENCL EXTENSION cl_khr_subgroups : enable",
        "#pragma OPENCL EXTENSION cl_khr_subgroup_shuffle : enable",
        "#define SAREK_LANE_ID() ((int)get_sub_group_local_id())",
        "#define SAREK_WARP_SIZE() ((int)get_sub_group_size())",
        "#define SAREK_SHUFFLE(v, src) sub_group_shuffle((v), (uint)(src))",
        "#define SAREK_SUB_GROUP_BARRIER() sub_group_barrier(CLK_LOCAL_MEM_FENCE)",
        "#else",
        "/* no sub-groups on this device: a sub-group is one work-item */",
        "#define SAREK_LANE_ID() 0",
        "#define SAREK_WARP_SIZE() 1",
        "#define SAREK_SHUFFLE(v, src) (v)",
        "#define SAREK_SUB_GROUP_BARRIER() ((void)0)",
        "#endif",
    ),
    # the same sub-groups as the warp preamble's (one work-item where it has none)
    vote_preamble=(
        "#if defined(cl_khr_subgroups) && defined(cl_khr_subgroup_shuffle)",
        "#define SAREK_ANY(c) sub_group_any((int)(c))",
        "#define SAREK_ALL(c) sub_group_all((int)(c))",
        "/* distinct bits: their sum is their union (cl_khr_subgroups has no ballot; lanes 0..31) */",
        "#define SAREK_BALLOT(c) sub_group_reduce_add(((c) && get_sub_group_local_id() < 32u) ? "
        "(1u << get_sub_group_local_id()) : 0u)",
        "#define SAREK_BALLOT64(c) sub_group_reduce_add(((c) && get_sub_group_local_id() < 64u) ? "
        "((ulong)1 << get_sub_group_local_id()) : (ulong)0)",
        "#else",
        "#define SAREK_ANY(c) ((c) != 0)",
        "#define SAREK_ALL(c) ((c) != 0)",
        "#define SAREK_BALLOT(c) ((c) ? 1u : 0u)",
        "#define SAREK_BALLOT64(c) ((c) ? (ulong)1 : (ulong)0)",
        "#endif",
    ),
    math=_opencl_math, atomic=_opencl_atomic,
    float_cas={"float": FloatCas("int", "volatile {q} int*", "*{0}", "atomic_cmpxchg({0}, {1}, {2})",
                                 "atomic_xchg({0}, {1})", "as_int({0})",
                                 "as_float({0})"),
               "double": FloatCas("long", "volatile {q} long*", "*{0}", "atom_cmpxchg({0}, {1}, {2})",
                                  "atom_xchg({0}, {1})", "as_long({0})",
                                  "as_double({0})")},
    # cl_ext_float_atomics is not used: neither pocl nor NVIDIA's OpenCL reports it, and no validator here
    # accepts its fetch-add (clang 14's opencl-c.h declares it ambiguously); NVIDIA's inline PTX is, for add/sub on vectors
    atomic_space={"global": "__global", "shared": "__local"},
    float_native=_opencl_float_native, polyfills=_OPENCL_POLYFILL, float_to_int=_CL_F2I,
    wide_carrier={32: "uint", 64: "uint2", 128: "uint4"},
    bitcast={(a, b): f"as_{b}({{0}})" for a, b in (("float", "int"), ("int", "float"), ("double", "long"),
                                                  ("long", "double"))},
)

# ------------------------------------------------------------------------------------------------ Metal


def _metal_cas_name(q: str, t: str) -> str:
    """sarek_atomic_cas_<q> on int (the float loops' name too), sarek_atomic_cas_uint_<q> on uint."""
    return f"sarek_atomic_cas_{q}" if t == "int" else f"sarek_atomic_cas_{t}_{q}"


def _metal_cas(q: str, t: str = "int") -> str:
    """MSL's compare-exchange returns a bool; sarek's atomic_cas returns the old value (a weak exchange may
    fail spuriously, so it retries while the value it saw still equals `cmp`)."""
    return (f"static inline {t} {_metal_cas_name(q, t)}(volatile {q} atomic_{t}* p, {t} cmp, {t} x) {{\n"
            f"  {t} seen = cmp;\n"
            "  while (!atomic_compare_exchange_weak_explicit(p, &seen, x, memory_order_relaxed, memory_order_relaxed)"
            " && seen == cmp) {}\n"
            "  return seen;\n"
            "}")


_METAL_POLYFILL = {_metal_cas_name(q, t): _metal_cas(q, t) for q in ("device", "threadgroup")
                   for t in ("int", "uint")}


def _metal_atomic(name: str, t: str, space: str) -> str | None:
    op = name.removeprefix("atomic_")
    if t not in ("int", "uint"):
        return None
    q = "device" if space == "global" else "threadgroup"
    ptr = f"(volatile {q} atomic_{t}*)&{{0}}"
    if op == "cas":
        return f"{_metal_cas_name(q, t)}({ptr}, {{1}}, {{2}})"
    if op in ("inc", "dec"):
        return f"atomic_fetch_{'add' if op == 'inc' else 'sub'}_explicit({ptr}, 1, memory_order_relaxed)"
    if op == "exch":
        return f"atomic_exchange_explicit({ptr}, {{1}}, memory_order_relaxed)"
    return f"atomic_fetch_{op}_explicit({ptr}, {{1}}, memory_order_relaxed)"


def _metal_float_native(op: str, t: str, space: str) -> tuple[str, str] | None:
    """Metal 3's atomic_float on device memory: fetch-add/sub (threadgroup memory has none)."""
    if space != "global" or op not in ("add", "sub"):
        return None
    return ("__METAL_VERSION__ >= 300",
            f"atomic_fetch_{op}_explicit((volatile device atomic_float*){{0}}, {{1}}, memory_order_relaxed)")


METAL = Language(
    target="metal",
    types={"i1": "bool", "i32": "int", "i64": "long", "f16": None, "f32": "float", "f64": None, **_CL_SMALL},
    bool_storage="int", int64_suffix="L", true_false=("true", "false"),
    bf16_preamble=_bf16_preamble("static inline", "ushort", "uint", "as_type<uint>({0})", "as_type<float>({0})"),
    header=("#include <metal_stdlib>", "using namespace metal;"), extern_c=False,
    kernel_prefix="kernel", helper_prefix="", ctor_prefix="static inline",
    kernel_vec="device {t}*",
    helper_ptr={"global": "device {t}*", "shared": "threadgroup {t}*", "local": "thread {t}*"},
    kernel_scalar="constant {t} &", buffer_slots=True, shared_decl="threadgroup {t}", record_designated=True,
    constant_decl="constant {t}",
    builtins=_index_builtins("(int)__metal_tid.{d}", "(int)__metal_bid.{d}", "(int)__metal_tpg.{d}",
                             "(int)__metal_num_groups.{d}")
    | {f"global_idx_{d}": f"(int)__metal_gid.{d}" for d in "xyz"}
    | {f"global_size_{d}": f"(int)(__metal_tpg.{d} * __metal_num_groups.{d})" for d in "xyz"},
    entry_params=(("uint3", "__metal_gid", " [[thread_position_in_grid]]"),
                  ("uint3", "__metal_tid", " [[thread_position_in_threadgroup]]"),
                  ("uint3", "__metal_bid", " [[threadgroup_position_in_grid]]"),
                  ("uint3", "__metal_tpg", " [[threads_per_threadgroup]]"),
                  ("uint3", "__metal_num_groups", " [[threadgroups_per_grid]]"),
                  ("uint", "__metal_lane", " [[thread_index_in_simdgroup]]"),
                  ("uint", "__metal_width", " [[threads_per_simdgroup]]")),
    barrier="threadgroup_barrier(mem_flags::mem_threadgroup)",
    warp_barrier="simdgroup_barrier(mem_flags::mem_threadgroup)",
    mem_fence="atomic_thread_fence(mem_flags::mem_device, memory_order_seq_cst, thread_scope_device)",
    lane_id="(int)__metal_lane", warp_size="(int)__metal_width", shuffle="simd_shuffle({0}, (ushort){1})",
    vote={"warp_any": "simd_any({0})", "warp_all": "simd_all({0})",
          "warp_ballot": "(uint)(ulong)simd_ballot({0})", "warp_ballot64": "(ulong)simd_ballot({0})"},
    warp_preamble=(),
    math=_c_math, atomic=_metal_atomic, polyfills=_METAL_POLYFILL,
    float_cas={"float": FloatCas("int", "volatile {q} atomic_int*", "atomic_load_explicit({0}, memory_order_relaxed)",
                                 "sarek_atomic_cas_{q}({0}, {1}, {2})",
                                 "atomic_exchange_explicit({0}, {1}, memory_order_relaxed)", "as_type<int>({0})", "as_type<float>({0})")},
    atomic_space={"global": "device", "shared": "threadgroup"}, float_native=_metal_float_native,
    bitcast={("float", "int"): "as_type<int>({0})", ("int", "float"): "as_type<float>({0})"},
)

LANGUAGES: dict[str, Language] = {lang.target: lang for lang in (CUDA, HIP, OPENCL, METAL)}
