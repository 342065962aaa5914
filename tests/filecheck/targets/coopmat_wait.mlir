// RUN: sarek-opt %s -t cuda | filecheck %s --check-prefix=C
// RUN: sarek-opt %s -t opencl | filecheck %s --check-prefix=C
// RUN: sarek-opt %s -t glsl | filecheck %s --check-prefix=SHADER
// RUN: sarek-opt %s -t wgsl | filecheck %s --check-prefix=SHADER
// A sarek.coopmat_wait waits for PTX's asynchronous warpgroup mmas (wgmma.wait_group 0); every other target's
// multiplies complete in order, so it lowers to nothing there: the statements around it stay as they were.
sarek.kernel @k(%c : !sarek.vec<f32> "c") {
  %z = sarek.constant 0 : i32
  %x = sarek.constant 1.0 : f32
  %p = sarek.elem_ref %c[%z] : !sarek.vec<f32>
  sarek.store %p, %x : !sarek.ref<f32>
  sarek.coopmat_wait
  sarek.store %p, %x : !sarek.ref<f32>
}
// C:       c[0] = 1.0f;
// C-NEXT:  c[0] = 1.0f;
// SHADER:      = 1.0
// SHADER-NEXT: = 1.0
