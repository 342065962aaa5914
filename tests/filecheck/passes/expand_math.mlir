// RUN: sarek-opt %s -p 'sarek-expand-math{target=ptx}' --split-input-file | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-expand-math{target=glsl}' --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-expand-math{target=cuda}' --split-input-file | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-expand-math{target=wgsl}' --split-input-file | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-expand-math{target=metal}' --split-input-file | filecheck %s --check-prefix=METAL

// f64 transcendentals: PTX and GLSL call the library's helper (added once, before the first function);
// exact operations stay intrinsics; CUDA spells everything itself.
builtin.module {
  sarek.kernel @k(%x : f64 "x", %y : f64 "y") {
    %a = sarek.intrinsic "sin"(%x) : (f64) -> f64
    %b = sarek.intrinsic "sin"(%y) : (f64) -> f64
    %c = sarek.intrinsic "sqrt"(%x) : (f64) -> f64
    %d = sarek.intrinsic "atan2"(%x, %y) : (f64, f64) -> f64
  }
}
// PTX:      sarek.helper @sarek_atan2_f64(%x: f64 "x", %y: f64 "y") -> f64 attributes {sarek.generated} {
// PTX:        sarek.bitcast %{{.*}} : f64 to i64
// PTX:      sarek.helper @sarek_sin_f64(%x: f64 "x") -> f64 attributes {sarek.generated} {
// PTX:      sarek.kernel @k
// PTX-NEXT:   %a = sarek.call @sarek_sin_f64(%x) : (f64) -> f64
// PTX-NEXT:   %b = sarek.call @sarek_sin_f64(%y) : (f64) -> f64
// PTX-NEXT:   %c = sarek.intrinsic "sqrt"(%x) : (f64) -> f64
// PTX-NEXT:   %d = sarek.call @sarek_atan2_f64(%x, %y) : (f64, f64) -> f64
// GLSL:       sarek.helper @sarek_atan2_f64
// GLSL:       sarek.helper @sarek_sin_f64
// GLSL:       %a = sarek.call @sarek_sin_f64(%x) : (f64) -> f64
// CUDA-NOT:   sarek.helper
// CUDA:       %a = sarek.intrinsic "sin"(%x) : (f64) -> f64

// -----

// f32 on PTX goes through double and rounds once; f16 rounds through f32 (the f16 storage rule); pow has the
// narrow form. GLSL and WGSL keep their float builtins and take the f32 forms of what they spell otherwise
// (pow through their pow, fmod exact); Metal has pow and fmod.
builtin.module {
  sarek.kernel @narrow(%x : f32 "x", %h : f16 "h") {
    %a = sarek.intrinsic "exp"(%x) : (f32) -> f32
    %b = sarek.intrinsic "pow"(%x, %x) : (f32, f32) -> f32
    %c = sarek.intrinsic "log"(%h) : (f16) -> f16
    %d = sarek.intrinsic "fmod"(%x, %x) : (f32, f32) -> f32
  }
}
// PTX:      sarek.kernel @narrow
// PTX-NEXT:   %0 = sarek.cast %x : f32 to f64
// PTX-NEXT:   %1 = sarek.call @sarek_exp_f64(%0) : (f64) -> f64
// PTX-NEXT:   %a = sarek.cast %1 : f64 to f32
// PTX-NEXT:   %2 = sarek.cast %x : f32 to f64
// PTX-NEXT:   %3 = sarek.cast %x : f32 to f64
// PTX-NEXT:   %4 = sarek.call @sarek_pow_narrow_f64(%2, %3) : (f64, f64) -> f64
// PTX-NEXT:   %b = sarek.cast %4 : f64 to f32
// PTX-NEXT:   %5 = sarek.cast %h : f16 to f64
// PTX-NEXT:   %6 = sarek.call @sarek_log_f64(%5) : (f64) -> f64
// PTX-NEXT:   %7 = sarek.cast %6 : f64 to f32
// PTX-NEXT:   %c = sarek.cast %7 : f32 to f16
// PTX-NEXT:   %d = sarek.intrinsic "fmod"(%x, %x) : (f32, f32) -> f32
// GLSL:       sarek.helper @sarek_fmod_f32(%x: f32 "x", %y: f32 "y") -> f32 attributes {sarek.generated} {
// GLSL:         sarek.while
// GLSL:       sarek.helper @sarek_pow_via_pow_f32(%x: f32 "x", %y: f32 "y") -> f32 attributes {sarek.generated} {
// GLSL:         sarek.intrinsic "pow"(%{{.*}}, %y) : (f32, f32) -> f32
// GLSL:       %a = sarek.intrinsic "exp"(%x) : (f32) -> f32
// GLSL-NEXT:  %b = sarek.call @sarek_pow_via_pow_f32(%x, %x) : (f32, f32) -> f32
// GLSL-NEXT:  %c = sarek.intrinsic "log"(%h) : (f16) -> f16
// GLSL-NEXT:  %d = sarek.call @sarek_fmod_f32(%x, %x) : (f32, f32) -> f32
// WGSL:       %b = sarek.call @sarek_pow_via_pow_f32(%x, %x) : (f32, f32) -> f32
// WGSL:       %d = sarek.call @sarek_fmod_f32(%x, %x) : (f32, f32) -> f32
// METAL-NOT:  sarek.helper
// METAL:      %b = sarek.intrinsic "pow"(%x, %x) : (f32, f32) -> f32

// -----

// What f32 has no double for: Metal's missing functions in f32 (f16 widens to f32 only).
builtin.module {
  sarek.kernel @f32only(%x : f32 "x", %h : f16 "h") {
    %a = sarek.intrinsic "hypot"(%x, %x) : (f32, f32) -> f32
    %b = sarek.intrinsic "expm1"(%h) : (f16) -> f16
  }
}
// METAL:      sarek.helper @sarek_hypot_scaled_f32
// METAL:      %a = sarek.call @sarek_hypot_scaled_f32(%x, %x) : (f32, f32) -> f32
// METAL-NEXT: %b = sarek.intrinsic "expm1"(%h) : (f16) -> f16
// WGSL:       sarek.helper @sarek_expm1_via_exp_f32
// WGSL:       sarek.intrinsic "exp"(%x) : (f32) -> f32
// WGSL:       %0 = sarek.cast %h : f16 to f32
// WGSL-NEXT:  %1 = sarek.call @sarek_expm1_via_exp_f32(%0) : (f32) -> f32
// WGSL-NEXT:  %b = sarek.cast %1 : f32 to f16
// CUDA:       %a = sarek.intrinsic "hypot"

// -----

// f64 pow and fmod are the library's on PTX and GLSL (no f64 function is refused); GLSL's f64 round and
// copysign too (its round may go either way at halves).
builtin.module {
  sarek.kernel @f64s(%x : f64 "x") {
    %a = sarek.intrinsic "pow"(%x, %x) : (f64, f64) -> f64
    %b = sarek.intrinsic "fmod"(%x, %x) : (f64, f64) -> f64
    %c = sarek.intrinsic "round"(%x) : (f64) -> f64
  }
}
// PTX:       sarek.helper @sarek_fmod_f64
// PTX:       sarek.helper @sarek_pow_f64
// PTX:       %a = sarek.call @sarek_pow_f64(%x, %x) : (f64, f64) -> f64
// PTX-NEXT:  %b = sarek.call @sarek_fmod_f64(%x, %x) : (f64, f64) -> f64
// PTX-NEXT:  %c = sarek.intrinsic "round"(%x) : (f64) -> f64
// GLSL:      %a = sarek.call @sarek_pow_f64(%x, %x) : (f64, f64) -> f64
// GLSL-NEXT: %b = sarek.call @sarek_fmod_f64(%x, %x) : (f64, f64) -> f64
// GLSL-NEXT: %c = sarek.call @sarek_round_f64(%x) : (f64) -> f64

// -----

// On the shader targets the routines' error-free sums are kept from the driver's reassociation (NVIDIA's Vulkan
// compiler rewrote `(a + b) - a` into `b` and so lost pow's double-double log: 596 ulp on the H200 before).
// GLSL marks the sum, the recovered addend and the error term `sarek.precise` (the lowering declares them
// `precise`, glslang decorates NoContraction); PTX (which keeps IEEE order) gets the bare sum.
builtin.module {
  sarek.kernel @p(%x : f64 "x", %y : f64 "y") {
    %a = sarek.intrinsic "pow"(%x, %y) : (f64, f64) -> f64
  }
}
// PTX:        sarek.helper @sarek_pow_f64
// PTX-NOT:    sarek.precise
// PTX-NOT:    "grid_dim_x"
// PTX:        sarek.kernel @p
// GLSL:       sarek.helper @sarek_pow_f64
// GLSL-NOT:   "grid_dim_x"
// GLSL:       %[[S:.*]] = sarek.binop add %[[A:.*]], %[[B:.*]] : f64 attributes {sarek.precise}
// GLSL-NEXT:  %[[BB:.*]] = sarek.binop sub %[[S]], %[[A]] : f64 attributes {sarek.precise}
// GLSL-NEXT:  %[[T1:.*]] = sarek.binop sub %[[S]], %[[BB]] : f64
// GLSL-NEXT:  %[[T2:.*]] = sarek.binop sub %[[A]], %[[T1]] : f64
// GLSL-NEXT:  %[[T3:.*]] = sarek.binop sub %[[B]], %[[BB]] : f64
// GLSL-NEXT:  %{{.*}} = sarek.binop add %[[T2]], %[[T3]] : f64 attributes {sarek.precise}
// exp's stepwise scaling (v * 2^h1) * 2^h2 keeps its fence on GLSL too: `precise` does not stop a driver from
// folding the two multiplications into one that overflows (NVIDIA's did: sinh(710) = inf)
// GLSL:       sarek.intrinsic "grid_dim_x"
// GLSL:       sarek.kernel @p

// -----

// WGSL has no `precise`: the f32 routines' exact steps are fenced there, their bits xor `grid_dim_x >> 31` (0
// at run time, which the compiler cannot see through).
builtin.module {
  sarek.kernel @e(%x : f32 "x") {
    %a = sarek.intrinsic "erf"(%x) : (f32) -> f32
  }
}
// WGSL:       sarek.helper @sarek_erf_f32
// WGSL-NOT:   sarek.precise
// WGSL:       %[[G:.*]] = sarek.intrinsic "grid_dim_x"() : () -> i32
// WGSL-NEXT:  %[[C:.*]] = sarek.cast %[[G]] : i32 to i32
// WGSL-NEXT:  %[[K:.*]] = sarek.constant 31 : i32
// WGSL-NEXT:  %[[Z:.*]] = sarek.binop shr %[[C]], %[[K]] : i32
// WGSL:       sarek.binop bitxor %{{.*}}, %[[Z]] : i32
// WGSL-NOT:   sarek.precise
// WGSL:       sarek.kernel @e
