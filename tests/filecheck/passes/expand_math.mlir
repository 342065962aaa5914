// RUN: sarek-opt %s -p 'sarek-expand-math{target=ptx}' --split-input-file | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-expand-math{target=glsl}' --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-expand-math{target=cuda}' --split-input-file | filecheck %s --check-prefix=CUDA

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
// PTX:      sarek.helper @sarek_atan2_f64(%x: f64 "x", %y: f64 "y") -> f64 {
// PTX:        sarek.bitcast %{{.*}} : f64 to i64
// PTX:      sarek.helper @sarek_sin_f64(%x: f64 "x") -> f64 {
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
// narrow form. GLSL keeps its float builtins.
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
// GLSL-NOT:   sarek.helper
// GLSL:       %a = sarek.intrinsic "exp"(%x) : (f32) -> f32
