// RUN: sarek-opt %s -p 'sarek-reject-features{target=opencl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=OPENCL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %s -p 'sarek-reject-features{target=metal}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=METAL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=wgsl}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=ptx}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=PTX
// RUN: sarek-opt %s -p 'sarek-reject-features{target=hip}' --verify-diagnostics --split-input-file | filecheck %s --check-prefix=HIP

// f16 passes the gate on every target (sarek-widen-f16 stores it as bits where the target's own half is not
// correctly rounded).
builtin.module {
  sarek.kernel @unread_f16(%h : !sarek.vec<f16> "h", %n : i32 "n") {
  } loc("k.py":1:1)
}
// OPENCL: sarek.kernel @unread_f16(%h: !sarek.vec<f16> "h", %n: i32 "n") {
// CUDA:   sarek.kernel @unread_f16(%h: !sarek.vec<f16> "h", %n: i32 "n") {
// METAL: sarek.kernel @unread_f16
// GLSL: sarek.kernel @unread_f16
// WGSL: sarek.kernel @unread_f16
// PTX:   sarek.kernel @unread_f16
// HIP:   sarek.kernel @unread_f16

// -----
// An f16 helper return type passes too.
builtin.module {
  sarek.helper @narrow(%x : f32 "x") -> f16 {
    %h = sarek.cast %x : f32 to f16 loc("k.py":3:7)
    sarek.return %h : f16
  } loc("k.py":2:1)
  sarek.kernel @k(%n : i32 "n") {
  }
}
// OPENCL: sarek.helper @narrow
// CUDA: sarek.helper @narrow
// METAL: sarek.helper @narrow

// -----
// Record fields and variant payloads are part of the kernel.
builtin.module {
  sarek.record @half_pair {a : f32, b : f16} loc("k.py":4:1)
  sarek.kernel @k(%n : i32 "n") {
  }
}
// OPENCL: sarek.record @half_pair
// GLSL: sarek.record @half_pair
// CUDA: sarek.record @half_pair

// -----
builtin.module {
  sarek.variant @maybe_wide {Wide(i64), Nothing} loc("k.py":5:1)
  sarek.kernel @k(%n : i32 "n") {
  }
}
// WGSL: k.py:5:1: error: WGSL: int64 not yet supported (WGSL has no 64-bit integers); use i32 here, or a target with 64-bit integers (every other one)
// OPENCL: sarek.variant @maybe_wide
// GLSL: sarek.variant @maybe_wide

// -----
// f64 in a local: Metal never narrows it to float.
builtin.module {
  sarek.kernel @k(%x : f32 "x") {
    %d = sarek.cast %x : f32 to f64 loc("k.py":6:3)
  }
}
// METAL: k.py:6:3: error: Metal: float64 not yet supported (Metal has no double; sarek never narrows it to float silently); use f32 here, or a target with float64 (CUDA, HIP, OpenCL, GLSL, PTX)
// WGSL: k.py:6:3: error: WGSL: float64 not yet supported (WGSL has no f64); use f32 here, or a target with float64 (CUDA, HIP, OpenCL, GLSL, PTX)
// OPENCL: sarek.cast %x : f32 to f64
// GLSL: sarek.cast %x : f32 to f64
// CUDA: sarek.cast %x : f32 to f64

// -----
// 8/16-bit integers, unsigned integers and bf16: the C family has them.
builtin.module {
  sarek.kernel @k(%b : !sarek.vec<ui8> "b", %h : !sarek.vec<bf16> "h", %u : ui32 "u") {
  } loc("k.py":7:1)
}
// CUDA: sarek.kernel @k
// OPENCL: sarek.kernel @k
// METAL: sarek.kernel @k
// HIP: sarek.kernel @k

// -----
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %c : !sarek.vec<f32> "c") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    sarek.coopmat_decl "fa" a 16x16 : f32 loc("k.py":8:3)
  }
}
// CUDA: k.py:8:3: error: CUDA: cooperative matrices: a 16x16 'a' fragment of f32 is not supported on this target (supported: f16 x f32/f16 at 16x16x16 (and multiples up to 64); bf16 x f32 at 16x16x16 (and multiples up to 64); u8/i8 x i32 at 16x16x32 (and multiples up to 64))
// GLSL: k.py:8:3: error: GLSL: cooperative matrices: a 16x16 'a' fragment of f32 is not supported on this target (supported: f16 x f32/f16 at 16x16x16 (and multiples up to 64); u8/i8 x i32 at 16x16x32 (and multiples up to 64))
// OPENCL: k.py:8:3: error: OpenCL: cooperative matrices not yet supported (OpenCL C has no portable matrix API

// -----
// Atomics on floats: every target has them (native, or compare-and-swap loops on the bits).
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %x : f32 "x") {
    %i = sarek.constant 0 : i32
    %old = sarek.intrinsic "atomic_add"(%a, %i, %x) : (!sarek.vec<f32>, i32, f32) -> f32 loc("k.py":9:5)
  }
}
// OPENCL: sarek.intrinsic "atomic_add"
// METAL: sarek.intrinsic "atomic_add"
// GLSL: sarek.intrinsic "atomic_add"
// WGSL: sarek.intrinsic "atomic_add"
// CUDA: sarek.intrinsic "atomic_add"
// HIP: sarek.intrinsic "atomic_add"
// PTX: sarek.intrinsic "atomic_add"

// -----
// Integer atomics and warp shuffles are supported everywhere (the latter through sarek-lower-warp).
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a", %x : i32 "x") {
    %i = sarek.constant 0 : i32
    %old = sarek.intrinsic "atomic_add"(%a, %i, %x) : (!sarek.vec<i32>, i32, i32) -> i32
    %s = sarek.intrinsic "warp_shuffle_down"(%x, %i) : (i32, i32) -> i32
    %l = sarek.intrinsic "lane_id"() : () -> i32
  }
}
// OPENCL: sarek.intrinsic "warp_shuffle_down"
// METAL: sarek.intrinsic "warp_shuffle_down"
// GLSL: sarek.intrinsic "warp_shuffle_down"
// WGSL: sarek.intrinsic "warp_shuffle_down"
// PTX: sarek.intrinsic "warp_shuffle_down"

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.warp_barrier loc("k.py":10:3)
    sarek.mem_fence loc("k.py":11:3)
  }
}
// WGSL: k.py:10:3: error: WGSL: warp barriers not yet supported (WGSL has no subgroup barrier); use barrier() (a block barrier)
// GLSL: sarek.warp_barrier
// CUDA: sarek.mem_fence

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.mem_fence loc("k.py":11:3)
  }
}
// WGSL: k.py:11:3: error: WGSL: device memory fences not yet supported (WGSL has no device-scope memory fence); use barrier() to order memory within a block, or split the work into two launches
// METAL: sarek.mem_fence

// -----
// %native: one shared refusal for a target the op carries no text for; HIP reads CUDA text.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.native {cuda = "__syncthreads();", ptx = "bar.sync 0;"} loc("k.py":12:3)
  }
}
// OPENCL: k.py:12:3: error: OpenCL: %native not supported: this sarek.native carries no opencl source text, and a backend emits only text written for its own target
// METAL: k.py:12:3: error: Metal: %native not supported: this sarek.native carries no metal source text
// GLSL: k.py:12:3: error: GLSL: %native not supported: this sarek.native carries no glsl source text
// WGSL: k.py:12:3: error: WGSL: %native not supported: this sarek.native carries no wgsl source text
// CUDA: sarek.native {cuda = "__syncthreads();", ptx = "bar.sync 0;"}
// HIP: sarek.native
// PTX: sarek.native

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.native {opencl = "barrier(CLK_LOCAL_MEM_FENCE);"} loc("k.py":13:3)
  }
}
// PTX: k.py:13:3: error: PTX: %native not supported: this sarek.native carries no ptx source text
// HIP: k.py:13:3: error: HIP: %native not supported: this sarek.native carries no hip source text
// OPENCL: sarek.native {opencl

// -----
// A grid barrier needs a cooperative launch: CUDA and PTX make one; the others say why not and what instead.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.grid_barrier loc("k.py":12:3)
  }
}
// OPENCL: k.py:12:3: error: OpenCL: grid-wide barriers not yet supported (OpenCL has no cooperative launch: blocks of one launch may run one after another); split the kernel into two launches at this point (a launch boundary is a grid-wide barrier), or run it on CUDA or PTX
// HIP: k.py:12:3: error: HIP: grid-wide barriers not yet supported (sarek has no HIP device to make the cooperative launch (hipLaunchCooperativeKernel) it needs); split the kernel
// METAL: k.py:12:3: error: Metal: grid-wide barriers not yet supported (Metal has no cooperative launch: threadgroups of one dispatch may run one after another); split the kernel
// GLSL: k.py:12:3: error: GLSL: grid-wide barriers not yet supported (Vulkan has no cooperative dispatch: workgroups of one dispatch may run one after another); split the kernel
// WGSL: k.py:12:3: error: WGSL: grid-wide barriers not yet supported (WebGPU has no cooperative dispatch: workgroups of one dispatch may run one after another); split the kernel
// CUDA: sarek.grid_barrier
// PTX: sarek.grid_barrier
