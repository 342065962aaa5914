// RUN: sarek-opt %s -p 'sarek-legalize-names{target=glsl}' | filecheck %s --check-prefix=NAMES
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=glsl},sarek-lower-glsl' | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p sarek-lower-glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=wgsl},sarek-lower-wgsl' | filecheck %s --check-prefix=WGSL

// The module-scope names of a shader are decided once, by sarek.analysis.shader_names (run by
// sarek-legalize-names, or by the lowering for what the pass did not record), and the lowering only reads
// them: structs, members, constructor functions, payload structs, shared arrays, helper specialisations,
// buffer blocks and the integer helpers. A record named like a buffer, a shared array named like a record,
// and sarek's own helper names (`sarek_irem`) taken by a record or a buffer all get `_<k>`.
builtin.module {
  sarek.record @buf {x : i32}
  sarek.record @tile {y : i32}
  sarek.record @sarek_irem {z : i32}
  sarek.variant @Shape {Rect(i32, i32), Dot(i32)}
  sarek.helper @put(%o : !sarek.vec<i32> "o", %i : i32 "i", %x : i32 "x") -> !sarek.unit {
    %p = sarek.elem_ref %o[%i] : !sarek.vec<i32>
    sarek.store %p, %x : !sarek.ref<i32>
  }
  sarek.kernel @k(%buf : !sarek.vec<i32> "buf", %out : !sarek.vec<i32> "sarek_iabs", %n : i32 "n") {
    %c = sarek.constant 32 : i32
    %t = sarek.alloc_array "tile"[%c] : !sarek.array<i32, shared>
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %r = sarek.binop rem %i, %n : i32
    %s = sarek.make_variant @Shape "Rect"(%r, %r)
    %a = sarek.intrinsic "abs"(%r) : (i32) -> i32
    sarek.call @put(%buf, %i, %a) : (!sarek.vec<i32>, i32, i32) -> ()
    sarek.call @put(%out, %i, %r) : (!sarek.vec<i32>, i32, i32) -> ()
    sarek.call @put(%buf, %r, %a) : (!sarek.vec<i32>, i32, i32) -> ()
  }
}
// NAMES:      sarek.record @buf {x : i32} attributes {sarek.name = "buf_1", sarek.field_names = ["x"]}
// NAMES-NEXT: sarek.record @tile {y : i32} attributes {sarek.name = "tile", sarek.field_names = ["y"]}
// NAMES-NEXT: sarek.record @sarek_irem {z : i32} attributes {sarek.name = "sarek_irem_1", sarek.field_names = ["z"]}
// NAMES-NEXT: sarek.variant @Shape {Rect(i32, i32), Dot(i32)} attributes {sarek.ctor_ids = ["Rect", "Dot"], sarek.name = "Shape", sarek.payload_names = ["Shape_Rect_payload", ""], sarek.make_names = ["make_Shape_Rect", "make_Shape_Dot"]}
// NAMES:      sarek.kernel @k
// NAMES-SAME: sarek.global_names = {"helper:irem" = "sarek_irem", "helper:idiv" = "sarek_idiv", "helper:iabs" = "sarek_iabs_1", "helper:f2i_i32" = "sarek_f2i_i32", "helper:f2i_u32" = "sarek_f2i_u32", "helper:f2i_i64" = "sarek_f2i_i64", "helper:f2i_u64" = "sarek_f2i_u64", "shared:k:0" = "tile_1", "spec:put(buf)" = "put_buf", "spec:put(sarek_iabs)" = "put_sarek_iabs", "block:buf" = "Buffer_buf", "block:sarek_iabs" = "Buffer_sarek_iabs"}

// GLSL:      sarek_glsl.struct "buf_1" ["int x"]
// GLSL-NEXT: sarek_glsl.struct "tile" ["int y"]
// GLSL-NEXT: sarek_glsl.struct "sarek_irem_1" ["int z"]
// GLSL:      sarek_glsl.struct "Shape_Rect_payload" ["int _0", "int _1"]
// GLSL-NEXT: sarek_glsl.struct "Shape" ["int tag", "Shape_Rect_payload Rect_v", "int Dot_v"]
// GLSL:      sarek_glsl.func "int sarek_irem(int a, int b)"
// GLSL:      sarek_glsl.func "int sarek_iabs_1(int x)"
// GLSL:      sarek_glsl.global "layout(std430, set = 0, binding = 0) buffer Buffer_buf { int buf[]; };"
// GLSL-NEXT: sarek_glsl.global "layout(std430, set = 0, binding = 1) buffer Buffer_sarek_iabs { int sarek_iabs[]; };"
// GLSL:      sarek_glsl.global "shared int tile_1[32];"
// GLSL:      sarek_glsl.func "void put_buf(int i, int x)" {
// GLSL-NEXT:   sarek_glsl.stmt "buf[i] = x"
// GLSL:      sarek_glsl.func "void put_sarek_iabs(int i, int x)" {
// GLSL-NEXT:   sarek_glsl.stmt "sarek_iabs[i] = x"
// GLSL:      sarek_glsl.stmt "int sarek_t = sarek_irem(int(gl_GlobalInvocationID.x), n)"
// GLSL-NEXT: sarek_glsl.stmt "int sarek_t1 = sarek_iabs_1(sarek_t)"
// GLSL-NEXT: sarek_glsl.stmt "put_buf(int(gl_GlobalInvocationID.x), sarek_t1)"
// GLSL-NEXT: sarek_glsl.stmt "put_sarek_iabs(int(gl_GlobalInvocationID.x), sarek_t)"
// GLSL-NEXT: sarek_glsl.stmt "put_buf(sarek_t, sarek_t1)"

// WGSL:      sarek_wgsl.struct "buf_1" ["x : i32"]
// WGSL:      sarek_wgsl.func "fn sarek_irem(a : i32, b : i32) -> i32"
// WGSL:      sarek_wgsl.func "fn sarek_iabs_1(x : i32) -> i32"
// WGSL:      sarek_wgsl.global "var<workgroup> tile_1 : array<i32, 32>;"
// WGSL:      sarek_wgsl.func "fn put_buf(i : i32, x : i32)" {
