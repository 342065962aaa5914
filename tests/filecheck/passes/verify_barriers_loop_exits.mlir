// RUN: sarek-opt %s -p sarek-verify-barriers --verify-diagnostics --split-input-file | filecheck %s

// Thread-dependent break / continue / return are divergence: a barrier after a divergent break (in the rest
// of the loop and its later iterations), after a divergent continue (in the rest of that iteration), after a
// kernel's divergent return, or in a loop whose run-time step varies, is refused. Uniform exits are fine, and
// after the loop of a divergent break the threads are together again.
builtin.module {
  sarek.kernel @uniform(%n : i32 "n", %s : i32 "s") {
    %z = sarek.constant 0 : i32
    sarek.for "i" %i = %z to %n step %s : i32 {
      %two = sarek.constant 2 : i32
      %big = sarek.binop gt %i, %two : i32
      sarek.if %big {
        sarek.break
      }
      sarek.barrier
      sarek.if %big {
        sarek.continue
      }
      sarek.barrier
    }
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.for "j" %j = %z to %n step 1 : i32 {
      %c = sarek.binop lt %t, %j : i32
      sarek.if %c {
        sarek.break
      }
    }
    sarek.barrier
    %big2 = sarek.binop gt %n, %z : i32
    sarek.if %big2 {
      sarek.return
    }
    sarek.barrier
  }
}
// CHECK: sarek.kernel @uniform

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %z = sarek.constant 0 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.for "j" %j = %z to %n step 1 : i32 {
      %c = sarek.binop lt %t, %j : i32
      sarek.if %c {
        sarek.break
      }
      sarek.barrier loc("k.py":7:7)
    }
  }
}
// CHECK: k.py:7:7: error: sarek.barrier under thread-divergent control flow (a break under thread-divergent control precedes it)

// -----
// A barrier at the top of the loop is reached fewer times by the threads that broke out.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %z = sarek.constant 0 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.while {
      %c0 = sarek.binop lt %z, %n : i32
      sarek.yield %c0 : i1
    } do {
      sarek.barrier loc("k.py":5:7)
      %c = sarek.binop lt %t, %n : i32
      sarek.if %c {
        sarek.break
      }
    }
  }
}
// CHECK: k.py:5:7: error: sarek.barrier under thread-divergent control flow (a break under thread-divergent control precedes it)

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %z = sarek.constant 0 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.for "j" %j = %z to %n step 1 : i32 {
      %c = sarek.binop lt %t, %j : i32
      sarek.if %c {
        sarek.continue
      }
      sarek.barrier loc("k.py":7:7)
    }
  }
}
// CHECK: k.py:7:7: error: sarek.barrier under thread-divergent control flow (a continue under thread-divergent control precedes it)

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c = sarek.binop lt %t, %n : i32
    sarek.if %c {
      sarek.return
    }
    sarek.barrier loc("k.py":6:5)
  }
}
// CHECK: k.py:6:5: error: sarek.barrier under thread-divergent control flow (a return under thread-divergent control precedes it)

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %z = sarek.constant 0 : i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    sarek.for "j" %j = %z to %n step %t : i32 {
      sarek.barrier loc("k.py":5:7)
    }
  }
}
// CHECK: k.py:5:7: error: sarek.barrier under thread-divergent control flow (the step of the enclosing sarek.for depends on thread_idx_x)
