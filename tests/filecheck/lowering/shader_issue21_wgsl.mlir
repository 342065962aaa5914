// RUN: sarek-opt %s -p 'sarek-pipeline{target=wgsl}' | filecheck %s
// WGSL side of shader_issue21.mlir (no i64 on WGSL): user `sarek_` names renamed, `tag` kept (no macros).

// CHECK:      sarek_wgsl.func "fn v_sarek_t_1(x : i32) -> i32" {
// CHECK:      sarek_wgsl.stmt "let v_sarek_irem_1 : i32 = sarek_irem(a[i], 3i)"
// CHECK:      sarek_wgsl.stmt "sarek_t = make_Opt_Some(params.tag)"
// CHECK:      sarek_wgsl.switch "o.tag" {
// CHECK:        sarek_wgsl.stmt "let sarek_t1 : i32 = v_sarek_t_1((v_sarek_irem_1 + o.Some_v))"

builtin.module {
  sarek.variant @Opt {Some(i32), Nothing}
  sarek.helper @sarek_t(%x: i32 "x") -> i32 {
    %0 = sarek.constant 1 : i32
    %1 = sarek.binop add %x, %0 : i32
    sarek.return %1 : i32
  }
  sarek.kernel @k21(%a: !sarek.vec<i32> "a", %out: !sarek.vec<i32> "out", %tag: i32 "tag") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.constant -10 : i32
    %2 = sarek.intrinsic "abs"(%1) : (i32) -> i32
    %v = sarek.let "v" %2 : i32
    %3 = sarek.array_read %a[%i] : !sarek.vec<i32>
    %x = sarek.let "x" %3 : i32
    %4 = sarek.array_read %a[%i] : !sarek.vec<i32>
    %5 = sarek.constant 3 : i32
    %6 = sarek.binop rem %4, %5 : i32
    %sarek_irem = sarek.let "sarek_irem" %6 : i32
    %7 = sarek.constant 0 : i32
    %8 = sarek.binop lt %x, %7 : i32
    %9 = sarek.if_expr %8 -> !sarek.variant<@Opt> {
      %10 = sarek.make_variant @Opt "Some"(%tag)
      sarek.yield %10 : !sarek.variant<@Opt>
    } else {
      %11 = sarek.make_variant @Opt "Nothing"()
      sarek.yield %11 : !sarek.variant<@Opt>
    }
    %o = sarek.let "o" %9 : !sarek.variant<@Opt>
    sarek.match %o : !sarek.variant<@Opt> {
      case "Some"(%12: i32 "s") {
        %13 = sarek.binop add %sarek_irem, %12 : i32
        %14 = sarek.call @sarek_t(%13) : (i32) -> i32
        %15 = sarek.binop add %v, %14 : i32
        %16 = sarek.elem_ref %out[%i] : !sarek.vec<i32>
        sarek.store %16, %15 : !sarek.ref<i32>
      }
      case "Nothing" {
        %17 = sarek.elem_ref %out[%i] : !sarek.vec<i32>
        sarek.store %17, %v : !sarek.ref<i32>
      }
    }
  }
}
