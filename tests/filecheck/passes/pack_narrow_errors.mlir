// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=wgsl}' --verify-diagnostics --split-input-file | filecheck %s
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=vulkan}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=UNKNOWN

// A variant with a narrow payload has no packed form.
builtin.module {
  sarek.variant @V {A(ui8), B(f32)} loc("k.py":1:1)
  sarek.kernel @k(%v : !sarek.vec<!sarek.variant<@V>> "v") {
  }
}
// UNKNOWN: error: sarek-pack-narrow: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)
// CHECK: k.py:1:1: error: WGSL: variant 'V': constructor 'A' has an 8/16-bit or bf16 payload, which WGSL cannot store (no narrow storage); widen the payload to i32 or f32

// -----
// A 64-bit field in a packed record is refused.
builtin.module {
  sarek.record @Q {r : ui8, x : f64}
  sarek.kernel @k(%v : !sarek.vec<!sarek.record<@Q>> "v") {
    %i = sarek.constant 0 : i32
    %q = sarek.array_read %v[%i] : !sarek.vec<!sarek.record<@Q>> loc("k.py":3:9)
  }
}
// GLSL: k.py:3:9: error: GLSL: a 64-bit field in a record holding 8/16-bit fields is not supported on GLSL (packed 32-bit words); keep such records to fields of at most 32 bits
