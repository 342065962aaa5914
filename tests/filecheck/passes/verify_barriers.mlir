// RUN: sarek-opt %s -p sarek-verify-barriers --verify-diagnostics --split-input-file | filecheck %s

// Barriers under block-uniform control are fine: unconditional, both arms of an if on a scalar
// parameter, a loop with uniform bounds, block_idx / block_dim / grid_dim conditions, and a while loop
// whose mutable counter only ever gets uniform values (the shared-memory tree reduction).
builtin.module {
  sarek.kernel @uniform(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    sarek.barrier
    %c0 = sarek.constant 0 : i32
    %p = sarek.binop gt %n, %c0 : i32
    sarek.if %p {
      sarek.barrier
    } else {
      sarek.barrier
    }
    %len = sarek.array_len %a : !sarek.vec<f32>
    sarek.for "i" %i = %c0 to %len step 1 : i32 {
      sarek.barrier
    }
    %b = sarek.intrinsic "block_idx_x"() : () -> i32
    %d = sarek.intrinsic "block_dim_x"() : () -> i32
    %gd = sarek.intrinsic "grid_dim_x"() : () -> i32
    %bd = sarek.binop add %b, %d : i32
    %bdg = sarek.binop lt %bd, %gd : i32
    sarek.if %bdg {
      sarek.barrier
    }
    %c128 = sarek.constant 128 : i32
    %s = sarek.let_mut "s" %c128 : i32
    sarek.while {
      %sv = sarek.load %s : !sarek.ref<i32>
      %c = sarek.binop gt %sv, %c0 : i32
      sarek.yield %c : i1
    } do {
      %t = sarek.intrinsic "thread_idx_x"() : () -> i32
      %sv = sarek.load %s : !sarek.ref<i32>
      %act = sarek.binop lt %t, %sv : i32
      sarek.if %act {
        %x = sarek.array_read %a[%t] : !sarek.vec<f32>
      }
      sarek.barrier
      %one = sarek.constant 1 : i32
      %half = sarek.binop shr %sv, %one : i32
      sarek.store %s, %half : !sarek.ref<i32>
    }
    %w = sarek.intrinsic "warp_size"() : () -> i32
    %wp = sarek.binop gt %w, %c0 : i32
    sarek.if %wp {
      %sh = sarek.intrinsic "warp_shuffle_down"(%n, %w) : (i32, i32) -> i32
    }
  }
}
// CHECK: sarek.kernel @uniform

// -----
// A barrier under a condition on thread_idx_x (Sarek's barrier_diverged).
builtin.module {
  sarek.kernel @diverged(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c16 = sarek.constant 16 : i32
    %gt = sarek.binop gt %t, %c16 : i32
    sarek.if %gt {
      sarek.barrier loc("barrier_diverged.py":7:9)
    }
  }
}
// CHECK: barrier_diverged.py:7:9: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on thread_idx_x)

// -----
// Through lets, arithmetic and the else arm.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %tid = sarek.let "tid" %g : i32
    %c2 = sarek.constant 2 : i32
    %r = sarek.binop rem %tid, %c2 : i32
    %z = sarek.constant 0 : i32
    %even = sarek.binop eq %r, %z : i32
    sarek.if %even {
    } else {
      sarek.barrier loc("k.py":3:5)
    }
  }
}
// CHECK: k.py:3:5: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on global_thread_id)

// -----
// A warp shuffle under a lane-dependent condition (Sarek's warp_diverged).
builtin.module {
  sarek.kernel @warp_diverged(%x : i32 "x") {
    %l = sarek.intrinsic "lane_id"() : () -> i32
    %c4 = sarek.constant 4 : i32
    %lt = sarek.binop lt %l, %c4 : i32
    sarek.if %lt {
      %one = sarek.constant 1 : i32
      %s = sarek.intrinsic "warp_shuffle_down"(%x, %one) : (i32, i32) -> i32 loc("w.py":5:11)
    }
  }
}
// CHECK: w.py:5:11: error: warp operation 'warp_shuffle_down' under thread-divergent control flow (the condition of the enclosing sarek.if depends on lane_id)

// -----
// A value loaded from memory is thread-varying (conservatively): a warp barrier in a loop bounded by it.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<i32> "a") {
    %z = sarek.constant 0 : i32
    %n = sarek.array_read %a[%z] : !sarek.vec<i32>
    sarek.for "i" %i = %z to %n step 1 : i32 {
      sarek.warp_barrier loc("k.py":4:7)
    }
  }
}
// CHECK: k.py:4:7: error: sarek.warp_barrier under thread-divergent control flow (a bound of the enclosing sarek.for depends on a value read from memory)

// -----
// A mutable assigned under divergent control is divergent afterwards.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c0 = sarek.constant 0 : i32
    %s = sarek.let_mut "s" %c0 : i32
    %gt = sarek.binop gt %t, %n : i32
    sarek.if %gt {
      sarek.store %s, %n : !sarek.ref<i32>
    }
    %v = sarek.load %s : !sarek.ref<i32>
    %b = sarek.binop gt %v, %c0 : i32
    sarek.if %b {
      sarek.barrier loc("k.py":12:9)
    }
  }
}
// CHECK: k.py:12:9: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on mutable 's', assigned under divergent control)

// -----
// A while loop whose counter is updated with a thread-varying value: found at the fixpoint.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %c0 = sarek.constant 0 : i32
    %s = sarek.let_mut "s" %n : i32
    sarek.while {
      %sv = sarek.load %s : !sarek.ref<i32>
      %c = sarek.binop gt %sv, %c0 : i32
      sarek.yield %c : i1
    } do {
      sarek.barrier loc("k.py":8:7)
      %t = sarek.intrinsic "thread_idx_x"() : () -> i32
      sarek.store %s, %t : !sarek.ref<i32>
    }
  }
}
// CHECK: k.py:8:7: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.while depends on mutable 's' (thread_idx_x))

// -----
// A match on a thread-varying scrutinee; an if_expr on a thread-varying condition.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%v : !sarek.vec<!sarek.variant<@opt>> "v") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %o = sarek.array_read %v[%t] : !sarek.vec<!sarek.variant<@opt>>
    sarek.match %o : !sarek.variant<@opt> {
      case "Some"(%x : i32 "x") {
        sarek.barrier loc("k.py":6:9)
      }
      default {
      }
    }
  }
}
// CHECK: k.py:6:9: error: sarek.barrier under thread-divergent control flow (the scrutinee of the enclosing sarek.match depends on a value read from memory)

// -----
// Helpers are analysed per call: a uniform argument keeps the helper's barrier legal, a thread-varying one
// does not; a call of a helper containing a barrier under divergent control is reported at the call.
builtin.module {
  sarek.helper @sync_if(%p : i32 "p") -> !sarek.unit {
    %c0 = sarek.constant 0 : i32
    %b = sarek.binop gt %p, %c0 : i32
    sarek.if %b {
      sarek.barrier loc("h.py":4:7)
    }
    sarek.return
  }
  sarek.kernel @ok(%n : i32 "n") {
    sarek.call @sync_if(%n) : (i32) -> ()
  }
  sarek.kernel @bad(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.call @sync_if(%t) : (i32) -> ()
  }
}
// CHECK: h.py:4:7: error: sarek.barrier under thread-divergent control flow (the condition of the enclosing sarek.if depends on parameter 'p' (thread_idx_x))

// -----
builtin.module {
  sarek.helper @sync() -> !sarek.unit {
    sarek.barrier
    sarek.return
  }
  sarek.kernel @k(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %lt = sarek.binop lt %t, %n : i32
    sarek.if %lt {
      sarek.call @sync() : () -> () loc("k.py":9:7)
    }
  }
}
// CHECK: k.py:9:7: error: call of @sync, which contains sarek.barrier, under thread-divergent control flow (the condition of the enclosing sarek.if depends on thread_idx_x)

// -----
// A helper that returns under divergent control: threads that returned skip a later barrier.
builtin.module {
  sarek.helper @early(%n : i32 "n") -> !sarek.unit {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %lt = sarek.binop lt %t, %n : i32
    sarek.if %lt {
      sarek.return
    }
    sarek.barrier loc("h.py":6:5)
    sarek.return
  }
}
// CHECK: h.py:6:5: error: sarek.barrier under thread-divergent control flow (a return under thread-divergent control precedes it)

// -----
// A barrier before the divergent return is fine.
builtin.module {
  sarek.helper @late(%n : i32 "n") -> !sarek.unit {
    sarek.barrier
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %lt = sarek.binop lt %t, %n : i32
    sarek.if %lt {
      sarek.return
    }
    sarek.return
  }
}
// CHECK: sarek.helper @late

// -----
// Cooperative-matrix operations are subgroup-collective too.
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f16> "a") {
    %z = sarek.constant 0 : i32
    %s = sarek.constant 16 : i32
    sarek.coopmat_decl "fa" a 16x16 : f16
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c = sarek.binop lt %t, %s : i32
    sarek.if %c {
      sarek.coopmat_load "fa" from %a[%z] stride %s : !sarek.vec<f16> loc("c.py":8:7)
    }
  }
}
// CHECK: c.py:8:7: error: sarek.coopmat_load under thread-divergent control flow (the condition of the enclosing sarek.if depends on thread_idx_x)
