"""Semantics of sarek.interp, each checked on both executors against independently computed expectations."""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

from sarek.interp import FallbackWarning, InterpError, run
from sarek.interp.arith import cdiv, crem, wrap32
from sarek.tools.ir import parse_module

sys.path.insert(0, str(Path(__file__).parent))
from test_interp_kernels import FILES, LAUNCHES  # noqa: E402

EXECUTORS = ["reference", "fast"]


def _run_file(name: str, kernel: str, executor: str, ws: int | None = None):
    path = next(f for f in FILES if f.name == name)
    m = parse_module(path.read_text(), str(path))
    args, grid, block, w = LAUNCHES[kernel](m)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        run(m, kernel, args, grid, block, executor=executor, warp_size=ws or w)
    return args


@pytest.mark.parametrize("ex", EXECUTORS)
def test_c_integer_semantics(ex):
    x, y, o, n = _run_file("int_ops.mlir", "int_ops", ex)
    o = o.reshape(n, 16).astype(np.int64)
    for i in range(n):
        a, b = int(x[i]), int(y[i])
        want = [wrap32(cdiv(a, b)), crem(a, b), wrap32(a << (b & 31)), a >> (b & 31), wrap32(a * a),
                wrap32(a + 2**31 - 1), wrap32(b - a), a ^ b, wrap32(-a), ~a, 32 - (a & 0xFFFFFFFF).bit_length(),
                bin(a & 0xFFFFFFFF).count("1"), wrap32(abs(a)), min(a, b), wrap32((a * b) >> 32), int(a < b)]
        assert list(o[i]) == want, i
    assert o[0][0] == -2**31  # INT_MIN / -1 wraps
    assert list(o[2][:2]) == [-3, -1] and list(o[3][:2]) == [-3, 1]  # truncation toward zero


@pytest.mark.parametrize("ex", EXECUTORS)
def test_float32_f16_and_conversions(ex):
    x, y, o, h, q, n = _run_file("float_ops.mlir", "float_ops", ex)
    o = o.reshape(n, 8)
    with np.errstate(all="ignore"):
        assert np.isinf(o[0, 0])  # 2.5 / 0.0
        np.testing.assert_array_equal(o[1:, 0], x[1:n] / y[1:n])
        s = x[:n] + y[:n]  # float32 arithmetic, so (a + b) - b may differ from a
        np.testing.assert_array_equal(o[:, 1], s - y[:n])
        np.testing.assert_array_equal(h, s.astype(np.float16))  # rounded to half on store
    assert list(o[:2, 3]) == [3.0, -3.0]  # C round: half away from zero
    assert list(q[:6]) == [2, -2, 2**31 - 1, -2**31, 0, 0]  # truncation, saturation, NaN -> 0


@pytest.mark.parametrize("ex", EXECUTORS)
def test_atomics_return_old_values(ex):
    x, hist, old, mx, f, n = _run_file("atomics.mlir", "atomics", ex)
    b = x % 8
    np.testing.assert_array_equal(hist[:8], np.bincount(b, minlength=8))
    for i in range(n):
        assert old[i] == int(np.sum(b[:i] == b[i]))  # lane order
    assert mx[0] == x.max() and mx[1] == 1 and mx[2] == n - 1  # cas: thread 0 writes 0, thread 1 then 1
    # four blocks of 32 threads (the last partly idle); the shared counter's old values are 0..k-1 per block
    assert hist[8] == -sum(sum(range(min(32, n - 32 * k))) for k in range(4))
    np.testing.assert_allclose(f[0], np.float32(x.sum()), rtol=1e-6)
    np.testing.assert_allclose(f[n], f[0])  # the last thread saw the sum of all others


def _want_shuffle(v, d, ws, block, n):
    out = np.zeros((n, 4), np.int64)
    for t in range(n):
        base = t - t % block
        tid = t % block
        lane = tid % ws
        wbase = tid - lane
        x = int(d[t])
        srcs = [x if 0 <= x < ws else lane, lane + x if x >= 0 and lane + x < ws else lane,
                lane - x if 0 <= x <= lane else lane, (lane ^ x) if 0 <= (lane ^ x) < ws else lane]
        for k, s in enumerate(srcs):
            s = wbase + s
            out[t, k] = v[base + s] if s < block else v[t]
    return out


@pytest.mark.parametrize("ex", EXECUTORS)
@pytest.mark.parametrize("ws", [32, 8])
def test_warp_shuffles_guarded(ex, ws):
    v, d, o, lanes = _run_file("warp.mlir", "shuffles", ex, ws)
    n = len(v)
    np.testing.assert_array_equal(o.reshape(n, 4), _want_shuffle(v, d, ws, 40, n))
    np.testing.assert_array_equal(lanes, (np.arange(n) % 40) % ws + 4 * ws)


@pytest.mark.parametrize("ex", EXECUTORS)
def test_index_intrinsics_3d(ex):
    (o,) = _run_file("index3d.mlir", "index3d", ex)
    o = o.reshape(-1, 8)
    G, B = (2, 3, 2), (4, 2, 3)
    S = [g * b for g, b in zip(G, B)]
    for bz in range(2):
        for by in range(3):
            for bx in range(2):
                for tz in range(3):
                    for ty in range(2):
                        for tx in range(4):
                            gx, gy, gz = tx + bx * 4, ty + by * 2, tz + bz * 3
                            g = (gz * S[1] + gy) * S[0] + gx
                            assert list(o[g]) == [(tz * 100 + ty) * 100 + tx, (bz * 100 + by) * 100 + bx,
                                                  (3 * 100 + 2) * 100 + 4, (2 * 100 + 3) * 100 + 2, gx, S[0],
                                                  S[2], g]


def _first_multiple(k, lim):
    if k < 0:
        return -1
    for j in range(1, lim):
        if (j * k) % 7 == 0:
            return j
    return 0


@pytest.mark.parametrize("ex", EXECUTORS)
def test_divergent_control_flow(ex):
    x, o, n = _run_file("control.mlir", "control", ex)
    o = o.reshape(64, 6)
    for t in range(64):
        tid = t % 32
        xv = int(x[t]) if t < n else 0
        want = [sum(k * t for k in range(t % 5)), cdiv(1000, xv) if xv else -7, _first_multiple(xv, 8),
                sum(range(tid % 8, 8)), 7 - tid % 8 + 24, xv]
        assert list(o[t]) == want, t


@pytest.mark.parametrize("ex", EXECUTORS)
def test_records_are_values(ex):
    v, segs, o = _run_file("records.mlir", "records", ex)
    o = o.reshape(8, 6)
    t = np.arange(8)
    np.testing.assert_array_equal(o[:, 0], (t + 1) % 8)  # shared array of records: writable per slot
    np.testing.assert_array_equal(o[:, 1], 0)  # fresh slots are zeroed and independent
    np.testing.assert_array_equal(o[:, 2], t + 0.5)  # a record local never aliases vector storage
    np.testing.assert_array_equal(o[:, 3], 42)
    np.testing.assert_array_equal(v["x"], t + 0.5)
    np.testing.assert_array_equal(v["y"], t + 42.5)  # v[i].f = e writes storage in place
    np.testing.assert_array_equal(o[:, 4], 100)
    np.testing.assert_array_equal(o[:, 5], t * 2)  # the helper changed its own (deep) copy only
    np.testing.assert_array_equal(segs["a"]["x"], t * 2)
    np.testing.assert_array_equal(segs["tag"], 5 + t)


@pytest.mark.parametrize("ex", EXECUTORS)
def test_variant_tags_and_defaults(ex):
    cs, o, back = _run_file("variants.mlir", "variants", ex)
    o = o.reshape(6, 2)
    # C8 and C10 collide under the seed's hash mod 256; declaration indices keep them apart
    assert list(o[:, 0]) == [800, 1001, -1, 1003, 804, -1]
    assert list(o[:, 1]) == [11, 1, 11, 1, 11, 1]  # the unwritten slot decodes to the nullary None
    tags = back.view(np.uint8).reshape(6, -1)[:, :4].copy().view(np.int32).ravel()
    assert list(tags) == [0, 1, 0, 1, 0, 1]  # tags are declaration indices in storage too


def test_fast_falls_back_and_says_so():
    from sarek.interp import fast

    m = parse_module(NATIVE.replace("TEXT", ', python = "a[0] = np.float32(1)"'))
    a = np.zeros(4, np.float32)
    with pytest.warns(FallbackWarning, match="sarek.native"):
        run(m, "k", [a], (1, 1, 1), (4, 1, 1))
    assert a[0] == 1
    assert "nested deeper than 64" in fast.unsupported_reason(parse_module(_nested(65)), "deep")
    assert fast.unsupported_reason(parse_module(_nested(64)), "deep") is None


def _nested(depth: int) -> str:
    decls = [f"  sarek.record @r{depth - 1} {{f : f32}}"]
    for k in range(depth - 2, -1, -1):
        decls.append(f"  sarek.record @r{k} {{f : !sarek.record<@r{k + 1}>}}")
    body = ["    %x = sarek.constant 1.5 : f32", f"    %v{depth - 1} = sarek.make_record @r{depth - 1}(%x)"]
    for k in range(depth - 2, -1, -1):
        body.append(f"    %v{k} = sarek.make_record @r{k}(%v{k + 1})")
    body.append('    %l = sarek.let "l" %v0 : !sarek.record<@r0> loc("deep.py":7:5)')
    body.append("    %c0 = sarek.constant 0 : i32")
    body.append("    %p = sarek.elem_ref %o[%c0] : !sarek.vec<f32>")
    body.append("    sarek.store %p, %x : !sarek.ref<f32>")
    return ("builtin.module {\n" + "\n".join(decls) + '\n  sarek.kernel @deep(%o : !sarek.vec<f32> "o") {\n'
            + "\n".join(body) + "\n  }\n}\n")


@pytest.mark.parametrize("ex", EXECUTORS)
def test_detach_depth_bound(ex):
    m = parse_module(_nested(64))
    o = np.zeros(1, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        run(m, "deep", [o], (1, 1, 1), (1, 1, 1), executor=ex)
        assert o[0] == 1.5  # 64 nested records copy
        with pytest.raises(InterpError, match=r"deep.py:7:5: error: interp: cannot copy .* deeper than 64"):
            run(parse_module(_nested(65)), "deep", [o], (1, 1, 1), (1, 1, 1), executor=ex)


BARRIERS = """
builtin.module {
  sarek.kernel @k(%o : !sarek.vec<i32> "o") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c2 = sarek.constant 2 : i32
    %lo = sarek.binop lt %t, %c2 : i32
    sarek.if %lo {
      sarek.barrier loc("k.py":10:7)
    } BRANCH
  }
}
"""


@pytest.mark.parametrize("ex", EXECUTORS)
def test_partial_barrier_is_an_error_naming_it(ex):
    m = parse_module(BARRIERS.replace("BRANCH", ""))
    with pytest.raises(InterpError, match=r"k.py:10:7: error: interp: barrier reached by only 2 of 4 threads"):
        run(m, "k", [np.zeros(4, np.int32)], (1, 1, 1), (4, 1, 1), executor=ex)


@pytest.mark.parametrize("ex", EXECUTORS)
def test_different_barriers_is_an_error(ex):
    m = parse_module(BARRIERS.replace("BRANCH", 'else {\n      sarek.barrier loc("k.py":12:7)\n    }'))
    with pytest.raises(InterpError, match=r"k.py:1[02]:7: error: interp: .*barrier"):
        run(m, "k", [np.zeros(4, np.int32)], (1, 1, 1), (4, 1, 1), executor=ex)


@pytest.mark.parametrize("ex", EXECUTORS)
def test_barrier_uniform_in_its_block_is_fine(ex):
    # only block 0 takes the barrier, all of its threads: legal, and not a deadlock
    m = parse_module(BARRIERS.replace("thread_idx_x", "block_idx_x").replace("BRANCH", ""))
    run(m, "k", [np.zeros(4, np.int32)], (4, 1, 1), (4, 1, 1), executor=ex)


OOB = """
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a") {
    %t = sarek.intrinsic "global_thread_id"() : () -> i32
    %x = sarek.array_read %a[%t] : !sarek.vec<f32> loc("oob.py":3:9)
    %c0 = sarek.constant 0 : i32
    %c4 = sarek.constant 4 : i32
    %d = sarek.binop sub %t, %c4 : i32
    %z = sarek.binop div %c0, %d : i32 loc("oob.py":4:9)
  }
}
"""


@pytest.mark.parametrize("ex", EXECUTORS)
def test_bounds_checked_with_location(ex):
    with pytest.raises(InterpError, match=r"oob.py:3:9: error: interp: index 4 out of bounds .* length 4"):
        run(parse_module(OOB), "k", [np.zeros(4, np.float32)], (1, 1, 1), (5, 1, 1), executor=ex)
    with pytest.raises(InterpError, match=r"oob.py:4:9: .*integer division by zero"):
        run(parse_module(OOB), "k", [np.zeros(8, np.float32)], (1, 1, 1), (5, 1, 1), executor=ex)


NATIVE = """
builtin.module {
  sarek.kernel @k(%a : !sarek.vec<f32> "a") {
    sarek.native {cuda = "a[0] = 1;"TEXT} loc("n.py":2:3)
  }
}
"""


@pytest.mark.parametrize("ex", EXECUTORS)
def test_native_refused_unless_python(ex):
    with pytest.raises(InterpError, match=r"n.py:2:3: .*sarek.native has no 'python' text"), \
            warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        run(parse_module(NATIVE.replace("TEXT", "")), "k", [np.zeros(4, np.float32)], (1, 1, 1), (4, 1, 1),
            executor=ex)
    a = np.zeros(4, np.float32)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FallbackWarning)
        run(parse_module(NATIVE.replace("TEXT", ', python = "a[thread_idx[0]] = np.float32(2)"')), "k", [a],
            (1, 1, 1), (4, 1, 1), executor=ex)
    assert list(a) == [2, 2, 2, 2]


@pytest.mark.parametrize("ex", EXECUTORS)
def test_divergent_shuffle_is_an_error(ex):
    src = """
builtin.module {
  sarek.kernel @k(%o : !sarek.vec<i32> "o") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c2 = sarek.constant 2 : i32
    %lo = sarek.binop lt %t, %c2 : i32
    sarek.if %lo {
      %s = sarek.intrinsic "warp_shuffle"(%t, %c2) : (i32, i32) -> i32 loc("w.py":5:5)
    }
  }
}
"""
    with pytest.raises(InterpError, match=r"w.py:5:5: .*only some lanes"):
        run(parse_module(src), "k", [np.zeros(4, np.int32)], (1, 1, 1), (4, 1, 1), executor=ex)


def test_scalar_record_and_variant_arguments():
    src = """
builtin.module {
  sarek.record @p {x : f32, n : i32}
  sarek.variant @v {A, B(i64)}
  sarek.kernel @k(%r : !sarek.record<@p> "r", %s : !sarek.variant<@v> "s", %o : !sarek.vec<f32> "o") {
    %x = sarek.field %r "x" : f32
    %c0 = sarek.constant 0 : i32
    %p = sarek.elem_ref %o[%c0] : !sarek.vec<f32>
    %y = sarek.match_expr %s : !sarek.variant<@v> -> f32 {
      case "A" {
        sarek.yield %x : f32
      }
      case "B"(%b: i64 "b") {
        %bf = sarek.cast %b : i64 to f32
        sarek.yield %bf : f32
      }
    }
    sarek.store %p, %y : !sarek.ref<f32>
  }
}
"""
    m = parse_module(src)
    o = np.zeros(1, np.float32)
    run(m, "k", [{"x": 2.5, "n": 1}, ("A",), o], 1, 1, executor="reference")
    assert o[0] == 2.5
    run(m, "k", [{"x": 2.5, "n": 1}, ("B", 7), o], 1, 1, executor="reference")
    assert o[0] == 7
    from sarek.dialect.sarek import RecordType
    from sarek.interp.common import Types

    rec = np.zeros(1, Types.of(m).numpy_dtype(RecordType("p")))[0]
    rec["x"] = 4.0
    run(m, "k", [rec, ("A",), o], 1, 1, executor="reference")
    assert o[0] == 4.0


@pytest.mark.parametrize("ex", EXECUTORS)
def test_f16_rounded_on_store_and_helpers_have_their_own_scope(ex):
    src = """
builtin.module {
  sarek.helper @h(%x : f32 "x") -> f32 {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %tf = sarek.cast %t : i32 to f32
    %r = sarek.binop add %x, %tf : f32
    sarek.return %r : f32
  }
  sarek.kernel @k(%o : !sarek.vec<f32> "o") {
    %t = sarek.intrinsic "thread_idx_x"() : () -> i32
    %c = sarek.constant 1.0009765625 : f32
    %h = sarek.cast %c : f32 to f16
    %x = sarek.constant 0.0001 : f16
    %m = sarek.let_mut "m" %x : f16
    %hv = sarek.load %m : !sarek.ref<f16>
    %s = sarek.binop add %h, %hv : f16
    sarek.store %m, %s : !sarek.ref<f16>
    %fin = sarek.load %m : !sarek.ref<f16>
    %f = sarek.cast %fin : f16 to f32
    %r = sarek.call @h(%f) : (f32) -> f32
    %p = sarek.elem_ref %o[%t] : !sarek.vec<f32>
    sarek.store %p, %r : !sarek.ref<f32>
  }
}
"""
    o = np.zeros(3, np.float32)
    run(parse_module(src), "k", [o], 1, 3, executor=ex)
    want = np.float32(np.float16(np.float32(np.float16(1.0009765625)) + np.float32(np.float16(0.0001))))
    np.testing.assert_array_equal(o, want + np.arange(3, dtype=np.float32))


@pytest.mark.parametrize("ex", EXECUTORS)
def test_divergent_records_and_variants(ex):
    x, o, st, vs = _run_file("aggregates.mlir", "aggregates", ex)
    o = o.reshape(32, 2)
    raw = vs.view(np.uint8).reshape(32, -1)
    tags = raw[:, :4].copy().view(np.int32).ravel()
    for t, xv in enumerate(x.tolist()):
        if xv < 0:
            want, tag = [0, -1], 1
        elif xv % 3 == 0:
            want, tag = [xv, int(np.float32(xv) * np.float32(0.5))], 2
        else:
            want, tag = [2 * xv, 0], 0
        assert list(o[t]) == want, t
        assert [int(st["sum"][t]), int(st["n"][t])] == want
        # lanes t % 4 == 0 keep the vector's old value (tag 1, Err) unless the default arm stored Err itself
        assert tags[t] == (tag if t % 4 else 1), t
        if t % 4 and tag == 2:
            assert list(raw[t, 4:12].copy().view(np.int32)) == [xv, 1]
            assert raw[t, 12:16].copy().view(np.float32)[0] == np.float32(xv) * np.float32(0.5)


@pytest.mark.parametrize("ex", EXECUTORS)
def test_vector_arguments_are_checked_and_may_alias(ex):
    path = next(f for f in FILES if f.name == "vector_add.mlir")
    m = parse_module(path.read_text())
    with pytest.raises(InterpError, match="argument 'a' must be a float32 array"):
        run(m, "vector_add", [np.zeros(4), np.zeros(4, np.float32), np.zeros(4, np.float32), 4], 1, 4, executor=ex)
    a = np.arange(4, dtype=np.float32)
    run(m, "vector_add", [a, a, a, 4], 1, 4, executor=ex)  # c = a + b with c, a and b one array
    assert list(a) == [0, 2, 4, 6]


def test_a_refused_kernel_does_not_block_its_neighbours():
    src = NATIVE.replace("TEXT", "").replace("builtin.module {", """builtin.module {
  sarek.kernel @fine(%a : !sarek.vec<f32> "a") {
    %c0 = sarek.constant 0 : i32
    %one = sarek.constant 1.0 : f32
    %p = sarek.elem_ref %a[%c0] : !sarek.vec<f32>
    sarek.store %p, %one : !sarek.ref<f32>
  }""")
    m = parse_module(src)
    a = np.zeros(2, np.float32)
    run(m, "fine", [a], 1, 1, executor="reference")
    assert a[0] == 1
    with pytest.raises(InterpError, match="sarek.native has no 'python' text"):
        run(m, "k", [a], 1, 1, executor="reference")


def test_a_one_thread_launch_runs_the_compiled_serial_path_with_the_same_result(monkeypatch: pytest.MonkeyPatch):
    """A one-thread launch under executor="fast" runs the reference executor's compiled code (the vectorized
    executor pays numpy's per-op overhead on one lane); its result equals the vectorized executor's."""
    from sarek.interp import fast, reference

    m = parse_module(open(Path(__file__).parents[2] / "benchmarks/bench_interp.py").read().split('SIMPLE_OPS = """')[1]
                     .split('"""')[0])
    want = np.zeros(1, np.int32)
    fast.run(m, "simple_ops", [want, 50], (1, 1, 1), (1, 1, 1), 32)
    assert want[0] == sum((k * 3) ^ 0 for k in range(50))
    calls: list[str] = []
    original = reference.run

    def spy(*a: object) -> None:
        calls.append("reference")
        original(*a)  # type: ignore[arg-type]

    monkeypatch.setattr(reference, "run", spy)
    got = np.zeros(1, np.int32)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        run(m, "simple_ops", [got, 50], 1, 1, executor="fast")
    assert calls == ["reference"] and got[0] == want[0]


def test_a_one_thread_launch_on_a_big_array_stays_on_the_vectorized_executor(monkeypatch: pytest.MonkeyPatch):
    """The reference executor copies arrays into Python lists: a one-thread launch on test_runtime_large's
    2.5e9-element memmap grew to 24 GB and was killed. Past SERIAL_MAX_ELEMENTS the fast executor runs it."""
    from sarek import interp
    from sarek.interp import reference

    m = parse_module(open(Path(__file__).parents[2] / "benchmarks/bench_interp.py").read().split('SIMPLE_OPS = """')[1]
                     .split('"""')[0])
    monkeypatch.setattr(reference, "run", lambda *a: pytest.fail("the reference executor ran"))  # type: ignore[misc]
    big = np.zeros(interp.SERIAL_MAX_ELEMENTS + 1, np.int32)
    run(m, "simple_ops", [big, 50], 1, 1, executor="fast")
    assert big[0] == sum((k * 3) ^ 0 for k in range(50))
