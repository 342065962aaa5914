// RUN: sarek-opt %s -p 'sarek-pin-widened-constants{target=glsl}' | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-pin-widened-constants{target=cuda}' | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-pin-widened-constants{target=vulkan}' --verify-diagnostics | filecheck %s --check-prefix=BAD

// glslang folds `double((-7.0) / (abs(5.0) + 1.0))` in double (-1.1666666666666667, not the f32 quotient
// -1.1666666269302368: fuzz seed 202387); on GLSL a widened constant expression is bound to a local first.
// A widened constant, a widened expression that reads memory, and a narrowing cast are unchanged.
builtin.module {
  sarek.kernel @k(%x : !sarek.vec<f32> "x", %o : !sarek.vec<f64> "o") {
    %m7 = sarek.constant -7.0 : f32
    %five = sarek.constant 5.0 : f32
    %a = sarek.intrinsic "abs"(%five) : (f32) -> f32
    %one = sarek.constant 1.0 : f32
    %d = sarek.binop add %a, %one : f32
    %q = sarek.binop div %m7, %d : f32
    %w = sarek.cast %q : f32 to f64
    %z = sarek.constant 0 : i32
    %p0 = sarek.elem_ref %o[%z] : !sarek.vec<f64>
    sarek.store %p0, %w : !sarek.ref<f64>
    %c = sarek.cast %one : f32 to f64
    %xr = sarek.array_read %x[%z] : !sarek.vec<f32>
    %xd = sarek.binop div %xr, %d : f32
    %xw = sarek.cast %xd : f32 to f64
    %s = sarek.binop add %c, %xw : f64
    %n = sarek.cast %s : f64 to f32
    %nw = sarek.cast %n : f32 to f64
    sarek.store %p0, %nw : !sarek.ref<f64>
  }
}
// GLSL:      %q = sarek.binop div %m7, %d : f32
// GLSL-NEXT: %wide = sarek.let "wide" %q : f32
// GLSL-NEXT: %w = sarek.cast %wide : f32 to f64
// GLSL:      %c = sarek.cast %one : f32 to f64
// GLSL:      %xw = sarek.cast %xd : f32 to f64
// GLSL:      %n = sarek.cast %s : f64 to f32
// GLSL-NEXT: %nw = sarek.cast %n : f32 to f64
// GLSL-NOT:  sarek.let

// CUDA-NOT:  sarek.let
// CUDA:      %w = sarek.cast %q : f32 to f64
// CUDA-NOT:  sarek.let

// BAD: error: sarek-pin-widened-constants: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)
