// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-CUDA
// RUN: sarek-opt %s -p 'sarek-reject-features{target=ptx}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-PTX
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-GLSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=wgsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-WGSL

// Limits known at compile time, refused by the capability gate at the op or kernel instead of failing
// late on a device: a constant negative index (every target), more shared memory than any device of
// the target offers (shaders: 64 KiB), more storage buffers than a Vulkan shader binds (32).

// a constant negative index, through a let, in a read, a store and an atomic
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a") {
    %m = sarek.constant -1 : i32
    %i = sarek.let "i" %m : i32
    %x = sarek.array_read %a[%i] : !sarek.vec<i32> loc("n.py":4:9)
  }
}
// ON-CUDA: n.py:4:9: error: CUDA: index -1 is negative: every access with it is out of bounds (arrays do not count from the end); index with the position itself, e.g. len - 1
// ON-PTX:  n.py:4:9: error: PTX: index -1 is negative
// ON-GLSL: n.py:4:9: error: GLSL: index -1 is negative
// ON-WGSL: n.py:4:9: error: WGSL: index -1 is negative

// -----
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a") {
    %m = sarek.constant -3 : i32
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%a, %m, %one) : (!sarek.vec<i32>, i32, i32) -> i32 loc("n.py":6:5)
  }
}
// ON-CUDA: n.py:6:5: error: CUDA: index -3 is negative
// ON-WGSL: n.py:6:5: error: WGSL: index -3 is negative

// -----
// a non-negative constant and a run-time index are accepted
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a", %n : i32 "n") {
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %a[%z] : !sarek.vec<i32>
    %y = sarek.array_read %a[%n] : !sarek.vec<i32>
  }
}
// ON-WGSL: sarek.kernel @k

// -----
// 4 MiB of shared memory: CUDA/PTX refuse it past 48 KiB, the shading languages past 64 KiB
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a") {
    %n = sarek.constant 1048576 : i32
    %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared> loc("s.py":3:9)
  }
}
// ON-CUDA: s.py:3:9: error: CUDA: kernel 'k' declares 4194304 bytes of shared arrays up to this one; CUDA allows 232448 bytes of shared memory per block
// ON-PTX:  s.py:3:9: error: PTX: kernel 'k' declares 4194304 bytes
// ON-GLSL: s.py:3:9: error: GLSL: kernel 'k' declares 4194304 bytes of shared arrays up to this one; GLSL allows 65536 bytes of shared memory per block
// ON-WGSL: s.py:3:9: error: WGSL: kernel 'k' declares 4194304 bytes of shared arrays up to this one; WGSL allows 65536 bytes of shared memory per block

// -----
// 33 vectors: one storage buffer each, one more than a Vulkan shader binds; C targets pass pointers
builtin.module {
  sarek.kernel @many(%v0 : !sarek.vec<f32> "v0", %v1 : !sarek.vec<f32> "v1", %v2 : !sarek.vec<f32> "v2", %v3 : !sarek.vec<f32> "v3", %v4 : !sarek.vec<f32> "v4", %v5 : !sarek.vec<f32> "v5", %v6 : !sarek.vec<f32> "v6", %v7 : !sarek.vec<f32> "v7", %v8 : !sarek.vec<f32> "v8", %v9 : !sarek.vec<f32> "v9", %v10 : !sarek.vec<f32> "v10", %v11 : !sarek.vec<f32> "v11", %v12 : !sarek.vec<f32> "v12", %v13 : !sarek.vec<f32> "v13", %v14 : !sarek.vec<f32> "v14", %v15 : !sarek.vec<f32> "v15", %v16 : !sarek.vec<f32> "v16", %v17 : !sarek.vec<f32> "v17", %v18 : !sarek.vec<f32> "v18", %v19 : !sarek.vec<f32> "v19", %v20 : !sarek.vec<f32> "v20", %v21 : !sarek.vec<f32> "v21", %v22 : !sarek.vec<f32> "v22", %v23 : !sarek.vec<f32> "v23", %v24 : !sarek.vec<f32> "v24", %v25 : !sarek.vec<f32> "v25", %v26 : !sarek.vec<f32> "v26", %v27 : !sarek.vec<f32> "v27", %v28 : !sarek.vec<f32> "v28", %v29 : !sarek.vec<f32> "v29", %v30 : !sarek.vec<f32> "v30", %v31 : !sarek.vec<f32> "v31", %v32 : !sarek.vec<f32> "v32") {
  } loc("m.py":2:1)
}
// ON-CUDA: sarek.kernel @many
// ON-GLSL: m.py:2:1: error: GLSL: kernel 'many' has 33 vector parameters; a Vulkan shader binds at most 32 storage buffers (one per vector) on the devices sarek supports: pass fewer vectors, e.g. pack arrays of one type into one vector (the first past the limit is 'v32')
// ON-WGSL: m.py:2:1: error: WGSL: kernel 'many' has 33 vector parameters; a Vulkan shader binds at most 32 storage buffers
