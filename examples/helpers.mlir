// dst[i] = sq(src[i]) + twice(src[i]) with helpers calling helpers
builtin.module {
  sarek.helper @sq(%x : f32 "x") -> f32 {
    %r = sarek.binop mul %x, %x : f32
    sarek.return %r : f32
  }
  sarek.helper @sq_plus_twice(%x : f32 "x") -> f32 {
    %s = sarek.call @sq(%x) : (f32) -> f32
    %two = sarek.constant 2.0 : f32
    %t = sarek.binop mul %two, %x : f32
    %r = sarek.binop add %s, %t : f32
    sarek.return %r : f32
  }
  sarek.helper @store_at(%v : !sarek.vec<f32> "v", %i : i32 "i", %x : f32 "x") -> !sarek.unit {
    %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
    sarek.store %p, %x : !sarek.ref<f32>
    sarek.return
  }
  sarek.kernel @apply(%src : !sarek.vec<f32> "src", %dst : !sarek.vec<f32> "dst", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %g : i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %x = sarek.array_read %src[%i] : !sarek.vec<f32>
      %y = sarek.call @sq_plus_twice(%x) : (f32) -> f32
      sarek.call @store_at(%dst, %i, %y) : (!sarek.vec<f32>, i32, f32) -> ()
    }
    %k0 = sarek.constant 0 : i32
    %k4 = sarek.constant 4 : i32
    sarek.for "k" %k = %k0 to %k4 step 1 : i32 {
      sarek.pragma ["unroll"] {
        sarek.block {
          sarek.barrier
        }
      }
    }
  }
}
