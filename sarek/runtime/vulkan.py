"""`vulkan:<n>`: sarek's WGSL on a Vulkan adapter through wgpu (the WebGPU path, which also reaches Metal
and DX12 through wgpu). `vulkan-glsl:<n>` runs the GLSL backend on the Vulkan driver itself
(sarek.runtime.vulkan_glsl); `vulkan_devices()` lists both.

    from sarek.runtime.vulkan import vulkan_devices
    dev = vulkan_devices()[0]                        # VulkanDevice "vulkan:0" (WGSL)
    dev.launch(module, "vector_add", [a, b, c, n], grid=(n // 256 + 1,), block=(256,))
    dev.source(module, "vector_add", block=(256, 1, 1))   # the shader text it runs

Workgroup size: a compile-time specialization. Each (module, kernel, block shape) compiles its own shader
(the block is part of the cache key), so `block_dim_*` and `@workgroup_size` always match the launch. Adapter
features (`shader-f64`, `shader-int64`, `subgroup`, `subgroup-barrier`, `immediates`) are requested when
present; a kernel needing one the adapter lacks is refused with a DeviceError naming it.

Parameters (shared with vulkan-glsl, sarek.runtime.shader_device): one storage buffer per vector (binding =
ordinal among vectors); lengths and scalars in the WGSL `Params` uniform at the offsets the lowering's `abi`
gives. Records/variants are repacked to the shader's struct layout and back (sarek.runtime.shader_codec).
`sarek.Vector`s stay on the device between launches in that layout and come back only when read.
"""

from __future__ import annotations

import importlib
import os
import tempfile
from typing import Any

from sarek.runtime.core import Dim3, KernelSpec
from sarek.runtime.shader_codec import ShaderCodec as ShaderCodec
from sarek.runtime.shader_device import ShaderDevice, ShaderLimits

WANTED_FEATURES = ("shader-f64", "shader-int64", "subgroup", "subgroup-barrier", "immediates",
                   "shader-float32-atomic", "timestamp-query")

_WGPU: list[Any] = []
#: limits requested at the adapter's maximum (wgpu's defaults are lower): buffer sizes, storage buffers per
#: kernel, workgroup memory (the gate checks kernels against the device's values at launch)
DEVICE_LIMITS = ("max-storage-buffer-binding-size", "max-buffer-size", "max-storage-buffers-per-shader-stage",
                 "max-compute-workgroup-storage-size")


def _wgpu() -> Any:
    if not _WGPU:
        if "XDG_RUNTIME_DIR" not in os.environ:
            os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="sarek-xdg-")
        _WGPU.append(importlib.import_module("wgpu"))  # partly typed, without stubs
    return _WGPU[0]


def vulkan_adapters() -> list[Any]:
    wgpu = _wgpu()
    return [a for a in wgpu.gpu.enumerate_adapters_sync() if a.info.get("backend_type") == "Vulkan"]


def vulkan_devices() -> list[ShaderDevice]:
    """`vulkan:<n>` (WGSL through wgpu) per Vulkan adapter, then `vulkan-glsl:<n>` (GLSL -> SPIR-V on the
    driver) per Vulkan physical device. Either side failing (no wgpu, no `vulkan` binding, no driver) leaves
    the other; the reason is in `sarek.runtime.unavailable["vulkan-glsl"]` / `["vulkan"]`."""
    from sarek.diagnostics import raised_by_user
    from sarek.runtime import unavailable

    out: list[ShaderDevice] = []
    try:
        out += [VulkanDevice(a, i) for i, a in enumerate(vulkan_adapters())]
    except Exception as e:
        if raised_by_user(e):  # a signal handler's exception (a timeout): the user's, and nothing is recorded
            raise
        unavailable["vulkan"] = f"wgpu: {type(e).__name__}: {e}"
    try:
        from sarek.runtime.vulkan_glsl import glsl_devices

        out += _EARLY_GLSL.pop() if _EARLY_GLSL else glsl_devices()
    except Exception as e:
        if raised_by_user(e):
            raise
        unavailable["vulkan-glsl"] = f"{type(e).__name__}: {e}"
    if not out and unavailable:
        raise RuntimeError("; ".join(f"{k}: {v}" for k, v in unavailable.items() if k.startswith("vulkan")))
    return out


#: the vulkan-glsl devices `get_device("vulkan-glsl...")` listed before any other Vulkan device was asked for
#: (handed to the next `vulkan_devices()`, so both lists hold the same device objects)
_EARLY_GLSL: list[list[ShaderDevice]] = []


def glsl_devices_first() -> list[ShaderDevice]:
    """The vulkan-glsl devices alone, without listing wgpu's adapters (importing wgpu and enumerating its
    adapters took 0.5-0.8 s of a fresh process's first vulkan-glsl launch on lavapipe)."""
    if not _EARLY_GLSL:
        from sarek.runtime.vulkan_glsl import glsl_devices

        _EARLY_GLSL.append(list(glsl_devices()))
    return _EARLY_GLSL[0]


class VulkanDevice(ShaderDevice):
    """`vulkan:<n>`: WGSL through wgpu on one Vulkan adapter."""

    def __init__(self, adapter: Any, index: int):
        super().__init__(index, "wgsl")
        self.adapter = adapter
        self.features = set(adapter.features)
        self._device: Any = None
        #: wgpu `timestamp_writes` of the next dispatch's compute pass (None: none; set by benchmarks/bench_gpu.py)
        self.timestamp_writes: dict[str, Any] | None = None
        #: bind groups of resident launches: (pipeline, buffers, parameter bytes) -> (bind group, buffers)
        self._groups: dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] = {}

    @property
    def description(self) -> str:
        info = self.adapter.info
        return f"vulkan (wgsl) on {info.get('device', '?')} [{info.get('adapter_type', '?')}]"

    def _shader_limits(self) -> ShaderLimits:
        """The adapter's limits (the device is opened with the storage-buffer and workgroup-memory ones at the
        adapter's maximum: DEVICE_LIMITS)."""
        lim = self.adapter.limits
        groups = int(lim.get("max-compute-workgroups-per-dimension", 65535))
        return ShaderLimits(invocations=int(lim.get("max-compute-invocations-per-workgroup", 256)),
                            block=(int(lim.get("max-compute-workgroup-size-x", 256)),
                                   int(lim.get("max-compute-workgroup-size-y", 256)),
                                   int(lim.get("max-compute-workgroup-size-z", 64))),
                            groups=(groups, groups, groups),
                            storage_buffers=int(lim.get("max-storage-buffers-per-shader-stage", 8)),
                            shared_bytes=int(lim.get("max-compute-workgroup-storage-size", 16384)))

    @property
    def device(self) -> Any:
        if self._device is None:
            feats = [f for f in WANTED_FEATURES if f in self.features]
            lim = self.adapter.limits  # storage buffers up to the adapter's maximum (wgpu's defaults are lower)
            limits: dict[str, int] = {k: int(lim[k]) for k in DEVICE_LIMITS if k in lim}
            if "immediates" in feats:
                limits["max-immediate-size"] = int(self.adapter.limits.get("max-immediate-size", 128))
            self._device = self.adapter.request_device_sync(required_features=feats, required_limits=limits)
        return self._device

    def _build(self, spec: KernelSpec, src: str, abi: dict[str, Any]) -> Any:
        dev = self.device
        wgpu = _wgpu()
        sm = dev.create_shader_module(code=src, label=spec.name)
        entries = [{"binding": p["binding"], "visibility": wgpu.ShaderStage.COMPUTE,
                    "buffer": {"type": "storage"}} for p in abi["params"] if p["kind"] == "vec"]
        if abi["params_size"]:
            entries.append({"binding": abi["params_binding"], "visibility": wgpu.ShaderStage.COMPUTE,
                            "buffer": {"type": "uniform"}})
        bgl = dev.create_bind_group_layout(entries=entries)
        pl = dev.create_pipeline_layout(bind_group_layouts=[bgl])
        pipe = dev.create_compute_pipeline(layout=pl, compute={"module": sm, "entry_point": "main"})
        return pipe, bgl

    def _dispatch(self, spec: KernelSpec, handle: Any, abi: dict[str, Any], bufs: list[tuple[int, Any]],
                  params: bytearray, grid: Dim3, cacheable: bool) -> None:
        """Bind (a cached bind group when every buffer is resident), record one dispatch, submit."""
        pipe, bgl = handle
        dev = self.device
        held_bufs = tuple(b for _, b in bufs)
        gkey = (id(pipe), *map(id, held_bufs), bytes(params)) if cacheable else None
        held = self._groups.get(gkey) if gkey is not None else None
        if held is not None and all(x is y for x, y in zip(held[1], held_bufs)):
            bg = held[0]
        else:
            entries: list[dict[str, Any]] = [{"binding": i, "resource": {"buffer": b}} for i, b in bufs]
            if abi["params_size"]:
                ubuf = dev.create_buffer_with_data(data=bytes(params), usage=_wgpu().BufferUsage.UNIFORM)
                entries.append({"binding": abi["params_binding"], "resource": {"buffer": ubuf}})
            bg = dev.create_bind_group(layout=bgl, entries=entries)
            if gkey is not None:  # resident buffers only (temporaries die with the launch)
                if len(self._groups) >= 64:
                    self._groups.pop(next(iter(self._groups)))
                self._groups[gkey] = (bg, held_bufs)
        enc = dev.create_command_encoder()
        ts = self.timestamp_writes  # GPU timestamps around this pass (benchmarks/bench_gpu.py), when set
        cp = enc.begin_compute_pass(timestamp_writes=ts) if ts else enc.begin_compute_pass()
        cp.set_pipeline(pipe)
        cp.set_bind_group(0, bg)
        cp.dispatch_workgroups(*grid)
        cp.end()
        dev.queue.submit([enc.finish()])

    def _max_buffer_bytes(self) -> int:
        lim = self.device.limits
        return min(int(lim.get("max-storage-buffer-binding-size", 2**27)), int(lim.get("max-buffer-size", 2**28)))

    # -------------------------------------------------------------------------------- buffers

    def _alloc(self, nbytes: int) -> Any:
        wgpu = _wgpu()
        return self.device.create_buffer(size=max(16, (nbytes + 3) // 4 * 4),
                                         usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
                                         | wgpu.BufferUsage.COPY_DST)

    def _free(self, buf: Any) -> None:
        buf.destroy()

    def write_bytes(self, buf: Any, data: bytes) -> None:
        self.device.queue.write_buffer(buf, 0, data)

    def read_bytes(self, buf: Any, nbytes: int) -> bytes:
        return bytes(self.device.queue.read_buffer(buf))[:nbytes]

    def synchronize(self) -> None:
        """Waits for every command buffer submitted to the queue (launches are submitted and not waited for)."""
        if self._device is None:
            return
        poll = getattr(self._device, "_poll_wait", None)  # wgpuDevicePoll(wait=true): the latest submission
        if poll is not None:  # (queue.on_submitted_work_done_sync is broken in wgpu 0.32: a cffi type mismatch)
            poll()
        else:  # mapping a copy made after every submitted command waits for them (the queue is in order)
            scratch = self._alloc(16)
            self._device.queue.read_buffer(scratch)
            scratch.destroy()


__all__ = ["VulkanDevice", "glsl_devices_first", "vulkan_devices", "vulkan_adapters"]
