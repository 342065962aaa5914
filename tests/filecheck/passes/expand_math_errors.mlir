// RUN: sarek-opt %s -p 'sarek-expand-math{target=vulkan}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=UNKNOWN

// An unknown target is refused (every float math intrinsic is computed on every target that has the type:
// f64 pow and fmod are the library's on PTX and GLSL, see expand_math.mlir).
builtin.module {
  sarek.kernel @k(%x : f64 "x") {
    %a = sarek.intrinsic "pow"(%x, %x) : (f64, f64) -> f64 loc("k.py":3:7)
  }
}
// UNKNOWN: error: sarek-expand-math: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)
