"""The C-family lowering's readability rules: single-use pure expressions inline, binders keep their names,
temporaries only where evaluation order or reuse demands them."""

from sarek.targets import emit_source
from sarek.tools.ir import parse_module


def cuda(body: str, params: str = '%v : !sarek.vec<i32> "v", %w : !sarek.vec<i32> "w"', helpers: str = "") -> str:
    text = f"builtin.module {{\n{helpers}\n  sarek.kernel @k({params}) {{\n{body}\n  }}\n}}"
    src = emit_source(parse_module(text), "cuda", opt="off")  # the lowering itself, not the optimisation passes
    start = src.index("__global__")
    return src[src.index("{", start) + 1:src.rindex("}")].strip()


def lines(s: str) -> list[str]:
    return [x.strip() for x in s.splitlines() if x.strip()]


def test_single_use_pure_expressions_inline_and_lets_keep_names():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %v[%z] : !sarek.vec<i32>
    %one = sarek.constant 1 : i32
    %y = sarek.binop add %x, %one : i32
    %t = sarek.let "total" %y : i32
    %p = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    sarek.store %p, %t : !sarek.ref<i32>''')
    assert lines(out) == ["int total = (v[0] + 1);", "w[0] = total;"]


def test_reused_value_gets_one_temporary():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %v[%z] : !sarek.vec<i32>
    %y = sarek.binop mul %x, %x : i32
    %p = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    sarek.store %p, %y : !sarek.ref<i32>''')
    assert lines(out) == ["int sarek_x = v[0];", "w[0] = (sarek_x * sarek_x);"]


def test_read_is_not_moved_across_a_store_to_what_it_reads():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %x = sarek.array_read %v[%z] : !sarek.vec<i32>
    %p = sarek.elem_ref %v[%z] : !sarek.vec<i32>
    %one = sarek.constant 1 : i32
    sarek.store %p, %one : !sarek.ref<i32>
    %q = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    sarek.store %q, %x : !sarek.ref<i32>''')
    assert lines(out) == ["int sarek_x = v[0];", "v[0] = 1;", "w[0] = sarek_x;"]


def test_mutable_read_is_a_name_until_the_mutable_changes():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %m = sarek.let_mut "m" %z : i32
    %old = sarek.load %m : !sarek.ref<i32>
    %two = sarek.constant 2 : i32
    sarek.store %m, %two : !sarek.ref<i32>
    %p = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    %s = sarek.binop add %old, %two : i32
    sarek.store %p, %s : !sarek.ref<i32>''')
    assert lines(out) == ["int m = 0;", "int sarek_old = m;", "m = 2;", "w[0] = (sarek_old + 2);"]


def test_atomic_keeps_its_place_before_a_later_read():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %old = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<i32>, i32, i32) -> i32
    %now = sarek.array_read %v[%z] : !sarek.vec<i32>
    %s = sarek.binop add %old, %now : i32
    %p = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    sarek.store %p, %s : !sarek.ref<i32>''')
    assert lines(out) == ["int sarek_old = atomicAdd(&v[0], 1);", "w[0] = (sarek_old + v[0]);"]


def test_unused_atomic_is_a_statement_and_unused_pure_values_vanish():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %one = sarek.constant 1 : i32
    %unused = sarek.binop add %one, %one : i32
    %old = sarek.intrinsic "atomic_add"(%v, %z, %one) : (!sarek.vec<i32>, i32, i32) -> i32''')
    assert lines(out) == ["atomicAdd(&v[0], 1);"]


def test_value_if_with_statements_becomes_an_if_statement():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %c = sarek.constant true
    %r = sarek.if_expr %c -> i32 {
      %x = sarek.array_read %v[%z] : !sarek.vec<i32>
      %l = sarek.let "l" %x : i32
      sarek.yield %l : i32
    } else {
      sarek.yield %z : i32
    }
    %p = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    sarek.store %p, %r : !sarek.ref<i32>''')
    assert lines(out) == ["int sarek_r;", "if (1) {", "int l = v[0];", "sarek_r = l;", "} else {", "sarek_r = 0;",
                          "}", "w[0] = sarek_r;"]


def test_literals():
    out = cuda('''
    %a = sarek.constant 2.0 : f64
    %b = sarek.constant 0.1 : f32
    %c = sarek.constant -2147483648 : i32
    %d = sarek.constant 7 : i64
    %e = sarek.constant false
    %f = sarek.let "f" %a : f64
    %g = sarek.let "g" %b : f32
    %h = sarek.let "h" %c : i32
    %i = sarek.let "i" %d : i64
    %j = sarek.let "j" %e : i1''', params="")
    assert lines(out) == ["double f = 2.0;", "float g = 0.1f;", "int h = (-2147483647 - 1);", "long long i = 7LL;",
                          "int j = 0;"]


def test_index_is_evaluated_where_the_place_is_used():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %j = sarek.array_read %w[%z] : !sarek.vec<i32>
    %p = sarek.elem_ref %v[%j] : !sarek.vec<i32>
    %five = sarek.constant 5 : i32
    %q = sarek.elem_ref %w[%z] : !sarek.vec<i32>
    sarek.store %q, %five : !sarek.ref<i32>
    sarek.store %p, %five : !sarek.ref<i32>''')
    assert lines(out) == ["int sarek_j = w[0];", "w[0] = 5;", "v[sarek_j] = 5;"]


def test_loop_bound_read_once_when_the_body_changes_it():
    out = cuda('''
    %z = sarek.constant 0 : i32
    %m = sarek.let_mut "m" %z : i32
    %hi = sarek.load %m : !sarek.ref<i32>
    sarek.for "i" %i = %z to %hi step 1 : i32 {
      %one = sarek.constant 1 : i32
      %cur = sarek.load %m : !sarek.ref<i32>
      %n = sarek.binop sub %cur, %one : i32
      sarek.store %m, %n : !sarek.ref<i32>
    }''')
    assert lines(out) == ["int m = 0;", "int sarek_hi = m;", "for (int i = 0; i < sarek_hi; i++) {", "m = (m - 1);", "}"]
