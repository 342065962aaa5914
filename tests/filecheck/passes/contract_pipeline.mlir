// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx}' | filecheck %s --check-prefix=EXACT
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx fma=on}' | filecheck %s --check-prefix=FUSED
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx}' --print-between-passes 2>&1 | filecheck %s --check-prefix=STEPS
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -t ptx | filecheck %s --check-prefix=SRC

// The PTX pipeline ends with sarek-contract: at the default (fma=off) `alpha * x[i] + y[i]` stays
// `mul.rn` + `add.rn` (bit-identical to the interpreter); fma=on lets ptxas fuse them.
// EXACT: sarek_ptx.mul {mods = ["rn", "f32"]
// EXACT: sarek_ptx.add {mods = ["rn", "f32"]
// FUSED: sarek_ptx.mul {mods = ["f32"]
// FUSED: sarek_ptx.add {mods = ["f32"]
// STEPS: IR after sarek-lower-ptx:
// STEPS: sarek_ptx.add {mods = ["rn", "f32"]
// SRC: mul.rn.f32
// SRC: add.rn.f32
