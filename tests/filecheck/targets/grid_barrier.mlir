// RUN: sarek-opt %S/Inputs/grid_barrier.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s --check-prefix=CUDA
// RUN: sarek-opt %S/Inputs/grid_barrier.mlir -p 'sarek-pipeline{target=ptx}' -t ptx | filecheck %s --check-prefix=PTX
// A grid barrier: CUDA calls cooperative_groups' grid sync. PTX has sarek's own barrier (no driver workspace):
// the entry takes one more parameter, the address of a u32 the runtime zeroes before each cooperative launch;
// between two block barriers thread 0 of each block fences, adds 1 (release) and spins on acquire loads until
// the counter reaches the end of its generation (old - old % blocks + blocks: any number of barriers per launch).
// The other targets refuse it (passes/reject_features.mlir).

// CUDA:      #include <cooperative_groups.h>
// CUDA:      x[sarek_i] = (float)sarek_i;
// CUDA-NEXT: cooperative_groups::this_grid().sync();
// CUDA-NEXT: y[sarek_i] = x[

// PTX:      .param .s32 two_phase_param_3,
// PTX-NEXT: .param .u64 two_phase_grid_counter
// PTX-NEXT: )
// PTX:      ld.param.u64 [[CTR:%ud[0-9]+]], [two_phase_grid_counter];
// PTX-NEXT: cvta.to.global.u64 [[CTR]], [[CTR]];
// PTX:      st.global.f32
// PTX-NEXT: bar.sync 0;
// PTX-NEXT: mov.u32 [[X:%u[0-9]+]], %tid.x;
// PTX:      or.b32 [[XY:%u[0-9]+]], [[X]],
// PTX-NEXT: or.b32 [[T:%u[0-9]+]], [[XY]],
// PTX-NEXT: setp.ne.u32 [[NOT0:%p[0-9]+]], [[T]], 0;
// PTX-NEXT: @[[NOT0]] bra [[AFTER:\$L_grid_after_[0-9]+]];
// PTX:      mul.lo.u32 [[XY2:%u[0-9]+]], {{%u[0-9]+}}, {{%u[0-9]+}};
// PTX-NEXT: mul.lo.u32 [[NB:%u[0-9]+]], [[XY2]],
// PTX-NEXT: membar.gl;
// PTX-NEXT: atom.release.gpu.global.add.u32 [[OLD:%u[0-9]+]], [[[CTR]]], 1;
// PTX-NEXT: rem.u32 [[R:%u[0-9]+]], [[OLD]], [[NB]];
// PTX-NEXT: sub.u32 [[BASE:%u[0-9]+]], [[OLD]], [[R]];
// PTX-NEXT: add.u32 [[GOAL:%u[0-9]+]], [[BASE]], [[NB]];
// PTX-NEXT: [[SPIN:\$L_grid_spin_[0-9]+]]:
// PTX-NEXT: ld.acquire.gpu.global.u32 [[CUR:%u[0-9]+]], [[[CTR]]];
// PTX-NEXT: setp.lt.u32 [[WAIT:%p[0-9]+]], [[CUR]], [[GOAL]];
// PTX-NEXT: @[[WAIT]] bra [[SPIN]];
// PTX-NEXT: membar.gl;
// PTX-NEXT: [[AFTER]]:
// PTX-NEXT: bar.sync 0;
// PTX:      ld.global.f32
