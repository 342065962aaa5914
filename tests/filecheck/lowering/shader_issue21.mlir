// RUN: sarek-opt %s -p 'sarek-pipeline{target=glsl}' | filecheck %s
// The sarek_glsl / sarek_wgsl IR of the shader bugs of issue 21 (the lowering decides every spelling).

// glslang 12 folds abs of an int64_t constant to the constant, NVIDIA's Vulkan compiler miscompiles a branch on
// -abs(x) (seed 201559): integer abs goes through a select helper
// CHECK:      sarek_glsl.func "int64_t sarek_iabs(int64_t x)" {
// CHECK-NEXT:   sarek_glsl.stmt "return (x < int64_t(0)) ? -x : x"
// a scalar parameter named like a variant member (`tag`) would capture `o.tag` as a macro: renamed
// CHECK:      sarek_glsl.global "layout(push_constant) uniform PushConstants { int a_len; int outv_len; int tag_; } pc;"
// CHECK:      sarek_glsl.directive "#define tag_ pc.tag_"
// user names starting with `sarek_` are the lowering's (helpers, temporaries): renamed by sarek-legalize-names
// CHECK:      sarek_glsl.func "int v_sarek_t_1(int x)" {
// CHECK:      sarek_glsl.stmt "int64_t v = sarek_iabs((-10L))"
// lavapipe compares a sign-extended i32 against a constant wrongly: i32 -> i64 from zero extensions
// CHECK-NEXT: sarek_glsl.stmt "int64_t x = (int64_t(uint(a[i])) - (int64_t(uint(a[i]) >> 31u) << 32))"
// CHECK-NEXT: sarek_glsl.stmt "int v_sarek_irem_1 = sarek_irem(a[i], 3)"
// CHECK:      sarek_glsl.switch "o.tag" {
// CHECK:        sarek_glsl.stmt "int sarek_t1 = v_sarek_t_1((v_sarek_irem_1 + o.Some_v))"


builtin.module {
  sarek.variant @Opt {Some(i32), Nothing}
  sarek.helper @sarek_t(%x: i32 "x") -> i32 {
    %0 = sarek.constant 1 : i32
    %1 = sarek.binop add %x, %0 : i32
    sarek.return %1 : i32
  }
  sarek.kernel @k21(%a: !sarek.vec<i32> "a", %out: !sarek.vec<i64> "out", %tag: i32 "tag") {
    %0 = sarek.intrinsic "global_thread_id"() : () -> i32
    %i = sarek.let "i" %0 : i32
    %1 = sarek.constant -10 : i64
    %2 = sarek.intrinsic "abs"(%1) : (i64) -> i64
    %v = sarek.let "v" %2 : i64
    %3 = sarek.array_read %a[%i] : !sarek.vec<i32>
    %4 = sarek.cast %3 : i32 to i64
    %x = sarek.let "x" %4 : i64
    %5 = sarek.array_read %a[%i] : !sarek.vec<i32>
    %6 = sarek.constant 3 : i32
    %7 = sarek.binop rem %5, %6 : i32
    %sarek_irem = sarek.let "sarek_irem" %7 : i32
    %8 = sarek.constant 0 : i64
    %9 = sarek.binop lt %x, %8 : i64
    %10 = sarek.if_expr %9 -> !sarek.variant<@Opt> {
      %11 = sarek.make_variant @Opt "Some"(%tag)
      sarek.yield %11 : !sarek.variant<@Opt>
    } else {
      %12 = sarek.make_variant @Opt "Nothing"()
      sarek.yield %12 : !sarek.variant<@Opt>
    }
    %o = sarek.let "o" %10 : !sarek.variant<@Opt>
    sarek.match %o : !sarek.variant<@Opt> {
      case "Some"(%13: i32 "s") {
        %14 = sarek.binop add %sarek_irem, %13 : i32
        %15 = sarek.call @sarek_t(%14) : (i32) -> i32
        %16 = sarek.cast %15 : i32 to i64
        %17 = sarek.binop add %v, %16 : i64
        %18 = sarek.elem_ref %out[%i] : !sarek.vec<i64>
        sarek.store %18, %17 : !sarek.ref<i64>
      }
      case "Nothing" {
        %19 = sarek.elem_ref %out[%i] : !sarek.vec<i64>
        sarek.store %19, %v : !sarek.ref<i64>
      }
    }
  }
}
