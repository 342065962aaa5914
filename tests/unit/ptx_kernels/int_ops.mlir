// integer semantics: truncating div/rem, arithmetic shr, shifts, bit ops, min/max/abs/clz/popcount, i64
builtin.module {
  sarek.kernel @int_ops(%a : !sarek.vec<i32> "a", %b : !sarek.vec<i32> "b", %o1 : !sarek.vec<i32> "o1", %o2 : !sarek.vec<i32> "o2", %o3 : !sarek.vec<i64> "o3", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %lt = sarek.binop lt %g, %n : i32
    sarek.if %lt {
      %x0 = sarek.array_read %a[%g] : !sarek.vec<i32>
      %y0 = sarek.array_read %b[%g] : !sarek.vec<i32>
      %c50 = sarek.constant 50 : i32
      %x = sarek.binop sub %x0, %c50 : i32
      %zero = sarek.constant 0 : i32
      %one = sarek.constant 1 : i32
      %isz = sarek.binop eq %y0, %zero : i32
      %y1 = sarek.if_expr %isz -> i32 {
        sarek.yield %one : i32
      } else {
        %ny = sarek.unop neg %y0 : i32
        sarek.yield %ny : i32
      }
      %q = sarek.binop div %x, %y1 : i32
      %r = sarek.binop rem %x, %y1 : i32
      %c3 = sarek.constant 3 : i32
      %sr = sarek.binop shr %x, %c3 : i32
      %sl = sarek.binop shl %x, %c3 : i32
      %ba = sarek.binop bitand %x, %y0 : i32
      %bo = sarek.binop bitor %x, %y0 : i32
      %bx = sarek.binop bitxor %x, %y0 : i32
      %bn = sarek.unop bitnot %x : i32
      %mn = sarek.intrinsic "min"(%x, %y1) : (i32, i32) -> i32
      %mx = sarek.intrinsic "max"(%x, %y1) : (i32, i32) -> i32
      %ab = sarek.intrinsic "abs"(%x) : (i32) -> i32
      %cl = sarek.intrinsic "clz"(%x) : (i32) -> i32
      %pc = sarek.intrinsic "popcount"(%x) : (i32) -> i32
      %s1 = sarek.binop add %q, %r : i32
      %c7 = sarek.constant 7 : i32
      %s2 = sarek.binop mul %s1, %c7 : i32
      %s3 = sarek.binop add %s2, %sr : i32
      %s4 = sarek.binop bitxor %s3, %sl : i32
      %s5 = sarek.binop add %s4, %ba : i32
      %s6 = sarek.binop sub %s5, %bo : i32
      %s7 = sarek.binop add %s6, %bx : i32
      %p1 = sarek.elem_ref %o1[%g] : !sarek.vec<i32>
      sarek.store %p1, %s7 : !sarek.ref<i32>
      %t1 = sarek.binop add %bn, %mn : i32
      %t2 = sarek.binop mul %t1, %c7 : i32
      %t3 = sarek.binop add %t2, %mx : i32
      %t4 = sarek.binop add %t3, %ab : i32
      %t5 = sarek.binop mul %t4, %c50 : i32
      %t6 = sarek.binop add %t5, %cl : i32
      %t7 = sarek.binop add %t6, %pc : i32
      %p2 = sarek.elem_ref %o2[%g] : !sarek.vec<i32>
      sarek.store %p2, %t7 : !sarek.ref<i32>
      %xl = sarek.cast %x : i32 to i64
      %yl = sarek.cast %y1 : i32 to i64
      %big = sarek.constant 4000000000 : i64
      %xb = sarek.binop mul %xl, %big : i64
      %ql = sarek.binop div %xb, %yl : i64
      %rl = sarek.binop rem %xb, %yl : i64
      %c5l = sarek.constant 5 : i64
      %shl = sarek.binop shr %xb, %c5l : i64
      %u1 = sarek.binop add %ql, %rl : i64
      %u2 = sarek.binop bitxor %u1, %shl : i64
      %p3 = sarek.elem_ref %o3[%g] : !sarek.vec<i64>
      sarek.store %p3, %u2 : !sarek.ref<i64>
    }
  }
}
