// RUN: sarek-opt %s -p sarek-verify-barriers --verify-diagnostics --split-input-file | filecheck %s

// A warp vote is a warp collective: under warp-uniform control (warp_id) it is accepted, under
// thread-divergent control refused like a shuffle.
builtin.module {
  sarek.kernel @uniform(%a : !sarek.vec<i32> "a") {
    %w = sarek.intrinsic "warp_id"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %w, %c0 : i32
    sarek.if %p {
      %v = sarek.intrinsic "warp_any"(%p) : (i1) -> i1
    }
  }
}
// CHECK: sarek.kernel @uniform

// -----

builtin.module {
  sarek.kernel @divergent(%a : !sarek.vec<i32> "a") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %t, %c0 : i32
    sarek.if %p {
      %v = sarek.intrinsic "warp_ballot"(%p) : (i1) -> ui32 loc("v.py":5:9)
    } loc("v.py":4:5)
  }
}
// CHECK: v.py:5:9: error: warp operation 'warp_ballot' under thread-divergent control flow

// -----

// A block vote (kept as an intrinsic for CUDA, HIP and PTX) is a barrier of the whole block: under a
// thread-divergent branch it is refused, located at the vote.
builtin.module {
  sarek.kernel @block_vote(%a : !sarek.vec<i32> "a") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %t, %c0 : i32
    sarek.if %p {
      %v = sarek.intrinsic "barrier_count"(%p) : (i1) -> i32 loc("b.py":7:9)
    } loc("b.py":6:5)
  }
}
// CHECK: b.py:7:9: error: block vote 'barrier_count' under thread-divergent control flow

// -----

// Its condition may vary per thread (that is what it counts) where every thread reaches it.
builtin.module {
  sarek.kernel @block_vote_ok(%a : !sarek.vec<i32> "a") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop eq %t, %c0 : i32
    %v = sarek.intrinsic "barrier_or"(%p) : (i1) -> i1
  }
}
// CHECK: sarek.kernel @block_vote_ok
