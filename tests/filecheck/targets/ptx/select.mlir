// RUN: sarek-opt %s -t 'ptx{opt=off fp=exact}' | filecheck %s

// An if_expr whose arms only compute in registers (constants, arithmetic, casts, fields, mutable-local reads;
// at most 12 ops together) becomes selp on both arms' values, as CUDA C's `c ? a : b` does, so a thread-varying
// condition costs no divergent branch (a Collatz step in a loop ran at half NVRTC's speed with branches).
// An arm that reads memory, or a bool result (selp has no .pred form), keeps the branches.
builtin.module {
  sarek.kernel @sel(%a : !sarek.vec<i32> "a", %o : !sarek.vec<i32> "o", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %w = sarek.array_read %a[%g] : !sarek.vec<i32>
    %two = sarek.constant 2 : i32
    %r = sarek.binop rem %w, %two : i32
    %z = sarek.constant 0 : i32
    %ev = sarek.binop eq %r, %z : i32
    %step = sarek.if_expr %ev -> i32 {
      %h = sarek.binop div %w, %two : i32
      sarek.yield %h : i32
    } else {
      %three = sarek.constant 3 : i32
      %t = sarek.binop mul %w, %three : i32
      %one = sarek.constant 1 : i32
      %t1 = sarek.binop add %t, %one : i32
      sarek.yield %t1 : i32
    }
    %loaded = sarek.if_expr %ev -> i32 {
      %x = sarek.array_read %a[%step] : !sarek.vec<i32>
      sarek.yield %x : i32
    } else {
      sarek.yield %z : i32
    }
    %b = sarek.if_expr %ev -> i1 {
      %lt = sarek.binop lt %w, %n : i32
      sarek.yield %lt : i1
    } else {
      %f = sarek.constant false
      sarek.yield %f : i1
    }
    %bi = sarek.cast %b : i1 to i32
    %s1 = sarek.binop add %step, %loaded : i32
    %s2 = sarek.binop add %s1, %bi : i32
    %p = sarek.elem_ref %o[%g] : !sarek.vec<i32>
    sarek.store %p, %s2 : !sarek.ref<i32>
  }
}

// rem's quotient (by 2: shifts) is reused by the then-arm's div
// CHECK:      shr.s32 [[H:%s[0-9]+]], {{%s[0-9]+}}, 1;
// CHECK:      setp.eq.s32 [[EV:%p[0-9]+]],
// CHECK-NOT:  bra
// CHECK:      mul.lo.s32
// CHECK-NOT:  bra
// CHECK:      selp.s32 [[STEP:%s[0-9]+]], [[H]], {{%s[0-9]+}}, [[EV]];
// the memory read keeps its guard
// CHECK-NEXT: @![[EV]] bra $L_else
// CHECK:      ld.global.nc.s32
// CHECK:      $L_endif_{{[0-9]+}}:
// the bool result keeps its branches too
// CHECK-NEXT: @![[EV]] bra $L_else
// CHECK-NEXT: setp.lt.s32
