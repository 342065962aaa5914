// RUN: sarek-opt %s -p sarek-lower-glsl | filecheck %s --check-prefix=GLSL
// RUN: sarek-opt %s -p sarek-lower-wgsl | filecheck %s --check-prefix=WGSL
// RUN: sarek-opt %s -p 'sarek-legalize-names{target=glsl},sarek-lower-glsl' | filecheck %s --check-prefix=RENAMED

// The shader lowering takes a kernel's interface names from sarek-legalize-names' attributes
// (`sarek.buffer_names`, `sarek.dim_names`, `sarek.param_names`): here recorded by hand, unlike the rule's.
builtin.module {
  sarek.kernel @k(%v : !sarek.vec<f32> "v", %n : i32 "n") attributes {sarek.buffer_names = ["buf"], sarek.dim_names = ["buf_count"], sarek.param_names = ["scale"]} {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %l = sarek.array_len %v : !sarek.vec<f32>
    %lt = sarek.binop lt %i, %l : i32
    sarek.if %lt {
      %f = sarek.cast %n : i32 to f32
      %p = sarek.elem_ref %v[%i] : !sarek.vec<f32>
      sarek.store %p, %f : !sarek.ref<f32>
    }
  }
}
// GLSL:      sarek_glsl.global "layout(std430, set = 0, binding = 0) buffer Buffer_buf { float buf[]; };"
// GLSL-NEXT: sarek_glsl.global "layout(push_constant) uniform PushConstants { int buf_count; int scale; } pc;"
// GLSL-NEXT: sarek_glsl.directive "#define buf_count pc.buf_count"
// GLSL-NEXT: sarek_glsl.directive "#define scale pc.scale"
// GLSL:      sarek_glsl.if "(int(gl_GlobalInvocationID.x) < buf_count)" {
// GLSL-NEXT:   sarek_glsl.stmt "buf[int(gl_GlobalInvocationID.x)] = float(scale)"
// WGSL:      sarek_wgsl.global "@group(0) @binding(0) var<storage, read_write> buf : array<f32>;"
// WGSL-NEXT: sarek_wgsl.struct "Params" ["buf_count : i32", "scale : i32"]
// WGSL:      sarek_wgsl.if "(i32(sarek_gid.x) < params.buf_count)" {
// WGSL-NEXT:   sarek_wgsl.stmt "buf[i32(sarek_gid.x)] = f32(params.scale)"
// sarek-legalize-names records its own names over them
// RENAMED:   sarek_glsl.global "layout(push_constant) uniform PushConstants { int v_len; int n; } pc;"
