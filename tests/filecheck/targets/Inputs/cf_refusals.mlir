// Kernels every C-family target refuses, one per split; see <target>/refusals.mlir for the messages.
builtin.module {
  sarek.helper @bad(%n : i32 "n") -> i32 {
    %c4 = sarek.constant 4 : i32
    %s = sarek.alloc_array "s"[%c4] : !sarek.array<i32, shared> loc("r.py":2:5)
    sarek.return %n : i32
  }
  sarek.kernel @k(%n : i32 "n") {
    %r = sarek.call @bad(%n) : (i32) -> i32
  }
}

// -----
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") {
    %a = sarek.alloc_array "a"[%n] : !sarek.array<f32, local> loc("r.py":5:5)
  }
}

// -----
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

// -----
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    sarek.native {ptx = "// ptx only"} loc("r.py":12:3)
  }
}

// -----
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 1.0 : f32
    %o = sarek.intrinsic "atomic_and"(%v, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32 loc("r.py":15:10)
  }
}

// -----
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<i64> "v") {
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i64
    %o = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<i64>, i32, i64) -> i64 loc("r.py":18:10)
  }
}

// -----
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f64> "v") {
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %v[%z] : !sarek.vec<f64> loc("r.py":21:10)
  } loc("r.py":20:1)
}

// -----
builtin.module {
  sarek.record @half_pair {a : f32, b : f16} loc("r.py":24:1)
  sarek.kernel @k(%v : !sarek.vec<!sarek.record<@half_pair>> "v") {
  }
}
