// RUN: sarek-opt %s -p 'sarek-legalize-names{target=cuda}' --split-input-file | filecheck %s --check-prefixes=CHECK,C
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=hip}' --split-input-file | filecheck %s --check-prefixes=CHECK,C
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=opencl}' --split-input-file | filecheck %s --check-prefixes=CHECK,CL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=metal}' --split-input-file | filecheck %s --check-prefixes=CHECK,MSL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=glsl}' --split-input-file | filecheck %s --check-prefixes=CHECK,SH,GLSL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=wgsl}' --split-input-file | filecheck %s --check-prefixes=CHECK,SH,WGSL

// Type names: the mangled name, else `<name>_t` (`_<k>`) when reserved (`float` on C; `float_t` itself is
// math.h's typedef, so `float_t_1`) or held by a function or binder. Members: the field's name unless it
// cannot be a member (`int`, `half` on OpenCL), then `<field>_f` (`v_half_f`: `half_*` is OpenCL's). Shader targets record no C names.
builtin.module {
  sarek.record @float {x : f32, int : i32, min : f32}
  sarek.record @M.pt {half : f32}
  sarek.record @idx {a : i32}
  sarek.kernel @k(%n : i32 "n") {
    %i = sarek.let "idx" %n : i32
  }
}
// C:      sarek.record @float {x : f32, int : i32, min : f32} attributes {sarek.name = "float_t_1", sarek.field_names = ["x", "int_f", "min"]}
// C-NEXT: sarek.record @M.pt {half : f32} attributes {sarek.name = "M_pt", sarek.field_names = ["half_f"]}
// C-NEXT: sarek.record @idx {a : i32} attributes {sarek.name = "idx_t", sarek.field_names = ["a"]}
// C-NEXT: sarek.kernel @k(%n: i32 "n") attributes {sarek.entry_name = "k"} {
// CL:     sarek.record @float {x : f32, int : i32, min : f32} attributes {sarek.name = "float_t", sarek.field_names = ["x", "int_f", "min"]}
// CL:     sarek.record @M.pt {half : f32} attributes {sarek.name = "M_pt", sarek.field_names = ["v_half_f"]}
// MSL:    sarek.name = "float_t_1"
// shading languages: the struct and member names the shader lowering declares (sarek.analysis.shader_names),
// reserved words escaped (GLSL `v` suffix, WGSL `sarek_` prefix)
// GLSL:   sarek.record @float {x : f32, int : i32, min : f32} attributes {sarek.name = "floatv", sarek.field_names = ["x", "intv", "minv"]}
// GLSL-NEXT: sarek.record @M.pt {half : f32} attributes {sarek.name = "M_pt", sarek.field_names = ["halfv"]}
// WGSL:   sarek.record @float {x : f32, int : i32, min : f32} attributes {sarek.name = "float", sarek.field_names = ["x", "int", "sarek_min"]}
// WGSL-NEXT: sarek.record @M.pt {half : f32} attributes {sarek.name = "M_pt", sarek.field_names = ["half"]}
// SH-NEXT: sarek.record @idx {a : i32} attributes {sarek.name = "idx", sarek.field_names = ["a"]}

// -----
// Variants: the enum tag is the bare constructor name unless two variants share it, the target reserves it
// or a type, function or binder has it, then `<Variant>_<id>`; a constructor that is not an ASCII
// identifier gets a distinct ASCII id (`π` -> `v`, `Ω` -> `v_1`), on every target; constructor functions
// are `make_<T>_<id>`, `_<k>` past a helper that has the name.
builtin.module {
  sarek.variant @shape {Circle(f32), Empty, default}
  sarek.variant @opt {Empty, π(i32), Ω(f32)}
  sarek.helper @make_shape_Circle(%x : i32 "x") -> i32 {
    sarek.return %x : i32
  }
}
// C:      sarek.variant @shape {{.*}} attributes {sarek.name = "shape", sarek.ctor_ids = ["Circle", "Empty", "default"], sarek.tag_names = ["Circle", "shape_Empty", "shape_default"], sarek.make_names = ["make_shape_Circle_1", "make_shape_Empty", "make_shape_default"]}
// C-NEXT: sarek.variant @opt {{.*}} attributes {sarek.name = "opt", sarek.ctor_ids = ["Empty", "v", "v_1"], sarek.tag_names = ["opt_Empty", "opt_v", "opt_v_1"], sarek.make_names = ["make_opt_Empty", "make_opt_v", "make_opt_v_1"]}
// CL:     sarek.tag_names = ["Circle", "shape_Empty", "shape_default"]
// MSL:    sarek.tag_names = ["Circle", "shape_Empty", "shape_default"]
// shading languages: the same ids; constructor functions `make_<T>_<id>` are named before the helpers'
// specialisations, so the helper is the one that takes `_1` (sarek.analysis.shader_names)
// SH:     sarek.variant @shape {{.*}} attributes {sarek.ctor_ids = ["Circle", "Empty", "default"], sarek.name = "shape", sarek.payload_names = ["", "", ""], sarek.make_names = ["make_shape_Circle", "make_shape_Empty", "make_shape_default"]}
// SH-NEXT: sarek.variant @opt {{.*}} attributes {sarek.ctor_ids = ["Empty", "v", "v_1"], sarek.name = "opt", sarek.payload_names = ["", "", ""], sarek.make_names = ["make_opt_Empty", "make_opt_v", "make_opt_v_1"]}

// -----
// Entry points: the kernel's name, `sarek_<name>` when reserved (`main`; `select` is a libc function),
// `sarek_<stem>_<crc32>` when it is not an ASCII identifier.
builtin.module {
  sarek.kernel @main() {
  }
  sarek.kernel @select() {
  }
  sarek.kernel @"π"() {
  }
}
// C:      sarek.kernel @main() attributes {sarek.entry_name = "sarek_main"}
// C:      sarek.kernel @select() attributes {sarek.entry_name = "sarek_select"}
// C:      sarek.kernel @{{.*}}() attributes {sarek.entry_name = "sarek_v_{{[0-9a-f]{8}["]}}}
// CL:     sarek.entry_name = "sarek_main"
// MSL:    sarek.entry_name = "sarek_main"

// -----
// sarek's own prefix `sarek_` (its helpers and temporaries) is reserved on every target: a user binder or
// helper that has it is renamed, so generated names never collide with user names (GLSL `sarek_irem`).
builtin.module {
  sarek.helper @sarek_t(%x : i32 "x") -> i32 {
    %y = sarek.let "sarek_irem" %x : i32
    sarek.return %y : i32
  }
}
// CHECK:      sarek.helper @v_sarek_t_1(%x: i32 "x") -> i32 {
// CHECK-NEXT:   sarek.let "v_sarek_irem_1" %x : i32

// -----
// Length: a name over the language's limit (1024 characters; OpenCL 200: pocl aborts from 255) is cut to a
// stable stem and its crc32, then made unique.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %a = sarek.let "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" %n : i32
  }
}
// CL:  sarek.let "{{a{183}[_][0-9a-f]{8}[_]}}1" %n
// C:   sarek.let "{{a{229}["]}} %n
// SH:  sarek.let "{{a{229}["]}} %n
