// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=cuda}' | filecheck %s --check-prefixes=C,CUDA
// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=hip}' | filecheck %s --check-prefixes=C,CUDA
// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=opencl}' | filecheck %s --check-prefixes=C,OPENCL
// RUN: sarek-opt %s -p 'sarek-lower-cfamily{target=metal}' | filecheck %s --check-prefixes=C,METAL

// The C family's Language table (sarek/targets/cfamily/languages.py) as the sarek_c IR shows it, one kernel
// for the four languages: kernel qualifiers, vector parameters and their lengths (Metal: buffer slots and the
// entry's builtin parameters), the shared array's address space, index builtins, the math spelling, the block
// barrier and the atomic template; record members and every temporary are the same in all four.
builtin.module {
  sarek.record @pt {x : f32, y : f32}
  sarek.kernel @k(%a : !sarek.vec<f32> "a", %h : !sarek.vec<i32> "h", %p : !sarek.vec<!sarek.record<@pt>> "p", %n : i32 "n") {
    %i = sarek.intrinsic "global_thread_id"() : () -> i32
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c4 = sarek.constant 4 : i32
    %sh = sarek.alloc_array "tile"[%c4] : !sarek.array<f32, shared>
    %x = sarek.array_read %a[%i] : !sarek.vec<f32>
    %r = sarek.intrinsic "sqrt"(%x) : (f32) -> f32
    %st = sarek.elem_ref %sh[%t] : !sarek.array<f32, shared>
    sarek.store %st, %r : !sarek.ref<f32>
    sarek.barrier
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%h, %t, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %lt = sarek.binop lt %i, %n : i32
    sarek.if %lt {
      %pr = sarek.array_read %p[%i] : !sarek.vec<!sarek.record<@pt>>
      %px = sarek.field %pr "x" : f32
      %y = sarek.array_read %sh[%t] : !sarek.array<f32, shared>
      %s = sarek.binop add %px, %y : f32
      %ap = sarek.elem_ref %a[%i] : !sarek.vec<f32>
      sarek.store %ap, %s : !sarek.ref<f32>
    }
  }
}
// C:           sarek_c.struct "pt" {
// C-NEXT:        sarek_c.field "float" "x"
// C-NEXT:        sarek_c.field "float" "y"
// CUDA:        sarek_c.func "extern \22C\22 __global__" "void" @k(%0 : "float* __restrict__" "a", %1 : "int" "sarek_a_length", %2 : "int* __restrict__" "h", %3 : "int" "sarek_h_length", %4 : "pt* __restrict__" "p", %5 : "int" "sarek_p_length", %6 : "int" "n") {
// OPENCL:      sarek_c.func "__kernel" "void" @k(%0 : "__global float* restrict" "a", %1 : "int" "sarek_a_length", %2 : "__global int* restrict" "h", %3 : "int" "sarek_h_length", %4 : "__global pt* restrict" "p", %5 : "int" "sarek_p_length", %6 : "int" "n") {
// METAL:       sarek_c.func "kernel" "void" @k(%0 : "device float*" "a" " {{\[\[}}buffer(0)]]", %1 : "constant int &" "sarek_a_length" " {{\[\[}}buffer(1)]]",
// METAL-SAME:    %6 : "constant int &" "n" " {{\[\[}}buffer(6)]]", %7 : "uint3" "__metal_gid" " {{\[\[}}thread_position_in_grid]]", %8 : "uint3" "__metal_tid" " {{\[\[}}thread_position_in_threadgroup]]",
// CUDA:          sarek_c.array_decl "tile"[%{{.*}}] : "__shared__ float"
// CUDA-NEXT:     sarek_c.expr "(int)(blockIdx.x * blockDim.x + threadIdx.x)" : "int"
// OPENCL:        sarek_c.array_decl "tile"[%{{.*}}] : "__local float"
// OPENCL-NEXT:   sarek_c.lit "(int)get_global_id(0)" : "int"
// METAL:         sarek_c.array_decl "tile"[%{{.*}}] : "threadgroup float"
// METAL-NEXT:    sarek_c.lit "(int)__metal_gid.x" : "int"
// C-NEXT:        %[[I:.*]] = sarek_c.decl "sarek_i" %{{.*}} : "int" attributes {sarek_c.temp = "i"}
// CUDA-NEXT:     sarek_c.lit "(int)threadIdx.x" : "int"
// OPENCL-NEXT:   sarek_c.lit "(int)get_local_id(0)" : "int"
// METAL-NEXT:    sarek_c.lit "(int)__metal_tid.x" : "int"
// CUDA:          sarek_c.call "sqrtf"(%{{.*}}) : "float"
// OPENCL:        sarek_c.call "sqrt"(%{{.*}}) : "float"
// METAL:         sarek_c.call "sqrt"(%{{.*}}) : "float"
// CUDA:          sarek_c.expr "__syncthreads()" : "void" attributes {sarek_c.effects = "write"}
// OPENCL:        sarek_c.expr "barrier(CLK_LOCAL_MEM_FENCE)" : "void" attributes {sarek_c.effects = "write"}
// METAL:         sarek_c.expr "threadgroup_barrier(mem_flags::mem_threadgroup)" : "void" attributes {sarek_c.effects = "write"}
// CUDA:          sarek_c.expr "atomicAdd(&{0}, {1})"(%{{.*}}, %{{.*}}) : "int" attributes {sarek_c.effects = "write"}
// OPENCL:        sarek_c.expr "atomic_add(&{0}, {1})"(%{{.*}}, %{{.*}}) : "int" attributes {sarek_c.effects = "write"}
// METAL:         sarek_c.expr "atomic_fetch_add_explicit((volatile device atomic_int*)&{0}, {1}, memory_order_relaxed)"(%{{.*}}, %{{.*}}) : "int" attributes {sarek_c.effects = "write"}
// CUDA:          sarek_c.binary "<" %[[I]], %{{.*}} : "int"
// OPENCL:        sarek_c.binary "<" %[[I]], %{{.*}} : "int"
// METAL:         sarek_c.binary "<" %[[I]], %{{.*}} : "bool"
// C:             sarek_c.if %{{.*}} {
// C:               sarek_c.member %{{.*}} "x" : "float"
// C:               sarek_c.binary "+" %{{.*}}, %{{.*}} : "float"
