"""Identifiers each target language reserves: keywords, type names, built-in functions and variables.

Taken from the language specifications: ISO C11 / C++17 keywords (CUDA and HIP compile C++, Metal is
C++14-based), the CUDA C++ Programming Guide built-ins, OpenCL C 1.2/2.0 (keywords, vector/image types,
`get_*`, `half_*`, `native_*`, work-item, math, geometric, relational and atomic functions), the Metal
Shading Language 2/3 (address spaces, vector/matrix types, `simd_*`, `quad_*` functions), GLSL 4.50
(keywords and reserved words, types, built-in functions and `gl_` variables) and WGSL (keywords, reserved
words, predeclared types and built-in functions). A variable named like a built-in function hides it, so
those count as reserved. `GENERATED` holds the names sarek's own output declares (interface blocks), and
every target reserves `GENERATED_PREFIX`, the prefix of sarek's helpers and temporaries. The rules that use
these tables are sarek.analysis.namer and sarek.analysis.reserved; each target's descriptor
(sarek.descriptor) carries its row of `RESERVED` and `PREFIXES`.
"""

from __future__ import annotations

GENERATED_PREFIX = "sarek_"


def _w(text: str) -> frozenset[str]:
    return frozenset(text.split())


C_KEYWORDS = _w("""
auto break case char const continue default do double else enum extern float for goto if inline int long
register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while
_Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local
""")
CPP_KEYWORDS = _w("""
alignas alignof and and_eq asm bitand bitor bool catch char16_t char32_t char8_t class compl concept const_cast
consteval constexpr constinit co_await co_return co_yield decltype delete dynamic_cast explicit export false
friend mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public
reinterpret_cast requires static_assert static_cast template this thread_local throw true try typeid typename
using virtual wchar_t xor xor_eq override final
""")
C_LIBRARY = _w("""
NULL size_t ptrdiff_t nullptr_t max_align_t wchar_t int8_t int16_t int32_t int64_t uint8_t uint16_t uint32_t uint64_t intptr_t uintptr_t
main printf malloc free memcpy memset assert abs labs llabs min max fmin fmax fabs fabsf sqrt sqrtf rsqrt rsqrtf
cbrt cbrtf exp expf exp2 exp2f exp10 expm1 expm1f log logf log2 log2f log10 log10f log1p log1pf pow powf sin sinf
cos cosf tan tanf asin asinf acos acosf atan atanf atan2 atan2f sinh sinhf cosh coshf tanh tanhf floor floorf
ceil ceilf round roundf trunc truncf fmod fmodf hypot hypotf copysign copysignf fma fmaf erf erff erfc lgamma
tgamma ldexp frexp modf remainder nan isnan isinf isfinite signbit rint lrint nearbyint
float_t double_t uint ulong ushort uchar u_int u_long u_short u_char register_t time_t clock_t off_t ssize_t pid_t
uid_t gid_t mode_t dev_t ino_t key_t id_t select poll read write open close exit abort
INFINITY NAN HUGE_VAL HUGE_VALF FP_NAN FP_INFINITE FP_ZERO FP_NORMAL FP_SUBNORMAL INT_MAX INT_MIN UINT_MAX LONG_MAX LONG_MIN
LLONG_MAX LLONG_MIN CHAR_BIT FLT_MAX FLT_MIN FLT_EPSILON DBL_MAX DBL_MIN DBL_EPSILON EOF RAND_MAX EXIT_SUCCESS
EXIT_FAILURE
""")
CUDA_BUILTINS = _w("""
threadIdx blockIdx blockDim gridDim warpSize __global__ __device__ __host__ __shared__ __constant__ __restrict__
__syncthreads __syncwarp __threadfence __threadfence_block __shfl_sync __shfl_up_sync __shfl_down_sync
__shfl_xor_sync __ballot_sync __all_sync __any_sync __activemask __popc __clz __half __half2 __nv_bfloat16
__float2half __half2float __fdividef __expf __logf __sinf __cosf __powf __saturatef __frcp_rn __fsqrt_rn
atomicAdd atomicSub atomicExch atomicMin atomicMax atomicInc atomicDec atomicCAS atomicAnd atomicOr atomicXor
dim3 char1 char2 char3 char4 uchar1 uchar2 uchar3 uchar4 short1 short2 short3 short4 ushort1 ushort2 ushort3
ushort4 int1 int2 int3 int4 uint1 uint2 uint3 uint4 long1 long2 long3 long4 ulong1 ulong2 ulong3 ulong4
longlong1 longlong2 ulonglong1 ulonglong2 float1 float2 float3 float4 double1 double2 double3 double4
half half2 nv_half nv_half2 __half_raw __half2_raw
make_int2 make_int3 make_int4 make_float2 make_float3 make_float4 make_double2 sarek_f32_barrier
hipThreadIdx_x hipBlockIdx_x hipBlockDim_x hipGridDim_x
""")
# math.h / OpenCL C / Metal constants (`M_PI`, OpenCL's `M_PI_F`, Metal's `M_PI_H`): object-like macros
_MATH_MACROS = " ".join(f"M_{c}{sfx}" for c in "E LOG2E LOG10E LN2 LN10 PI PI_2 PI_4 1_PI 2_PI 2_SQRTPI SQRT2 SQRT1_2"
                        .split() for sfx in ("", "_F", "_H"))
_CL_VECTOR = " ".join(f"{t}{n}" for t in "char uchar short ushort int uint long ulong float double half".split()
                      for n in (2, 3, 4, 8, 16))
_OPENCL_TYPES = _w("""
__global global __local local __constant constant __private private __kernel kernel __read_only read_only
__write_only write_only __read_write read_write uniform pipe bool char uchar short ushort int uint long ulong
float double half quad size_t ptrdiff_t intptr_t uintptr_t void event_t sampler_t image1d_t image2d_t image3d_t
image1d_array_t image2d_array_t image1d_buffer_t cl_mem_fence_flags atomic_int atomic_uint atomic_float
atomic_flag memory_order memory_scope complex imaginary
""")
OPENCL_RESERVED = _OPENCL_TYPES | _w("""
barrier mem_fence read_mem_fence write_mem_fence work_group_barrier sub_group_barrier async_work_group_copy
wait_group_events prefetch vload2 vload3 vload4 vload8 vload16 vstore2 vstore3 vstore4 vstore8 vstore16
vload_half vstore_half vloada_half vstorea_half printf main NULL
acos acosh acospi asin asinh asinpi atan atan2 atanh atanpi atan2pi cbrt ceil copysign cos cosh cospi erfc erf
exp exp2 exp10 expm1 fabs fdim floor fma fmax fmin fmod fract frexp hypot ilogb ldexp lgamma lgamma_r log log2
log10 log1p logb mad maxmag minmag modf nan nextafter pow pown powr remainder remquo rint rootn round rsqrt sin
sincos sinh sinpi sqrt tan tanh tanpi tgamma trunc
abs abs_diff add_sat hadd rhadd clamp clz ctz mad_hi mad_sat max min mul_hi rotate sub_sat upsample popcount
mad24 mul24 degrees radians mix sign smoothstep step cross dot distance length normalize fast_distance
fast_length fast_normalize isequal isnotequal isgreater isgreaterequal isless islessequal islessgreater
isfinite isinf isnan isnormal isordered isunordered signbit any all bitselect select shuffle shuffle2
atomic_add atomic_sub atomic_xchg atomic_inc atomic_dec atomic_cmpxchg atomic_min atomic_max atomic_and
atomic_or atomic_xor atom_add atom_sub atom_xchg atom_inc atom_dec atom_cmpxchg atom_min atom_max atom_and
atom_or atom_xor convert_int convert_float convert_double as_int as_uint as_float as_double
true false MAXFLOAT HUGE_VALF HUGE_VAL INFINITY NAN FP_ILOGB0 FP_ILOGBNAN FP_FAST_FMA FP_FAST_FMAF
""") | _w(_CL_VECTOR)
_MSL_VECTOR = " ".join(f"{t}{n}" for t in "bool char uchar short ushort int uint long ulong float half".split()
                       for n in (2, 3, 4)) + " " + " ".join(
    f"{t}{r}x{c}" for t in ("float", "half") for r in (2, 3, 4) for c in (2, 3, 4))
_METAL_TYPES = _w("""
device constant thread threadgroup threadgroup_imageblock ray_data object_data kernel vertex fragment visible
stage_in metal half uchar ushort uint ulong size_t ptrdiff_t packed_float2 packed_float3 packed_float4
atomic atomic_int atomic_uint atomic_bool atomic_float memory_order mem_flags texture1d texture2d texture3d
sampler array vec matrix
""")
METAL_RESERVED = _METAL_TYPES | _w("""
simd_shuffle simd_shuffle_up simd_shuffle_down simd_shuffle_xor simd_broadcast
simd_sum simd_max simd_min simd_ballot simd_all simd_any simd_prefix_inclusive_sum simd_prefix_exclusive_sum
simdgroup_barrier threadgroup_barrier quad_shuffle quad_shuffle_up quad_shuffle_down quad_shuffle_xor
quad_broadcast quad_sum quad_max quad_min quad_ballot quad_all quad_any
atomic_fetch_add_explicit atomic_fetch_sub_explicit atomic_fetch_min_explicit atomic_fetch_max_explicit
atomic_fetch_and_explicit atomic_fetch_or_explicit atomic_fetch_xor_explicit atomic_exchange_explicit
atomic_compare_exchange_weak_explicit atomic_load_explicit atomic_store_explicit memory_order_relaxed
abs absdiff acos acosh asin asinh atan atan2 atanh ceil clamp clz copysign cos cosh cospi cross ctz degrees
distance dot exp exp2 exp10 fabs fdim floor fma fmax fmax3 fmin fmin3 fmod fract frexp hadd ilogb isfinite isinf
isnan ldexp length length_squared log log2 log10 mad max max3 median3 min min3 mix modf mulhi normalize popcount
pow powr radians reflect refract rhadd rint rotate round rsqrt saturate select sign sin sincos sinh sinpi
smoothstep sqrt step tan tanh tanpi trunc all any as_type
""") | _w(_MSL_VECTOR)
GLSL_RESERVED = _w("""
attribute const uniform varying buffer shared coherent volatile restrict readonly writeonly atomic_uint layout
centroid flat smooth noperspective patch sample break continue do for while switch case default if else
subroutine in out inout float double int void bool true false invariant precise discard return lowp mediump
highp precision struct
mat2 mat3 mat4 dmat2 dmat3 dmat4 mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 dmat2x2 dmat2x3
dmat2x4 dmat3x2 dmat3x3 dmat3x4 dmat4x2 dmat4x3 dmat4x4 vec2 vec3 vec4 ivec2 ivec3 ivec4 bvec2 bvec3 bvec4
dvec2 dvec3 dvec4 uint uvec2 uvec3 uvec4 sampler1D sampler2D sampler3D samplerCube image1D image2D image3D
int64_t uint64_t i64vec2 u64vec2 float16_t f16vec2 int8_t uint8_t
common partition active asm class union enum typedef template this resource goto inline noinline public static
extern external interface long short half fixed unsigned superp input output hvec2 hvec3 hvec4 fvec2 fvec3
fvec4 sampler3DRect filter sizeof cast namespace using
radians degrees sin cos tan asin acos atan sinh cosh tanh asinh acosh atanh pow exp log exp2 log2 sqrt
inversesqrt abs sign floor trunc round roundEven ceil fract mod modf min max clamp mix step smoothstep isnan
isinf floatBitsToInt floatBitsToUint intBitsToFloat uintBitsToFloat fma frexp ldexp packHalf2x16 unpackHalf2x16
length distance dot cross normalize faceforward reflect refract matrixCompMult outerProduct transpose
determinant inverse lessThan lessThanEqual greaterThan greaterThanEqual equal notEqual any all not
uaddCarry usubBorrow umulExtended imulExtended bitfieldExtract bitfieldInsert bitfieldReverse bitCount findLSB
findMSB atomicAdd atomicMin atomicMax atomicAnd atomicOr atomicXor atomicExchange atomicCompSwap barrier
memoryBarrier memoryBarrierShared memoryBarrierBuffer groupMemoryBarrier subgroupBarrier subgroupShuffle
subgroupShuffleXor subgroupShuffleUp subgroupShuffleDown subgroupBroadcast subgroupAll subgroupAny
subgroupAdd subgroupElect texture imageLoad imageStore main sampler
""")
WGSL_RESERVED = _w("""
alias break case const const_assert continue continuing default diagnostic discard else enable false fn for if
let loop override requires return struct switch true var while
NULL Self abstract active alignas alignof as asm asm_fragment async attribute auto await become cast catch class
co_await co_return co_yield coherent column_major common compile compile_fragment concept const_cast consteval
constexpr constinit crate debugger decltype delete demote demote_to_helper do dynamic_cast enum explicit export
extends extern external fallthrough filter final finally friend from fxgroup get goto groupshared highp impl
implements import inline instanceof interface layout lowp macro macro_rules match mediump meta mod module move
mut mutable namespace new nil noexcept noinline nointerpolation non_coherent noncoherent noperspective null
nullptr of operator package packoffset partition pass patch pixelfragment precise precision premerge priv
protected pub public readonly ref regardless register reinterpret_cast require resource restrict self set
shared sizeof smooth snorm static static_assert static_cast std subroutine super target template this
thread_local throw trait try type typedef typeid typename typeof union unless unorm unsafe unsized use using
varying virtual volatile wgsl where with writeonly yield
bool f16 f32 i32 u32 vec2 vec3 vec4 vec2i vec3i vec4i vec2u vec3u vec4u vec2f vec3f vec4f vec2h vec3h vec4h
mat2x2 mat2x3 mat2x4 mat3x2 mat3x3 mat3x4 mat4x2 mat4x3 mat4x4 mat2x2f mat3x3f mat4x4f array atomic ptr sampler
texture_2d texture_storage_2d function private workgroup uniform storage read write read_write
abs acos acosh all any arrayLength asin asinh atan atanh atan2 ceil clamp cos cosh countLeadingZeros
countOneBits countTrailingZeros cross degrees determinant distance dot exp exp2 extractBits faceForward
firstLeadingBit firstTrailingBit floor fma fract frexp insertBits inverseSqrt ldexp length log log2 max min mix
modf normalize pow quantizeToF16 radians reflect refract reverseBits round saturate select sign sin sinh
smoothstep sqrt step tan tanh transpose trunc bitcast atomicLoad atomicStore atomicAdd atomicSub atomicMax
atomicMin atomicAnd atomicOr atomicXor atomicExchange atomicCompareExchangeWeak workgroupBarrier storageBarrier
textureBarrier workgroupUniformLoad subgroupShuffle subgroupShuffleXor subgroupShuffleUp subgroupShuffleDown
subgroupBroadcast subgroupAll subgroupAny subgroupAdd subgroupBarrier pack2x16float unpack2x16float main
binding_array f64 i64 u64
""")

# names sarek's shader output declares itself: the push-constant block, the scalar-parameter struct
GENERATED: dict[str, frozenset[str]] = {
    "glsl": _w("pc PushConstants"),
    "wgsl": _w("params Params"),
}

# name prefixes a target reserves (built-in families and implementation namespaces)
PREFIXES: dict[str, tuple[str, ...]] = {
    "cuda": ("__", "_Z", GENERATED_PREFIX),
    "hip": ("__", "_Z", GENERATED_PREFIX),
    "opencl": ("__", "get_", "half_", "native_", "atomic_", "atom_", "sub_group_", "work_group_", "convert_",
               "as_", "vload", "vstore", "CLK_", "FLT_", "DBL_", "HALF_", "CHAR_", "SCHAR_", "UCHAR_",
               "SHRT_", "USHRT_", "INT_", "UINT_", "LONG_", "ULONG_", GENERATED_PREFIX),
    "metal": ("__", "simd_", "quad_", "simdgroup_", "atomic_", "metal_", "FLT_", "HALF_", GENERATED_PREFIX),
    "glsl": ("gl_", "__", "subgroup", GENERATED_PREFIX),
    "wgsl": ("__", GENERATED_PREFIX),
}

RESERVED: dict[str, frozenset[str]] = {
    "cuda": C_KEYWORDS | CPP_KEYWORDS | C_LIBRARY | CUDA_BUILTINS | _w(_MATH_MACROS),
    "hip": C_KEYWORDS | CPP_KEYWORDS | C_LIBRARY | CUDA_BUILTINS | _w(_MATH_MACROS),
    "opencl": C_KEYWORDS | OPENCL_RESERVED | _w(_MATH_MACROS),
    "metal": C_KEYWORDS | CPP_KEYWORDS | C_LIBRARY | METAL_RESERVED | _w(_MATH_MACROS),
    "glsl": GLSL_RESERVED | GENERATED["glsl"],
    "wgsl": WGSL_RESERVED | GENERATED["wgsl"],
}


# what a C struct member may not be called: keywords, type names and object-like macros. A function's name is a
# fine member (`r.min` calls nothing), so record fields named `min`, `length` or `dot` keep their names.
_MACROS = _w(_MATH_MACROS + " NULL true false INFINITY NAN HUGE_VAL HUGE_VALF MAXFLOAT")
MEMBER_RESERVED: dict[str, frozenset[str]] = {
    "cuda": C_KEYWORDS | CPP_KEYWORDS | _MACROS | _w("half half2 dim3"),
    "hip": C_KEYWORDS | CPP_KEYWORDS | _MACROS | _w("half half2 dim3"),
    "opencl": C_KEYWORDS | _OPENCL_TYPES | _MACROS | _w(_CL_VECTOR),
    "metal": C_KEYWORDS | CPP_KEYWORDS | _METAL_TYPES | _MACROS | _w(_MSL_VECTOR),
}
