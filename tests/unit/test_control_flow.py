"""Issue 15's control flow in both interpreter executors, against what Python computes for the same code:
break / continue in while and for (uniform and per-thread), nested loops, break inside a match, early return
in kernels and helpers (with and without a value, from inside loops), range with a run-time step (negative,
per-thread, zero: no iteration), assert (free in release runs), and their IR."""

import numpy as np
import pytest

import sarek
from sarek import Vec, device, f32, i32, kernel, variant
from sarek.dialect import sarek as s
from sarek.gpu import global_thread_id, thread_idx_x

EXECUTORS = ["interp", "interp-ref"]


def _run(k, *args, threads=8, block=8, dev="interp"):
    k.launch(*args, threads=threads, block=block, device=dev)


@kernel
def per_thread_break(o: Vec[i32], n: i32):
    t = global_thread_id
    i = 0
    acc = 0
    while i < n:
        if i == t:
            break
        if i % 2 == 1:
            i += 1
            continue
        acc += i
        i += 1
    o[t] = acc * 100 + i


def _per_thread_break_py(t, n):
    i = acc = 0
    while i < n:
        if i == t:
            break
        if i % 2 == 1:
            i += 1
            continue
        acc += i
        i += 1
    return acc * 100 + i


@pytest.mark.parametrize("dev", EXECUTORS)
def test_while_break_continue_per_thread(dev):
    o = np.zeros(16, np.int32)
    _run(per_thread_break, o, 11, threads=16, block=16, dev=dev)
    assert o.tolist() == [_per_thread_break_py(t, 11) for t in range(16)]


@kernel
def nested(o: Vec[i32], n: i32):
    t = global_thread_id
    total = 0
    for i in range(n):
        if i > t + 2:
            break
        for j in range(n):
            if j == i:
                continue
            if j > t:
                break
            total += i * 10 + j
    o[t] = total


@pytest.mark.parametrize("dev", EXECUTORS)
def test_nested_loops_break_inner_only(dev):
    def py(t, n):
        total = 0
        for i in range(n):
            if i > t + 2:
                break
            for j in range(n):
                if j == i:
                    continue
                if j > t:
                    break
                total += i * 10 + j
        return total

    o = np.zeros(8, np.int32)
    _run(nested, o, 7, dev=dev)
    assert o.tolist() == [py(t, 7) for t in range(8)]


@kernel
def steps(o: Vec[i32], lo: i32, hi: i32, st: i32):
    t = global_thread_id
    c = 0
    last = -99
    for i in range(lo + t, hi, st + t % 2):
        c += 1
        last = i
    o[2 * t] = c
    o[2 * t + 1] = last


@pytest.mark.parametrize("dev", EXECUTORS)
@pytest.mark.parametrize("lo,hi,st", [(0, 20, 3), (20, -5, -4), (5, 5, 2), (0, 10, 0), (3, 1, 1), (-7, 9, -1)])
def test_range_runtime_step(dev, lo, hi, st):
    """Python's range per thread (the step differs between even and odd threads); a zero step runs nothing."""
    o = np.zeros(16, np.int32)
    _run(steps, o, lo, hi, st, dev=dev)
    want = []
    for t in range(8):
        r = range(lo + t, hi, st + t % 2) if st + t % 2 else range(0)
        want += [len(r), r[-1] if len(r) else -99]
    assert o.tolist() == want


@kernel
def uniform_step(o: Vec[i32], n: i32, st: i32):
    c = 0
    for i in range(n, -1, st):
        c += i
        if c > 1000:
            break
    o[global_thread_id] = c


@pytest.mark.parametrize("dev", EXECUTORS)
def test_range_uniform_negative_step(dev):
    o = np.zeros(8, np.int32)
    _run(uniform_step, o, 100, -7, dev=dev)
    c = 0
    for i in range(100, -1, -7):
        c += i
        if c > 1000:
            break
    assert o.tolist() == [c] * 8


@device
def first_at_least(v: Vec[f32], n: i32, x: f32) -> i32:
    for i in range(n):
        if v[i] >= x:
            return i
    return -1


@device
def bump(v: Vec[f32], i: i32) -> None:
    if v[i] < 0.0:
        return
    v[i] += 10.0


@kernel
def returns(v: Vec[f32], w: Vec[f32], o: Vec[i32], n: i32):
    t = global_thread_id
    if t >= n:
        return
    o[t] = first_at_least(v, n, f32(t) * 0.25)
    for k in range(3):
        if k == t:
            return
    bump(w, t)


@pytest.mark.parametrize("dev", EXECUTORS)
def test_early_returns(dev):
    v = np.array([0.1, -0.5, 0.3, 0.9, -2.0, 1.5, 0.2, 0.0], np.float32)
    o = np.zeros(8, np.int32)
    want_o = [next((i for i in range(7) if v[i] >= t * 0.25), -1) for t in range(7)] + [0]
    w = v.copy()
    want_w = v.copy()
    for t in range(3, 7):
        if want_w[t] >= 0.0:
            want_w[t] += 10.0
    _run(returns, v, w, o, 7, dev=dev)
    assert o.tolist() == want_o
    np.testing.assert_array_equal(w, want_w)


@variant
class Cmd:
    Stop: ()
    Skip: ()
    Add: i32


@kernel
def commands(cmds: Vec[Cmd], o: Vec[i32], m: i32):
    t = global_thread_id
    acc = 0
    for j in range(m):
        match cmds[t * m + j]:
            case Cmd.Stop():
                if t % 2 == 0:
                    break
                acc += 1000
            case Cmd.Skip():
                continue
            case Cmd.Add(x):
                acc += x
        acc += 1
    o[t] = acc


@pytest.mark.parametrize("dev", [*EXECUTORS, "opencl:0", "vulkan:0", "vulkan-glsl:0"])
def test_break_inside_match(dev):
    if dev not in [d.name for d in sarek.devices()]:
        pytest.fail(f"device {dev} missing")
    rng = np.random.default_rng(5)
    m = 6
    vals = [[Cmd.Stop(), Cmd.Skip(), Cmd.Add(int(rng.integers(1, 9)))][int(rng.integers(0, 3))] for _ in range(8 * m)]
    o = np.zeros(8, np.int32)
    _run(commands, Cmd.pack(vals), o, m, dev=dev)
    want = []
    for t in range(8):
        acc = 0
        for v in vals[t * m:(t + 1) * m]:
            if v.ctor == "Stop":
                if t % 2 == 0:
                    break
                acc += 1000
            elif v.ctor == "Skip":
                continue
            else:
                acc += v[0]
            acc += 1
        want.append(acc)
    assert o.tolist() == want


@kernel
def checked(o: Vec[i32], n: i32):
    assert n > 100, "n must exceed 100"
    o[global_thread_id] = n


@pytest.mark.parametrize("dev", EXECUTORS)
def test_assert_free_in_release(dev):
    """A failing assert changes nothing in a release run (debug mode checks it)."""
    o = np.zeros(8, np.int32)
    _run(checked, o, 5, dev=dev)
    assert o.tolist() == [5] * 8
    a = [op for op in checked.module.walk() if isinstance(op, s.AssertOp)]
    assert len(a) == 1 and a[0].message.data == "n must exceed 100"
    for target in ("cuda", "opencl", "glsl", "wgsl", "ptx"):  # release builds drop it and its comparison
        assert "100" not in checked.source(target), target


def test_runtime_step_emits_zero_step_assert():
    """The zero-step hook of debug mode: `range(a, b, s)` with a run-time s asserts s != 0 before the loop."""
    ops = list(steps.module.walk())
    f = next(op for op in ops if isinstance(op, s.ForOp))
    assert f.step_value is None
    a = f.prev_op
    assert isinstance(a, s.AssertOp) and a.message.data == "range() step must not be zero"
    cond = a.cond.owner
    assert isinstance(cond, s.BinOp) and cond.kind.data.value == "ne" and cond.lhs is f.step_operand


def test_ir_of_the_constructs():
    text = per_thread_break.ir()
    assert "sarek.break" in text and "sarek.continue" in text
    assert "sarek.return" in returns.ir()
    assert 'step %' in steps.ir()


@kernel
def bits(x: Vec[f32], o: Vec[i32], back: Vec[f32]):
    t = global_thread_id
    o[t] = sarek.bitcast(x[t], i32)
    back[t] = sarek.bitcast(o[t] + 1, f32)


@pytest.mark.parametrize("dev", EXECUTORS)
def test_bitcast_front_end(dev):
    x = np.array([1.0, -2.5, 0.0, 3.75, 1e-30, -0.0, 7.0, 2.0], np.float32)
    o = np.zeros(8, np.int32)
    back = np.zeros(8, np.float32)
    _run(bits, x, o, back, dev=dev)
    np.testing.assert_array_equal(o, x.view(np.int32))
    np.testing.assert_array_equal(back.view(np.int32), x.view(np.int32) + 1)
    assert sarek.bitcast is sarek.gpu.bitcast


@kernel
def divergent_return_then_barrier(o: Vec[i32]):
    if thread_idx_x < 4:
        return
    sarek.gpu.barrier()
    o[thread_idx_x] = 1


def test_divergent_return_before_barrier_refused():
    with pytest.raises(sarek.CompileError, match=r"barrier\(\) under thread-divergent control flow"):
        divergent_return_then_barrier.compile()


@kernel
def step_once(o: Vec[i32], n: i32):
    s = 1
    if n > 0:
        s = 2
    c = 0
    for i in range(0, n, s):
        s = 5
        c += 1
    o[global_thread_id] = c * 100 + s


@pytest.mark.parametrize("dev", [*EXECUTORS, "opencl:0", "vulkan:0", "vulkan-glsl:0"])
def test_range_step_evaluated_once(dev):
    """Python evaluates range()'s arguments once: assigning the step's variable in the body changes nothing."""
    o = np.zeros(4, np.int32)
    step_once.launch(o, 10, threads=4, block=4, device=dev)
    assert o.tolist() == [505] * 4


@kernel
def literal_bounds(o: Vec[sarek.types.i64], s: sarek.types.i64):
    c = sarek.types.i64(0)
    for i in range(0, 40, s):
        c += i
    o[global_thread_id] = c


@pytest.mark.parametrize("dev", EXECUTORS)
def test_literal_bounds_take_the_step_type(dev):
    assert '"i" %i = ' in literal_bounds.ir() and ": i64 {" in literal_bounds.ir()
    o = np.zeros(2, np.int64)
    literal_bounds.launch(o, 7, threads=2, block=2, device=dev)
    assert o.tolist() == [sum(range(0, 40, 7))] * 2


@kernel
def literal_range_forms(o: Vec[i32]):
    s = 0
    for j in range(3, 6):
        s += j
    for j in range(2, 10, 3):
        s += j * 10
    for j in range(4):
        s += j * 100
    o[global_thread_id] = s


@pytest.mark.parametrize("dev", EXECUTORS)
def test_literal_range_forms(dev):
    # range(3, 6) (two literal bounds, no step) crashed the front end with an IndexError once the
    # literal-bounds-take-the-step-type rule landed; the H200 fuzz campaign found it in 186 kernels.
    o = np.zeros(2, np.int32)
    literal_range_forms.launch(o, threads=2, block=2, device=dev)
    assert o.tolist() == [sum(range(3, 6)) + 10 * sum(range(2, 10, 3)) + 100 * sum(range(4))] * 2
