// RUN: sarek-opt %s -t ptx | filecheck %s

// Integer division by a constant: a positive power of two 2^k is shifts with C truncation toward zero,
// q = (a + (sign(a) >>> (w - k))) >> k and a % 2^k = a - (q << k), as NVCC emits; any other non-zero constant
// is a multiply-high and shifts (sarek.lowering.divide, Granlund-Montgomery; ptxas divides by an immediate
// with its long reciprocal sequence, I2F.U32.RP + MUFU.RCP + ~15 more: BENCHMARKS.md `storage`), a negative
// one negates the quotient of its absolute value, an unsigned one uses the unsigned form; a variable divisor
// keeps div.
builtin.module {
  sarek.kernel @dc(%a : !sarek.vec<i32> "a", %l : !sarek.vec<i64> "l", %o : !sarek.vec<i32> "o", %ol : !sarek.vec<i64> "ol", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%g] : !sarek.vec<i32>
    %c8 = sarek.constant 8 : i32
    %q8 = sarek.binop div %x, %c8 : i32
    %r8 = sarek.binop rem %x, %c8 : i32
    %cm3 = sarek.constant -3 : i32
    %qm3 = sarek.binop div %x, %cm3 : i32
    %c1 = sarek.constant 1 : i32
    %q1 = sarek.binop div %x, %c1 : i32
    %qn = sarek.binop div %x, %n : i32
    %s1 = sarek.binop add %q8, %r8 : i32
    %s2 = sarek.binop add %s1, %qm3 : i32
    %s3 = sarek.binop add %s2, %q1 : i32
    %s4 = sarek.binop add %s3, %qn : i32
    %u = sarek.cast %x : i32 to ui32
    %c10 = sarek.constant 10 : ui32
    %qu = sarek.binop div %u, %c10 : ui32
    %qi = sarek.cast %qu : ui32 to i32
    %s5 = sarek.binop add %s4, %qi : i32
    %p = sarek.elem_ref %o[%g] : !sarek.vec<i32>
    sarek.store %p, %s5 : !sarek.ref<i32>
    %y = sarek.array_read %l[%g] : !sarek.vec<i64>
    %c4 = sarek.constant 4 : i64
    %q4 = sarek.binop div %y, %c4 : i64
    %pl = sarek.elem_ref %ol[%g] : !sarek.vec<i64>
    sarek.store %pl, %q4 : !sarek.ref<i64>
  }
}

// CHECK:      ld.global.nc.s32 [[X:%s[0-9]+]],
// CHECK:      shr.s32 [[SG:%s[0-9]+]], [[X]], 31;
// CHECK-NEXT: shr.b32 [[BI:%s[0-9]+]], [[SG]], 29;
// CHECK-NEXT: add.s32 [[T:%s[0-9]+]], [[X]], [[BI]];
// CHECK-NEXT: shr.s32 [[Q8:%s[0-9]+]], [[T]], 3;
// CHECK-NEXT: shl.b32 [[M:%s[0-9]+]], [[Q8]], 3;
// CHECK-NEXT: sub.s32 {{%s[0-9]+}}, [[X]], [[M]];
// -3: the quotient by 3 (m = 1 + 2^33 / 3 - 2^32 = -1431655765, shift 1), negated
// CHECK:      mul.hi.s32 [[H:%s[0-9]+]], [[X]], -1431655765;
// CHECK-NEXT: add.s32 [[T3:%s[0-9]+]], [[X]], [[H]];
// CHECK-NEXT: shr.s32 [[T3S:%s[0-9]+]], [[T3]], 1;
// CHECK-NEXT: shr.s32 [[SX:%s[0-9]+]], [[X]], 31;
// CHECK-NEXT: sub.s32 [[Q3:%s[0-9]+]], [[T3S]], [[SX]];
// CHECK-NEXT: neg.s32 {{%s[0-9]+}}, [[Q3]];
// CHECK-NOT:  div.s32 {{%s[0-9]+}}, [[X]], -3;
// division by 1 is the dividend itself: no instruction
// CHECK-NOT:  div.s32 {{%s[0-9]+}}, [[X]], 1;
// CHECK:      div.s32 {{%s[0-9]+}}, [[X]], {{%s[0-9]+}};
// unsigned / 10: m = 2^32 (16 - 10) / 10 + 1 = 2576980378, ell = 4: t = mulhi(m, u); q = (t + ((u - t) >> 1)) >> 3
// CHECK:      mul.hi.u32 [[TU:%u[0-9]+]], [[U:%u[0-9]+]], 2576980378;
// CHECK-NEXT: sub.u32 [[D:%u[0-9]+]], [[U]], [[TU]];
// CHECK-NEXT: shr.u32 [[DH:%u[0-9]+]], [[D]], 1;
// CHECK-NEXT: add.u32 [[S:%u[0-9]+]], [[DH]], [[TU]];
// CHECK-NEXT: shr.u32 {{%u[0-9]+}}, [[S]], 3;
// CHECK:      ld.global.nc.s64 [[Y:%sd[0-9]+]],
// CHECK:      shr.s64 [[SG64:%sd[0-9]+]], [[Y]], 63;
// CHECK-NEXT: shr.b64 [[BI64:%sd[0-9]+]], [[SG64]], 62;
// CHECK-NEXT: add.s64 [[T64:%sd[0-9]+]], [[Y]], [[BI64]];
// CHECK-NEXT: shr.s64 {{%sd[0-9]+}}, [[T64]], 2;
