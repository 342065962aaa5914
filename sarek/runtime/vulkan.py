"""Vulkan devices through wgpu: `vulkan:<n>` runs the WGSL backend's shaders, `vulkan-glsl:<n>` the GLSL
backend's (compiled to SPIR-V by glslangValidator, checked by spirv-val, loaded by wgpu).

    from sarek.runtime.vulkan import vulkan_devices
    dev = vulkan_devices()[0]                        # VulkanDevice "vulkan:0" (WGSL); [1] is "vulkan-glsl:0"
    dev.launch(module, "vector_add", [a, b, c, n], grid=(n // 256 + 1,), block=(256,))
    dev.source(module, "vector_add", block=(256, 1, 1))   # the shader text it runs

Workgroup size: a compile-time specialization. Each (module, kernel, block shape) compiles its own shader
(the block is part of the cache key), so `block_dim_*` and `local_size_*`/`@workgroup_size` always match the
launch. Adapter features (`shader-f64`, `shader-int64`, `subgroup`, `subgroup-barrier`, `immediates`) are
requested when present; a kernel needing one the adapter lacks is refused with a DeviceError naming it.

Parameters: one storage buffer per vector (binding = ordinal among vectors); lengths and scalars in GLSL push
constants (wgpu "immediates") or the WGSL `Params` uniform, at the offsets the lowering's `abi` gives.
Records/variants: the host's aligned layout (sarek.analysis.layout, §4.9) is repacked to the shader's struct
layout and back (variants: only the active constructor's payload is copied back). `sarek.Vector`s stay on the
device between launches in that shader layout (`_ShaderCodec`) and come back only when read.
"""

from __future__ import annotations

import importlib
import json
import os
import tempfile
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from sarek.diagnostics import SarekError
from sarek.runtime.core import Device, DeviceError, Dim3, FastPath, KernelSpec, LaunchError, Limits
from sarek.types import is_ndarray

WANTED_FEATURES = ("shader-f64", "shader-int64", "subgroup", "subgroup-barrier", "immediates",
                   "shader-float32-atomic", "timestamp-query")

_KIND = {"i4": np.int32, "i8": np.int64, "f4": np.float32, "f8": np.float64, "b4": np.int32, "f2": np.float16}


_WGPU: list[Any] = []


def _wgpu() -> Any:
    if not _WGPU:
        if "XDG_RUNTIME_DIR" not in os.environ:
            os.environ["XDG_RUNTIME_DIR"] = tempfile.mkdtemp(prefix="sarek-xdg-")
        _WGPU.append(importlib.import_module("wgpu"))  # partly typed, without stubs
    return _WGPU[0]


def vulkan_adapters() -> list[Any]:
    wgpu = _wgpu()
    return [a for a in wgpu.gpu.enumerate_adapters_sync() if a.info.get("backend_type") == "Vulkan"]


def vulkan_devices() -> list[VulkanDevice]:
    """Two devices per Vulkan adapter: `vulkan:<n>` (WGSL) and `vulkan-glsl:<n>` (GLSL -> SPIR-V)."""
    out: list[VulkanDevice] = []
    for i, a in enumerate(vulkan_adapters()):
        out.append(VulkanDevice(a, i, "wgsl"))
        out.append(VulkanDevice(a, i, "glsl"))
    return out


class VulkanDevice(Device):
    kind = "vulkan"

    def __init__(self, adapter: Any, index: int, lang: str = "wgsl"):
        self.adapter = adapter
        self.index = index
        self.lang = lang
        self.target = lang
        self.name = f"vulkan:{index}" if lang == "wgsl" else f"vulkan-glsl:{index}"
        self.features: set[str] = set(adapter.features)
        self._device: Any = None
        #: wgpu `timestamp_writes` of the next dispatch's compute pass (None: none; set by benchmarks/bench_gpu.py)
        self.timestamp_writes: dict[str, Any] | None = None
        self._cache: dict[tuple[str, str, Dim3, bool], tuple[Any, dict[str, Any], str]] = {}
        #: bind groups of resident launches: (pipeline, buffers, parameter bytes) -> (bind group, buffers)
        self._groups: dict[tuple[Any, ...], tuple[Any, tuple[Any, ...]]] = {}
        self._codecs: dict[int, tuple[dict[str, Any], _ShaderCodec]] = {}
        self._max_buffer: int | None = None

    @property
    def description(self) -> str:
        info = self.adapter.info
        return f"vulkan ({self.lang}) on {info.get('device', '?')} [{info.get('adapter_type', '?')}]"

    @property
    def limits(self) -> Limits:
        lim = self.adapter.limits
        groups = int(lim.get("max-compute-workgroups-per-dimension", 65535))
        block = (int(lim.get("max-compute-workgroup-size-x", 256)), int(lim.get("max-compute-workgroup-size-y", 256)),
                 int(lim.get("max-compute-workgroup-size-z", 64)))
        if self.lang == "glsl":  # glslangValidator's own limits (gl_MaxComputeWorkGroupSize = 1024, 1024, 64)
            block = (min(block[0], 1024), min(block[1], 1024), min(block[2], 64))
        return Limits(max_threads_per_block=int(lim.get("max-compute-invocations-per-workgroup", 256)),
                      max_block=block, max_grid=(groups, groups, groups))

    @property
    def device(self) -> Any:
        if self._device is None:
            feats = [f for f in WANTED_FEATURES if f in self.features]
            lim = self.adapter.limits  # storage buffers up to the adapter's maximum (wgpu's defaults are lower)
            limits: dict[str, int] = {k: int(lim[k]) for k in ("max-storage-buffer-binding-size", "max-buffer-size")
                                      if k in lim}
            if "immediates" in feats:
                limits["max-immediate-size"] = int(self.adapter.limits.get("max-immediate-size", 128))
            self._device = self.adapter.request_device_sync(required_features=feats, required_limits=limits)
        return self._device

    # -------------------------------------------------------------------------------- compiling

    def compile_source(self, module: ModuleOp, kernel: str, block: Dim3,
                       fold: bool = False) -> tuple[str, dict[str, Any]]:
        """(shader source, abi) for one kernel and block shape; refusals raise SarekError. `fold`: the kernel
        through sarek-fold-grid first (a grid beyond the adapter's limit, run as several dispatches)."""
        from sarek.lowering.shader import shader_abi
        from sarek.targets.glsl import lower_shader
        from sarek.targets.glsl.printer import print_glsl, print_wgsl
        from sarek.registry import make_context

        m = module.clone()
        if fold:
            from sarek.passes.fold_grid import fold_grid

            fold_grid(m, kernel)
        lower_shader(make_context(), m, self.lang, ",".join(map(str, block)), kernel)
        abi = shader_abi(m, kernel)
        _mark_packed(module, kernel, abi)
        src = print_glsl(m) if self.lang == "glsl" else print_wgsl(m)
        return src, abi

    def source(self, module: ModuleOp, kernel: str, block: Any = (256, 1, 1)) -> str:
        from sarek.runtime.core import dim3

        return self.compile_source(module, kernel, dim3(block, "block"))[0]

    def _pipeline(self, spec: KernelSpec, block: Dim3, fold: bool = False) -> tuple[Any, dict[str, Any], str]:
        key = (spec.ir_hash, spec.name, block, fold)
        if key in self._cache:
            return self._cache[key]
        try:
            src, abi = self.compile_source(spec.module, spec.name, block, fold)
        except SarekError:
            raise
        if self.lang == "glsl":
            _refuse_used_cas(spec, self.name, src)
        missing = [f for f in abi["features"] if f not in self.features]
        if missing:
            raise DeviceError(f"kernel {spec.name} needs the adapter feature(s) {', '.join(missing)}, which "
                              f"{self.name} lacks", None, self.name)
        dev = self.device
        wgpu = _wgpu()
        try:
            if self.lang == "glsl":
                from sarek.validate.glsl import compile_spirv

                code: Any = compile_spirv(src)
                sm = dev.create_shader_module(code=code, label=f"{spec.name}.comp")
            else:
                sm = dev.create_shader_module(code=src, label=spec.name)
            entries = [{"binding": p["binding"], "visibility": wgpu.ShaderStage.COMPUTE,
                        "buffer": {"type": "storage"}} for p in abi["params"] if p["kind"] == "vec"]
            if self.lang == "wgsl" and abi["params_size"]:
                entries.append({"binding": abi["params_binding"], "visibility": wgpu.ShaderStage.COMPUTE,
                                "buffer": {"type": "uniform"}})
            bgl = dev.create_bind_group_layout(entries=entries)
            imm = abi["params_size"] if self.lang == "glsl" else 0
            pl = dev.create_pipeline_layout(bind_group_layouts=[bgl], immediate_size=imm)
            pipe = dev.create_compute_pipeline(layout=pl, compute={"module": sm, "entry_point": "main"})
        except Exception as e:
            if isinstance(e, SarekError):
                raise
            text = str(e)
            if "--- source ---" not in text:  # glslang/spirv-val errors already show the numbered source
                numbered = "\n".join(f"{i + 1:4}: {l}" for i, l in enumerate(src.splitlines()))
                text += f"\n--- source ---\n{numbered}"
            raise DeviceError(f"compiling kernel {spec.name} failed: {text}", None, self.name) from e
        out = ((pipe, bgl), abi, src)
        self._cache[key] = out
        return out

    # -------------------------------------------------------------------------------- launching

    def _launch(self, spec: KernelSpec, args: list[Any], grid: Dim3, block: Dim3) -> None:
        from sarek.runtime.vector import Vector

        args, shapes = _flat_views(spec, args)
        hw = self.limits.max_grid
        fold = any(g > h for g, h in zip(grid, hw))
        (pipe, bgl), abi, _ = self._pipeline(spec, block, fold)
        chunks: list[tuple[Dim3, Dim3]] = _chunks(grid, hw) if fold else [((0, 0, 0), grid)]
        if fold:  # sarek-fold-grid's parameters: filled per dispatch below
            args = [*args, *(np.int32(0) for _ in range(3)), *(np.int32(g) for g in grid)]
        params = bytearray(max(abi["params_size"], 0))
        # plain arrays: uploaded per launch, one buffer per (array, layout) (an array passed twice is one buffer)
        temps: dict[tuple[int, str], tuple[_ShaderCodec, Any, np.ndarray[Any, Any]]] = {}
        entries: list[dict[str, Any]] = []
        written = {p.index for p in spec.params if p.written}
        written_arrays = {id(args[p.index]) for p in spec.params if p.written}
        try:
            for p_abi in abi["params"]:
                a = args[p_abi["index"]]
                if p_abi["kind"] == "vec":
                    codec = self._codec(p_abi)
                    self._check_buffer_size(spec, p_abi["name"], codec.device_nbytes(a))
                    if isinstance(a, Vector):
                        buf = a.device_buffer(self, codec)
                    elif (id(a), codec.key) in temps:
                        buf = temps[(id(a), codec.key)][1]
                    else:
                        buf = self._alloc(codec.device_nbytes(a))
                        temps[(id(a), codec.key)] = (codec, buf, a)
                        if a.size:
                            codec.upload(self, buf, a)
                    for off, n in zip(p_abi.get("dim_offsets", [p_abi["len_offset"]]), shapes.get(id(a), (len(a),))):
                        np.frombuffer(params, np.int32, 1, off)  # bounds check
                        params[off:off + 4] = np.int32(n).tobytes()
                    entries.append({"binding": p_abi["binding"], "resource": {"buffer": buf}})
                else:
                    raw = _scalar_bytes(a, p_abi)
                    params[p_abi["offset"]:p_abi["offset"] + len(raw)] = raw
            extra = [p for p in abi["params"] if p["index"] >= len(spec.params)]
            for base, count in chunks:
                for p_abi in extra[:3]:
                    axis: int = p_abi["index"] - len(spec.params)
                    v = base[axis]
                    params[p_abi["offset"]:p_abi["offset"] + 4] = v.to_bytes(4, "little", signed=True)
                self._dispatch(pipe, bgl, abi, entries, params, count, cacheable=not temps)
            for p_abi in abi["params"]:
                a = args[p_abi["index"]]
                if p_abi["index"] in written and isinstance(a, Vector):
                    a.mark_written_on(self)  # stays on the device until the host or another device reads it
            for codec, buf, host in temps.values():
                if id(host) in written_arrays and host.size:  # the write analysis says the kernel may store there
                    codec.download(self, buf, host)
        finally:
            for _, buf, _ in temps.values():
                self._free(buf)

    def _dispatch(self, pipe: Any, bgl: Any, abi: dict[str, Any], entries: list[dict[str, Any]],
                  params: bytearray, grid: Dim3, cacheable: bool) -> None:
        """Bind (a cached bind group when every buffer is resident), record one dispatch, submit."""
        dev = self.device
        bufs = tuple(e["resource"]["buffer"] for e in entries)
        gkey = (id(pipe), *map(id, bufs), bytes(params)) if cacheable else None
        held = self._groups.get(gkey) if gkey is not None else None
        if held is not None and all(x is y for x, y in zip(held[1], bufs)):
            bg = held[0]
        else:
            if self.lang == "wgsl" and abi["params_size"]:
                ubuf = dev.create_buffer_with_data(data=bytes(params), usage=_wgpu().BufferUsage.UNIFORM)
                entries = [*entries, {"binding": abi["params_binding"], "resource": {"buffer": ubuf}}]
            bg = dev.create_bind_group(layout=bgl, entries=entries)
            if gkey is not None:  # resident buffers only (temporaries die with the launch)
                if len(self._groups) >= 64:
                    self._groups.pop(next(iter(self._groups)))
                self._groups[gkey] = (bg, bufs)
        enc = dev.create_command_encoder()
        ts = self.timestamp_writes  # GPU timestamps around this pass (benchmarks/bench_gpu.py), when set
        cp = enc.begin_compute_pass(timestamp_writes=ts) if ts else enc.begin_compute_pass()
        cp.set_pipeline(pipe)
        cp.set_bind_group(0, bg)
        if self.lang == "glsl" and abi["params_size"]:
            cp.set_immediates(0, bytes(params), 0, abi["params_size"])
        cp.dispatch_workgroups(*grid)
        cp.end()
        dev.queue.submit([enc.finish()])

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        if any(g > h for g, h in zip(grid, self.limits.max_grid)):
            return None  # split dispatches: the full path
        (pipe, bgl), abi, _ = self._pipeline(spec, block)
        size = max(abi["params_size"], 0)
        codecs = {p["index"]: self._codec(p).key for p in abi["params"] if p["kind"] == "vec"}
        order = [(p["index"], p) for p in abi["params"]]

        def submit(bound: list[Any]) -> None:
            params = bytearray(size)
            entries: list[dict[str, Any]] = []
            for i, p_abi in order:
                if p_abi["kind"] == "vec":
                    buf, n = bound[i]
                    params[p_abi["len_offset"]:p_abi["len_offset"] + 4] = n.to_bytes(4, "little", signed=True)
                    entries.append({"binding": p_abi["binding"], "resource": {"buffer": buf}})
                else:
                    raw = _scalar_bytes(bound[i], p_abi)
                    params[p_abi["offset"]:p_abi["offset"] + len(raw)] = raw
            self._dispatch(pipe, bgl, abi, entries, params, grid, cacheable=True)

        return FastPath.make(self, spec, grid, block, submit, codecs)

    def _codec(self, p_abi: dict[str, Any]) -> _ShaderCodec:
        """One codec per parameter of a cached pipeline's abi (the abi dicts live as long as the pipeline)."""
        held = self._codecs.get(id(p_abi))
        if held is None or held[0] is not p_abi:
            held = self._codecs[id(p_abi)] = (p_abi, _ShaderCodec(p_abi))
        return held[1]

    def _check_buffer_size(self, spec: KernelSpec, name: str, nbytes: int) -> None:
        """A vector is one storage buffer binding: beyond the device's limit wgpu fails with a raw validation
        error at bind-group creation; say which vector and the limit instead."""
        most = self._max_buffer
        if most is None:
            lim = self.device.limits
            most = self._max_buffer = min(int(lim.get("max-storage-buffer-binding-size", 2**27)),
                                          int(lim.get("max-buffer-size", 2**28)))
        if nbytes > most:
            raise LaunchError(f"kernel {spec.name}: vector '{name}' takes {nbytes} bytes on {self.name}; a storage "
                              f"buffer there holds at most {most} bytes")

    # -------------------------------------------------------------------------------- buffers

    def _alloc(self, nbytes: int) -> Any:
        wgpu = _wgpu()
        return self.device.create_buffer(size=max(16, (nbytes + 3) // 4 * 4),
                                         usage=wgpu.BufferUsage.STORAGE | wgpu.BufferUsage.COPY_SRC
                                         | wgpu.BufferUsage.COPY_DST)

    def _free(self, buf: Any) -> None:
        buf.destroy()

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

    @property
    def memory_space(self) -> tuple[Any, ...]:
        return ("vulkan", id(self))

    @property
    def grid_limit(self) -> Dim3:
        """Beyond the adapter's workgroup count per dimension a launch is split into dispatches
        (sarek-fold-grid recomputes the ids): only the i32 thread-id limit remains."""
        return (2**31 - 1, 2**31 - 1, 2**31 - 1)


def _flat_views(spec: KernelSpec, args: list[Any]) -> tuple[list[Any], dict[int, tuple[int, ...]]]:
    """N-dimensional arrays as 1-D views of their elements (one view per array; the codecs work on 1-D
    arrays), and the shape of each view's array (id(view) -> shape) for the extents the kernel is passed."""
    views: dict[int, Any] = {}
    shapes: dict[int, tuple[int, ...]] = {}
    out = list(args)
    for p in spec.params:
        a = args[p.index]
        if p.rank > 1 and is_ndarray(a):
            if id(a) not in views:
                views[id(a)] = a.reshape(-1)
                shapes[id(views[id(a)])] = a.shape
            out[p.index] = views[id(a)]
    return out, shapes


def _chunks(grid: Dim3, hw: Dim3) -> list[tuple[Dim3, Dim3]]:
    """The dispatches covering `grid` with at most `hw` workgroups per dimension: (first block, counts)."""
    def spans(n: int, m: int) -> list[tuple[int, int]]:
        return [(b, min(m, n - b)) for b in range(0, n, m)]

    return [((x, y, z), (cx, cy, cz)) for z, cz in spans(grid[2], hw[2]) for y, cy in spans(grid[1], hw[1])
            for x, cx in spans(grid[0], hw[0])]


def _refuse_used_cas(spec: KernelSpec, device: str, src: str) -> None:
    """wgpu 0.32's SPIR-V reader (naga spv-in) drops the old value of OpAtomicCompareExchange from the
    emitted expressions, so a shader that uses it fails validation ("used ... before it was introduced into
    the scope"; gfx-rs/wgpu#9621, fixed upstream after 0.32). The GLSL lowering uses it only in compare-and-swap
    loops (f32 min/max/cas, f32 atomics on shared memory or on a buffer also given min/max/exch/cas; f32
    add/sub on a buffer are GL_EXT_shader_atomic_float's atomicAdd, which naga reads) and for atomic_cas: when
    the source holds one, say so before compiling, at the first atomic that may be it."""
    from xdsl.dialects.builtin import Float32Type

    from sarek.dialect import sarek as s

    if "atomicCompSwap(" not in src:
        return
    for op in spec.module.walk():
        if isinstance(op, s.IntrinsicOp) and op.callee.data.startswith("atomic_") and op.args \
                and op.callee.data != "atomic_exch" and isinstance(op.args[0].type, s.VecType | s.ArrayType) \
                and isinstance(op.args[0].type.element_type, Float32Type):
            raise DeviceError(f"{op.callee.data} on f32 cannot run on this device: the GLSL lowering writes it as a "
                              "compare-and-swap loop, whose returned value wgpu's SPIR-V reader (naga, wgpu 0.32) "
                              "loses (gfx-rs/wgpu#9621); only atomic_add/sub/inc/dec on a vector that no other "
                              "float atomic touches (a native float add) and atomic_exch run here; run the kernel "
                              "on the WGSL device (vulkan:N) or another device", op, device)
        if isinstance(op, s.IntrinsicOp) and op.callee.data == "atomic_cas" and op.results and op.results[0].uses:
            raise DeviceError("the value atomic_cas returns cannot be used on this device: wgpu's SPIR-V "
                              "reader (naga, wgpu 0.32) loses it (gfx-rs/wgpu#9621); run the kernel on the WGSL "
                              "device (vulkan:N) or another device, or discard the returned value", op, device)


# ------------------------------------------------------------------------------------------------ marshalling


def _mark_packed(module: ModuleOp, kernel: str, abi: dict[str, Any]) -> None:
    """`packed: true` on the abi of each vector sarek-pack-narrow stores as 32-bit words (8/16-bit or bf16
    elements, records holding them): its buffer holds the host's bytes, padded to a multiple of 4."""
    from xdsl.ir import Attribute

    from sarek.analysis.layout import RecordLayout, layout_of, numpy_dtype
    from sarek.dialect.scalars import is_bf16
    from sarek.dialect.sarek import KernelOp, RecordType, VecType
    from sarek.passes.pack_narrow import is_packed_element, narrow_records

    k = next(op for op in module.ops if isinstance(op, KernelOp) and op.sym_name.data == kernel)
    records = narrow_records(module)
    types: list[Attribute] = [a.type for a in k.body.block.args]
    params: list[dict[str, Any]] = abi["params"]
    for p in params:
        i: int = p["index"]
        t = types[i] if i < len(types) else None
        if isinstance(t, VecType) and is_packed_element(t.element_type, records):
            p["packed"] = True
        elif t is not None and is_bf16(t):  # an f32 parameter in the shader: the value of the bf16 bits
            p["bf16"] = True
        elif isinstance(t, RecordType) and t.decl_name in records:  # by value: its fields widened to 32 bits
            lay = layout_of(module, t)
            assert isinstance(lay, RecordLayout)
            p["widen"] = [[x.offset, "bf16" if is_bf16(x.type) else numpy_dtype(module, x.type).str]
                          for x in lay.leaves]


class _ShaderCodec:
    """One vector parameter's storage-buffer layout (from the lowering's abi): scalars widened where the
    shader needs it (bool as u32), records/variants repacked from the host's aligned layout."""

    def __init__(self, p_abi: dict[str, Any]):
        self.p = p_abi
        self.key = json.dumps([p_abi.get("scalar"), p_abi.get("layout"), p_abi.get("packed", False)], sort_keys=True)

    def device_nbytes(self, host: np.ndarray[Any, Any]) -> int:
        if self.p.get("packed"):
            return (host.nbytes + 3) // 4 * 4
        if self.p.get("scalar"):
            k = self.p["scalar"]
            return len(host) * np.dtype(np.uint32 if k == "b4" else _KIND[k]).itemsize
        return len(host) * int(self.p["layout"]["dev_size"])

    def upload(self, dev: Any, buf: Any, host: np.ndarray[Any, Any]) -> None:
        data = np.ascontiguousarray(host) if self.p.get("packed") else _to_device(host, self.p)
        dev.device.queue.write_buffer(buf, 0, data.tobytes() + b"\0" * ((-data.nbytes) % 4))

    def download(self, dev: Any, buf: Any, host: np.ndarray[Any, Any]) -> None:
        raw = bytes(dev.device.queue.read_buffer(buf))
        if self.p.get("packed"):  # the host's bytes (u8, int8, uint16, int16, bf16 or uint16 bits, records)
            if len(host):
                host[...] = np.frombuffer(raw, host.dtype, count=len(host))
            return
        _from_device(raw, host, self.p)



def _to_device(host: np.ndarray[Any, Any], p: dict[str, Any]) -> np.ndarray[Any, Any]:
    lay = p["layout"]
    if p.get("scalar"):
        k = p["scalar"]
        if k == "b4":
            return np.ascontiguousarray(host).astype(np.uint32)
        return np.ascontiguousarray(host, dtype=_KIND[k])
    n = len(host)
    h = np.ascontiguousarray(host)
    if h.dtype.itemsize != lay["host_size"]:
        raise LaunchError(f"vector '{p['name']}': element size {h.dtype.itemsize}, the aligned layout says "
                          f"{lay['host_size']}")
    hb = h.view(np.uint8).reshape(n, lay["host_size"])
    d = np.zeros((n, lay["dev_size"]), np.uint8)
    leaves = list(lay["leaves"]) + [x for c in lay.get("ctors", []) for x in c]
    for ho, do, sz, _ in leaves:
        d[:, do:do + sz] = hb[:, ho:ho + sz]
    return d


def _from_device(raw: bytes, host: np.ndarray[Any, Any], p: dict[str, Any]) -> None:
    lay = p["layout"]
    n = len(host)
    if n == 0:
        return
    if p.get("scalar"):
        k = p["scalar"]
        dt = np.uint32 if k == "b4" else _KIND[k]
        vals = np.frombuffer(raw, dtype=dt, count=n)
        host[...] = (vals != 0) if host.dtype == np.bool_ else vals.astype(host.dtype, copy=False)
        return
    d = np.frombuffer(raw, np.uint8, count=n * lay["dev_size"]).reshape(n, lay["dev_size"])
    hb = host.view(np.uint8).reshape(n, lay["host_size"])
    for ho, do, sz, _ in lay["leaves"]:
        hb[:, ho:ho + sz] = d[:, do:do + sz]
    ctors = lay.get("ctors")
    if ctors is not None:
        tag = d[:, 0:4].copy().view(np.int32).reshape(n)
        hb[:, 4:] = 0
        for i, c in enumerate(ctors):
            m = tag == i
            if not m.any():
                continue
            for ho, do, sz, _ in c:
                hb[m, ho:ho + sz] = d[m, do:do + sz]


def _widened(hb: np.ndarray[Any, Any], leaves: list[list[Any]], lay: dict[str, Any]) -> np.ndarray[Any, Any]:
    """A record's aligned host bytes with its fields at the widened record's offsets: 8/16-bit integers as
    i32, bf16 as the f32 of its bits, other fields unchanged (`leaves`: the original offsets and dtypes, in
    the order of the layout's leaves)."""
    out = np.zeros(int(lay["host_size"]), np.uint8)
    for (off, dt), (host, _, size, _) in zip(leaves, lay["leaves"]):
        if dt == "bf16":
            v = (np.uint32(hb[off:off + 2].view(np.uint16)[0]) << np.uint32(16)).tobytes()
        else:
            x = hb[off:off + np.dtype(dt).itemsize].view(dt)[0]
            v = np.asarray(x, np.int32).tobytes() if np.dtype(dt).itemsize < 4 else x.tobytes()
        out[host:host + size] = np.frombuffer(v, np.uint8)[:size]
    return out


def _scalar_bytes(a: Any, p: dict[str, Any]) -> bytes:
    if p.get("bf16"):  # the launch gives bf16 parameters as their 16 bits (runtime.core._scalar_arg)
        return (np.uint32(np.asarray(a).view(np.uint16)) << np.uint32(16)).tobytes()
    lay = p.get("layout")
    if lay is None:
        k = p["leaves"][0][1]
        v = np.asarray(a)
        if k == "b4":
            return np.int32(1 if bool(v) else 0).tobytes()
        return np.asarray(v, dtype=_KIND[k]).reshape(()).tobytes()
    # a record/variant passed by value: its aligned host bytes, repacked to the shader's struct layout
    hb = np.frombuffer(np.ascontiguousarray(a).tobytes(), np.uint8)
    if p.get("widen"):  # sarek-pack-narrow widened its 8/16-bit and bf16 fields to i32/f32
        hb = _widened(hb, p["widen"], lay)
    if hb.size != lay["host_size"]:
        raise LaunchError(f"parameter '{p['name']}': {hb.size} bytes given, the aligned layout needs {lay['host_size']}")
    d = np.zeros(p["size"], np.uint8)
    for ho, do, sz, _ in list(lay["leaves"]) + [x for c in lay.get("ctors", []) for x in c]:
        d[do:do + sz] = hb[ho:ho + sz]
    return d.tobytes()


__all__ = ["VulkanDevice", "vulkan_devices", "vulkan_adapters"]
