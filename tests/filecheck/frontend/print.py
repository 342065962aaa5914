# RUN: sarek ir %s:talk | filecheck %s
# RUN: sarek emit %s:talk -t cuda | filecheck %s --check-prefix=CUDA
# RUN: sarek emit %s:talk -t hip | filecheck %s --check-prefix=CUDA
# RUN: sarek emit %s:talk -t opencl | filecheck %s --check-prefix=OPENCL
# RUN: sarek emit %s:talk -t metal | filecheck %s --check-prefix=METAL
# RUN: sarek emit %s:talk -t glsl | filecheck %s --check-prefix=GLSL
# RUN: sarek emit %s:talk -t wgsl | filecheck %s --check-prefix=WGSL
# RUN: sarek emit %s:talk -t ptx | filecheck %s --check-prefix=PTX
# RUN: sarek emit %s:quiet -t cuda | filecheck %s --check-prefix=QUIET

from sarek import Vec, f32, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def talk(a: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        print("i =", i, f"a[i] = {a[i]}", i > 2, sep=", ", end=" {end}\n")


@kernel
def quiet(a: Vec[f32]):
    a[global_thread_id] = 1.0


# The front end makes one sarek.print: `{}` per value, sep and end folded into the format, braces doubled.
# CHECK:      %[[A:.*]] = sarek.array_read %a[%i] : !sarek.vec<f32>
# CHECK:      %[[C:.*]] = sarek.binop gt %i, %{{.*}} : i32
# CHECK-NEXT: sarek.print "i =, {}, a[i] = {}, {} {{[{][{]end[}][}]}}\0A"(%i, %[[A]], %[[C]]) : i32, f32, i1

# Lowered (sarek-lower-print, right after the feature gate in every pipeline): a record of 4 + 3 words reserved with one atomic
# add on the cursor (word 11), written when it fits, else counted as dropped (word 12).
# CUDA:       void talk(float* __restrict__ a, int sarek_a_length, int n, int* __restrict__ [[B:v_sarek_debug_[0-9]+]], int [[L:sarek_v_sarek_debug_[0-9]+_length]]) {
# CUDA:         = __float_as_int(a[i]);
# CUDA:         int [[P:.*]] = atomicAdd(&[[B]][11], 7);
# CUDA-NEXT:    if (([[P]] >= 0) && ([[P]] <= (([[L]] - 16) - 7))) {
# CUDA:           [[B]][{{.*}}] = 7;
# CUDA:         } else {
# CUDA-NEXT:      atomicAdd(&[[B]][12], 1);
# OPENCL:     as_int(
# OPENCL:     atomic_add(&v_sarek_debug_{{[0-9]+}}[11], 7)
# METAL:      as_type<int>(
# METAL:      atomic_fetch_add_explicit((volatile device atomic_int*)&v_sarek_debug_{{[0-9]+}}[11], 7, memory_order_relaxed)
# GLSL:       buffer Buffer_sarek_debug { int sarek_debug[]; };
# GLSL:       atomicAdd(sarek_debug[11], 7)
# GLSL:       floatBitsToInt(
# WGSL:       var<storage, read_write> sarek_debug : array<atomic<i32>>;
# WGSL:       atomicAdd(&sarek_debug[11i], 7i)
# WGSL:       atomicStore(&sarek_debug[(sarek_t2 + 5i)], bitcast<i32>(
# PTX:        .entry talk(
# PTX:        atom.global.add.s32
# A kernel without print has no buffer.
# QUIET:      void quiet(float* __restrict__ a, int sarek_a_length) {
# QUIET-NOT:  sarek_debug
