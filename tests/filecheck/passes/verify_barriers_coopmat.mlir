// RUN: sarek-opt %s -p 'sarek-verify-barriers' --verify-diagnostics --split-input-file | filecheck %s

// warp_id, and values computed from it, are uniform within a warp: coop ops may run under control deciding on
// them and take them as operands.
builtin.module {
  sarek.kernel @k(%c : !sarek.vec<f32> "c") {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %two = sarek.constant 2 : i32
    %n = sarek.constant 256 : i32
    %s = sarek.constant 16 : i32
    %x = sarek.constant 1.0 : f32
    %lt = sarek.binop lt %w, %two : i32
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.if %lt {
      %i = sarek.binop mul %w, %n : i32
      sarek.coopmat_fill "fc", %x : f32
      sarek.coopmat_store "fc" to %c[%i] stride %s : !sarek.vec<f32>
      sarek.warp_barrier
    }
  }
}
// CHECK: sarek.coopmat_store "fc" to %c[%i] stride %s : !sarek.vec<f32>

// -----

// A block barrier needs every thread of the block: warp-uniform control is divergent for it.
builtin.module {
  sarek.kernel @k() {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %two = sarek.constant 2 : i32
    %lt = sarek.binop lt %w, %two : i32
    sarek.if %lt {
      sarek.barrier loc("k.py":5:7)
    }
  }
}
// CHECK: k.py:5:7: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on warp_id)

// -----

// A coop op under thread-divergent control.
builtin.module {
  sarek.kernel @k() {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %two = sarek.constant 2 : i32
    %x = sarek.constant 0.0 : f32
    %lt = sarek.binop lt %t, %two : i32
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.if %lt {
      sarek.coopmat_fill "fc", %x : f32 loc("k.py":6:7)
    }
  }
}
// CHECK: k.py:6:7: error: sarek.coopmat_fill under thread-divergent control flow (the condition of the enclosing sarek.if depends on thread_idx_x)

// -----

// A coop op with a thread-varying operand (lanes of one warp would disagree on the index).
builtin.module {
  sarek.kernel @k(%c : !sarek.vec<f32> "c") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %s = sarek.constant 16 : i32
    %x = sarek.constant 0.0 : f32
    %i = sarek.binop add %w, %t : i32
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.coopmat_fill "fc", %x : f32
    sarek.coopmat_store "fc" to %c[%i] stride %s : !sarek.vec<f32> loc("k.py":7:5)
  }
}
// CHECK: k.py:7:5: error: sarek.coopmat_store with a thread-divergent operand (it depends on thread_idx_x): every lane of a warp must pass the same values

// -----

// A mutable assigned warp-uniform values under warp-uniform control stays warp-uniform.
builtin.module {
  sarek.kernel @k(%c : !sarek.vec<f32> "c") {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    %x = sarek.constant 0.0 : f32
    %m = sarek.let_mut "m" %z : i32
    %lt = sarek.binop lt %w, %s : i32
    sarek.if %lt {
      sarek.store %m, %w : !sarek.ref<i32>
    }
    %v = sarek.load %m : !sarek.ref<i32>
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.coopmat_fill "fc", %x : f32
    sarek.coopmat_store "fc" to %c[%v] stride %s : !sarek.vec<f32>
  }
}
// CHECK: sarek.coopmat_store "fc" to %c[%v] stride %s : !sarek.vec<f32>

// -----

// One assigned a lane id is thread-varying.
builtin.module {
  sarek.kernel @k(%c : !sarek.vec<f32> "c") {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %l = sarek.intrinsic "lane_id"() : () -> i32
    %s = sarek.constant 16 : i32
    %x = sarek.constant 0.0 : f32
    %m = sarek.let_mut "m" %w : i32
    sarek.store %m, %l : !sarek.ref<i32>
    %u = sarek.load %m : !sarek.ref<i32>
    sarek.coopmat_decl "fc" acc 16x16 : f32
    sarek.coopmat_fill "fc", %x : f32
    sarek.coopmat_store "fc" to %c[%u] stride %s : !sarek.vec<f32> loc("k.py":10:5)
  }
}
// CHECK: k.py:10:5: error: sarek.coopmat_store with a thread-divergent operand (it depends on mutable 'm' (lane_id)): every lane of a warp must pass the same values
