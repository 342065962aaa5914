// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=wgsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=glsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=cuda}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=CUDA

// What a shader's interface cannot hold is refused at the kernel by sarek-pack-narrow once the interface is final
// (sarek.analysis.features.check_shader_interface, sarek.analysis.shader_params.interface_refusal); the shader
// lowering asserts it. The C family holds all of it (its modules print: no error).

// a by-value record WGSL's uniform buffer cannot hold (a bool field)
builtin.module {
  sarek.record @pt {x : f32, b : i1}
  sarek.kernel @k(%p : !sarek.record<@pt> "p") {
  } loc("k.py":3:1)
}
// GLSL: sarek.record @pt {x : f32, b : i1}
// CUDA: sarek.record @pt {x : f32, b : i1}
// WGSL: k.py:3:1: error: WGSL: parameter 'p': a record/variant passed by value on wgsl must hold only i32/f32 fields (uniform buffer layout); pass it in a Vector of one element instead

// -----

// a record with a bool field as a WGSL buffer element
builtin.module {
  sarek.record @flag {x : i32, on : i1}
  sarek.kernel @k(%v : !sarek.vec<!sarek.record<@flag>> "v") {
  } loc("k.py":7:1)
}
// GLSL: sarek.record @flag
// CUDA: sarek.record @flag
// WGSL: k.py:7:1: error: WGSL: vector 'v': a bool field in a record is not host-shareable in WGSL; store it as an i32 field (0 or 1)

// -----

// GLSL push constants over Vulkan's guaranteed 128 bytes: the length (4) and 32 floats by value (128)
builtin.module {
  sarek.record @big {f0 : f32, f1 : f32, f2 : f32, f3 : f32, f4 : f32, f5 : f32, f6 : f32, f7 : f32, f8 : f32, f9 : f32, f10 : f32, f11 : f32, f12 : f32, f13 : f32, f14 : f32, f15 : f32, f16 : f32, f17 : f32, f18 : f32, f19 : f32, f20 : f32, f21 : f32, f22 : f32, f23 : f32, f24 : f32, f25 : f32, f26 : f32, f27 : f32, f28 : f32, f29 : f32, f30 : f32, f31 : f32}
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %p : !sarek.record<@big> "p") {
  } loc("k.py":11:1)
}
// WGSL: sarek.record @big
// CUDA: sarek.record @big
// GLSL: k.py:11:1: error: GLSL: push constants need 132 bytes; Vulkan guarantees 128

// -----

// judged as the lowering sees it, after sarek-pack-narrow: 31 u8 fields arrive widened to 4 bytes each
// (124 bytes and two lengths: refused on GLSL; i32 fields on WGSL, held)
builtin.module {
  sarek.record @small {b0 : ui8, b1 : ui8, b2 : ui8, b3 : ui8, b4 : ui8, b5 : ui8, b6 : ui8, b7 : ui8, b8 : ui8, b9 : ui8, b10 : ui8, b11 : ui8, b12 : ui8, b13 : ui8, b14 : ui8, b15 : ui8, b16 : ui8, b17 : ui8, b18 : ui8, b19 : ui8, b20 : ui8, b21 : ui8, b22 : ui8, b23 : ui8, b24 : ui8, b25 : ui8, b26 : ui8, b27 : ui8, b28 : ui8, b29 : ui8, b30 : ui8}
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %w : !sarek.vec<f32> "w", %p : !sarek.record<@small> "p") {
  } loc("k.py":15:1)
}
// WGSL: sarek.record @small
// CUDA: sarek.record @small
// GLSL: k.py:15:1: error: GLSL: push constants need 132 bytes; Vulkan guarantees 128 (the vector lengths, 4 bytes each, and the scalar parameters); pass large records or many scalars in a Vector
