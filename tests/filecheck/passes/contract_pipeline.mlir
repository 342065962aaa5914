// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx fp=exact}' | filecheck %s --check-prefix=EXACT
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx}' | filecheck %s --check-prefix=FUSED
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx fma=on fp=exact}' | filecheck %s --check-prefix=FUSED
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx fp=exact}' --print-between-passes 2>&1 | filecheck %s --check-prefix=STEPS
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -t 'ptx{fp=exact}' | filecheck %s --check-prefix=SRC
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -t ptx | filecheck %s --check-prefix=SRCFUSED
// RUN: sarek-opt %S/../targets/Inputs/saxpy.mlir -p 'sarek-pipeline{target=ptx fp=fast}' --verify-diagnostics | filecheck %s --check-prefix=BAD

// The PTX pipeline ends with sarek-contract. At the default policy (fp=default, what NVRTC users get)
// `alpha * x[i] + y[i]` is `mul.f32` + `add.f32`, which ptxas fuses into fma; at fp=exact it stays
// `mul.rn` + `add.rn` (bit-identical to the interpreter); an explicit fma=on|off overrides the policy.
// EXACT: sarek_ptx.mul {mods = ["rn", "f32"]
// EXACT: sarek_ptx.add {mods = ["rn", "f32"]
// FUSED: sarek_ptx.mul {mods = ["f32"]
// FUSED: sarek_ptx.add {mods = ["f32"]
// STEPS: IR after sarek-canonicalize:
// STEPS: IR after sarek-lower-ptx:
// STEPS: sarek_ptx.add {mods = ["rn", "f32"]
// SRC: mul.rn.f32
// SRC: add.rn.f32
// SRCFUSED: mul.f32
// SRCFUSED: add.f32
// BAD: error: sarek-pipeline: fp must be one of default, exact, not 'fast'
