// RUN: sarek-opt %s -p 'sarek-legalize-names{target=cuda}' --verify-diagnostics --split-input-file | filecheck %s

// A name the function's native text mentions cannot be renamed; one the target cannot declare is an error.
builtin.module {
  sarek.kernel @k(%n : i32 "n") {
    %a = sarek.let "int" %n : i32
    sarek.native {cuda = "int = 3;"}
  }
}
// CHECK: error: cuda: local 'int' is reserved and cannot be renamed: the sarek.native text of its function mentions it

// -----
// A helper the native text calls keeps its name, so a reserved one is refused too.
builtin.module {
  sarek.helper @sqrt(%x : i32 "x") -> i32 {
    sarek.return %x : i32
  }
  sarek.kernel @k(%n : i32 "n") {
    sarek.native {cuda = "sqrt(n);"}
  }
}
// CHECK: error: cuda: helper 'sqrt' is reserved and cannot be renamed: the sarek.native text of its function mentions it
