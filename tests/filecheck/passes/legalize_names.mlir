// RUN: sarek-opt %s -p 'sarek-legalize-names{target=cuda}' --split-input-file | filecheck %s --check-prefixes=CHECK,C
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=hip}' --split-input-file | filecheck %s --check-prefixes=CHECK,C
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=opencl}' --split-input-file | filecheck %s --check-prefixes=CHECK,CL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=metal}' --split-input-file | filecheck %s --check-prefixes=CHECK,MSL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=glsl}' --split-input-file | filecheck %s --check-prefixes=CHECK,SH,GLSL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=wgsl}' --split-input-file | filecheck %s --check-prefixes=CHECK,SH,WGSL

// Redeclaration in one target block, shadowing of an enclosing binder, names that are not identifiers.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") {
    %g = sarek.intrinsic "global_thread_id"() : () -> i32
    %s = sarek.let "s" %g : i32
    %s2 = sarek.let "s" %s : i32
    %lt = sarek.binop lt %s2, %n : i32
    sarek.if %lt {
      %s3 = sarek.let "s" %g : i32
      %q = sarek.let "x'" %s3 : i32
    }
    sarek.if %lt {
      %t = sarek.let "t" %g : i32
    }
    %t = sarek.let "t" %g : i32
  }
}
// CHECK:      %s = sarek.let "s" %g : i32
// CHECK-NEXT: %s_1 = sarek.let "s_1" %s : i32
// CHECK:        %s_2 = sarek.let "s_2" %g : i32
// CHECK-NEXT:   %{{.*}} = sarek.let "x_1" %s_2 : i32
// Sibling blocks do not conflict, and a later outer declaration does not rename an earlier inner one.
// CHECK:        %t = sarek.let "t" %g : i32
// CHECK:      %t_1 = sarek.let "t" %g : i32

// -----
// Reserved words: keywords, types and built-in functions of each language (C targets); the shader
// targets leave reserved words to their escaper. `<name>_<k>` takes the smallest k no binder uses; a name
// in a reserved family (`get_*`, `half_*` on OpenCL, `quad_*` on Metal) becomes `v_<name>_<k>`.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %a = sarek.let "int" %n : i32
    %b = sarek.let "length" %n : i32
    %c = sarek.let "half_sqrt" %n : i32
    %d = sarek.let "get_id" %n : i32
    %e = sarek.let "quad_sum" %n : i32
    %f = sarek.let "threadIdx" %n : i32
    %g = sarek.let "int_1" %n : i32
  }
}
// C:      sarek.let "int_2" %n
// C-NEXT: sarek.let "length" %n
// C-NEXT: sarek.let "half_sqrt" %n
// C-NEXT: sarek.let "get_id" %n
// C-NEXT: sarek.let "quad_sum" %n
// C-NEXT: sarek.let "threadIdx_1" %n
// C-NEXT: sarek.let "int_1" %n
// CL:      sarek.let "int_2" %n
// CL-NEXT: sarek.let "length_1" %n
// CL-NEXT: sarek.let "v_half_sqrt_1" %n
// CL-NEXT: sarek.let "v_get_id_1" %n
// CL-NEXT: sarek.let "quad_sum" %n
// CL-NEXT: sarek.let "threadIdx" %n
// MSL:      sarek.let "int_2" %n
// MSL-NEXT: sarek.let "length_1" %n
// MSL-NEXT: sarek.let "half_sqrt" %n
// MSL-NEXT: sarek.let "get_id" %n
// MSL-NEXT: sarek.let "v_quad_sum_1" %n
// SH:      sarek.let "int" %n
// SH-NEXT: sarek.let "length" %n

// -----
// Kernel parameters: renamable on C targets (arguments are positional), kept on shader targets, where
// a local must still avoid a vector parameter (a buffer of that name) but not a scalar one.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "double") {
    %a = sarek.let "v" %n : i32
    %b = sarek.let "double" %n : i32
  }
}
// C:       sarek.kernel @k(%v: !sarek.vec<f32> "v", %double: i32 "double_1") attributes {sarek.entry_name = "k"} {
// C-NEXT:    sarek.let "v_1" %double
// C-NEXT:    sarek.let "double_2" %double
// SH:      sarek.kernel @k(%v: !sarek.vec<f32> "v", %n: i32 "double") attributes
// GLSL-SAME:   {sarek.buffer_names = ["v"], sarek.dim_names = ["v_len"], sarek.param_names = ["doublev"],
// GLSL-SAME:   sarek.global_names = {"helper:irem" = "sarek_irem", "helper:idiv" = "sarek_idiv", "helper:iabs" = "sarek_iabs", "helper:f2i_i32" = "sarek_f2i_i32", "helper:f2i_u32" = "sarek_f2i_u32", "helper:f2i_i64" = "sarek_f2i_i64", "helper:f2i_u64" = "sarek_f2i_u64", "block:v" = "Buffer_v"}} {
// WGSL-SAME:   {sarek.buffer_names = ["v"], sarek.dim_names = ["sarek_v_length"], sarek.param_names = ["double"],
// WGSL-SAME:   sarek.global_names = {"helper:irem" = "sarek_irem", "helper:idiv" = "sarek_idiv", "helper:iabs" = "sarek_iabs", "helper:f2i_i32" = "sarek_f2i_i32", "helper:f2i_u32" = "sarek_f2i_u32", "helper:f2i_i64" = "sarek_f2i_i64", "helper:f2i_u64" = "sarek_f2i_u64"}} {
// SH-NEXT:   sarek.let "v_1" %n
// SH-NEXT:   sarek.let "double" %n

// -----
// Helpers: their names are binders (calls follow), their parameters are always renamable, a for index and
// match binders are binders too.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.helper @float(%x : i32 "x", %o : !sarek.variant<@opt> "o") -> i32 {
    %c = sarek.constant 0 : i32
    sarek.for "x" %i = %c to %x step 1 : i32 {
    }
    %r = sarek.match_expr %o : !sarek.variant<@opt> -> i32 {
      case "Some"(%y : i32 "x") {
        sarek.yield %y : i32
      }
      default {
        sarek.yield %c : i32
      }
    }
    sarek.return %r : i32
  }
  sarek.kernel @k(%n : i32 "n", %o : !sarek.variant<@opt> "o") {
    %r = sarek.call @float(%n, %o) : (i32, !sarek.variant<@opt>) -> i32
    %f = sarek.let "float" %r : i32
  }
}
// C:      sarek.helper @float_1(%x: i32 "x", %o: !sarek.variant<@opt> "o") -> i32 {
// SH:     sarek.helper @float(%x: i32 "x", %o: !sarek.variant<@opt> "o") -> i32 {
// CHECK:    sarek.for "x_1"
// CHECK:      case "Some"(%{{.*}}: i32 "x_2") {
// C:        sarek.call @float_1(%n, %o)
// C-NEXT:   sarek.let "float_2" %
// SH:       sarek.call @float(%n, %o)
// SH-NEXT:  sarek.let "float_1" %

// -----
// A function holding native code: the names its text mentions keep theirs (the text refers to them), the
// others are renamed as anywhere else (it used to skip the whole function: `int int = 3;`).
builtin.module {
  sarek.helper @twice(%x : i32 "x") -> i32 {
    %y = sarek.let "x" %x : i32
    sarek.return %y : i32
  }
  sarek.kernel @k(%n : i32 "n") {
    %a = sarek.let "int" %n : i32
    %b = sarek.let "acc" %n : i32
    sarek.native {cuda = "acc = twice(acc);", opencl = "acc = twice(acc);", metal = "acc = twice(acc);", glsl = "acc = twice(acc);", wgsl = "acc = twice(acc);"}
  }
}
// CHECK:      sarek.helper @twice(%x: i32 "x") -> i32 {
// CHECK-NEXT:   %{{.*}} = sarek.let "x_1" %x : i32
// CHECK:      sarek.kernel @k(%n: i32 "n")
// C-NEXT:       sarek.let "int_1" %n : i32
// CL-NEXT:      sarek.let "int_1" %n : i32
// MSL-NEXT:     sarek.let "int_1" %n : i32
// SH-NEXT:      sarek.let "int" %n : i32
// CHECK-NEXT:   sarek.let "acc" %n : i32

// -----
// A shader helper's vector parameter is a buffer of its name: never renamed, and locals avoid it; on C
// targets it is an ordinary, renamable parameter.
builtin.module {
  sarek.helper @get(%length : !sarek.vec<f32> "length", %i : i32 "i") -> f32 {
    %x = sarek.array_read %length[%i] : !sarek.vec<f32>
    %l = sarek.let "length" %x : f32
    sarek.return %l : f32
  }
}
// C:      sarek.helper @get(%length: !sarek.vec<f32> "length", %i: i32 "i") -> f32 {
// C:        sarek.let "length_1" %x
// CL:     sarek.helper @get(%length: !sarek.vec<f32> "length_1", %i: i32 "i") -> f32 {
// CL:       sarek.let "length_2" %x
// SH:     sarek.helper @get(%length: !sarek.vec<f32> "length", %i: i32 "i") -> f32 {
// SH:       sarek.let "length_1" %x

// -----
// A shader kernel's interface names (namer.interface_names): buffers escaped (GLSL collapses `__`, WGSL prefixes
// it) and made unique, a length or extent that another name has gets `sarek_`, a scalar parameter a `_` suffix
// until it is no buffer, length or (GLSL, whose scalars are `#define` macros) swizzle or variant member.
builtin.module {
  sarek.variant @opt {Some(i32), None}
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %b : !sarek.vec<f32> "a_len", %c : !sarek.vec<f32> "__c", %m : !sarek.vec<f32, 2> "m", %x : i32 "x", %t : i32 "tag", %l : i32 "m_dim0") {
  }
}
// GLSL: sarek.kernel @k({{.*}}) attributes {sarek.buffer_names = ["a", "a_len", "_c", "m"], sarek.dim_names = ["sarek_a_len", "a_len_len", "_c_len", "m_dim0", "m_dim1"], sarek.param_names = ["x_", "tag_", "m_dim0_"], sarek.global_names = {{.*}}} {
// WGSL: sarek.kernel @k({{.*}}) attributes {sarek.buffer_names = ["a", "a_len", "sarek___c", "m"], sarek.dim_names = ["sarek_a_length", "sarek_a_len_length", "sarek_sarek___c_length", "sarek_m_dim0", "sarek_m_dim1"], sarek.param_names = ["x", "tag", "m_dim0"], sarek.global_names = {{.*}}} {
