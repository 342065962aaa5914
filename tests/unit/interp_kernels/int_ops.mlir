// C integer semantics: o[16*i + k] = op_k(x[i], y[i]); y[i] != 0
builtin.module {
  sarek.helper @put(%o : !sarek.vec<i32> "o", %j : i32 "j", %v : i32 "v") -> !sarek.unit {
    %p = sarek.elem_ref %o[%j] : !sarek.vec<i32>
    sarek.store %p, %v : !sarek.ref<i32>
    sarek.return
  }
  sarek.kernel @int_ops(%x : !sarek.vec<i32> "x", %y : !sarek.vec<i32> "y", %o : !sarek.vec<i32> "o", %n : i32 "n") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %in = sarek.binop lt %i, %n : i32
    sarek.if %in {
      %a = sarek.array_read %x[%i] : !sarek.vec<i32>
      %b = sarek.array_read %y[%i] : !sarek.vec<i32>
      %c16 = sarek.constant 16 : i32
      %base = sarek.binop mul %i, %c16 : i32
      %k1 = sarek.constant 1 : i32
      %j0 = sarek.let "j" %base : i32
      %r0 = sarek.binop div %a, %b : i32
      sarek.call @put(%o, %j0, %r0) : (!sarek.vec<i32>, i32, i32) -> ()
      %j1 = sarek.binop add %j0, %k1 : i32
      %r1 = sarek.binop rem %a, %b : i32
      sarek.call @put(%o, %j1, %r1) : (!sarek.vec<i32>, i32, i32) -> ()
      %j2 = sarek.binop add %j1, %k1 : i32
      %r2 = sarek.binop shl %a, %b : i32
      sarek.call @put(%o, %j2, %r2) : (!sarek.vec<i32>, i32, i32) -> ()
      %j3 = sarek.binop add %j2, %k1 : i32
      %r3 = sarek.binop shr %a, %b : i32
      sarek.call @put(%o, %j3, %r3) : (!sarek.vec<i32>, i32, i32) -> ()
      %j4 = sarek.binop add %j3, %k1 : i32
      %r4 = sarek.binop mul %a, %a : i32
      sarek.call @put(%o, %j4, %r4) : (!sarek.vec<i32>, i32, i32) -> ()
      %j5 = sarek.binop add %j4, %k1 : i32
      %big = sarek.constant 2147483647 : i32
      %r5 = sarek.binop add %a, %big : i32
      sarek.call @put(%o, %j5, %r5) : (!sarek.vec<i32>, i32, i32) -> ()
      %j6 = sarek.binop add %j5, %k1 : i32
      %r6 = sarek.binop sub %b, %a : i32
      sarek.call @put(%o, %j6, %r6) : (!sarek.vec<i32>, i32, i32) -> ()
      %j7 = sarek.binop add %j6, %k1 : i32
      %r7 = sarek.binop bitxor %a, %b : i32
      sarek.call @put(%o, %j7, %r7) : (!sarek.vec<i32>, i32, i32) -> ()
      %j8 = sarek.binop add %j7, %k1 : i32
      %r8 = sarek.unop neg %a : i32
      sarek.call @put(%o, %j8, %r8) : (!sarek.vec<i32>, i32, i32) -> ()
      %j9 = sarek.binop add %j8, %k1 : i32
      %r9 = sarek.unop bitnot %a : i32
      sarek.call @put(%o, %j9, %r9) : (!sarek.vec<i32>, i32, i32) -> ()
      %j10 = sarek.binop add %j9, %k1 : i32
      %r10 = sarek.intrinsic "clz"(%a) : (i32) -> i32
      sarek.call @put(%o, %j10, %r10) : (!sarek.vec<i32>, i32, i32) -> ()
      %j11 = sarek.binop add %j10, %k1 : i32
      %r11 = sarek.intrinsic "popcount"(%a) : (i32) -> i32
      sarek.call @put(%o, %j11, %r11) : (!sarek.vec<i32>, i32, i32) -> ()
      %j12 = sarek.binop add %j11, %k1 : i32
      %r12 = sarek.intrinsic "abs"(%a) : (i32) -> i32
      sarek.call @put(%o, %j12, %r12) : (!sarek.vec<i32>, i32, i32) -> ()
      %j13 = sarek.binop add %j12, %k1 : i32
      %r13 = sarek.intrinsic "min"(%a, %b) : (i32, i32) -> i32
      sarek.call @put(%o, %j13, %r13) : (!sarek.vec<i32>, i32, i32) -> ()
      %j14 = sarek.binop add %j13, %k1 : i32
      %a64 = sarek.cast %a : i32 to i64
      %b64 = sarek.cast %b : i32 to i64
      %m64 = sarek.binop mul %a64, %b64 : i64
      %s32 = sarek.constant 32 : i64
      %h64 = sarek.binop shr %m64, %s32 : i64
      %r14 = sarek.cast %h64 : i64 to i32
      sarek.call @put(%o, %j14, %r14) : (!sarek.vec<i32>, i32, i32) -> ()
      %j15 = sarek.binop add %j14, %k1 : i32
      %lt = sarek.binop lt %a, %b : i32
      %r15 = sarek.cast %lt : i1 to i32
      sarek.call @put(%o, %j15, %r15) : (!sarek.vec<i32>, i32, i32) -> ()
    }
  }
}
