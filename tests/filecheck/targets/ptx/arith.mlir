// RUN: sarek-opt %s -t 'ptx{opt=off fp=exact}' | filecheck %s

// C semantics: truncating div/rem, arithmetic shr on signed, correctly rounded float div/sqrt (never .approx),
// C casts (truncation to int, rn to float and f16), i64 shift amounts as u32, NaN-true !=.
builtin.module {
  sarek.kernel @arith(%vi : !sarek.vec<i32> "vi", %vl : !sarek.vec<i64> "vl", %vf : !sarek.vec<f32> "vf", %vh : !sarek.vec<f16> "vh", %vd : !sarek.vec<f64> "vd") {
    %z = sarek.constant 0 : i32
    %a = sarek.array_read %vi[%z] : !sarek.vec<i32>
    %q = sarek.binop div %a, %a : i32
    %r = sarek.binop rem %a, %a : i32
    %qr = sarek.binop add %q, %r : i32
    %s = sarek.binop shr %qr, %a : i32
    %t = sarek.binop shl %s, %a : i32
    %u = sarek.binop mul %t, %a : i32
    %w = sarek.unop bitnot %u : i32
    %pi = sarek.elem_ref %vi[%z] : !sarek.vec<i32>
    sarek.store %pi, %w : !sarek.ref<i32>
    %l = sarek.array_read %vl[%z] : !sarek.vec<i64>
    %ls = sarek.binop shr %l, %l : i64
    %pl = sarek.elem_ref %vl[%z] : !sarek.vec<i64>
    sarek.store %pl, %ls : !sarek.ref<i64>
    %x = sarek.array_read %vf[%z] : !sarek.vec<f32>
    %d = sarek.binop div %x, %x : f32
    %sq = sarek.intrinsic "sqrt"(%d) : (f32) -> f32
    %ne = sarek.binop ne %sq, %x : f32
    %c = sarek.cast %sq : f32 to i32
    %cf = sarek.cast %c : i32 to f32
    %fl = sarek.intrinsic "floor"(%cf) : (f32) -> f32
    %sel = sarek.if_expr %ne -> f32 {
      sarek.yield %fl : f32
    } else {
      sarek.yield %x : f32
    }
    %pf = sarek.elem_ref %vf[%z] : !sarek.vec<f32>
    sarek.store %pf, %sel : !sarek.ref<f32>
    %h = sarek.cast %sel : f32 to f16
    %h2 = sarek.binop mul %h, %h : f16
    %ph = sarek.elem_ref %vh[%z] : !sarek.vec<f16>
    sarek.store %ph, %h2 : !sarek.ref<f16>
    %dd = sarek.cast %x : f32 to f64
    %dq = sarek.binop div %dd, %dd : f64
    %ds = sarek.intrinsic "sqrt"(%dq) : (f64) -> f64
    %pd = sarek.elem_ref %vd[%z] : !sarek.vec<f64>
    sarek.store %pd, %ds : !sarek.ref<f64>
  }
}

// CHECK-NOT: .approx
// CHECK: div.s32 [[Q:%s[0-9]+]], [[A:%s[0-9]+]], [[A]];
// CHECK-NOT: rem.s32
// CHECK-NOT: div.s32
// CHECK: mul.lo.s32 [[QB:%s[0-9]+]], [[Q]], [[A]];
// CHECK-NEXT: sub.s32 %s{{[0-9]+}}, [[A]], [[QB]];
// CHECK: shr.s32
// CHECK: shl.b32
// CHECK: mul.lo.s32
// CHECK: not.b32
// CHECK: cvt.u32.s64 [[AMT:%u[0-9]+]],
// CHECK: shr.s64 %sd{{[0-9]+}}, %sd{{[0-9]+}}, [[AMT]];
// CHECK: div.rn.f32
// CHECK: sqrt.rn.f32
// CHECK: setp.neu.f32
// CHECK: cvt.rzi.s32.f32
// CHECK: cvt.rn.f32.s32
// CHECK: cvt.rmi.f32.f32
// CHECK: cvt.rn.f16.f32 [[H:%h[0-9]+]],
// CHECK: cvt.f32.f16 %f{{[0-9]+}}, [[H]];
// CHECK: mul.rn.f32
// CHECK: cvt.rn.f16.f32
// CHECK: st.global.b16
// CHECK: cvt.f64.f32
// CHECK: div.rn.f64
// CHECK: sqrt.rn.f64
// CHECK-NOT: .approx
