// RUN: sarek-opt %s -p sarek-verify-barriers --verify-diagnostics --split-input-file | filecheck %s

// Supersteps (`sarek.block superstep`, Sarek's `let%superstep`): inside a non-divergent superstep, a statement
// if / match / while deciding on a thread-varying value, or a for with a thread-varying bound, is refused (the
// implicit barrier at the end of the superstep would be in diverged control flow).
//
// Accepted: block-uniform statements in a plain superstep; value-producing if_expr / match_expr on
// thread-varying values (selects, not control flow for the barrier); anything in a divergent superstep; a call
// of a helper that branches on a thread-varying value (helper bodies are not inspected); a divergent
// superstep nested in a plain one (the innermost superstep decides).
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.helper @clamp(%x : i32 "x") -> i32 {
    %c0 = sarek.constant 0 : i32
    %neg = sarek.binop lt %x, %c0 : i32
    sarek.if %neg {
      sarek.return %c0 : i32
    }
    sarek.return %x : i32
  }
  sarek.kernel @ok(%a : !sarek.vec<f32> "a", %v : !sarek.vec<!sarek.variant<@opt>> "v", %n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %b = sarek.intrinsic "block_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %c16 = sarek.constant 16 : i32
    %tile = sarek.alloc_array "tile"[%c16] : !sarek.array<i32, shared>
    sarek.block superstep {
      %first = sarek.binop eq %b, %c0 : i32
      sarek.if %first {
        %len = sarek.array_len %a : !sarek.vec<f32>
        sarek.for "i" %i = %c0 to %len step 1 : i32 {
        }
      } else {
      }
      %big = sarek.binop gt %t, %c16 : i32
      %x = sarek.if_expr %big -> i32 {
        sarek.yield %t : i32
      } else {
        sarek.yield %c0 : i32
      }
      %o = sarek.array_read %v[%t] : !sarek.vec<!sarek.variant<@opt>>
      %y = sarek.match_expr %o : !sarek.variant<@opt> -> i32 {
        case "Some"(%p : i32 "p") {
          sarek.yield %p : i32
        }
        default {
          sarek.yield %c0 : i32
        }
      }
      %z = sarek.call @clamp(%t) : (i32) -> i32
      %e = sarek.elem_ref %tile[%t] : !sarek.array<i32, shared>
      sarek.store %e, %z : !sarek.ref<i32>
      sarek.block superstep divergent {
        sarek.if %big {
          sarek.store %e, %x : !sarek.ref<i32>
        }
      }
      sarek.barrier
    }
    sarek.barrier
    sarek.block superstep divergent {
      %big = sarek.binop gt %t, %c16 : i32
      sarek.if %big {
        sarek.for "j" %j = %c0 to %t step 1 : i32 {
        }
      }
      %o = sarek.array_read %v[%t] : !sarek.vec<!sarek.variant<@opt>>
      sarek.match %o : !sarek.variant<@opt> {
        default {
        }
      }
    }
    sarek.barrier
  }
}
// CHECK: sarek.kernel @ok

// -----
// Sarek's superstep_diverged: `let%superstep bad_step = if thread_idx_x > 16l then tile.(thread_idx_x) <- ...`.
builtin.module {
  sarek.kernel @superstep_diverged(%input : !sarek.vec<f32> "input") {
    %c64 = sarek.constant 64 : i32
    %tile = sarek.alloc_array "tile"[%c64] : !sarek.array<f32, shared>
    sarek.block superstep {
      %t = sarek.intrinsic "thread_idx_x"() : () -> i32
      %c16 = sarek.constant 16 : i32
      %gt = sarek.binop gt %t, %c16 : i32
      sarek.if %gt {
        %g = sarek.intrinsic "global_thread_id"() : () -> i32
        %x = sarek.array_read %input[%g] : !sarek.vec<f32>
        %e = sarek.elem_ref %tile[%t] : !sarek.array<f32, shared>
        sarek.store %e, %x : !sarek.ref<f32>
      } loc("superstep_diverged.py":9:9)
    }
    sarek.barrier
  }
}
// CHECK: superstep_diverged.py:9:9: error: thread-divergent sarek.if inside a non-divergent superstep (the condition depends on thread_idx_x): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// At any depth: under a block-uniform if and a uniform loop.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    sarek.block superstep {
      %c0 = sarek.constant 0 : i32
      %p = sarek.binop gt %n, %c0 : i32
      sarek.if %p {
        sarek.for "i" %i = %c0 to %n step 1 : i32 {
          %x = sarek.array_read %a[%i] : !sarek.vec<f32>
          %f0 = sarek.constant 0.0 : f32
          %pos = sarek.binop gt %x, %f0 : f32
          sarek.if %pos {
          } loc("k.py":7:13)
        }
      }
    }
    sarek.barrier
  }
}
// CHECK: k.py:7:13: error: thread-divergent sarek.if inside a non-divergent superstep (the condition depends on a value read from memory): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// A for loop with a thread-varying bound.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.block superstep {
      %c0 = sarek.constant 0 : i32
      %t = sarek.intrinsic "thread_idx_x"() : () -> i32
      sarek.for "i" %i = %c0 to %t step 1 : i32 {
      } loc("k.py":5:9)
    }
    sarek.barrier
  }
}
// CHECK: k.py:5:9: error: thread-divergent sarek.for inside a non-divergent superstep (a bound depends on thread_idx_x): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// A while loop on a mutable assigned a thread-varying value.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.block superstep {
      %g = sarek.intrinsic "global_thread_id"() : () -> i32
      %m = sarek.let_mut "m" %g : i32
      sarek.while {
        %mv = sarek.load %m : !sarek.ref<i32>
        %c = sarek.binop lt %mv, %n : i32
        sarek.yield %c : i1
      } do {
        %mv = sarek.load %m : !sarek.ref<i32>
        %c1 = sarek.constant 1 : i32
        %nx = sarek.binop add %mv, %c1 : i32
        sarek.store %m, %nx : !sarek.ref<i32>
      } loc("k.py":6:9)
    }
    sarek.barrier
  }
}
// CHECK: k.py:6:9: error: thread-divergent sarek.while inside a non-divergent superstep (the condition depends on mutable 'm' (global_thread_id)): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// A match statement on a thread-varying scrutinee.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%v : !sarek.vec<!sarek.variant<@opt>> "v") {
    sarek.block superstep {
      %t = sarek.intrinsic "lane_id"() : () -> i32
      %o = sarek.array_read %v[%t] : !sarek.vec<!sarek.variant<@opt>>
      sarek.match %o : !sarek.variant<@opt> {
        case "Some"(%x : i32 "x") {
        }
        default {
        }
      } loc("k.py":5:9)
    }
    sarek.barrier
  }
}
// CHECK: k.py:5:9: error: thread-divergent sarek.match inside a non-divergent superstep (the scrutinee depends on a value read from memory): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// The innermost superstep decides: a plain superstep inside a divergent one is checked.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %lt = sarek.binop lt %t, %n : i32
    sarek.block superstep divergent {
      sarek.if %lt {
      }
      sarek.block superstep {
        sarek.if %lt {
        } loc("k.py":8:13)
      }
      sarek.barrier
    }
    sarek.barrier
  }
}
// CHECK: k.py:8:13: error: thread-divergent sarek.if inside a non-divergent superstep (the condition depends on thread_idx_x): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// A superstep in a helper, checked per call: a thread-varying argument makes its if thread-divergent.
builtin.module {
  sarek.helper @step(%p : i32 "p") -> !sarek.unit {
    sarek.block superstep {
      %c0 = sarek.constant 0 : i32
      %b = sarek.binop gt %p, %c0 : i32
      sarek.if %b {
      } loc("h.py":5:9)
    }
    sarek.barrier
    sarek.return
  }
  sarek.kernel @ok(%n : i32 "n") {
    sarek.call @step(%n) : (i32) -> ()
  }
  sarek.kernel @bad(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.call @step(%t) : (i32) -> ()
  }
}
// CHECK: h.py:5:9: error: thread-divergent sarek.if inside a non-divergent superstep (the condition depends on parameter 'p' (thread_idx_x)): the implicit barrier at the end of the superstep would be in diverged control flow; mark the superstep divergent (sarek.block superstep divergent) if this is intended

// -----
// A divergent superstep allows thread-divergent statements, but its implicit barrier is still a barrier: under
// thread-divergent control it is refused.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %lt = sarek.binop lt %t, %n : i32
    sarek.if %lt {
      sarek.block superstep divergent {
      }
      sarek.barrier loc("k.py":6:9)
    }
  }
}
// CHECK: k.py:6:9: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on thread_idx_x)
