# RUN: sarek emit %s:int_abs -t wgsl | filecheck %s
# RUN: sarek emit %s:int_abs -t glsl | filecheck %s --check-prefix=GLSL
# Integer abs is a select helper on the shading languages: NVIDIA's Vulkan compiler miscompiles a branch on
# `0 <= -abs(x)` (fuzz seed 201559, measured on the H200: the select spelling is right), as ptxas miscompiles
# abs after a shuffle (seed 202272; CUDA and PTX use a select too). Float abs stays the builtin.
from sarek import Vec, f32, i32, kernel
from sarek.gpu import global_thread_id


@kernel
def int_abs(a: Vec[i32], f: Vec[f32], o: Vec[i32], of: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        v = -abs(a[i])
        o[i] = 1 if 0 <= v else 2
        of[i] = abs(f[i])

# CHECK:      fn sarek_iabs(x : i32) -> i32 {
# CHECK-NEXT:   return select(x, -x, x < i32(0));
# CHECK:      (-sarek_iabs(a[i]))
# CHECK:      abs(f[i])
# GLSL:       int sarek_iabs(int x) {
# GLSL-NEXT:    return (x < int(0)) ? -x : x;
# GLSL:       (-sarek_iabs(a[i]))
# GLSL:       abs(f[i])
