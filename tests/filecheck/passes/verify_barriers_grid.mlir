// RUN: sarek-opt %s -p sarek-verify-barriers --verify-diagnostics --split-input-file | filecheck %s

// A grid barrier needs every thread of every block: control that is uniform across the grid is fine (a scalar
// parameter, grid and block sizes, a loop with such bounds, a helper called there).
builtin.module {
  sarek.helper @sync() -> !sarek.unit {
    sarek.grid_barrier
  }
  sarek.kernel @uniform(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    sarek.grid_barrier
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop gt %n, %c0 : i32
    sarek.if %p {
      sarek.grid_barrier
    }
    %g = sarek.intrinsic "grid_dim_x"() : () -> i32
    sarek.for "i" %i = %c0 to %g step 1 : i32 {
      sarek.call @sync() : () -> ()
    }
  }
}
// CHECK: sarek.kernel @uniform

// -----
// Uniform within a block is not enough: a block index decides.
builtin.module {
  sarek.kernel @by_block(%n : i32 "n") {
    %b = sarek.intrinsic "block_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %b, %c0 : i32
    sarek.if %p {
      sarek.grid_barrier loc("k.py":7:7)
    }
  }
}
// CHECK: k.py:7:7: error: sarek.grid_barrier under block-divergent control flow (the condition of the enclosing sarek.if depends on block_idx_x)

// -----
// So does warp_id (uniform within a warp only, divergent for any barrier), through a mutable and a loop bound.
builtin.module {
  sarek.kernel @by_warp(%n : i32 "n") {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %m = sarek.let_mut "m" %w : i32
    %v = sarek.load %m : !sarek.ref<i32>
    sarek.for "i" %i = %c0 to %v step 1 : i32 {
      sarek.grid_barrier loc("k.py":9:7)
    }
  }
}
// CHECK: k.py:9:7: error: sarek.grid_barrier under thread-divergent control flow (a bound of the enclosing sarek.for depends on mutable 'm' (warp_id))

// -----
// A thread index decides: reported as for any barrier.
builtin.module {
  sarek.kernel @by_thread(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %t, %c0 : i32
    sarek.if %p {
      sarek.grid_barrier loc("k.py":5:7)
    }
  }
}
// CHECK: k.py:5:7: error: sarek.grid_barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on thread_idx_x)

// -----
// A call of a helper holding one, under a block-dependent condition, is reported at the call.
builtin.module {
  sarek.helper @sync() -> !sarek.unit {
    sarek.grid_barrier
  }
  sarek.kernel @call(%n : i32 "n") {
    %b = sarek.intrinsic "block_idx_y"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop gt %b, %c0 : i32
    sarek.if %p {
      sarek.call @sync() : () -> () loc("k.py":11:7)
    }
  }
}
// CHECK: k.py:11:7: error: call of @sync, which contains sarek.grid_barrier, under block-divergent control flow (the condition of the enclosing sarek.if depends on block_idx_y)
