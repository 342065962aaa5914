// RUN: sarek-opt %S/Inputs/grid_barrier.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: not sarek-opt %S/Inputs/grid_barrier.mlir -p 'sarek-pipeline{target=ptx}' -t ptx 2>&1 | filecheck %s --check-prefix=PTX
// A grid barrier: CUDA calls cooperative_groups' grid sync. PTX refuses it: nvcc's barrier sequence on the
// cooperative launch's workspace (%envreg1/%envreg2) faulted on the H200, where the driver's JIT loads the PTX.
// PTX: error: PTX: grid-wide barriers not yet supported (the driver's JIT gives a PTX module no grid-sync workspace
// The other targets refuse it (passes/reject_features.mlir).

// CUDA:      #include <cooperative_groups.h>
// CUDA:      x[sarek_i] = (float)sarek_i;
// CUDA-NEXT: cooperative_groups::this_grid().sync();
// CUDA-NEXT: y[sarek_i] = x[

