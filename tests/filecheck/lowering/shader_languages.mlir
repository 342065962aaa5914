// RUN: sarek-opt %s -p sarek-lower-glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p sarek-lower-wgsl | filecheck %s --check-prefix=WGSL

// The shader language table (sarek/lowering/shader/language.py's GLSL and WGSL `Lang`) as the target dialects
// show it, one kernel for both: directives and the workgroup size, variant structs (GLSL a hoisted payload
// struct, WGSL flat fields) and constructor functions, storage buffers and the element forms of atomics and
// bools (in GLSL a float buffer only added to uses GL_EXT_shader_atomic_float's atomicAdd; WGSL atomic<u32> for f32
// atomics, atomic<i32>, bools as u32), the scalar parameter block
// (GLSL push constants and #define macros, WGSL a uniform `params`), shared and local arrays (GLSL zeroes a
// local one), the builtin inputs and entry point, the float atomic (WGSL a compare-and-swap loop), the conditional
// expression, and the switch (GLSL breaks, WGSL ends with a default). The abi carries the element layouts
// (sarek.analysis.layout.storage_layout): a variant's host and device offsets.
builtin.module {
  sarek.variant @opt {Some(i32), Pair(i32, f32), None}
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %h : !sarek.vec<i32> "h", %o : !sarek.vec<!sarek.variant<@opt>> "o", %b : !sarek.vec<i1> "b", %n : i32 "n", %f : i1 "flag") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c4 = sarek.constant 4 : i32
    %sh = sarek.alloc_array "tile"[%c4] : !sarek.array<f32, shared>
    %loc = sarek.alloc_array "acc"[%c4] : !sarek.array<i32, local>
    %x = sarek.array_read %a[%i] : !sarek.vec<f32>
    %st = sarek.elem_ref %sh[%t] : !sarek.array<f32, shared>
    sarek.store %st, %x : !sarek.ref<f32>
    sarek.barrier
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%h, %t, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %fo = sarek.intrinsic "atomic_add"(%a, %t, %x) : (!sarek.vec<f32>, i32, f32) -> f32
    %lt = sarek.binop lt %i, %n : i32
    %v = sarek.if_expr %lt -> i32 {
      sarek.yield %old : i32
    } else {
      sarek.yield %n : i32
    }
    %ov = sarek.array_read %o[%i] : !sarek.vec<!sarek.variant<@opt>>
    %m = sarek.match_expr %ov : !sarek.variant<@opt> -> i32 {
      case "Some"(%s: i32 "s") {
        sarek.yield %s : i32
      }
      case "Pair"(%p: i32 "p", %q: f32 "q") {
        sarek.yield %p : i32
      }
      case "None"() {
        sarek.yield %v : i32
      }
    }
    %bp = sarek.elem_ref %b[%i] : !sarek.vec<i1>
    sarek.store %bp, %f : !sarek.ref<i1>
    %hp = sarek.elem_ref %h[%i] : !sarek.vec<i32>
    sarek.store %hp, %m : !sarek.ref<i32>
  }
}
// GLSL:      sarek_glsl.shader @k abi "{{.*}}\22layout\22: {\22ctors\22: {{\[\[}}[4, 4, 4, \22i4\22]], {{\[\[}}4, 8, 4, \22i4\22], [8, 12, 4, \22f4\22]], []], \22dev_size\22: 16, \22host_size\22: 12, {{.*}}" {
// GLSL-NEXT: sarek_glsl.directive "#version 450"
// GLSL-NEXT: sarek_glsl.directive "#extension GL_EXT_shader_atomic_float : require"
// GLSL-NEXT: sarek_glsl.comment "kernel k; workgroup size 256x1x1 is a compile-time specialization (option block=X,Y,Z)"
// GLSL-NEXT: sarek_glsl.directive "layout(local_size_x = 256, local_size_y = 1, local_size_z = 1) in;"
// GLSL-NEXT: sarek_glsl.struct "opt_Pair_payload" ["int _0", "float _1"]
// GLSL-NEXT: sarek_glsl.struct "opt" ["int tag", "int Some_v", "opt_Pair_payload Pair_v"]
// GLSL-NEXT: sarek_glsl.func "opt make_opt_Some(int v0)" {
// GLSL-NEXT: sarek_glsl.stmt "opt r = opt(0, 0, opt_Pair_payload(0, 0.0))"
// GLSL-NEXT: sarek_glsl.stmt "r.tag = 0"
// GLSL-NEXT: sarek_glsl.stmt "r.Some_v = v0"
// GLSL-NEXT: sarek_glsl.stmt "return r"
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.func "opt make_opt_Pair(int v0, float v1)" {
// GLSL-NEXT: sarek_glsl.stmt "opt r = opt(0, 0, opt_Pair_payload(0, 0.0))"
// GLSL-NEXT: sarek_glsl.stmt "r.tag = 1"
// GLSL-NEXT: sarek_glsl.stmt "r.Pair_v._0 = v0"
// GLSL-NEXT: sarek_glsl.stmt "r.Pair_v._1 = v1"
// GLSL-NEXT: sarek_glsl.stmt "return r"
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.func "opt make_opt_None()" {
// GLSL-NEXT: sarek_glsl.stmt "opt r = opt(0, 0, opt_Pair_payload(0, 0.0))"
// GLSL-NEXT: sarek_glsl.stmt "r.tag = 2"
// GLSL-NEXT: sarek_glsl.stmt "return r"
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.global "layout(std430, set = 0, binding = 0) buffer Buffer_a { float a[]; };"
// GLSL-NEXT: sarek_glsl.global "layout(std430, set = 0, binding = 1) buffer Buffer_h { int h[]; };"
// GLSL-NEXT: sarek_glsl.global "layout(std430, set = 0, binding = 2) buffer Buffer_o { opt o[]; };"
// GLSL-NEXT: sarek_glsl.global "layout(std430, set = 0, binding = 3) buffer Buffer_b { bool b[]; };"
// GLSL-NEXT: sarek_glsl.global "layout(push_constant) uniform PushConstants { int a_len; int h_len; int o_len; int b_len; int n; bool flag; } pc;"
// GLSL-NEXT: sarek_glsl.directive "#define a_len pc.a_len"
// GLSL-NEXT: sarek_glsl.directive "#define h_len pc.h_len"
// GLSL-NEXT: sarek_glsl.directive "#define o_len pc.o_len"
// GLSL-NEXT: sarek_glsl.directive "#define b_len pc.b_len"
// GLSL-NEXT: sarek_glsl.directive "#define n pc.n"
// GLSL-NEXT: sarek_glsl.directive "#define flag pc.flag"
// GLSL-NEXT: sarek_glsl.global "shared float tile[4];"
// GLSL-NEXT: sarek_glsl.func "void main()" {
// GLSL-NEXT: sarek_glsl.stmt "int acc[4]"
// GLSL-NEXT: sarek_glsl.for "int sarek_i = 0; sarek_i < 4; sarek_i++" {
// GLSL-NEXT: sarek_glsl.stmt "acc[sarek_i] = 0"
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.stmt "float sarek_t = a[int(gl_GlobalInvocationID.x)]"
// GLSL-NEXT: sarek_glsl.stmt "tile[int(gl_LocalInvocationID.x)] = sarek_t"
// GLSL-NEXT: sarek_glsl.stmt "barrier()"
// GLSL-NEXT: sarek_glsl.stmt "int sarek_t1 = atomicAdd(h[int(gl_LocalInvocationID.x)], 1)"
// GLSL-NEXT: sarek_glsl.stmt "atomicAdd(a[int(gl_LocalInvocationID.x)], sarek_t)"
// GLSL-NEXT: sarek_glsl.stmt "opt sarek_t2 = o[int(gl_GlobalInvocationID.x)]"
// GLSL-NEXT: sarek_glsl.stmt "int sarek_t3"
// GLSL-NEXT: sarek_glsl.switch "sarek_t2.tag" {
// GLSL-NEXT: sarek_glsl.case "0" {
// GLSL-NEXT: sarek_glsl.stmt "int s = sarek_t2.Some_v"
// GLSL-NEXT: sarek_glsl.stmt "sarek_t3 = s"
// GLSL-NEXT: sarek_glsl.stmt "break"
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.case "1" {
// GLSL-NEXT: sarek_glsl.stmt "int p = sarek_t2.Pair_v._0"
// GLSL-NEXT: sarek_glsl.stmt "float q = sarek_t2.Pair_v._1"
// GLSL-NEXT: sarek_glsl.stmt "sarek_t3 = p"
// GLSL-NEXT: sarek_glsl.stmt "break"
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.case "2" {
// GLSL-NEXT: sarek_glsl.stmt "sarek_t3 = ((int(gl_GlobalInvocationID.x) < n) ? sarek_t1 : n)"
// GLSL-NEXT: sarek_glsl.stmt "break"
// GLSL-NEXT: }
// GLSL-NEXT: }
// GLSL-NEXT: sarek_glsl.stmt "b[int(gl_GlobalInvocationID.x)] = flag"
// GLSL-NEXT: sarek_glsl.stmt "h[int(gl_GlobalInvocationID.x)] = sarek_t3"
// GLSL-NEXT: }
// GLSL-NEXT: }

// WGSL:      sarek_wgsl.shader @k abi "{{.*}}\22layout\22: {\22ctors\22: {{\[\[}}[4, 4, 4, \22i4\22]], {{\[\[}}4, 8, 4, \22i4\22], [8, 12, 4, \22f4\22]], []], \22dev_size\22: 16, \22host_size\22: 12, {{.*}}" {
// WGSL-NEXT: sarek_wgsl.comment "kernel k; workgroup size 256x1x1 is a compile-time specialization (option block=X,Y,Z)"
// WGSL-NEXT: sarek_wgsl.struct "opt" ["tag : i32", "Some_v : i32", "Pair_v_0 : i32", "Pair_v_1 : f32"]
// WGSL-NEXT: sarek_wgsl.func "fn make_opt_Some(v0 : i32) -> opt" {
// WGSL-NEXT: sarek_wgsl.stmt "var r : opt"
// WGSL-NEXT: sarek_wgsl.stmt "r.tag = 0i"
// WGSL-NEXT: sarek_wgsl.stmt "r.Some_v = v0"
// WGSL-NEXT: sarek_wgsl.stmt "return r"
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.func "fn make_opt_Pair(v0 : i32, v1 : f32) -> opt" {
// WGSL-NEXT: sarek_wgsl.stmt "var r : opt"
// WGSL-NEXT: sarek_wgsl.stmt "r.tag = 1i"
// WGSL-NEXT: sarek_wgsl.stmt "r.Pair_v_0 = v0"
// WGSL-NEXT: sarek_wgsl.stmt "r.Pair_v_1 = v1"
// WGSL-NEXT: sarek_wgsl.stmt "return r"
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.func "fn make_opt_None() -> opt" {
// WGSL-NEXT: sarek_wgsl.stmt "var r : opt"
// WGSL-NEXT: sarek_wgsl.stmt "r.tag = 2i"
// WGSL-NEXT: sarek_wgsl.stmt "return r"
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.global "@group(0) @binding(0) var<storage, read_write> a : array<atomic<u32>>;"
// WGSL-NEXT: sarek_wgsl.global "@group(0) @binding(1) var<storage, read_write> h : array<atomic<i32>>;"
// WGSL-NEXT: sarek_wgsl.global "@group(0) @binding(2) var<storage, read_write> o : array<opt>;"
// WGSL-NEXT: sarek_wgsl.global "@group(0) @binding(3) var<storage, read_write> b : array<u32>;"
// WGSL-NEXT: sarek_wgsl.struct "Params" ["sarek_a_length : i32", "sarek_h_length : i32", "sarek_o_length : i32", "sarek_b_length : i32", "n : i32", "flag : i32"]
// WGSL-NEXT: sarek_wgsl.global "@group(0) @binding(4) var<uniform> params : Params;"
// WGSL-NEXT: sarek_wgsl.global "var<workgroup> tile : array<f32, 4>;"
// WGSL-NEXT: sarek_wgsl.global "var<private> sarek_gid : vec3<u32>;"
// WGSL-NEXT: sarek_wgsl.global "var<private> sarek_lid : vec3<u32>;"
// WGSL-NEXT: sarek_wgsl.global "var<private> sarek_wid : vec3<u32>;"
// WGSL-NEXT: sarek_wgsl.global "var<private> sarek_nwg : vec3<u32>;"
// WGSL-NEXT: sarek_wgsl.func "@compute @workgroup_size(256, 1, 1)\0Afn main(@builtin(global_invocation_id) sarek_gid_in : vec3<u32>, @builtin(local_invocation_id) sarek_lid_in : vec3<u32>, @builtin(workgroup_id) sarek_wid_in : vec3<u32>, @builtin(num_workgroups) sarek_nwg_in : vec3<u32>)" {
// WGSL-NEXT: sarek_wgsl.stmt "sarek_gid = sarek_gid_in"
// WGSL-NEXT: sarek_wgsl.stmt "sarek_lid = sarek_lid_in"
// WGSL-NEXT: sarek_wgsl.stmt "sarek_wid = sarek_wid_in"
// WGSL-NEXT: sarek_wgsl.stmt "sarek_nwg = sarek_nwg_in"
// WGSL-NEXT: sarek_wgsl.stmt "var acc : array<i32, 4>"
// WGSL-NEXT: sarek_wgsl.stmt "let sarek_t : f32 = bitcast<f32>(atomicLoad(&a[i32(sarek_gid.x)]))"
// WGSL-NEXT: sarek_wgsl.stmt "tile[i32(sarek_lid.x)] = sarek_t"
// WGSL-NEXT: sarek_wgsl.stmt "workgroupBarrier()"
// WGSL-NEXT: sarek_wgsl.stmt "let sarek_t1 : i32 = atomicAdd(&h[i32(sarek_lid.x)], 1i)"
// WGSL-NEXT: sarek_wgsl.stmt "var sarek_old : u32 = atomicLoad(&a[i32(sarek_lid.x)])"
// WGSL-NEXT: sarek_wgsl.loop {
// WGSL-NEXT: sarek_wgsl.stmt "let sarek_cur : f32 = bitcast<f32>(sarek_old)"
// WGSL-NEXT: sarek_wgsl.stmt "let sarek_x = atomicCompareExchangeWeak(&a[i32(sarek_lid.x)], sarek_old, bitcast<u32>(sarek_cur + sarek_t))"
// WGSL-NEXT: sarek_wgsl.if "sarek_x.exchanged" {
// WGSL-NEXT: sarek_wgsl.stmt "break"
// WGSL-NEXT: } {
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.stmt "sarek_old = sarek_x.old_value"
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.stmt "let sarek_t2 : f32 = bitcast<f32>(sarek_old)"
// WGSL-NEXT: sarek_wgsl.stmt "let sarek_t3 : opt = o[i32(sarek_gid.x)]"
// WGSL-NEXT: sarek_wgsl.stmt "var sarek_t4 : i32"
// WGSL-NEXT: sarek_wgsl.switch "sarek_t3.tag" {
// WGSL-NEXT: sarek_wgsl.case "0i" {
// WGSL-NEXT: sarek_wgsl.stmt "let s : i32 = sarek_t3.Some_v"
// WGSL-NEXT: sarek_wgsl.stmt "sarek_t4 = s"
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.case "1i" {
// WGSL-NEXT: sarek_wgsl.stmt "let p : i32 = sarek_t3.Pair_v_0"
// WGSL-NEXT: sarek_wgsl.stmt "let q : f32 = sarek_t3.Pair_v_1"
// WGSL-NEXT: sarek_wgsl.stmt "sarek_t4 = p"
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.case "default" {
// WGSL-NEXT: sarek_wgsl.stmt "sarek_t4 = select(params.n, sarek_t1, (i32(sarek_gid.x) < params.n))"
// WGSL-NEXT: }
// WGSL-NEXT: }
// WGSL-NEXT: sarek_wgsl.stmt "b[i32(sarek_gid.x)] = select(0u, 1u, (params.flag != 0i))"
// WGSL-NEXT: sarek_wgsl.stmt "atomicStore(&h[i32(sarek_gid.x)], sarek_t4)"
// WGSL-NEXT: }
// WGSL-NEXT: }

