"""Warp votes (issue 33 item 5): warp_any / warp_all / warp_ballot agree with a numpy model at each device's
own warp width — the interpreters at 32 and at the widths they stand in for (1, 8, 64), pocl (1), lavapipe
WGSL and GLSL (8) and, `gpu`-marked, the H200's cuda and ptx (a ballot over 32 lanes); a vote under
thread-divergent control is refused; the sources validate on every target."""

from __future__ import annotations

import os
import tempfile
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek import CompileError, Vec, f32, i32, kernel, u32, u64  # noqa: E402
from sarek.diagnostics import SarekError  # noqa: E402
from sarek.gpu import (barrier_and, barrier_count, barrier_or, block_idx_x, global_thread_id,  # noqa: E402
                       thread_idx_x, warp_all, warp_any, warp_ballot, warp_ballot64, warp_shuffle_down, warp_size)
from sarek.runtime.interp_device import InterpDevice  # noqa: E402


@kernel
def votes(x: Vec[i32], a: Vec[i32], b: Vec[i32], m: Vec[u32], ws: Vec[i32]):
    i = global_thread_id
    c = x[i] > 0
    a[i] = i32(warp_any(c))
    b[i] = i32(warp_all(x[i] >= 0))
    m[i] = warp_ballot(c)
    ws[i] = warp_size


@kernel
def divergent(x: Vec[i32]):
    i = global_thread_id
    if x[i] > 0:
        x[i] = i32(warp_any(x[i] > 3))


def _expected(x: np.ndarray, w: int) -> tuple[list[int], list[int], list[int]]:
    a, b, m = [], [], []
    for s in range(0, len(x), w):
        seg = x[s:s + w]
        a += [int((seg > 0).any())] * len(seg)
        b += [int((seg >= 0).all())] * len(seg)
        m += [sum(1 << k for k, v in enumerate(seg) if v > 0 and k < 32)] * len(seg)
    return a, b, m


def _run(device: Any, n: int = 128) -> tuple[int, bool]:
    rng = np.random.default_rng(3)
    x = rng.integers(-1, 6, n).astype(np.int32)
    x[8:16] = 0   # a warp of 8 where nobody votes yes
    x[16:24] = 3  # and one where everybody does
    x[64:128] = np.maximum(x[64:128], 0)
    a, b, ws = np.zeros(n, np.int32), np.zeros(n, np.int32), np.zeros(n, np.int32)
    m = np.zeros(n, np.uint32)
    votes.launch(x, a, b, m, ws, grid=1, block=n, device=device)
    w = int(ws[0])
    ea, eb, em = _expected(x, w)
    return w, a.tolist() == ea and b.tolist() == eb and m.tolist() == em


_GPU = pytest.mark.gpu


@kernel
def ballot64(x: Vec[i32], m: Vec[u64], ws: Vec[i32]):
    i = global_thread_id
    m[i] = warp_ballot64(x[i] > 0)
    ws[i] = warp_size


def _run64(device: Any, n: int = 128) -> tuple[int, bool]:
    x = np.random.default_rng(5).integers(-1, 3, n).astype(np.int32)
    x[40] = x[63] = 1  # lanes 40 and 63 of a 64-lane warp vote yes: bits a u32 ballot cannot hold
    m, ws = np.zeros(n, np.uint64), np.zeros(n, np.int32)
    ballot64.launch(x, m, ws, grid=1, block=n, device=device)
    w = int(ws[0])
    want = []
    for s0 in range(0, n, w):
        seg = x[s0:s0 + w]
        want += [sum(1 << k for k, v in enumerate(seg) if v > 0)] * len(seg)
    return w, [int(v) for v in m] == want


# the votes with a u32 ballot (lanes 0..31), and warp_ballot64 (a u64 of every lane: a 64-lane AMD wavefront's
# too; the upper half 0 on 32-lane warps; WGSL has no 64-bit integers)
RUNS = {"votes": _run, "ballot64": _run64}
_DEVICES: list[Any] = [("interp", 32), ("interp-ref", 32), ("opencl:0", None), ("vulkan:0", None),
                       ("vulkan-glsl:0", None)]


@pytest.mark.parametrize(("run", "device", "width"), [
    *[(r, d, w) for r in sorted(RUNS) for d, w in _DEVICES if (r, d) != ("ballot64", "vulkan:0")],
    *[pytest.param(r, d, 32, marks=_GPU) for r in sorted(RUNS) for d in ("cuda:0", "ptx:0")]])
def test_votes(run: str, device: str, width: int | None):
    w, ok = RUNS[run](device)
    assert ok and (width is None or w == width)


@pytest.mark.parametrize("run", sorted(RUNS))
@pytest.mark.parametrize("executor", ["fast", "reference"])
@pytest.mark.parametrize("width", [1, 8, 64])
def test_votes_at_other_warp_widths(run: str, executor: str, width: int):
    """A u32 ballot keeps lanes 0..31 of a 64-lane warp, warp_ballot64 all of them."""
    w, ok = RUNS[run](InterpDevice(executor, warp_size=width))
    assert ok and w == width




@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl"])
def test_ballot64_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check}[target]
    src = ballot64.source(target)
    check(src)
    if target == "hip":
        assert "(unsigned long long)__ballot(" in src


def test_ballot64_refused_on_wgsl():
    with pytest.raises(SarekError, match="WGSL: int64 not yet supported"):
        ballot64.source("wgsl")


def test_divergent_vote_refused():
    with pytest.raises(CompileError, match="warp_any\\(\\) under thread-divergent control flow"):
        divergent.source("cuda")


@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl", "wgsl"])
def test_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    check(votes.source(target))


@kernel
def block_votes(x: Vec[i32], cnt: Vec[i32], a: Vec[i32], o: Vec[i32]):
    i = global_thread_id
    for k in range(3):  # the shared counter is reused: each vote starts with a barrier
        n = barrier_count(x[i] > k)
        if thread_idx_x == 0:
            cnt[k * 2 + block_idx_x] = n
    a[i] = i32(barrier_and(x[i] >= 0))
    o[i] = i32(barrier_or(x[i] > 4))


@kernel
def divergent_block_vote(x: Vec[i32]):
    if x[global_thread_id] > 0:
        x[0] = barrier_count(x[1] > 0)


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl:0", "vulkan:0", "vulkan-glsl:0",
                                    pytest.param("cuda:0", marks=_GPU), pytest.param("ptx:0", marks=_GPU)])
def test_block_votes(device: str):
    """barrier_count / barrier_and / barrier_or: CUDA's __syncthreads_count / _and / _or, per block."""
    x = np.random.default_rng(0).integers(0, 5, 128).astype(np.int32)
    x[64:] = np.maximum(x[64:], 1)
    x[5] = 5
    cnt, a, o = np.zeros(6, np.int32), np.zeros(128, np.int32), np.zeros(128, np.int32)
    block_votes.launch(x, cnt, a, o, grid=2, block=64, device=device)
    assert cnt.tolist() == [int((x[b * 64:(b + 1) * 64] > k).sum()) for k in range(3) for b in range(2)]
    assert a.tolist() == [1] * 128 and o.tolist() == [1] * 64 + [0] * 64


def test_divergent_block_vote_refused():
    """Its barriers are checked like barrier()'s: located at the call."""
    with pytest.raises(CompileError, match="under thread-divergent control flow") as e:
        divergent_block_vote.source("opencl")
    assert "x[0] = barrier_count(x[1] > 0)\n" in str(e.value) and "every thread of the block" in str(e.value)


@pytest.mark.parametrize("target", ["cuda", "hip", "ptx", "opencl", "metal", "glsl", "wgsl"])
def test_block_vote_sources_validate(target: str):
    from sarek.validate import cuda, glsl, hip, metal, opencl, ptx, wgsl

    check = {"cuda": cuda.check, "hip": hip.check, "ptx": ptx.check, "opencl": opencl.check,
             "metal": metal.check, "glsl": glsl.check, "wgsl": wgsl.check}[target]
    src = block_votes.source(target)
    check(src)
    native = {"cuda": ("__syncthreads_count(", "__syncthreads_and(", "__syncthreads_or("),
              "ptx": ("bar.red.popc.u32", "bar.red.and.pred", "bar.red.or.pred")}
    native["hip"] = native["cuda"]
    if target in native:  # the native vote, no shared counter
        assert all(n in src for n in native[target]) and "sarek_barrier_votes" not in src
    else:
        assert "sarek_barrier_votes" in src and "syncthreads_count" not in src


@kernel
def repeated_votes(x: Vec[i32], n: Vec[i32], k: i32):
    i = global_thread_id
    for j in range(k):  # an invariant vote in a loop: a barrier each iteration, never hoisted
        n[j * 2] = barrier_count(k > 1)
        n[j * 2 + 1] = barrier_count(k > 1)  # the same vote again: a second barrier, never merged
    x[i] = x[i] + 1


@pytest.mark.parametrize("target", ["cuda", "ptx"])
def test_native_block_vote_is_not_moved_or_merged(target: str):
    """A block vote synchronises: sarek-cse does not merge two equal ones, sarek-licm does not hoist one out of
    its loop (the loop body holds both votes)."""
    src = repeated_votes.source(target)
    vote = "__syncthreads_count(" if target == "cuda" else "bar.red.popc.u32"
    assert src.count(vote) == 2
    if target == "cuda":
        loop = src[src.index("for ("):]
        assert loop.count(vote) == 2


@pytest.mark.parametrize("device", ["interp", "interp-ref", "opencl:0", pytest.param("cuda:0", marks=_GPU),
                                    pytest.param("ptx:0", marks=_GPU)])
def test_repeated_votes(device: str):
    """Every vote counts the whole block: the interpreters and pocl expand the intrinsic
    (sarek.dialect.blockvote), the H200 runs `__syncthreads_count` / `bar.red.popc.u32`."""
    x, n = np.zeros(64, np.int32), np.zeros(6, np.int32)
    repeated_votes.launch(x, n, 3, grid=1, block=64, device=device)
    assert n.tolist() == [64] * 6 and x.tolist() == [1] * 64


@pytest.mark.parametrize("name", ["interp:warp=8", "interp-ref:warp=1", "interp:warp=64"])
def test_interpreter_stands_in_for_a_warp_width(name: str):
    """`interp:warp=N` runs with N-lane warps (pocl has 1, lavapipe 8, AMD 64) and is not in devices()."""
    import sarek

    w, ok = _run(name)
    assert ok and w == int(name.split("=")[1]) and sarek.get_device(name).warp_size == w
    assert name not in [d.name for d in sarek.devices()]
    with pytest.raises(sarek.LaunchError, match="the warp width must be an integer from 1 to 1024"):
        sarek.get_device("interp:warp=0")


@kernel
def reduce32(x: Vec[f32]):
    i = global_thread_id
    v = x[i]
    d = 16  # written for 32-lane warps
    while d > 0:
        v += warp_shuffle_down(v, d)
        d //= 2
    x[i] = v


@pytest.mark.parametrize(("device", "fails"), [("interp", False), ("interp:warp=8", True), ("interp-ref:warp=1", True),
                                               ("opencl:0", True), ("vulkan:0", True)])
def test_debug_reports_a_shuffle_beyond_the_warp(device: str, fails: bool):
    """debug=True: an offset of 16 on a warp of 8 (lavapipe) or 1 (pocl) is reported at the shuffle; a release
    launch keeps the documented semantics (the thread's own value)."""
    x = np.ones(64, np.float32)
    if not fails:
        reduce32.launch(x, grid=1, block=64, device=device, debug=True)
        assert x[0] == 32.0
        return
    with pytest.raises(Exception, match="assertion failed") as e:
        reduce32.launch(x, grid=1, block=64, device=device, debug=True)
    msg = str(e.value)
    assert "warp_shuffle_down: the offset reaches beyond this device's warp" in msg and device in msg
    assert "v += warp_shuffle_down(v, d)\n" in msg
    reduce32.launch(np.ones(64, np.float32), grid=1, block=64, device=device)  # release: no check
