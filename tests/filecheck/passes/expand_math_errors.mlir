// RUN: sarek-opt %s -p 'sarek-expand-math{target=ptx}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-expand-math{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-expand-math{target=vulkan}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=UNKNOWN

// What neither the target nor the library computes is refused here, with the reason, at the op.
builtin.module {
  sarek.kernel @k(%x : f64 "x") {
    %a = sarek.intrinsic "pow"(%x, %x) : (f64, f64) -> f64 loc("k.py":3:7)
  }
}
// PTX: k.py:3:7: error: PTX: 'pow' on f64 not yet supported — the sarek math library has no double-precision pow accurate to 2 ulp yet (it needs log in double-double); use the cuda or opencl device for f64 pow
// GLSL: k.py:3:7: error: GLSL: 'pow' on f64 not yet supported — the sarek math library has no double-precision pow
// UNKNOWN: error: sarek-expand-math: unknown target 'vulkan' (known: cuda, hip, opencl, metal, glsl, wgsl, ptx)

// -----

builtin.module {
  sarek.kernel @k(%x : f64 "x") {
    %a = sarek.intrinsic "fmod"(%x, %x) : (f64, f64) -> f64 loc("k.py":4:7)
  }
}
// PTX: k.py:4:7: error: PTX: 'fmod' on f64 not yet supported — PTX's fmod loop is exact for f32 operands only
// GLSL: %a = sarek.intrinsic "fmod"(%x, %x) : (f64, f64) -> f64
