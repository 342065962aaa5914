// RUN: sarek-opt %s -t ptx --split-input-file --verify-diagnostics 2>&1 | filecheck %s

// A native op's ptx text is emitted verbatim.
builtin.module {
  sarek.kernel @nat(%a : !sarek.vec<f32> "a") {
    sarek.native {cuda = "__nanosleep(1);", ptx = "nanosleep.u32 1;"}
  }
}
// CHECK: .visible .entry nat(
// CHECK: nanosleep.u32 1;

// -----

builtin.module {
  sarek.kernel @no_ptx_text(%a : !sarek.vec<f32> "a") {
    sarek.native {cuda = "__nanosleep(1);"}
  }
}
// CHECK: error: PTX: %native not supported: this sarek.native carries no ptx source text

// -----

builtin.module {
  sarek.helper @f(%x : i32 "x") -> i32 {
    %r = sarek.call @f(%x) : (i32) -> i32
    sarek.return %r : i32
  }
  sarek.kernel @rec(%a : !sarek.vec<i32> "a") {
    %z = sarek.constant 0 : i32
    %r = sarek.call @f(%z) : (i32) -> i32
  }
}
// CHECK: error: PTX: recursive helper @f is not supported (f -> f): the PTX backend inlines helpers; write the recursion as a loop

// -----

builtin.module {
  sarek.kernel @dyn_shared(%a : !sarek.vec<f32> "a", %n : i32 "n") {
    %s = sarek.alloc_array "s"[%n] : !sarek.array<f32, shared>
  }
}
// CHECK: error: PTX: the size of array 's' must be a constant (PTX .shared/.local arrays need a constant size; pass a Vector for data of run-time size)

// -----

builtin.module {
  sarek.kernel @fxoratom(%a : !sarek.vec<f32> "a") {
    %z = sarek.constant 0 : i32
    %x = sarek.constant 1.0 : f32
    %o = sarek.intrinsic "atomic_xor"(%a, %z, %x) : (!sarek.vec<f32>, i32, f32) -> f32
  }
}
// CHECK: error: PTX: 'atomic_xor' on f32 is not supported (bitwise atomics need an integer element type; atomic_and/or/xor on the bits of a float is atomic_cas in a loop over sarek.bitcast)
