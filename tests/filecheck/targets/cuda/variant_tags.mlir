// RUN: sarek-opt %S/../Inputs/variant_tags.mlir -p 'sarek-pipeline{target=cuda}' -t cuda | filecheck %s
// RUN: sarek-opt %S/../Inputs/variant_tags.mlir -p 'sarek-pipeline{target=opencl}' -t opencl | filecheck %s
// C enumerators share one namespace: a constructor name two variants declare becomes <variant>_<ctor> in both
// (a_Leaf is already @c's bare name, so @a's gets a suffix); unshared names stay bare, as Sarek spells them.

// CHECK: enum { a_Leaf_1 = 0, Node = 1 };
// CHECK: r.tag = a_Leaf_1;
// CHECK: enum { b_Leaf = 0, Other = 1 };
// CHECK: r.tag = b_Leaf;
// CHECK: enum { Only = 0, a_Leaf = 1 };
// CHECK: r.tag = a_Leaf;
// CHECK: sarek_x.tag == a_Leaf_1
// CHECK: case b_Leaf: {
