// RUN: not sarek-opt %s -p 'sarek-lower-wgsl{block=99999999999,1,1}' 2>&1 | filecheck %s --check-prefix=HUGE
// RUN: not sarek-opt %s -p 'sarek-lower-glsl{block=64,32,1}' 2>&1 | filecheck %s --check-prefix=PRODUCT
// RUN: sarek-opt %s -p 'sarek-lower-wgsl{block=32,32,1}' | filecheck %s --check-prefix=OK

// The workgroup size is compiled into a shader: past 1024 threads no Vulkan or WebGPU device runs it (and
// 99999999999 does not even fit WGSL's u32), so the shader lowering refuses it instead of emitting it.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a") {
  }
}
// HUGE:    error: block shape 99999999999x1x1 is 99999999999 threads; a Vulkan/WebGPU workgroup holds at most 1024 (the largest any device allows; most allow 256): use a smaller block and more blocks
// HUGE-NOT: Traceback
// PRODUCT: error: block shape 64x32x1 is 2048 threads
// OK:      @workgroup_size(32, 32, 1)
