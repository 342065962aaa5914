// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl limits=device}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GATE
// RUN: sarek-opt %s -p 'sarek-reject-features{target=wgsl limits=device}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=GATE
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=glsl limits=device}' --split-input-file | filecheck %s --check-prefix=PACK
// RUN: sarek-opt %s -p 'sarek-pipeline{target=glsl limits=device}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=PIPE
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl limits=gpu}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BAD
// RUN: sarek-opt %s -p 'sarek-pack-narrow{target=glsl limits=gpu}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=BADPACK

// limits=device: a kernel compiled for one device leaves the resource limits to it (the Vulkan devices check
// their driver's storage buffers, shared memory and push constants at launch, sarek.runtime.shader_device);
// the portable constants (32 storage buffers, 64 KiB of shared memory, 128 bytes of push constants:
// reject_features_limits.mlir, pack_narrow_interface.mlir) hold for source without a device. The other
// refusals stay.

// 33 vectors (33 storage buffers, 132 bytes of lengths in GLSL's push constants) and 4 MiB of shared memory
builtin.module {
  sarek.kernel @many(%v0 : !sarek.vec<f32> "v0", %v1 : !sarek.vec<f32> "v1", %v2 : !sarek.vec<f32> "v2", %v3 : !sarek.vec<f32> "v3", %v4 : !sarek.vec<f32> "v4", %v5 : !sarek.vec<f32> "v5", %v6 : !sarek.vec<f32> "v6", %v7 : !sarek.vec<f32> "v7", %v8 : !sarek.vec<f32> "v8", %v9 : !sarek.vec<f32> "v9", %v10 : !sarek.vec<f32> "v10", %v11 : !sarek.vec<f32> "v11", %v12 : !sarek.vec<f32> "v12", %v13 : !sarek.vec<f32> "v13", %v14 : !sarek.vec<f32> "v14", %v15 : !sarek.vec<f32> "v15", %v16 : !sarek.vec<f32> "v16", %v17 : !sarek.vec<f32> "v17", %v18 : !sarek.vec<f32> "v18", %v19 : !sarek.vec<f32> "v19", %v20 : !sarek.vec<f32> "v20", %v21 : !sarek.vec<f32> "v21", %v22 : !sarek.vec<f32> "v22", %v23 : !sarek.vec<f32> "v23", %v24 : !sarek.vec<f32> "v24", %v25 : !sarek.vec<f32> "v25", %v26 : !sarek.vec<f32> "v26", %v27 : !sarek.vec<f32> "v27", %v28 : !sarek.vec<f32> "v28", %v29 : !sarek.vec<f32> "v29", %v30 : !sarek.vec<f32> "v30", %v31 : !sarek.vec<f32> "v31", %v32 : !sarek.vec<f32> "v32") {
    %n = sarek.constant 1048576 : i32
    %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>
  } loc("m.py":2:1)
}
// GATE: sarek.kernel @many
// PACK: sarek.kernel @many
// PIPE: sarek_glsl.global "layout(std430, set = 0, binding = 32) buffer Buffer_v32 { float v32[]; };"
// PIPE: sarek_glsl.global "shared float s[1048576];"
// BAD:  sarek-reject-features: limits must be portable or device, not 'gpu'
// BADPACK: sarek-pack-narrow: limits must be portable or device, not 'gpu'

// -----

// what the device's limits do not decide is refused as without them
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a") {
    %m = sarek.constant -1 : i32
    %x = sarek.array_read %a[%m] : !sarek.vec<i32> loc("n.py":4:9)
  }
}
// GATE: n.py:4:9: error: {{GLSL|WGSL}}: index -1 is negative
// PIPE: n.py:4:9: error: GLSL: index -1 is negative
