// RUN: sarek-opt %s -p 'sarek-rename-shadowing-locals{target=glsl}' --split-input-file | filecheck %s --check-prefixes=CHECK,GLSL
// RUN: sarek-opt %s -p 'sarek-rename-shadowing-locals{target=wgsl}' --split-input-file | filecheck %s --check-prefixes=CHECK,WGSL

// Locals named like a scalar parameter (on GLSL also `<vector>_len`) are renamed, numbered per kernel from
// 1 in program order: lets, let_muts, for indices, arrays and match binders. Parameters keep their names.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %n : i32 "n", %o : !sarek.variant<@opt> "o") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.let "n" %g : i32
    %l = sarek.let_mut "a_len" %g : i32
    %ok = sarek.let "a" %g : i32
    sarek.for "n" %i = %g to %n step 1 : i32 {
      %s = sarek.alloc_array "n"[%n] : !sarek.array<f32, local>
    }
    sarek.match %o : !sarek.variant<@opt> {
      case "Some"(%v : i32 "n") {
        %y = sarek.binop add %v, %x : i32
      }
      default {
      }
    }
  }
}
// CHECK:       sarek.kernel @k(%a: !sarek.vec<f32> "a", %n: i32 "n", %o: !sarek.variant<@opt> "o") {
// GLSL:        sarek.let "sarek_pc_shadow_n_1" %g
// GLSL-NEXT:   sarek.let_mut "sarek_pc_shadow_a_len_2" %g
// GLSL-NEXT:   sarek.let "a" %g
// GLSL-NEXT:   sarek.for "sarek_pc_shadow_n_3"
// GLSL-NEXT:     sarek.alloc_array "sarek_pc_shadow_n_4"[%n]
// GLSL:          case "Some"(%{{.*}}: i32 "sarek_pc_shadow_n_5") {
// WGSL:        sarek.let "sarek_scalar_shadow_n_1" %g
// WGSL-NEXT:   sarek.let_mut "a_len" %g
// WGSL-NEXT:   sarek.let "a" %g
// WGSL-NEXT:   sarek.for "sarek_scalar_shadow_n_2"
// WGSL-NEXT:     sarek.alloc_array "sarek_scalar_shadow_n_3"[%n]
// WGSL:          case "Some"(%{{.*}}: i32 "sarek_scalar_shadow_n_4") {
// The record and variant parameter `o` is a scalar parameter too.

// -----
// Names are compared as the backend escapes them: GLSL appends `v` to a reserved word (`float` ->
// `floatv`), WGSL prefixes `sarek_` (`fn` -> `sarek_fn`); the shadow name embeds the escaped name.
builtin.module {
  sarek.kernel @k(%f : f32 "float", %g : f32 "fn") {
    %a = sarek.let "floatv" %f : f32
    %b = sarek.let "float" %f : f32
    %c = sarek.let "fn" %g : f32
  }
}
// GLSL:      sarek.let "sarek_pc_shadow_floatv_1" %f
// GLSL-NEXT: sarek.let "sarek_pc_shadow_floatv_2" %f
// GLSL-NEXT: sarek.let "sarek_pc_shadow_fn_3" %g
// WGSL:      sarek.let "floatv" %f
// WGSL-NEXT: sarek.let "sarek_scalar_shadow_float_1" %f
// WGSL-NEXT: sarek.let "sarek_scalar_shadow_sarek_fn_2" %g

// -----
// The counter restarts for every kernel. GLSL macros are file-wide, so helper locals are renamed too.
builtin.module {
  sarek.helper @h(%x : i32 "x") -> i32 {
    %m = sarek.let "m" %x : i32
    sarek.return %m : i32
  }
  sarek.kernel @k1(%m : i32 "m") {
    %a = sarek.let "m" %m : i32
  }
  sarek.kernel @k2(%m : i32 "m") {
    %a = sarek.let "m" %m : i32
  }
}
// GLSL:      sarek.helper @h
// GLSL-NEXT:   sarek.let "sarek_pc_shadow_m_1" %x
// WGSL:      sarek.helper @h
// WGSL-NEXT:   sarek.let "m" %x
// CHECK:     sarek.kernel @k1
// GLSL-NEXT:   sarek.let "sarek_pc_shadow_m_1" %m
// WGSL-NEXT:   sarek.let "sarek_scalar_shadow_m_1" %m
// CHECK:     sarek.kernel @k2
// GLSL-NEXT:   sarek.let "sarek_pc_shadow_m_1" %m
// WGSL-NEXT:   sarek.let "sarek_scalar_shadow_m_1" %m

// -----
// Collision-free kernels come out unchanged.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %t = sarek.let "tid" %g : i32
  }
}
// CHECK:      sarek.kernel @k(%v: !sarek.vec<f32> "v", %n: i32 "n") {
// CHECK-NEXT:   %g = sarek.intrinsic "global_thread_id"() : () -> i32
// CHECK-NEXT:   %t = sarek.let "tid" %g : i32
// CHECK-NEXT: }

// -----
// Expression-match binders too.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%o : !sarek.variant<@opt> "o", %n : i32 "n") {
    %r = sarek.match_expr %o : !sarek.variant<@opt> -> i32 {
      case "Some"(%v : i32 "n") {
        sarek.yield %v : i32
      }
      default {
        sarek.yield %n : i32
      }
    }
  }
}
// GLSL: case "Some"(%{{.*}}: i32 "sarek_pc_shadow_n_1") {
// WGSL: case "Some"(%{{.*}}: i32 "sarek_scalar_shadow_n_1") {
