"""Ordering `sarek.Vector`s across the streams of one device, as CuPy and PyTorch order their own arrays.

Two streams (CUDA streams, OpenCL command queues) run independently: a launch on s2 that reads a Vector a
launch on s1 wrote, with no synchronize between, would read it stale. So each Vector remembers, per device
memory (`buffer_key`), the stream of the last launch that wrote it and the streams of the launches that read
it since (`Pending`). Before a launch on stream S:

- read-after-write and write-after-write: S waits for the last writer's stream, when that is another stream;
- write-after-read: a launch that writes the Vector also waits for every other stream that read it.

The wait is enqueued, never taken on the host (`Device._order_after(producer, consumer)`: an OpenCL marker on
the producer queue and a barrier on the consumer waiting for it; a CUDA event recorded on the producer stream
and `cuStreamWaitEvent` on the consumer). It covers everything enqueued on the producer so far: exact for
the access, at worst a little more than needed. A device-wide `synchronize()` finishes every stream, so it
starts a new epoch and every older record is done. Devices with one queue (Vulkan) and the interpreters
(which run to the end) need none of this (`Device.multi_stream` False).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from sarek.runtime.core import Device
    from sarek.runtime.vector import Vector


class Clock:
    """The state of one device memory's streams (cuda:N and ptx:N share one): `epoch`, the count of device-wide
    synchronizes; `default`, the default stream's token; `default_used`, whether anything was enqueued on the
    default stream this epoch; `dead`, the stream handles whose destruction waits for the next synchronize (a
    Vector may still name them)."""

    __slots__ = ("epoch", "default", "default_used", "dead")

    def __init__(self, default: Any):
        self.epoch = 0
        self.default = default
        self.default_used = False
        self.dead: list[Any] = []


_CLOCKS: dict[Any, Clock] = {}


def clock(dev: Device) -> Clock:
    """The clock of `dev`'s memory."""
    c = _CLOCKS.get(dev.buffer_key)
    if c is None:
        c = _CLOCKS[dev.buffer_key] = Clock(dev.stream_token(None))
    return c


def finished(dev: Device) -> list[Any]:
    """Every stream of `dev`'s memory has finished (a device-wide synchronize): every record is done. Returns
    the stream handles whose destruction was deferred, for the device to destroy now."""
    c = clock(dev)
    c.epoch += 1
    c.default_used = False
    dead, c.dead = c.dead, []
    return dead


class Pending:
    """A Vector's launches on one device memory that may not have finished, kept only while another stream
    than the default one is involved: the stream of the last writer (`writer`, `NOBODY` for none) and the
    streams that read it since (`readers`). No record (or one of an earlier epoch) means: at most the default
    stream used it this epoch (the common case costs the launch fast path one test per Vector)."""

    __slots__ = ("epoch", "writer", "readers")

    def __init__(self, epoch: int, writer: Any, readers: list[Any]):
        self.epoch = epoch
        self.writer = writer
        self.readers = readers


class _Nobody:
    def __repr__(self) -> str:
        return "<no writer>"


NOBODY: Any = _Nobody()


def sequence(dev: Device, vectors: Sequence[tuple[Vector, bool]], stream: Any) -> None:
    """Order a launch about to be enqueued on `stream` (the device's token for it) after the launches on other
    streams it must follow, and record it. For each (vector, written) pair: wait for its last writer, and for
    its readers when the launch writes it; the launch becomes the vector's writer (its readers are behind it
    now: it waited for them) or one more reader. (One pass: a record updated for a vector listed twice names
    only `stream`, which is never waited for.)"""
    key = dev.buffer_key
    c = _CLOCKS.get(key) or clock(dev)
    epoch, default = c.epoch, c.default
    on_default = stream == default
    producers: list[Any] = []
    for v, written in vectors:
        pend: dict[Any, Pending] = v._pending  # pyright: ignore[reportPrivateUsage]
        p = pend.get(key)
        if p is not None and p.epoch != epoch:
            del pend[key]
            p = None
        if p is None:  # at most the default stream used it
            if on_default:
                continue
            used = c.default_used
            if used and default not in producers:
                producers.append(default)
            p = pend[key] = Pending(epoch, default if used else NOBODY, [default] if used else [])
        else:
            w = p.writer
            if w is not NOBODY and w != stream and w not in producers:
                producers.append(w)
            if written:
                producers += [r for r in p.readers if r != stream and r not in producers]
        if written:
            p.writer = stream
            if p.readers:
                p.readers = []
        elif stream not in p.readers:
            p.readers.append(stream)
        if on_default and p.writer in (default, NOBODY) and all(r == default for r in p.readers):
            del pend[key]  # back to the common case
    if on_default:
        c.default_used = True
    for h in producers:
        dev._order_after(h, stream)  # pyright: ignore[reportPrivateUsage]


def default_launch(dev: Device) -> None:
    """A launch on the default stream none of whose Vectors has a record (the launch fast path)."""
    (_CLOCKS.get(dev.buffer_key) or clock(dev)).default_used = True


def settle(dev: Device, v: Vector) -> None:
    """Before the host overwrites `v`'s buffer on `dev` (an upload): wait for the launches on other streams
    than the default one that may still read or write it (the upload is ordered with the default stream)."""
    p: Pending | None = v._pending.get(dev.buffer_key)  # pyright: ignore[reportPrivateUsage]
    if p is None or p.epoch != clock(dev).epoch:
        return
    default = clock(dev).default
    if (p.writer is not NOBODY and p.writer != default) or any(r != default for r in p.readers):
        dev.synchronize()


def uploaded(dev: Device, v: Vector) -> None:
    """The host wrote `v`'s buffer on `dev` through the default stream, as a launch there would (a CUDA copy
    from pageable memory may still be in flight when it returns, and streams made by `device.stream()` do
    not wait for the default one): launches on other streams wait for it."""
    v._pending.pop(dev.buffer_key, None)  # pyright: ignore[reportPrivateUsage]
    default_launch(dev)


def legacy(h: int) -> int:
    """CAI v3 names the legacy default stream 1; the CUDA driver API names it 0."""
    return 0 if h in (0, 1) else h


def torch_stream_getter() -> Callable[[int], int]:
    """PyTorch's call for its current CUDA stream on a device index (the raw handle; the same call Triton makes),
    for callers that keep it."""
    torch: Any = importlib.import_module("torch")
    raw = getattr(torch._C, "_cuda_getCurrentRawStream", None)
    return raw if raw is not None else (lambda i: int(torch.cuda.current_stream(i).cuda_stream))


def torch_stream(index: int) -> int:
    """PyTorch's current CUDA stream on device `index` (its raw handle)."""
    return int(torch_stream_getter()(index))


def cupy_stream() -> int:
    """CuPy's current CUDA stream (its raw handle)."""
    cupy: Any = importlib.import_module("cupy")
    return int(cupy.cuda.get_current_stream().ptr)
