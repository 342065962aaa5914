"""sarek.dask on a two-process `distributed.LocalCluster`: one worker launches on `interp`, the other on pocl
(`opencl:0`), each by its own `$SAREK_DEVICE`. Tasks are pinned to a worker (`client.compute(..., workers=)`)
where a test is about one device; the others run on both."""

import copy
import pickle

import dask.array as da
import numpy as np
import pytest
from distributed import Client, LocalCluster

import sarek
import sarek.dask as sd
from sarek import CompileError, Vec, f16, f32, f64, i32, kernel, record
from sarek.frontend.corpus import load_examples
from sarek.gpu import atomic_add, global_thread_id
from sarek.runtime import LaunchError
from tests.unit.op_kernels import saxpy

DEVICES = ("interp", "opencl:0")
EX = load_examples()
stencil, records = EX["dask_stencil"], EX["records"]


@record
class HalfPair:  # OpenCL holds f16 only in vectors and arrays: pocl refuses a record with an f16 field
    lo: f16
    hi: f16


@kernel
def half_histogram(x: Vec[f16], hist: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        p = HalfPair(lo=x[i], hi=x[i])
        atomic_add(hist, 0, f32(p.lo))


T = sarek.TypeVar("T", f32, f64)


@kernel
def scale_twice(x: Vec[T], y: Vec[T], n: i32):  # generic: the workers get both instances' IR
    i = global_thread_id
    if i < n:
        y[i] = x[i] * 2.0


@kernel
def split(x: Vec[f32], lo: Vec[f32], hi: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        lo[i] = x[i] - 1.0
        hi[i] = x[i] + 1.0


@kernel
def scale64(x: Vec[f64], out: Vec[f64], n: i32):
    i = global_thread_id
    if i < n:
        out[i] = 2.0 * x[i]


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=0, processes=True, threads_per_worker=1, dashboard_address=None)
    for dev in DEVICES:  # two worker processes, each with its own SAREK_DEVICE
        spec = copy.deepcopy(cluster.new_spec)
        spec["options"]["env"] = {"SAREK_DEVICE": dev}
        cluster.worker_spec[f"sarek-{dev}"] = spec
    cluster.sync(cluster._correct_state)  # pyright: ignore
    c = Client(cluster)
    c.wait_for_workers(len(DEVICES))
    yield c
    c.close()
    cluster.close()


def worker(client, dev):
    """The address of the worker whose default device is `dev`."""
    names = client.run(_default_device)
    return next(a for a, d in names.items() if d == dev)


def _default_device():
    from sarek.runtime import default_device

    return default_device().name


def on(client, dev, x):
    return client.compute(x, workers=[worker(client, dev)]).result()


def test_each_worker_has_its_device(client):
    assert sorted(client.run(_default_device).values()) == sorted(DEVICES)


@pytest.mark.parametrize("dev", DEVICES)
def test_saxpy_10m(client, dev):
    n = 10_000_000
    x = da.arange(n, dtype=np.float32, chunks=n // 4)
    y = da.ones(n, dtype=np.float32, chunks=n // 4)
    before = client.run(sd.launch_counts)[worker(client, dev)].get(dev, 0)
    r = sd.map_blocks(saxpy, 2.0, x, y, sd.size, out=sd.like("x"))
    assert r.chunks == x.chunks and r.dtype == np.float32
    got = on(client, dev, r)
    assert np.array_equal(got, np.float32(2.0) * np.arange(n, dtype=np.float32) + np.float32(1.0))
    assert client.run(sd.launch_counts)[worker(client, dev)][dev] == before + 4


def test_worker_keeps_the_kernel(client):
    """Every task unpickles the kernel; a worker parses (and compiles) it once and keeps it."""
    x = da.arange(1000, dtype=np.float32, chunks=200)
    r = sd.map_blocks(saxpy, 3.0, x, x, sd.size, out=sd.like(1))
    on(client, "interp", r)
    first = client.run(sd.kernel_from_ir.cache_info)[worker(client, "interp")]
    got = on(client, "interp", r)
    again = client.run(sd.kernel_from_ir.cache_info)[worker(client, "interp")]
    assert np.array_equal(got, np.float32(4.0) * np.arange(1000, dtype=np.float32))
    assert again.misses == first.misses and again.hits >= first.hits + 5


@pytest.mark.parametrize("dev", DEVICES)
def test_jacobi_map_overlap_equals_one_array(client, dev):
    rng = np.random.default_rng(5)
    u = rng.random((120, 200), dtype=np.float32)
    whole = np.zeros_like(u)
    stencil.jacobi_step.launch(u, whole, 200, 120, grid=(13, 8), block=(16, 16), device=dev)
    x = da.from_array(u, chunks=(50, 90))  # 3 x 3 chunks of uneven sizes
    r = sd.map_overlap(stencil.jacobi_step, x, sd.dim(1), sd.dim(0), depth=1, boundary="none",
                       out={"v": sd.like("u")}, threads=sd.chunk_xyz, block=(16, 16))
    got = on(client, dev, r)
    assert np.array_equal(got, whole)
    assert np.allclose(got, stencil.jacobi_ref(u), rtol=1e-6)


def test_chunked_reduction(client):
    """Per-thread partial sums of each chunk (P per chunk), added up by Dask's own sum."""
    x = da.random.default_rng(3).random(1_000_000, dtype=np.float32, chunks=300_000)
    p = stencil.P
    partials = sd.map_blocks(stencil.sum_squares, x, sd.size, out=sd.Out((p,)), threads=p, block=64)
    assert partials.chunks == ((p,) * 4,)
    total = client.compute(partials.sum()).result()
    xs = client.compute(x).result().astype(np.float64)
    assert total == pytest.approx(float((xs * xs).sum()), rel=1e-5)


def test_record_array(client):
    pts = np.zeros(10_000, records.Point.dtype)
    pts["x"] = np.arange(10_000)
    pts["y"] = -np.arange(10_000)
    x = da.from_array(pts, chunks=3000)
    r = sd.map_blocks(records.shift_points, x, sd.size, out={"dst": sd.like("src")})
    assert r.dtype == records.Point.dtype
    got = client.compute(r).result()
    assert np.array_equal(got["x"], pts["x"] + 1) and np.array_equal(got["y"], pts["y"])


def test_two_outputs(client):
    x = da.arange(5000, dtype=np.float32, chunks=1200)
    lo, hi = sd.map_blocks(split, x, sd.size, out={"lo": sd.like("x"), "hi": sd.like("x")})
    got_lo, got_hi = client.compute([lo, hi], sync=True)
    assert np.array_equal(got_lo, np.arange(5000, dtype=np.float32) - 1)
    assert np.array_equal(got_hi, np.arange(5000, dtype=np.float32) + 1)


def test_kernel_failing_on_a_worker_is_the_located_compile_error(client):
    x = da.ones(1000, dtype=np.float16, chunks=500)
    r = sd.map_blocks(half_histogram, x, sd.size, out=sd.Out((1,), np.float32))
    assert on(client, "interp", r).tolist() == [500.0, 500.0]  # the interpreter has f16
    with pytest.raises(CompileError) as e:
        on(client, "opencl:0", r)
    line = next(i for i, t in enumerate(open(__file__), 1) if "class HalfPair" in t) - 1  # the record's @record
    assert (e.value.file, e.value.line) == (__file__, line)
    assert "record 'HalfPair' has an f16 field" in e.value.message
    assert str(e.value).startswith(f"{__file__}:{line}:")
    assert str(e.value).endswith("    @record\n    ^")  # the source line, with its caret


def test_launch_error_on_a_worker_reaches_the_client(client):
    x = da.ones(100, dtype=np.float32, chunks=50)  # a float32 chunk for a Vec[f64]
    r = sd.map_blocks(scale64, x, sd.size, out=sd.Out(sd.dim(0), np.float64))
    with pytest.raises(LaunchError, match=r"kernel scale64: argument 'x' \(#1\) expects a vector of float64, got "
                                          r"an array of float32"):
        on(client, "interp", r)


# ------------------------------------------------------------------------------------------------ no cluster


def _local_kernel():
    @kernel
    def add_one(x: Vec[f32], out: Vec[f32], n: i32):
        i = global_thread_id
        if i < n:
            out[i] = x[i] + 1.0

    return add_one


def test_kernel_pickles_as_ir_without_its_function():
    k = _local_kernel()  # a local function: plain pickle could not pickle it
    data = pickle.dumps(k)
    back = pickle.loads(data)
    assert back.fn is None and back.name == "add_one" and back is pickle.loads(data)
    assert back.source("opencl") == k.source("opencl")
    x = np.arange(10, dtype=np.float32)
    out = np.zeros_like(x)
    back.launch(x, out, 10, grid=1, block=16)
    assert np.array_equal(out, x + 1)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_generic_kernel_runs_on_a_worker(client, dtype):
    x = da.arange(3000, dtype=dtype, chunks=1000)
    r = sd.map_blocks(scale_twice, x, sd.size, out=sd.like("x"))
    got = on(client, "interp", r)
    assert got.dtype == dtype and np.array_equal(got, np.arange(3000, dtype=dtype) * 2)


def test_generic_kernel_pickles_as_its_instances():
    back = pickle.loads(pickle.dumps(scale_twice))
    assert back.fn is None and back is pickle.loads(pickle.dumps(back))  # one object per text in a process
    for dt in (np.float32, np.float64):
        y = np.zeros(4, dt)
        back.launch(np.arange(4, dtype=dt), y, 4, threads=4, device="interp")
        assert y.tolist() == [0, 2, 4, 6]
    with pytest.raises(LaunchError, match="the arguments' dtypes pick 0 of its 2 instances"):
        back.launch(np.arange(4, dtype=np.int32), np.zeros(4, np.int32), 4, threads=4, device="interp")


def test_unconstrained_generic_kernel_does_not_pickle():
    U = sarek.TypeVar("U")

    @kernel
    def copy(x: Vec[U], y: Vec[U], n: i32):
        i = global_thread_id
        if i < n:
            y[i] = x[i]

    with pytest.raises(CompileError, match=r"generic in U \(any element type\) and cannot be pickled: pickle an "
                                           r"instance, e\.g\. copy\[f32\]"):
        pickle.dumps(copy)
    assert pickle.loads(pickle.dumps(copy[f32])).fn is None


def test_declared_block_travels_with_the_kernel():
    k = kernel(block=64)(_local_kernel().fn)
    back = pickle.loads(pickle.dumps(k))
    assert back.declared_block == (64, 1, 1) and back is not pickle.loads(pickle.dumps(_local_kernel()))


def test_errors_pickle_with_message_and_location():
    e = CompileError("no such thing", __file__, 30, 9, "opencl")
    back = pickle.loads(pickle.dumps(e))
    assert type(back) is CompileError and str(back) == str(e)
    assert (back.message, back.file, back.line, back.col, back.backend) == ("no such thing", __file__, 30, 9, "opencl")
    le = pickle.loads(pickle.dumps(LaunchError("bad grid", saxpy.module.ops.last)))
    assert str(le) == str(LaunchError("bad grid", saxpy.module.ops.last)) and le.op is None and le.location


X1 = da.ones(100, dtype=np.float32, chunks=50)
X2 = da.ones((10, 10), dtype=np.float32, chunks=((4, 6), (3, 7)))


@pytest.mark.parametrize("call, message", [
    (lambda: sd.map_blocks(len, X1), "expected a @sarek.kernel, got builtin_function_or_method"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, 100), r"say which parameters are outputs with out="),
    (lambda: sd.map_blocks(split, X1, 100, out=sd.like(0)), r"writes 2 vector parameters \(lo, hi\); name the "),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, 100, out={"z": sd.like(1)}), r"output 'z' is not a parameter of "
                                                                           r"kernel saxpy\(a, x, y, out, n\)"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, out={"out": sd.like(1), 3: sd.like(1)}), "an output is named twice"),
    (lambda: sd.map_blocks(saxpy, X1, X1, 100, out={"out": sd.like(1), "a": sd.like(1)}),
     "output 'a' is not a vector parameter"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, out=sd.like(1)),
     r"with outputs out takes 4 argument\(s\) \(a, x, y, n\), 3 given"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, X1, out=sd.like(1)), "argument 'n' is a scalar parameter, got a Dask"),
    (lambda: sd.map_blocks(saxpy, 2.0, np.ones(3, np.float32), np.ones(3, np.float32), 3, out=sd.Out((3,))),
     "no argument is a Dask array"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, np.ones(100, np.float32), 100, out=sd.like("y")),
     "output 'out' is like 'y', which is not a Dask-array argument"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, 100, out=(100,)), r"must be like\(p\) or Out\(shape, dtype\), got"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, 100, out=sd.like(1), threads=100, grid=1), "not both"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X2, 100, out=sd.like(1)), r"different dimensions \(1, 2\)"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, da.ones(90, np.float32, chunks=30), 100, out=sd.like(1)),
     r"must have as many blocks \(\(2,\), \(3,\)\)"),
    (lambda: sd.map_blocks(saxpy, 2.0, X1, X1, 100, out=sd.Out((1, 1))), r"output #1 has shape \(1, 1\) per chunk; "
                                                                         r"it needs 1 dimension"),
    (lambda: sd.map_blocks(saxpy, 2.0, X2, X2, 100, out=sd.Out(sd.per_chunk(lambda s: (1, s[0] + s[1])))),
     "per-chunk shapes do not form a grid"),
    (lambda: sd.map_overlap(saxpy, 2.0, X1, X1, 100, depth=1, out=sd.Out((1,))), "needs exactly one output, like"),
    (lambda: sd.map_overlap(saxpy, 2.0, X1, da.ones(90, np.float32, chunks=45), 100, depth=1, out=sd.like("y")),
     "the output must be shaped like the first Dask-array argument"),
])
def test_client_side_errors(call, message):
    with pytest.raises(LaunchError, match=message):
        call()
