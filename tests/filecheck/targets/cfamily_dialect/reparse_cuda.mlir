// The lowered IR (custom sarek_c syntax) parses back and prints the same CUDA source: each input is lowered,
// printed, re-parsed by a second sarek-opt and printed to C, then checked against the full-output CHECK lines
// of the matching test in ../cuda/.
// RUN: sarek-opt %S/../Inputs/f16_storage.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/f16_storage.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/f64_math.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/f64_math.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/helpers_chain.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/helpers.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/histogram.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/histogram.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/cf_math.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/math.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/matmul_tiled.mlir -p 'sarek-pipeline{target=cuda opt=off}' | sarek-opt -t cuda | filecheck %S/../cuda/matmul_tiled.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/cf_misc.mlir -p 'sarek-pipeline{target=cuda opt=off}' | sarek-opt -t cuda | filecheck %S/../cuda/misc.mlir --match-full-lines
// RUN: sarek-opt %S/../../../../examples/record.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/record.mlir --match-full-lines
// RUN: sarek-opt %S/../../../../examples/reduce.mlir -p 'sarek-pipeline{target=cuda opt=off}' | sarek-opt -t cuda | filecheck %S/../cuda/reduce.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/saxpy.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/saxpy.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/cf_types.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/types.mlir --match-full-lines
// RUN: sarek-opt %S/../../../../examples/variant_match.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/variant_match.mlir --match-full-lines
// RUN: sarek-opt %S/../../../../examples/vector_add.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/vector_add.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/warp_reduce.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/warp_reduce.mlir --match-full-lines
// RUN: sarek-opt %S/../Inputs/while_mutables.mlir -p 'sarek-pipeline{target=cuda}' | sarek-opt -t cuda | filecheck %S/../cuda/while_mutables.mlir --match-full-lines
