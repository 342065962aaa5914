"""Device limits in the capability gate (issue 27): a kernel compiled for a Vulkan device is checked against
that device's storage-buffer, shared-memory and push-constant limits at launch (vulkan-glsl: the driver's
VkPhysicalDeviceLimits; vulkan: the wgpu adapter's limits), with a located LaunchError naming the limit and
its value; `k.source(...)` without a device keeps the descriptor's portable constants. Runs on lavapipe (both
Vulkan devices); a missing device fails."""

from __future__ import annotations

import importlib.util
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

import sarek  # noqa: E402
from sarek import CompileError, LaunchError, Vec, f32, kernel, u8  # noqa: E402
from sarek.gpu import barrier, shared, thread_idx_x  # noqa: E402
from sarek.runtime.shader_device import ShaderDevice  # noqa: E402

N_VECS = 40
DEVICES = ["vulkan-glsl:0", "vulkan:0"]
#: the driver's name of each limit, per device kind
BUFFERS = {"vulkan-glsl:0": "maxPerStageDescriptorStorageBuffers", "vulkan:0": "max-storage-buffers-per-shader-stage"}
SHARED = {"vulkan-glsl:0": "maxComputeSharedMemorySize", "vulkan:0": "max-compute-workgroup-storage-size"}


def _many_vectors(tmp: Path) -> tuple[Any, int]:
    """A kernel of N_VECS vector parameters (each v_i[0] += i), written to a file so errors have a line; and
    the line of its `def`."""
    params = ", ".join(f"v{i}: Vec[f32]" for i in range(N_VECS))
    body = "\n".join(f"    v{i}[0] = v{i}[0] + {i}.0" for i in range(N_VECS))
    p = tmp / "many_vectors.py"
    p.write_text(f"from sarek import kernel, Vec, f32\n\n\n@kernel\ndef many({params}):\n{body}\n")
    spec = importlib.util.spec_from_file_location("many_vectors", p)
    assert spec is not None and spec.loader is not None
    m = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(m)
    return m.many, 5


@kernel
def big_shared(out: Vec[f32]):
    s = shared(f32, 10240)  # 40 KiB: within the portable 64 KiB, past lavapipe's 32 KiB (NVIDIA: 48 KiB)
    s[thread_idx_x] = 1.0
    barrier()
    out[thread_idx_x] = s[0]


@kernel
def word_shared(x: Vec[u8], out: Vec[u8]):
    s = shared(u8, 10000)  # 10,000 bytes in u8, 40,000 as the shaders hold it: one element per 32-bit word
    s[thread_idx_x] = x[thread_idx_x]
    barrier()
    out[thread_idx_x] = s[0]


def _dev(name: str) -> ShaderDevice:
    d = sarek.get_device(name)
    assert isinstance(d, ShaderDevice), f"{name} is {d!r}"
    return d


@pytest.mark.parametrize("name", DEVICES)
def test_storage_buffers_past_the_device_limit_are_a_located_launch_error(name: str, tmp_path: Path):
    """40 vectors: refused before any driver call, at the kernel's `def`, naming the driver's limit and value
    (wgpu's bind group layout failed with 'limit is 32, count was 40' before)."""
    many, line = _many_vectors(tmp_path)
    d = _dev(name)
    most = d.max_storage_buffers
    assert most == (d.adapter.limits["max-storage-buffers-per-shader-stage"] if name == "vulkan:0"  # pyright: ignore
                    else min(d.info.limits["maxPerStageDescriptorStorageBuffers"],  # pyright: ignore
                             d.info.limits["maxDescriptorSetStorageBuffers"]))  # pyright: ignore
    assert most < N_VECS, f"{name} binds {most} storage buffers: the test needs a device below {N_VECS}"
    with pytest.raises(LaunchError) as e:
        many.launch(*[np.zeros(4, np.float32) for _ in range(N_VECS)], grid=1, block=1, device=d)
    msg = str(e.value)
    assert f"many_vectors.py:{line}:" in msg
    assert f"kernel 'many' has {N_VECS} vector parameters; {name} binds at most {most} storage buffers" in msg
    assert f"({BUFFERS[name]} = {most})" in msg and f"'v{most}'" in msg


def test_source_without_a_device_keeps_the_portable_constant(tmp_path: Path):
    """`k.source("glsl")` knows no device: the descriptor's 32 storage buffers, a CompileError."""
    many, line = _many_vectors(tmp_path)
    for target in ("glsl", "wgsl"):
        with pytest.raises(CompileError, match=rf"many_vectors.py:{line}:1: error: {target.upper()}: kernel 'many' has "
                                               rf"{N_VECS} vector parameters; a Vulkan shader binds at most 32"):
            many.source(target)


@pytest.mark.parametrize("name", DEVICES)
def test_shared_memory_past_the_device_limit_is_located_at_the_array(name: str):
    """40 KiB of shared memory (under the portable 64 KiB): lavapipe's 32 KiB refuses it at the `shared(...)`
    line, naming the limit and value (wgpu failed at pipeline creation before)."""
    d = _dev(name)
    most = d.max_shared_bytes
    assert most < 40960, f"{name} offers {most} bytes of shared memory: the test needs less than 40 KiB"
    with pytest.raises(LaunchError) as e:
        big_shared.launch(np.zeros(4, np.float32), grid=1, block=4, device=d)
    msg = str(e.value)
    line = next(i for i, t in enumerate(Path(__file__).read_text().splitlines(), 1) if "shared(f32, 10240)" in t)
    assert f"test_device_limits.py:{line}:9: error: " in msg
    assert f"needs 40960 bytes of shared memory per block; {name} has {most} ({SHARED[name]})" in msg


@pytest.mark.parametrize("name", DEVICES)
def test_shared_memory_counts_the_words_the_shader_declares(name: str):
    """A u8 shared array holds one element per 32-bit word on GLSL and WGSL (a coop fragment's packed one its
    element size): the launch checks the bytes the shader declares (the lowering's abi), not the element bytes,
    and says why they differ; the driver would otherwise be handed 40,000 bytes past its 32 KiB."""
    d = _dev(name)
    with pytest.raises(LaunchError) as e:
        word_shared.launch(np.zeros(4, np.uint8), np.zeros(4, np.uint8), grid=1, block=4, device=d)
    assert f"needs 40000 bytes of shared memory per block (its 8/16-bit shared elements take a 32-bit word each " \
           f"in this shader); {name} has {d.max_shared_bytes}" in str(e.value)
    from sarek.runtime.conformance import EXAMPLES, _load_example
    from sarek.runtime.compile import compile_shader
    from sarek.runtime.core import kernel_spec

    ex = _load_example(EXAMPLES / "coop.py")  # two 512-element f16 arrays a fragment moves through: packed
    k = ex.hgemm_shared
    _, abi = compile_shader(kernel_spec(k.module, k.name), "glsl", (128, 1, 1), False)
    assert abi["shared_bytes"] == 2 * 512 * 2


@pytest.mark.parametrize("name", DEVICES)
def test_under_the_device_limit_past_the_portable_one_reaches_the_driver(name: str, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch):
    """A device binding more storage buffers (and push-constant bytes) than the portable 32 (NVIDIA's do;
    lavapipe's limits are raised here): the gate compiles the 40-vector kernel for it and nothing refuses it
    before the driver builds the pipeline (lavapipe itself cannot run it: the H200 test runs one)."""
    many, _ = _many_vectors(tmp_path)
    d = _dev(name)
    monkeypatch.setattr(type(d), "max_storage_buffers", property(lambda self: 64))  # pyright: ignore
    if name == "vulkan-glsl:0":
        monkeypatch.setitem(d.info.limits, "maxPushConstantsSize", 256)  # pyright: ignore
    built: list[int] = []

    class Reached(Exception):
        pass

    def build(spec: Any, src: str, abi: dict[str, Any]) -> Any:
        built.append(sum(1 for p in abi["params"] if p["kind"] == "vec"))
        raise Reached

    monkeypatch.setattr(d, "_build", build)
    with pytest.raises((Reached, sarek.DeviceError)):
        many.launch(*[np.zeros(4, np.float32) for _ in range(N_VECS)], grid=1, block=1, device=d)
    assert built == [N_VECS]


@pytest.mark.gpu
@pytest.mark.parametrize("kind", ["vulkan-glsl", "vulkan"])
def test_nvidia_runs_more_vectors_than_the_portable_limit(kind: str, tmp_path: Path):
    """NVIDIA's Vulkan driver binds far more than 32 storage buffers (and 256 bytes of push constants): the
    40-vector kernel runs there and adds i to each v_i[0]."""
    many, _ = _many_vectors(tmp_path)
    name = next((d.name for d in sarek.devices() if d.name.startswith(kind + ":") and "NVIDIA" in repr(d).upper()),
                None)
    assert name is not None, f"no NVIDIA {kind} device"
    arrs = [np.zeros(4, np.float32) for _ in range(N_VECS)]
    many.launch(*arrs, grid=1, block=1, device=name)
    assert [float(a[0]) for a in arrs] == [float(i) for i in range(N_VECS)]
