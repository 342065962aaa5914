// RUN: sarek-opt %s -p 'sarek-reject-features{target=cuda}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-CUDA
// RUN: sarek-opt %s -p 'sarek-reject-features{target=opencl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-OPENCL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=metal}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-METAL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=glsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-GLSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=wgsl}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-WGSL
// RUN: sarek-opt %s -p 'sarek-reject-features{target=ptx}' --split-input-file --verify-diagnostics | filecheck %s --check-prefix=ON-PTX

// The refusals that name the op's parts (recursion, array sizes, %native, atomics; atomics
// on per-thread arrays are the dialect verifier's), one per split; each line
// is what the target says about that split, in order.

// recursion through two helpers: refused everywhere, at the call that closes the cycle
builtin.module {
  sarek.helper @f(%n : i32 "n") -> i32 {
    %r = sarek.call @g(%n) : (i32) -> i32 loc("r.py":8:9)
    sarek.return %r : i32
  }
  sarek.helper @g(%n : i32 "n") -> i32 {
    %r = sarek.call @f(%n) : (i32) -> i32 loc("r.py":9:9)
    sarek.return %r : i32
  }
  sarek.kernel @k(%n : i32 "n") {
    %r = sarek.call @f(%n) : (i32) -> i32
  }
}
// ON-CUDA:   r.py:9:9: error: CUDA: recursive helper @f is not supported (f -> g -> f): sarek emits CUDA helpers callees first, without prototypes; write the recursion as a loop
// ON-OPENCL: r.py:9:9: error: OpenCL: recursive helper @f is not supported (f -> g -> f): OpenCL C forbids recursion; write the recursion as a loop
// ON-METAL:  r.py:9:9: error: Metal: recursive helper @f is not supported (f -> g -> f): Metal forbids recursion; write the recursion as a loop
// ON-GLSL:   r.py:9:9: error: GLSL: recursive helper @f is not supported (f -> g -> f): GLSL forbids recursion; write the recursion as a loop
// ON-WGSL:   r.py:9:9: error: WGSL: recursive helper @f is not supported (f -> g -> f): WGSL forbids recursion; write the recursion as a loop
// ON-PTX:    r.py:9:9: error: PTX: recursive helper @f is not supported (f -> g -> f): the PTX backend inlines helpers; write the recursion as a loop

// -----
// an array of run-time size: the C family and PTX refuse it (the shader lowerings fold sizes themselves)
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %a = sarek.alloc_array "a"[%n] : !sarek.array<f32, local> loc("r.py":5:5)
  }
}
// ON-CUDA:   r.py:5:5: error: CUDA: the size of array 'a' must be a constant (C arrays are declared with a constant size; pass a Vector for data of run-time size)
// ON-OPENCL: r.py:5:5: error: OpenCL: the size of array 'a' must be a constant
// ON-METAL:  r.py:5:5: error: Metal: the size of array 'a' must be a constant
// ON-PTX:    r.py:5:5: error: PTX: the size of array 'a' must be a constant (PTX .shared/.local arrays need a constant size; pass a Vector for data of run-time size)

// -----
// a constant through a let is a constant
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %c = sarek.constant 4 : i32
    %m = sarek.let "m" %c : i32
    %a = sarek.alloc_array "a"[%m] : !sarek.array<f32, local>
  }
}

// -----
// a shared array in a helper: the C family declares shared memory at kernel scope
builtin.module {
  sarek.helper @h(%n : i32 "n") -> i32 {
    %c4 = sarek.constant 4 : i32
    %s = sarek.alloc_array "s"[%c4] : !sarek.array<i32, shared> loc("r.py":2:5)
    sarek.return %n : i32
  }
  sarek.kernel @k(%n : i32 "n") {
    %r = sarek.call @h(%n) : (i32) -> i32
  }
}
// ON-CUDA:   r.py:2:5: error: CUDA: shared array 's' must be declared in a kernel, not in a helper (C-family shared memory is declared at kernel scope; declare it in the kernel and pass it to the helper)
// ON-OPENCL: r.py:2:5: error: OpenCL: shared array 's' must be declared in a kernel, not in a helper
// ON-METAL:  r.py:2:5: error: Metal: shared array 's' must be declared in a kernel, not in a helper

// -----
// %native with text for every target: the shader generators take none
builtin.module {
  sarek.kernel @k() {
    sarek.native {cuda = "x();", opencl = "x();", metal = "x();", glsl = "x();", wgsl = "x();", ptx = "x;"} loc("r.py":12:3)
  }
}
// ON-GLSL: r.py:12:3: error: GLSL: %native is refused: its source text is for a named framework and the shader generators are given none; write the code in Python instead
// ON-WGSL: r.py:12:3: error: WGSL: %native is refused: its source text

// -----
// i64 atomics: Metal and GLSL atomics are 32-bit (WGSL refuses i64 itself)
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<i64> "v") {
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i64
    %o = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<i64>, i32, i64) -> i64 loc("r.py":40:5)
  }
}
// ON-METAL: r.py:40:5: error: Metal: 'atomic_add' on i64 is not supported (Metal atomics are 32-bit)
// ON-GLSL:  r.py:40:5: error: GLSL: 'atomic_add' on i64 is not supported (GLSL atomics are 32-bit (GL_EXT_shader_atomic_int64 is not used))
// ON-WGSL:  error: WGSL: int64 not yet supported

// -----
// bitwise atomics on floats: refused everywhere (float add/sub/min/max/exch/cas are native or CAS loops)
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 1.0 : f32
    %o = sarek.intrinsic "atomic_or"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32 loc("r.py":50:5)
  }
}
// ON-CUDA:   r.py:50:5: error: CUDA: 'atomic_or' on f32 is not supported (bitwise atomics need an integer element type; atomic_and/or/xor on the bits of a float is atomic_cas in a loop over sarek.bitcast)
// ON-OPENCL: r.py:50:5: error: OpenCL: 'atomic_or' on f32 is not supported (bitwise atomics need an integer element type
// ON-METAL:  r.py:50:5: error: Metal: 'atomic_or' on f32 is not supported (bitwise atomics need an integer element type
// ON-GLSL:   r.py:50:5: error: GLSL: 'atomic_or' on f32 is not supported (bitwise atomics need an integer element type
// ON-WGSL:   r.py:50:5: error: WGSL: 'atomic_or' on f32 is not supported (bitwise atomics need an integer element type
// ON-PTX:    r.py:50:5: error: PTX: 'atomic_or' on f32 is not supported (bitwise atomics need an integer element type

// -----
builtin.module {
  sarek.kernel @k(%d : !sarek.vec<f64> "d") {
    %z = sarek.constant 0 : i32
    %y = sarek.constant 1.0 : f64
    %p = sarek.intrinsic "atomic_exch"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64 loc("r.py":51:5)
    %q = sarek.intrinsic "atomic_xor"(%d, %z, %y) : (!sarek.vec<f64>, i32, f64) -> f64 loc("r.py":52:5)
  }
}
// f64 exchange is fine where f64 atomics are (CUDA, OpenCL, PTX); a bitwise one is refused
// ON-CUDA:   r.py:52:5: error: CUDA: 'atomic_xor' on f64 is not supported (bitwise atomics need an integer element type
// ON-OPENCL: r.py:52:5: error: OpenCL: 'atomic_xor' on f64 is not supported (bitwise atomics need an integer element type
// ON-PTX:    r.py:52:5: error: PTX: 'atomic_xor' on f64 is not supported (bitwise atomics need an integer element type
