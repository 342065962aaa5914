// RUN: sarek-opt %s -t glsl --split-input-file | filecheck %s

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
// CHECK:      struct shape_Rect_payload {
// CHECK-NEXT:   float _0;
// CHECK-NEXT:   float _1;
// CHECK-NEXT: };
// CHECK-NEXT: struct shape {
// CHECK-NEXT:   int tag;
// CHECK-NEXT:   float Circle_v;
// CHECK-NEXT:   shape_Rect_payload Rect_v;
// CHECK-NEXT: };
// CHECK:      shape make_shape_Rect(float v0, float v1) {
// CHECK-NEXT:   shape r = shape(0, 0.0, shape_Rect_payload(0.0, 0.0));
// CHECK-NEXT:   r.tag = 1;
// CHECK-NEXT:   r.Rect_v._0 = v0;
// CHECK-NEXT:   r.Rect_v._1 = v1;
// CHECK-NEXT:   return r;
// CHECK-NEXT: }
// CHECK:        switch ({{.*}}.tag) {
// CHECK-NEXT:     case 0: {
// CHECK:          case 1: {
// CHECK:            {{.*}}.Rect_v._0 * {{.*}}.Rect_v._1
// CHECK:          default: {
// CHECK:        shapes[{{.*}}] = make_shape_Rect(1.0, {{.*}});

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
// CHECK:      void put_a(int i, float x) {
// CHECK-NEXT:   a[i] = x;
// CHECK-NEXT:   return;
// CHECK-NEXT: }
// CHECK-NEXT: void put_b(int i, float x) {
// CHECK-NEXT:   b[i] = x;
// CHECK:      put_a(int(gl_GlobalInvocationID.x), 2.0);
// CHECK-NEXT: put_b(int(gl_GlobalInvocationID.x), 2.0);
// CHECK-NEXT: put_a(int(gl_GlobalInvocationID.x), 2.0);

// -----

// Reserved words escaped with a `v` suffix; a local shadowing a push-constant macro is renamed.
sarek.kernel @k(%input : !sarek.vec<f32> "input", %n : i32 "n") {
  %g = sarek.intrinsic "global_thread_id"() : () -> i32
  %m = sarek.let "n" %g : i32
  %s = sarek.let "sample" %m : i32
  %x = sarek.array_read %input[%s] : !sarek.vec<f32>
  %p = sarek.elem_ref %input[%m] : !sarek.vec<f32>
  sarek.store %p, %x : !sarek.ref<f32>
}
// CHECK: buffer Buffer_inputv { float inputv[]; };
// CHECK: #define n pc.n
// CHECK: int [[N:sarek_pc_shadow_n_[0-9]+]] = int(gl_GlobalInvocationID.x);
// CHECK: int samplev = [[N]];

// -----

// Math spellings, the math library's f32 forms (exact fmod, cbrt through pow); integer remainder through a helper (GLSL % is undefined for negatives).
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
// CHECK: int sarek_irem(int a, int b) {
// A scalar parameter named like a swizzle (`x`) gets another macro name: `#define x pc.x` would rewrite
// every `gl_GlobalInvocationID.x` after it.
// CHECK: #define x_ pc.x_
// CHECK: float sarek_fmod_f32(float x, float y) {
// CHECK: float sarek_cbrt_via_pow_f32(float x) {
// CHECK: float sarek_t = sarek_fmod_f32(atan(inversesqrt((log2(x_) * 0.30102999566398120)), x_), x_);
// CHECK-NEXT: float sarek_t1 = sarek_cbrt_via_pow_f32(sarek_t);
// CHECK-NEXT: o[0] = sarek_t1;
// CHECK: oi[0] = sarek_irem(i, i);

// -----

// Shared arrays are hoisted to module scope; barriers; f64 and i64 enable their extensions.
sarek.kernel @k(%v : !sarek.vec<f64> "v", %w : !sarek.vec<i64> "w") {
  %c64 = sarek.constant 64 : i32
  %s = sarek.alloc_array "tile"[%c64] : !sarek.array<f64, shared>
  %t = sarek.intrinsic "thread_idx_x"() : () -> i32
  %x = sarek.array_read %v[%t] : !sarek.vec<f64>
  %p = sarek.elem_ref %s[%t] : !sarek.array<f64, shared>
  sarek.store %p, %x : !sarek.ref<f64>
  sarek.barrier
  %y = sarek.array_read %w[%t] : !sarek.vec<i64>
  %k = sarek.constant 5 : i64
  %yk = sarek.binop add %y, %k : i64
  %q = sarek.elem_ref %w[%t] : !sarek.vec<i64>
  sarek.store %q, %yk : !sarek.ref<i64>
}
// CHECK:      #version 450
// CHECK-NEXT: #extension GL_ARB_gpu_shader_fp64 : require
// CHECK-NEXT: #extension GL_ARB_gpu_shader_int64 : require
// CHECK:      shared double tile[64];
// CHECK:        tile[int(gl_LocalInvocationID.x)] = v[int(gl_LocalInvocationID.x)];
// CHECK-NEXT:   barrier();
// CHECK-NEXT:   w[int(gl_LocalInvocationID.x)] = (w[int(gl_LocalInvocationID.x)] + 5L);

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
// CHECK:      #extension GL_KHR_shader_subgroup_basic : require
// CHECK-NEXT: #extension GL_KHR_shader_subgroup_shuffle : require
// CHECK:      float sarek_warp_shuffle_xor_f32(float v_1, int x) {
// CHECK-NEXT:   int lane = int(gl_SubgroupInvocationID);
// CHECK-NEXT:   int width = int(gl_SubgroupSize);
// CHECK-NEXT:   int mixed = (lane ^ x);
// CHECK-NEXT:   int src = (((mixed >= 0) && (mixed < width)) ? mixed : lane);
// CHECK-NEXT:   float sarek_t = subgroupShuffle(v_1, uint(src));
// CHECK-NEXT:   return sarek_t;
// CHECK:      float sarek_t = sarek_warp_shuffle_xor_f32(v[int(gl_LocalInvocationID.x)], 1);
// CHECK-NEXT: v[int(gl_SubgroupInvocationID)] = sarek_t;

// -----

// A for loop's upper bound is evaluated once (Python range), even when the body changes what it read.
sarek.kernel @k(%o : !sarek.vec<i32> "o") {
  %z = sarek.constant 0 : i32
  %c4 = sarek.constant 4 : i32
  %s = sarek.let_mut "s" %c4 : i32
  %cnt = sarek.let_mut "cnt" %z : i32
  %hi = sarek.load %s : !sarek.ref<i32>
  sarek.for "i" %i = %z to %hi step 1 : i32 {
    %sv = sarek.load %s : !sarek.ref<i32>
    %one = sarek.constant 1 : i32
    %s2 = sarek.binop add %sv, %one : i32
    sarek.store %s, %s2 : !sarek.ref<i32>
    %cv = sarek.load %cnt : !sarek.ref<i32>
    %c2 = sarek.binop add %cv, %one : i32
    sarek.store %cnt, %c2 : !sarek.ref<i32>
  }
  %g = sarek.intrinsic "global_thread_id"() : () -> i32
  %p = sarek.elem_ref %o[%g] : !sarek.vec<i32>
  %fin = sarek.load %cnt : !sarek.ref<i32>
  sarek.store %p, %fin : !sarek.ref<i32>
}
// CHECK:      int [[HI:sarek_hi[0-9]*]] = s;
// CHECK-NEXT: for (int i = 0; i < [[HI]]; i += 1) {
// CHECK-NEXT:   s = (s + 1);
