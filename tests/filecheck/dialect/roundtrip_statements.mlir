// RUN: SAREK_ROUNDTRIP
// RUN: SAREK_GENERIC_ROUNDTRIP

// Barriers, fences, pragma, block, native.
sarek.kernel @statements(%n : i32 "n") {
  sarek.barrier
  sarek.grid_barrier
  sarek.warp_barrier
  sarek.mem_fence
  sarek.pragma ["unroll"] {
    %z = sarek.constant 0 : i32
    sarek.for "i" %i = %z to %n step 1 : i32 {
    }
  }
  sarek.pragma ["unroll 4", "nounroll"] {
  }
  sarek.pragma [] {
    sarek.barrier
  }
  sarek.block {
    sarek.block {
      sarek.mem_fence
    }
  }
  sarek.block {
  }
  sarek.native {cuda = "__threadfence();", opencl = "mem_fence(CLK_GLOBAL_MEM_FENCE);", ptx = "membar.gl;"}
  sarek.native {cuda = "printf(\"%d\\n\", 1);"}
  sarek.native {}
}
// CHECK:      sarek.kernel @statements(%n: i32 "n") {
// CHECK-NEXT:   sarek.barrier
// CHECK-NEXT:   sarek.grid_barrier
// CHECK-NEXT:   sarek.warp_barrier
// CHECK-NEXT:   sarek.mem_fence
// CHECK-NEXT:   sarek.pragma ["unroll"] {
// CHECK-NEXT:     %z = sarek.constant 0 : i32
// CHECK-NEXT:     sarek.for "i" %i = %z to %n step 1 : i32 {
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.pragma ["unroll 4", "nounroll"] {
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.pragma [] {
// CHECK-NEXT:     sarek.barrier
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.block {
// CHECK-NEXT:     sarek.block {
// CHECK-NEXT:       sarek.mem_fence
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.block {
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.native {cuda = "__threadfence();", opencl = "mem_fence(CLK_GLOBAL_MEM_FENCE);", ptx = "membar.gl;"}
// CHECK-NEXT:   sarek.native {cuda = "printf(\22%d\\n\22, 1);"}
// CHECK-NEXT:   sarek.native {}
// CHECK-NEXT: }

// -----

// Supersteps: a block marked `superstep` (or `superstep divergent`), followed by its implicit barrier.
sarek.kernel @supersteps(%n : i32 "n") {
  sarek.block superstep {
    sarek.mem_fence
  }
  sarek.barrier
  sarek.block superstep divergent {
    sarek.block superstep {
    }
    sarek.barrier
  }
  sarek.barrier
  sarek.block superstep {
  } attributes {b}
  sarek.barrier
}
// CHECK:      sarek.kernel @supersteps(%n: i32 "n") {
// CHECK-NEXT:   sarek.block superstep {
// CHECK-NEXT:     sarek.mem_fence
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.barrier
// CHECK-NEXT:   sarek.block superstep divergent {
// CHECK-NEXT:     sarek.block superstep {
// CHECK-NEXT:     }
// CHECK-NEXT:     sarek.barrier
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.barrier
// CHECK-NEXT:   sarek.block superstep {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.barrier
// CHECK-NEXT: }

// -----

// Discardable attributes survive on every op kind (they print after the op's own syntax).
sarek.record @point {x : f32, y : f32} attributes {a = 1 : i32}
sarek.variant @opt {None, Some(i32)} attributes {a = 2 : i32}
sarek.helper @h(%x : i32 "x") -> i32 attributes {a = 3 : i32} {
  sarek.return %x : i32 attributes {a = 4 : i32}
}
sarek.kernel @k(%v : !sarek.vec<f32> "v", %o : !sarek.variant<@opt> "o", %i : i32 "i", %c : i1 "c") attributes {a = 5 : i32} {
  %z = sarek.constant 0 : i32 attributes {b}
  %t = sarek.constant true attributes {b}
  %u = sarek.constant unit attributes {b}
  %s = sarek.binop add %i, %z : i32 attributes {b}
  %n = sarek.unop neg %i : i32 attributes {b}
  %f = sarek.cast %i : i32 to f32 attributes {b}
  %g = sarek.intrinsic "thread_idx_x"() : () -> i32 attributes {b}
  %p = sarek.make_record @point(%f, %f) attributes {b}
  %px = sarek.field %p "x" : f32 attributes {b}
  %so = sarek.make_variant @opt "Some"(%i) attributes {b}
  %pl = sarek.payload %so "Some" 0 : i32 attributes {b}
  %r = sarek.array_read %v[%i] : !sarek.vec<f32> attributes {b}
  %len = sarek.array_len %v : !sarek.vec<f32> attributes {b}
  %sh = sarek.alloc_array "sh"[%i] : !sarek.array<f32, shared> attributes {b}
  %cl = sarek.call @h(%i) : (i32) -> i32 attributes {b}
  %l = sarek.let "l" %i : i32 attributes {b}
  %m = sarek.let_mut "m" %p : !sarek.record<@point> attributes {b}
  %mv = sarek.load %m : !sarek.ref<!sarek.record<@point>> attributes {b}
  %mx = sarek.field_ref %m "x" : !sarek.ref<f32> attributes {b}
  sarek.store %mx, %f : !sarek.ref<f32> attributes {b}
  %e = sarek.elem_ref %v[%i] : !sarek.vec<f32> attributes {b}
  sarek.if %c {
  } attributes {b}
  sarek.if %c {
  } else {
  } attributes {b}
  %ie = sarek.if_expr %c -> i32 {
    sarek.yield %i : i32 attributes {b}
  } else {
    sarek.yield %z : i32
  } attributes {b}
  sarek.while {
    sarek.yield %c : i1
  } do {
  } attributes {b}
  sarek.for "j" %j = %z to %i step 1 : i32 {
  } attributes {b}
  sarek.match %o : !sarek.variant<@opt> attributes {b} {
    default {
    }
  }
  %me = sarek.match_expr %o : !sarek.variant<@opt> -> i32 attributes {b} {
    default {
      sarek.yield %i : i32
    }
  }
  sarek.pragma ["unroll"] {
  } attributes {b}
  sarek.block {
  } attributes {b}
  sarek.barrier attributes {b}
  sarek.warp_barrier attributes {b}
  sarek.mem_fence attributes {b}
  sarek.native {cuda = ""} attributes {b}
  sarek.coopmat_decl "fa" a 16x16 : f16 attributes {b}
  sarek.coopmat_decl "fb" b 16x16 : f16
  sarek.coopmat_decl "fc" acc 16x16 : f32
  sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc" attributes {b}
}
// CHECK:      sarek.record @point {x : f32, y : f32} attributes {a = 1 : i32}
// CHECK-NEXT: sarek.variant @opt {None, Some(i32)} attributes {a = 2 : i32}
// CHECK-NEXT: sarek.helper @h(%x: i32 "x") -> i32 attributes {a = 3 : i32} {
// CHECK-NEXT:   sarek.return %x : i32 attributes {a = 4 : i32}
// CHECK-NEXT: }
// CHECK-NEXT: sarek.kernel @k(%v: !sarek.vec<f32> "v", %o: !sarek.variant<@opt> "o", %i: i32 "i", %c: i1 "c") attributes {a = 5 : i32} {
// CHECK-NEXT:   %z = sarek.constant 0 : i32 attributes {b}
// CHECK-NEXT:   %t = sarek.constant true attributes {b}
// CHECK-NEXT:   %u = sarek.constant unit attributes {b}
// CHECK-NEXT:   %s = sarek.binop add %i, %z : i32 attributes {b}
// CHECK-NEXT:   %n = sarek.unop neg %i : i32 attributes {b}
// CHECK-NEXT:   %f = sarek.cast %i : i32 to f32 attributes {b}
// CHECK-NEXT:   %g = sarek.intrinsic "thread_idx_x"() : () -> i32 attributes {b}
// CHECK-NEXT:   %p = sarek.make_record @point(%f, %f) attributes {b}
// CHECK-NEXT:   %px = sarek.field %p "x" : f32 attributes {b}
// CHECK-NEXT:   %so = sarek.make_variant @opt "Some"(%i) attributes {b}
// CHECK-NEXT:   %pl = sarek.payload %so "Some" 0 : i32 attributes {b}
// CHECK-NEXT:   %r = sarek.array_read %v[%i] : !sarek.vec<f32> attributes {b}
// CHECK-NEXT:   %len = sarek.array_len %v : !sarek.vec<f32> attributes {b}
// CHECK-NEXT:   %sh = sarek.alloc_array "sh"[%i] : !sarek.array<f32, shared> attributes {b}
// CHECK-NEXT:   %cl = sarek.call @h(%i) : (i32) -> i32 attributes {b}
// CHECK-NEXT:   %l = sarek.let "l" %i : i32 attributes {b}
// CHECK-NEXT:   %m = sarek.let_mut "m" %p : !sarek.record<@point> attributes {b}
// CHECK-NEXT:   %mv = sarek.load %m : !sarek.ref<!sarek.record<@point>> attributes {b}
// CHECK-NEXT:   %mx = sarek.field_ref %m "x" : !sarek.ref<f32> attributes {b}
// CHECK-NEXT:   sarek.store %mx, %f : !sarek.ref<f32> attributes {b}
// CHECK-NEXT:   %e = sarek.elem_ref %v[%i] : !sarek.vec<f32> attributes {b}
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.if %c {
// CHECK-NEXT:   } else {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   %ie = sarek.if_expr %c -> i32 {
// CHECK-NEXT:     sarek.yield %i : i32 attributes {b}
// CHECK-NEXT:   } else {
// CHECK-NEXT:     sarek.yield %z : i32
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.while {
// CHECK-NEXT:     sarek.yield %c : i1
// CHECK-NEXT:   } do {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.for "j" %j = %z to %i step 1 : i32 {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.match %o : !sarek.variant<@opt> attributes {b} {
// CHECK-NEXT:     default {
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   %me = sarek.match_expr %o : !sarek.variant<@opt> -> i32 attributes {b} {
// CHECK-NEXT:     default {
// CHECK-NEXT:       sarek.yield %i : i32
// CHECK-NEXT:     }
// CHECK-NEXT:   }
// CHECK-NEXT:   sarek.pragma ["unroll"] {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.block {
// CHECK-NEXT:   } attributes {b}
// CHECK-NEXT:   sarek.barrier attributes {b}
// CHECK-NEXT:   sarek.warp_barrier attributes {b}
// CHECK-NEXT:   sarek.mem_fence attributes {b}
// CHECK-NEXT:   sarek.native {cuda = ""} attributes {b}
// CHECK-NEXT:   sarek.coopmat_decl "fa" a 16x16 : f16 attributes {b}
// CHECK-NEXT:   sarek.coopmat_decl "fb" b 16x16 : f16
// CHECK-NEXT:   sarek.coopmat_decl "fc" acc 16x16 : f32
// CHECK-NEXT:   sarek.coopmat_muladd "fc" = "fa" * "fb" + "fc" attributes {b}
// CHECK-NEXT: }
