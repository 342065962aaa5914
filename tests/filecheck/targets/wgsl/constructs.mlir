// RUN: sarek-opt %s -t wgsl --split-input-file | filecheck %s

// Variants: hoisted multi-payload struct, constructor functions, statement and expression match.
sarek.variant @shape {Circle(f32), Rect(f32, f32), Empty}
sarek.kernel @areas(%shapes : !sarek.vec<!sarek.variant<@shape>> "shapes", %out : !sarek.vec<f32> "out") {
  %g = sarek.intrinsic "global_thread_id"() : () -> i32
  %s = sarek.array_read %shapes[%g] : !sarek.vec<!sarek.variant<@shape>>
  %p = sarek.match_expr %s : !sarek.variant<@shape> -> f32 {
    case "Circle"(%r: f32 "r") {
      sarek.yield %r : f32
    }
    case "Rect"(%w: f32 "w", %h: f32 "h") {
      %a = sarek.binop mul %w, %h : f32
      sarek.yield %a : f32
    }
    default {
      %z = sarek.constant 0.0 : f32
      sarek.yield %z : f32
    }
  }
  %o = sarek.elem_ref %out[%g] : !sarek.vec<f32>
  sarek.store %o, %p : !sarek.ref<f32>
  %one = sarek.constant 1.0 : f32
  %c = sarek.make_variant @shape "Rect"(%one, %p)
  %d = sarek.elem_ref %shapes[%g] : !sarek.vec<!sarek.variant<@shape>>
  sarek.store %d, %c : !sarek.ref<!sarek.variant<@shape>>
}
// CHECK:      struct shape {
// CHECK-NEXT:   tag : i32,
// CHECK-NEXT:   Circle_v : f32,
// CHECK-NEXT:   Rect_v_0 : f32,
// CHECK-NEXT:   Rect_v_1 : f32,
// CHECK-NEXT: }
// CHECK:      fn make_shape_Rect(v0 : f32, v1 : f32) -> shape {
// CHECK-NEXT:   var r : shape;
// CHECK-NEXT:   r.tag = 1i;
// CHECK-NEXT:   r.Rect_v_0 = v0;
// CHECK-NEXT:   r.Rect_v_1 = v1;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK:        switch ([[S:[a-z_0-9]+]].tag) {
// CHECK-NEXT:     case 0i: {
// CHECK:          case 1i: {
// CHECK-NEXT:       {{[a-z_0-9]+}} = ([[S]].Rect_v_0 * [[S]].Rect_v_1);
// CHECK:          default: {
// CHECK:        shapes{{.*}} = make_shape_Rect(1.0f, {{[a-z_0-9]+}});

// -----

// A helper's vector formal named unlike the caller's buffer: one specialization per buffer binding.
sarek.helper @put(%dst : !sarek.vec<f32> "dst", %i : i32 "i", %x : f32 "x") -> !sarek.unit {
  %p = sarek.elem_ref %dst[%i] : !sarek.vec<f32>
  sarek.store %p, %x : !sarek.ref<f32>
  %l = sarek.array_len %dst : !sarek.vec<f32>
  sarek.return
}
sarek.kernel @k(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "b") {
  %g = sarek.intrinsic "global_thread_id"() : () -> i32
  %x = sarek.constant 2.0 : f32
  sarek.call @put(%a, %g, %x) : (!sarek.vec<f32>, i32, f32) -> ()
  sarek.call @put(%b, %g, %x) : (!sarek.vec<f32>, i32, f32) -> ()
  sarek.call @put(%a, %g, %x) : (!sarek.vec<f32>, i32, f32) -> ()
}
// CHECK:      fn put_a(i : i32, x : f32) {
// CHECK-NEXT:   a[i] = x;
// CHECK-NEXT:   return;
// CHECK-NEXT: }
// CHECK-NEXT: fn put_b(i : i32, x : f32) {
// CHECK-NEXT:   b[i] = x;
// CHECK:      put_a(i32(sarek_gid.x), 2.0f);
// CHECK-NEXT: put_b(i32(sarek_gid.x), 2.0f);
// CHECK-NEXT: put_a(i32(sarek_gid.x), 2.0f);

// -----

// Reserved words escaped with a `sarek_` prefix (none here: `input`, `sample` are free in WGSL); a local shadowing a push-constant macro is renamed.
sarek.kernel @k(%input : !sarek.vec<f32> "input", %n : i32 "n") {
  %g = sarek.intrinsic "global_thread_id"() : () -> i32
  %m = sarek.let "n" %g : i32
  %s = sarek.let "sample" %m : i32
  %x = sarek.array_read %input[%s] : !sarek.vec<f32>
  %p = sarek.elem_ref %input[%m] : !sarek.vec<f32>
  sarek.store %p, %x : !sarek.ref<f32>
}
// CHECK: var<storage, read_write> input : array<f32>;
// CHECK: n : i32,
// CHECK: let [[N:sarek_scalar_shadow_n_[0-9]+]] : i32 = i32(sarek_gid.x);
// CHECK: input[[[N]]] = input[sample];

// -----

// Math spellings, the math library's f32 forms (exact fmod, cbrt through pow); integer remainder through a helper (WGSL % on i32 came out unsigned on NVIDIA); integer remainder through a helper (GLSL % is undefined for negatives).
sarek.kernel @k(%x : f32 "x", %i : i32 "i", %o : !sarek.vec<f32> "o", %oi : !sarek.vec<i32> "oi") {
  %a = sarek.intrinsic "log10"(%x) : (f32) -> f32
  %b = sarek.intrinsic "rsqrt"(%a) : (f32) -> f32
  %c = sarek.intrinsic "atan2"(%b, %x) : (f32, f32) -> f32
  %d = sarek.intrinsic "fmod"(%c, %x) : (f32, f32) -> f32
  %e = sarek.intrinsic "cbrt"(%d) : (f32) -> f32
  %z = sarek.constant 0 : i32
  %p = sarek.elem_ref %o[%z] : !sarek.vec<f32>
  sarek.store %p, %e : !sarek.ref<f32>
  %r = sarek.binop rem %i, %i : i32
  %q = sarek.elem_ref %oi[%z] : !sarek.vec<i32>
  sarek.store %q, %r : !sarek.ref<i32>
}
// CHECK: fn sarek_irem(a : i32, b : i32) -> i32 {
// CHECK: fn sarek_fmod_f32(x_1 : f32, y : f32) -> f32 {
// CHECK: fn sarek_cbrt_via_pow_f32(x_1 : f32) -> f32 {
// CHECK: let sarek_t : f32 = sarek_fmod_f32(atan2(inverseSqrt((log2(params.x) * 0.30102999566398120f)), params.x), params.x);
// CHECK-NEXT: let sarek_t1 : f32 = sarek_cbrt_via_pow_f32(sarek_t);
// CHECK-NEXT: o[0i] = sarek_t1;
// CHECK: oi[0i] = sarek_irem(params.i, params.i);

// -----

// Warp operations through subgroup operations: sarek-lower-warp's guarded helper per (op, type), its
// in-range shuffle a subgroupShuffle with the lane converted to unsigned.
sarek.kernel @k(%v : !sarek.vec<f32> "v") {
  %t = sarek.intrinsic "thread_idx_x"() : () -> i32
  %x = sarek.array_read %v[%t] : !sarek.vec<f32>
  %one = sarek.constant 1 : i32
  %y = sarek.intrinsic "warp_shuffle_xor"(%x, %one) : (f32, i32) -> f32
  %l = sarek.intrinsic "lane_id"() : () -> i32
  %p = sarek.elem_ref %v[%l] : !sarek.vec<f32>
  sarek.store %p, %y : !sarek.ref<f32>
}
// CHECK:      var<private> sarek_sg_lane : u32;
// CHECK:      fn sarek_warp_shuffle_xor_f32(v_1 : f32, x : i32) -> f32 {
// CHECK-NEXT:   let lane : i32 = i32(sarek_sg_lane);
// CHECK-NEXT:   let width : i32 = i32(sarek_sg_size);
// CHECK-NEXT:   let mixed : i32 = (lane ^ x);
// CHECK-NEXT:   let src : i32 = select(lane, mixed, ((mixed >= 0i) && (mixed < width)));
// CHECK-NEXT:   let sarek_t : f32 = subgroupShuffle(v_1, u32(src));
// CHECK-NEXT:   return sarek_t;
// CHECK:      fn main({{.*}}@builtin(subgroup_invocation_id) sarek_sg_lane_in : u32, @builtin(subgroup_size) sarek_sg_size_in : u32) {
// CHECK:        v[i32(sarek_sg_lane)] = sarek_t;

// -----

// A value-if: select for scalars, an if statement for records (WGSL select takes no structs).
  sarek.record @pt {x : f32, y : f32}
sarek.kernel @k(%v : !sarek.vec<!sarek.record<@pt>> "v", %n : i32 "n") {
  %g = sarek.intrinsic "global_thread_id"() : () -> i32
  %z = sarek.constant 0 : i32
  %c = sarek.binop gt %g, %z : i32
  %one = sarek.constant 1.0 : f32
  %two = sarek.constant 2.0 : f32
  %r = sarek.if_expr %c -> !sarek.record<@pt> {
    %a = sarek.make_record @pt(%one, %two)
    sarek.yield %a : !sarek.record<@pt>
  } else {
    %b = sarek.make_record @pt(%two, %one)
    sarek.yield %b : !sarek.record<@pt>
  }
  %p = sarek.elem_ref %v[%g] : !sarek.vec<!sarek.record<@pt>>
  sarek.store %p, %r : !sarek.ref<!sarek.record<@pt>>
}
// CHECK:      var [[T:sarek_t[0-9]*]] : pt;
// CHECK-NEXT: if ((i32(sarek_gid.x) > 0i)) {
// CHECK-NEXT:   [[T]] = pt(1.0f, 2.0f);
// CHECK-NEXT: } else {
// CHECK-NEXT:   [[T]] = pt(2.0f, 1.0f);
// CHECK-NEXT: }
