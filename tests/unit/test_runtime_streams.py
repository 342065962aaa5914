"""A `sarek.Vector` used by launches on two streams of one device, with no synchronize between (issue 34, item
5): the reader waits for the last writer's stream (read-after-write), a writer for the streams still reading
it (write-after-read) and for the last writer (write-after-write), a host upload for the streams still using
the buffer, a host read for the writer. Each case starts a long kernel on one stream and a short one on
another, so a missing wait shows as a wrong answer (on pocl the queues run at once). The waits are enqueued
(events), never taken on the host. The `gpu` tests run the same cases on cuda, ptx and NVIDIA OpenCL."""

from __future__ import annotations

import os
import tempfile

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import Vec, device, f32, i32, kernel  # noqa: E402
from sarek.gpu import global_thread_id  # noqa: E402
from sarek.runtime import streams  # noqa: E402

CPU = ["interp", "interp-ref", "opencl", "vulkan", "vulkan-glsl"]
GPU = ["cuda", "ptx", "opencl"]
N = 64


@device
def spin(iters: i32) -> f32:
    """A loop of `iters` steps the compilers cannot drop; the result stays in [0, 2]."""
    acc = 0.0
    for k in range(iters):
        acc = acc * 0.5 + 1.0
    return acc


@kernel
def slow_fill(v: Vec[f32], x: f32, iters: i32, n: i32):
    """v[i] = x + i, written after a long loop."""
    i = global_thread_id
    if i < n and spin(iters) > -1.0:
        v[i] = x + f32(i)


@kernel
def slow_copy(src: Vec[f32], dst: Vec[f32], iters: i32, n: i32):
    """dst[i] = src[i], src read after a long loop."""
    i = global_thread_id
    if i < n and spin(iters) > -1.0:
        dst[i] = src[i]


@kernel
def fill(v: Vec[f32], x: f32, n: i32):
    i = global_thread_id
    if i < n:
        v[i] = x + f32(i)


@kernel
def copy(src: Vec[f32], dst: Vec[f32], n: i32):
    i = global_thread_id
    if i < n:
        dst[i] = src[i]


def _iters(d) -> int:
    """Long on the devices whose streams run at once (about 0.2 s on pocl, milliseconds on a GPU); the
    interpreters and Vulkan (one queue) are ordered anyway, so short there."""
    return 1_500_000 if d.multi_stream else 4


def _ramp(x: float) -> np.ndarray:
    return (x + np.arange(N)).astype(np.float32)


@pytest.fixture
def no_host_wait(monkeypatch):
    """Fails the test if a launch waits on the host (the streams must be ordered by enqueued events)."""

    def arm(d):
        def refuse(*_a):
            pytest.fail("a launch waited on the host")

        monkeypatch.setattr(d, "synchronize", refuse)
        monkeypatch.setattr(d, "synchronize_stream", refuse)
        return lambda: monkeypatch.undo()

    return arm


def _race(dev, arm, vectors, warm, first, second):
    """Warm up (the Vectors resident, the kernels built, the fast paths planned), synchronize, then enqueue
    `first` (long) and `second` (short) with no wait on the host between or in them; returns the Vectors."""
    d = sarek.get_device(dev)
    vs = [sarek.Vector(x) for x in vectors]
    for _ in range(2):
        warm(d, *vs)
    d.synchronize()
    s1, s2 = d.stream(), d.stream()
    disarm = arm(d)
    first(d, s1, *vs)
    second(d, s2, *vs)
    disarm()
    return vs


def _read_after_write(dev, arm):
    v, out = _race(dev, arm, [np.zeros(N, np.float32)] * 2, lambda d, v, out: copy.launch(v, out, N, threads=N, device=d),
                   lambda d, s, v, out: slow_fill.launch(v, 3.0, _iters(d), N, threads=N, device=d, stream=s),
                   lambda d, s, v, out: copy.launch(v, out, N, threads=N, device=d, stream=s))
    np.testing.assert_array_equal(out.to_numpy(), _ramp(3.0))


def _read_on_default_after_write(dev, arm):
    """The reader on the default stream (through the launch fast path) after a writer on another stream."""
    v, out = _race(dev, arm, [np.zeros(N, np.float32)] * 2, lambda d, v, out: copy.launch(v, out, N, threads=N, device=d),
                   lambda d, s, v, out: slow_fill.launch(v, 5.0, _iters(d), N, threads=N, device=d, stream=s),
                   lambda d, s, v, out: copy.launch(v, out, N, threads=N, device=d))
    np.testing.assert_array_equal(out.to_numpy(), _ramp(5.0))


def _read_on_stream_after_default_write(dev, arm):
    """A writer on the default stream (the fast path), a reader on a stream of `device.stream()` (on CUDA a
    non-blocking stream: it does not wait for the legacy default stream by itself)."""
    v, out = _race(dev, arm, [np.zeros(N, np.float32)] * 2,
                   lambda d, v, out: (slow_fill.launch(v, 1.0, 4, N, threads=N, device=d),
                                      copy.launch(v, out, N, threads=N, device=d)),
                   lambda d, s, v, out: slow_fill.launch(v, 8.0, _iters(d), N, threads=N, device=d),
                   lambda d, s, v, out: copy.launch(v, out, N, threads=N, device=d, stream=s))
    np.testing.assert_array_equal(out.to_numpy(), _ramp(8.0))


def _write_after_read(dev, arm):
    src, dst = _race(dev, arm, [_ramp(1.0), np.zeros(N, np.float32)],
                     lambda d, src, dst: slow_copy.launch(src, dst, 4, N, threads=N, device=d),
                     lambda d, s, src, dst: slow_copy.launch(src, dst, _iters(d), N, threads=N, device=d, stream=s),
                     lambda d, s, src, dst: fill.launch(src, 7.0, N, threads=N, device=d, stream=s))
    np.testing.assert_array_equal(dst.to_numpy(), _ramp(1.0))  # src was not overwritten under the reader
    np.testing.assert_array_equal(src.to_numpy(), _ramp(7.0))


def _write_after_write(dev, arm):
    (v,) = _race(dev, arm, [np.zeros(N, np.float32)], lambda d, v: fill.launch(v, 0.0, N, threads=N, device=d),
                 lambda d, s, v: slow_fill.launch(v, 2.0, _iters(d), N, threads=N, device=d, stream=s),
                 lambda d, s, v: fill.launch(v, 9.0, N, threads=N, device=d, stream=s))
    np.testing.assert_array_equal(v.to_numpy(), _ramp(9.0))  # the later write wins


def _upload_after_read(dev, arm):
    """The host replaces a Vector a launch on s1 still reads; the next launch uploads it: not under s1 (that
    upload waits on the host, so it is not armed)."""
    src, dst, out = _race(dev, lambda d: lambda: None, [_ramp(1.0), np.zeros(N, np.float32), np.zeros(N, np.float32)],
                          lambda d, src, dst, out: copy.launch(src, out, N, threads=N, device=d),
                          lambda d, s, src, dst, out: slow_copy.launch(src, dst, _iters(d), N, threads=N, device=d,
                                                                       stream=s),
                          lambda d, s, src, dst, out: (src.copy_from(_ramp(4.0)),
                                                       copy.launch(src, out, N, threads=N, device=d, stream=s)))
    np.testing.assert_array_equal(dst.to_numpy(), _ramp(1.0))
    np.testing.assert_array_equal(out.to_numpy(), _ramp(4.0))


def _host_read(dev, arm):
    (v,) = _race(dev, arm, [np.zeros(N, np.float32)], lambda d, v: fill.launch(v, 0.0, N, threads=N, device=d),
                 lambda d, s, v: slow_fill.launch(v, 6.0, _iters(d), N, threads=N, device=d, stream=s),
                 lambda d, s, v: None)
    np.testing.assert_array_equal(np.asarray(v), _ramp(6.0))


CASES = [_read_after_write, _read_on_default_after_write, _read_on_stream_after_default_write, _write_after_read,
         _write_after_write, _upload_after_read, _host_read]


@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dev", CPU)
def test_vectors_across_streams(dev, case, no_host_wait):
    case(dev, no_host_wait)


@pytest.mark.gpu
@pytest.mark.parametrize("case", CASES)
@pytest.mark.parametrize("dev", GPU)
def test_vectors_across_streams_gpu(dev, case, no_host_wait):
    case(dev, no_host_wait)


# -- the bookkeeping (sarek.runtime.streams), on a device that only records what it is asked to order


class _Recorder:
    multi_stream = True

    def __init__(self):
        self.buffer_key = ("recorder", id(self))
        self.waits: list[tuple[object, object]] = []

    def stream_token(self, handle):
        return handle

    def _order_after(self, producer, consumer):
        self.waits.append((producer, consumer))


def test_bookkeeping_orders_only_across_streams():
    d, v, w = _Recorder(), sarek.Vector(4, np.float32), sarek.Vector(4, np.float32)
    streams.sequence(d, [(v, True)], "s1")
    assert d.waits == []  # nothing pending before
    streams.sequence(d, [(v, False)], "s1")
    assert d.waits == []  # same stream: in order already
    streams.sequence(d, [(v, False), (w, False)], "s2")
    assert d.waits == [("s1", "s2")]  # read after write
    streams.sequence(d, [(v, False)], "s3")
    streams.sequence(d, [(v, False)], "s2")  # a reader once, however often it reads
    d.waits.clear()
    streams.sequence(d, [(v, True)], "s4")  # write after read (s1 .. s3) and after write (s1): each once
    assert sorted(d.waits) == [("s1", "s4"), ("s2", "s4"), ("s3", "s4")]
    d.waits.clear()
    streams.sequence(d, [(v, True), (v, False)], "s5")  # the readers are behind the writer s4 now
    assert d.waits == [("s4", "s5")]
    d.waits.clear()
    streams.sequence(d, [(w, True)], "s5")  # w's reader s2 is another stream: write after read
    assert d.waits == [("s2", "s5")]


def test_bookkeeping_synchronize_ends_every_record():
    d, v = _Recorder(), sarek.Vector(4, np.float32)
    streams.sequence(d, [(v, True)], "s1")
    assert streams.finished(d) == []
    streams.sequence(d, [(v, False)], "s2")
    assert d.waits == []


def test_bookkeeping_default_stream():
    """Vectors only the default stream (None here) used carry no record; a launch on another stream waits for
    the default one when anything ran there this epoch; a default-stream launch after other streams waits for
    them and drops the record again."""
    d, v, w = _Recorder(), sarek.Vector(4, np.float32), sarek.Vector(4, np.float32)
    streams.sequence(d, [(v, True)], None)
    assert v._pending == {} and d.waits == []
    streams.sequence(d, [(v, False)], "s1")
    assert d.waits == [(None, "s1")]
    d.waits.clear()
    streams.sequence(d, [(v, True)], None)  # write after read
    assert d.waits == [("s1", None)] and v._pending == {}
    streams.default_launch(d)  # the fast path: no records, the default stream used
    streams.finished(d)
    streams.sequence(d, [(w, False)], "s2")  # nothing ran anywhere since the synchronize
    assert len(d.waits) == 1
    streams.uploaded(d, w)
    streams.sequence(d, [(w, False)], "s2")  # the upload went through the default stream
    assert d.waits[1:] == [(None, "s2")]


def test_deferred_stream_destruction():
    d = _Recorder()
    streams.clock(d).dead.append(7)
    assert streams.finished(d) == [7]
    assert streams.clock(d).dead == []
