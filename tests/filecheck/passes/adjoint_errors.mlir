// RUN: sarek-opt %s -p sarek-adjoint --verify-diagnostics --split-input-file | filecheck %s

// An in-place update: the element read is overwritten, and the adjoint needs the value read.
builtin.module {
  sarek.kernel @inplace(%x: !sarek.vec<f32> "x") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":7:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":7:5)
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32> loc("k.py":8:12)
    %2 = sarek.constant 2.0 : f32 loc("k.py":8:19)
    %3 = sarek.binop mul %1, %2 : f32 loc("k.py":8:12)
    %4 = sarek.elem_ref %x[%i] : !sarek.vec<f32> loc("k.py":8:5)
    sarek.store %4, %3 : !sarek.ref<f32> loc("k.py":8:5)
  } loc("k.py":6:1)
}
// CHECK: k.py:8:5: error: sarek-adjoint: an element of 'x' may be overwritten after being read, and its adjoint needs the value that was read: write the result to another array

// -----

// Only atomic_add has a derivative.
builtin.module {
  sarek.kernel @amax(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":12:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":12:5)
    %1 = sarek.constant 0 : i32 loc("k.py":13:21)
    %2 = sarek.array_read %x[%i] : !sarek.vec<f32> loc("k.py":13:24)
    %3 = sarek.intrinsic "atomic_max"(%out, %1, %2) : (!sarek.vec<f32>, i32, f32) -> f32 loc("k.py":13:5)
  } loc("k.py":11:1)
}
// CHECK: k.py:13:5: error: sarek-adjoint: atomic_max on 'out' has no derivative (only atomic_add is differentiated)

// -----

// A while loop's trip count may depend on the data.
builtin.module {
  sarek.kernel @wh(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":17:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":17:5)
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32> loc("k.py":18:9)
    %v = sarek.let_mut "v" %1 : f32 loc("k.py":18:5)
    sarek.while {
      %2 = sarek.load %v : !sarek.ref<f32> loc("k.py":19:11)
      %3 = sarek.constant 1.0 : f32 loc("k.py":19:15)
      %4 = sarek.binop gt %2, %3 : f32 loc("k.py":19:11)
      sarek.yield %4 : i1 loc("k.py":19:11)
    } do {
      %5 = sarek.load %v : !sarek.ref<f32> loc("k.py":20:13)
      %6 = sarek.constant 0.5 : f32 loc("k.py":20:17)
      %7 = sarek.binop mul %5, %6 : f32 loc("k.py":20:13)
      sarek.store %v, %7 : !sarek.ref<f32> loc("k.py":20:9)
    } loc("k.py":19:5)
    %8 = sarek.load %v : !sarek.ref<f32> loc("k.py":21:14)
    %9 = sarek.elem_ref %out[%i] : !sarek.vec<f32> loc("k.py":21:5)
    sarek.store %9, %8 : !sarek.ref<f32> loc("k.py":21:5)
  } loc("k.py":16:1)
}
// CHECK: k.py:19:5: error: sarek-adjoint: cannot differentiate a while loop (its trip count may depend on the data): write it as `for i in range(n)` with bounds that do not depend on float values

// -----

// Loop bounds computed from a float value.
builtin.module {
  sarek.kernel @fbound(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":25:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":25:5)
    %1 = sarek.constant 0.0 : f32 loc("k.py":26:9)
    %s = sarek.let_mut "s" %1 : f32 loc("k.py":26:5)
    %2 = sarek.constant 0 : i32 loc("k.py":27:26)
    %3 = sarek.array_read %x[%2] : !sarek.vec<f32> loc("k.py":27:24)
    %4 = sarek.cast %3 : f32 to i32 loc("k.py":27:20)
    %5 = sarek.constant 0 : i32 loc("k.py":27:20)
    sarek.for "k" %k = %5 to %4 step 1 : i32 {
      %6 = sarek.load %s : !sarek.ref<f32> loc("k.py":28:9)
      %7 = sarek.array_read %x[%k] : !sarek.vec<f32> loc("k.py":28:14)
      %8 = sarek.binop add %6, %7 : f32 loc("k.py":28:9)
      sarek.store %s, %8 : !sarek.ref<f32> loc("k.py":28:9)
    } loc("k.py":27:5)
    %9 = sarek.load %s : !sarek.ref<f32> loc("k.py":29:14)
    %10 = sarek.elem_ref %out[%i] : !sarek.vec<f32> loc("k.py":29:5)
    sarek.store %10, %9 : !sarek.ref<f32> loc("k.py":29:5)
  } loc("k.py":24:1)
}
// CHECK: k.py:27:5: error: sarek-adjoint: the bounds of this loop depend on float values, which have no derivative: compute the bounds from integers only

// -----

// break out of a differentiated loop.
builtin.module {
  sarek.kernel @brk(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":33:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":33:5)
    %1 = sarek.constant 0.0 : f32 loc("k.py":34:9)
    %s = sarek.let_mut "s" %1 : f32 loc("k.py":34:5)
    %2 = sarek.constant 8 : i32 loc("k.py":35:20)
    %3 = sarek.constant 0 : i32 loc("k.py":35:20)
    sarek.for "k" %k = %3 to %2 step 1 : i32 {
      %4 = sarek.binop gt %k, %i : i32 loc("k.py":36:12)
      sarek.if %4 {
        sarek.break loc("k.py":37:13)
      } loc("k.py":36:9)
      %5 = sarek.load %s : !sarek.ref<f32> loc("k.py":38:9)
      %6 = sarek.array_read %x[%k] : !sarek.vec<f32> loc("k.py":38:14)
      %7 = sarek.binop add %5, %6 : f32 loc("k.py":38:9)
      sarek.store %s, %7 : !sarek.ref<f32> loc("k.py":38:9)
    } loc("k.py":35:5)
    %8 = sarek.load %s : !sarek.ref<f32> loc("k.py":39:14)
    %9 = sarek.elem_ref %out[%i] : !sarek.vec<f32> loc("k.py":39:5)
    sarek.store %9, %8 : !sarek.ref<f32> loc("k.py":39:5)
  } loc("k.py":32:1)
}
// CHECK: k.py:37:13: error: sarek-adjoint: cannot differentiate a loop left by break or continue: guard the rest of the body with an `if` instead

// -----

// A warp shuffle of a float value.
builtin.module {
  sarek.kernel @shuf(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":43:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":43:5)
    %1 = sarek.array_read %x[%i] : !sarek.vec<f32> loc("k.py":44:27)
    %2 = sarek.constant 0 : i32 loc("k.py":44:33)
    %3 = sarek.intrinsic "warp_shuffle"(%1, %2) : (f32, i32) -> f32 loc("k.py":44:14)
    %4 = sarek.elem_ref %out[%i] : !sarek.vec<f32> loc("k.py":44:5)
    sarek.store %4, %3 : !sarek.ref<f32> loc("k.py":44:5)
  } loc("k.py":42:1)
}
// CHECK: k.py:44:14: error: sarek-adjoint: cannot differentiate warp_shuffle of a float value yet: exchange values through shared memory with a barrier

// -----

// The old value an atomic_add returns depends on the order threads run in.
builtin.module {
  sarek.kernel @usedold(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32 loc("k.py":48:9)
    %i = sarek.let "i" %0 : i32 loc("k.py":48:5)
    %1 = sarek.constant 0 : i32 loc("k.py":49:25)
    %2 = sarek.array_read %x[%i] : !sarek.vec<f32> loc("k.py":49:28)
    %3 = sarek.intrinsic "atomic_add"(%out, %1, %2) : (!sarek.vec<f32>, i32, f32) -> f32 loc("k.py":49:9)
    %o = sarek.let "o" %3 : f32 loc("k.py":49:5)
    %4 = sarek.constant 1 : i32 loc("k.py":50:13)
    %5 = sarek.binop add %i, %4 : i32 loc("k.py":50:9)
    %6 = sarek.elem_ref %out[%5] : !sarek.vec<f32> loc("k.py":50:5)
    sarek.store %6, %o : !sarek.ref<f32> loc("k.py":50:5)
  } loc("k.py":47:1)
}
// CHECK: k.py:49:9: error: sarek-adjoint: the value returned by atomic_add on 'out' is used, and it depends on the order threads run in: do not use it

// -----

// atomic_add into a shared array would be repeated by the recomputation.
builtin.module {
  sarek.kernel @shatomic(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %0 = sarek.constant 4 : i32 loc("k.py":65:21)
    %s = sarek.alloc_array "s"[%0] : !sarek.array<f32, shared> loc("k.py":65:9)
    %1 = sarek.intrinsic "thread_idx_x"() : () -> i32 loc("k.py":66:9)
    %t = sarek.let "t" %1 : i32 loc("k.py":66:5)
    %2 = sarek.constant 0 : i32 loc("k.py":67:19)
    %3 = sarek.array_read %x[%t] : !sarek.vec<f32> loc("k.py":67:22)
    %4 = sarek.intrinsic "atomic_add"(%s, %2, %3) : (!sarek.array<f32, shared>, i32, f32) -> f32 loc("k.py":67:5)
    %5 = sarek.constant 0 : i32 loc("k.py":68:16)
    %6 = sarek.array_read %s[%5] : !sarek.array<f32, shared> loc("k.py":68:14)
    %7 = sarek.elem_ref %out[%t] : !sarek.vec<f32> loc("k.py":68:5)
    sarek.store %7, %6 : !sarek.ref<f32> loc("k.py":68:5)
  } loc("k.py":64:1)
}
// CHECK: k.py:67:5: error: sarek-adjoint: atomic_add on the shared or local array 's' is not differentiated (its recomputation would add twice): write each element once and read it after a barrier

// -----
// A vector read after the kernel wrote it: the adjoint does not repeat the write, so the read would see the old
// value.
builtin.module {
  sarek.kernel @read_back(%x: !sarek.vec<f32> "x", %out: !sarek.vec<f32> "out") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %a = sarek.array_read %x[%i] : !sarek.vec<f32>
    %r = sarek.elem_ref %out[%i] : !sarek.vec<f32>
    sarek.store %r, %a : !sarek.ref<f32>
    %b = sarek.array_read %out[%i] : !sarek.vec<f32> loc("k.py":5:14)
  }
}
// CHECK: k.py:5:14: error: sarek-adjoint: 'out' is read after the kernel wrote it, and the adjoint does not repeat writes to the kernel's arrays: keep the value in a local

// -----
// Native code (and cooperative matrices) may read and write anything: not differentiated.
builtin.module {
  sarek.kernel @native(%x: !sarek.vec<f32> "x") {
    sarek.native {cuda = "x[0] = 1.0f;"} loc("k.py":3:5)
  }
}
// CHECK: k.py:3:5: error: sarek-adjoint: sarek.native is not differentiated (cooperative matrices and native code): write the computation with sarek operations

// -----
// A grid barrier: the reverse sweep would need its own, in the other order across the launch.
builtin.module {
  sarek.kernel @grid(%x: !sarek.vec<f32> "x") {
    sarek.grid_barrier loc("k.py":4:5)
  }
}
// CHECK: k.py:4:5: error: sarek-adjoint: cannot differentiate across a grid_barrier() (the reverse sweep would need one in the other order): differentiate the two launches it separates
