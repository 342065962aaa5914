// RUN: sarek-opt %s -p 'sarek-reject-features{target=vulkan}' --verify-diagnostics | filecheck %s

builtin.module {
  sarek.kernel @k(%n : i32 "n") {
  }
}
// CHECK: error: unknown target 'vulkan' (known: cuda, glsl, hip, metal, opencl, ptx, wgsl)
