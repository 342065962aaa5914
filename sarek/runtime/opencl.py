"""OpenCL devices through pyopencl: pocl on the CPU, NVIDIA OpenCL on the GPU machine, any other ICD.

Each (platform, device) pair is `opencl:<n>`; GPUs come first, then the rest in platform order. A platform
listed twice (the Debian pocl and the pip wheel's pocl, whatever their versions) is kept once: the first the
ICD loader reports. `SAREK_OPENCL_PLATFORM=substring`
keeps only the platforms whose name contains it.

Kernels: the OpenCL C from `sarek.targets.emit_source(module, "opencl")` (cached), built per device (the
binary is cached too). Arguments follow the C-family convention: each vector is its buffer followed by an
`int` length; scalars by value (bool as int); records and variants as bytes of the aligned layout.
"""

from __future__ import annotations

import importlib
import os
from typing import Any, cast

import numpy as np

from sarek.analysis.namer import entry_name
from sarek.runtime import cache, streams
from sarek.runtime.core import BufferDevice, DeviceError, Dim3, FastPath, KernelSpec, LaunchError, Limits, Param, Stream


def _platform_pairs() -> list[tuple[Any, Any]]:
    import pyopencl as cl

    try:
        platforms = cl.get_platforms()
    except cl.Error:  # no ICD at all
        return []
    want = os.environ.get("SAREK_OPENCL_PLATFORM", "").lower()
    seen: set[str] = set()
    pairs: list[tuple[Any, Any]] = []
    for plat in platforms:
        key = plat.name.strip()  # Debian's pocl and the pyopencl wheel's pocl: the first one only
        if key in seen or (want and want not in plat.name.lower()):
            continue
        seen.add(key)
        try:
            devs = plat.get_devices()
        except cl.Error:
            continue
        pairs += [(plat, d) for d in devs]
    gpus = [pd for pd in pairs if pd[1].type & cl.device_type.GPU]
    return gpus + [pd for pd in pairs if not pd[1].type & cl.device_type.GPU]


def opencl_devices() -> list[OpenCLDevice]:
    try:
        importlib.import_module("pyopencl")
    except ImportError as e:
        raise RuntimeError(f"pyopencl is not installed ({e})") from e
    return [OpenCLDevice(i, plat, dev) for i, (plat, dev) in enumerate(_platform_pairs())]


def wait_interruptibly(queue: Any, event: Any) -> None:
    """Wait for an OpenCL event in Python, a short sleep at a time, so Ctrl-C or a signal handler's exception
    is raised while a long kernel runs (a blocking clFinish/clWaitForEvents sees it only when the kernel
    ends); the queue keeps its work, and the device stays usable. An event that failed raises its error."""
    import time

    import pyopencl as cl

    queue.flush()  # submitted, so that its status moves
    pause = 0.0
    while (status := event.command_execution_status) > cl.command_execution_status.COMPLETE:
        time.sleep(pause)
        pause = min(0.01, pause * 2 or 0.0001)
    if status < 0:
        event.wait()  # pyopencl raises the failure


class OpenCLDevice(BufferDevice):
    kind = "opencl"
    target = "opencl"
    multi_stream = True  # command queues of one context run independently
    takes_passes = True

    def __init__(self, index: int, platform: Any, device: Any):
        self.index = index
        self.name = f"opencl:{index}"
        self.platform = platform
        self.device = device
        self._ctx: Any = None
        self._queue: Any = None
        self._queues: dict[int, Any] = {}  # other queues launched on since the last synchronize()

    @property
    def description(self) -> str:
        return f"{self.device.name.strip()} ({self.platform.name.strip()}, {self.device.version.strip()})"

    @property
    def is_pocl(self) -> bool:
        return "portable computing language" in self.platform.name.lower() or "pocl" in self.platform.name.lower()

    @property
    def memory_space(self) -> tuple[Any, ...]:
        return ("opencl", self.context)

    @property
    def limits(self) -> Limits:
        sizes = list(self.device.max_work_item_sizes)[:3] + [1, 1, 1]
        return Limits(max_threads_per_block=int(self.device.max_work_group_size),
                      max_block=(int(sizes[0]), int(sizes[1]), int(sizes[2])))

    def vector_limit(self, p: Param) -> tuple[int, str] | None:
        """One buffer holds at most CL_DEVICE_MAX_MEM_ALLOC_SIZE bytes (2 GiB on pocl here): refused at launch
        with the parameter's name, before anything is allocated (pocl crashed on the upload of a larger one)."""
        size = 4 if p.dtype == np.bool_ else p.dtype.itemsize  # bool elements are int on the device
        cap = int(self.device.max_mem_alloc_size)
        return cap // size, (f"{self.name} allocates at most {cap} bytes in one buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE), "
                             f"{size} per element here")

    def extensions(self) -> set[str]:
        return set(self.device.extensions.split())

    @property
    def is_nvidia(self) -> bool:
        return "nvidia" in self.platform.name.lower()

    def build_options(self) -> list[str]:
        """NVIDIA: `-cl-nv-verbose` (ptxas reports the registers a kernel uses: the real work-group limit, see
        `_plan`) and `SAREK_NV_F64_ATOMIC_ADD` where the GPU has `atom.add.f64` (compute capability 6.0 on),
        which the native branch of the f64 float atomics tests (sarek.targets.cfamily.languages)."""
        if not self.is_nvidia:
            return []
        opts = ["-cl-nv-verbose"]
        try:
            import pyopencl as cl

            if int(self.device.get_info(cl.device_info.COMPUTE_CAPABILITY_MAJOR_NV)) >= 6:
                opts.append("-DSAREK_NV_F64_ATOMIC_ADD")
        except Exception:  # an NVIDIA platform without cl_nv_device_attribute_query: the CAS loop stays
            pass
        return opts

    @property
    def context(self) -> Any:
        if self._ctx is None:
            import pyopencl as cl

            self._ctx = cl.Context([self.device])
            self._queue = cl.CommandQueue(self._ctx, self.device)
        return self._ctx

    @property
    def queue(self) -> Any:
        _ = self.context
        return self._queue

    # -- buffers

    def _alloc(self, nbytes: int) -> Any:
        import pyopencl as cl

        return cl.Buffer(self.context, cl.mem_flags.READ_WRITE, size=nbytes)

    def _upload(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        import pyopencl as cl

        cl.enqueue_copy(self.queue, buf, host, is_blocking=True)

    def _download(self, buf: Any, host: np.ndarray[Any, Any]) -> None:
        import pyopencl as cl

        wait_interruptibly(self.queue, cl.enqueue_copy(self.queue, host, buf, is_blocking=False))

    def _free(self, buf: Any) -> None:
        try:
            buf.release()
        except Exception:
            pass

    def synchronize(self) -> None:
        import pyopencl as cl

        for q in [*([self._queue] if self._queue is not None else []), *self._queues.values()]:
            wait_interruptibly(q, cl.enqueue_marker(q))
        self._queues.clear()
        streams.finished(self)

    def _order_after(self, producer: Any, consumer: Any) -> None:
        """A marker on the producer queue (done when everything enqueued there so far is), flushed so another
        queue may wait for it, and a barrier on the consumer queue waiting for it."""
        import pyopencl as cl

        pq = producer if producer is not None else self.queue
        ev = cl.enqueue_marker(pq)
        pq.flush()
        cl.enqueue_barrier(consumer if consumer is not None else self.queue, wait_for=[ev])

    def synchronize_stream(self, handle: Any) -> None:
        import pyopencl as cl

        q = handle if handle is not None else self.queue
        wait_interruptibly(q, cl.enqueue_marker(q))

    def stream(self) -> Stream:
        import pyopencl as cl

        return Stream(self, cl.CommandQueue(self.context, self.device))

    def resolve_stream(self, stream: Any, values: list[Any]) -> Any:
        """A pyopencl CommandQueue of this device's context: a sarek stream, a CommandQueue, or (stream None)
        the queue of a pyopencl array argument, so the launch is ordered with that array's own operations."""
        import pyopencl as cl

        q: Any = None
        if stream is None:
            q = next((a.stream for a in values if getattr(a, "what", None) == "a pyopencl array"
                      and a.stream is not None), None)
        elif isinstance(stream, Stream):
            if stream.device is not self:
                raise LaunchError(f"stream= is a stream of {stream.device.name}, the launch is on {self.name}")
            q = stream.handle
        elif isinstance(stream, cl.CommandQueue):
            q = stream
        else:
            raise LaunchError(f"stream= on {self.name} must be a sarek stream (device.stream()) or a pyopencl "
                              f"CommandQueue, got {type(stream).__name__}")
        if q is None or q == self.queue:
            return None
        if q.context != self.context:
            raise LaunchError(f"stream=: the CommandQueue belongs to another OpenCL context than {self.name}'s")
        self._queues[id(q)] = q
        return q

    # -- compile

    def source(self, module: Any, kernel: str) -> str:
        from sarek.runtime.core import kernel_spec

        return generated_source(kernel_spec(module, kernel), "opencl")

    def _program(self, spec: KernelSpec) -> Any:
        key = f"opencl:{id(self)}"
        if key in spec.cache:
            return spec.cache[key]
        import pyopencl as cl

        src = generated_source(spec, "opencl")
        dev = self.device
        opts = self.build_options()
        bkey = cache.make_key("opencl-binary", src, " ".join(opts), self.platform.name, self.platform.version,
                              dev.name, dev.version, dev.driver_version, cl.VERSION)
        prg = None
        binary = cache.get("opencl-binary", bkey)
        regs = cache.get("opencl-registers", bkey)
        if binary is not None:
            try:
                prg = cl.Program(self.context, [dev], [binary]).build(options=opts)
            except Exception:
                prg = None
        if prg is None:
            try:
                prg = cl.Program(self.context, src).build(options=opts)
            except cl.Error as e:
                raise DeviceError(f"OpenCL build of kernel '{spec.name}' failed on {self.name} "
                                  f"({self.description}):\n{e}", backend="opencl") from None
            regs = None
            log = cast(Any, prg).get_build_info(dev, cl.program_build_info.LOG)
            n = nv_registers(str(log), entry_name(spec.name, "opencl"))
            if n is not None:
                regs = str(n).encode()
            try:
                bins = cast("list[bytes]", prg.get_info(cl.program_info.BINARIES))
                if bins and bins[0]:
                    cache.put("opencl-binary", bkey, bytes(bins[0]))
                    if regs is not None:
                        cache.put("opencl-registers", bkey, regs)
            except Exception:
                pass
        spec.cache[key] = prg
        spec.cache[f"opencl-registers:{id(self)}"] = int(regs) if regs else None
        return prg

    def _kernel(self, spec: KernelSpec) -> Any:
        key = f"opencl-kernel:{id(self)}"
        if key not in spec.cache:
            prg = self._program(spec)
            names = [k.function_name for k in prg.all_kernels()]
            ename = entry_name(spec.name, "opencl")
            name = ename if ename in names else None  # never another kernel of the program
            if name is None:
                raise DeviceError(f"kernel '{spec.name}' not found in the OpenCL program (it has: "
                                  f"{', '.join(names)})", backend="opencl")
            spec.cache[key] = getattr(prg, name)
        return spec.cache[key]

    # -- launch

    def _plan(self, spec: KernelSpec) -> tuple[Any, int]:
        """(kernel, its work-group limit), checked once per kernel: pocl aborts the whole process (an assertion
        in pthread_utils.c) on a kernel whose shared arrays exceed the device's local memory, so that is
        refused here."""
        import pyopencl as cl

        key = ("opencl", id(self))
        plan = spec.plans.get(key)
        if plan is None:
            k = self._kernel(spec)
            wg = int(k.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, self.device))
            if self.is_nvidia:  # its WORK_GROUP_SIZE is 256 for every kernel: see nv_thread_limit
                wg = nv_thread_limit(spec.cache.get(f"opencl-registers:{id(self)}"),
                                     int(self.device.max_work_group_size))
            local = int(k.get_work_group_info(cl.kernel_work_group_info.LOCAL_MEM_SIZE, self.device))
            if local > int(self.device.local_mem_size):
                raise LaunchError(f"kernel {spec.name} needs {local} bytes of shared memory per block; {self.name} "
                                  f"has {int(self.device.local_mem_size)}")
            plan = spec.plans[key] = (k, wg)
        return plan

    def fast_path(self, spec: KernelSpec, grid: Dim3, block: Dim3) -> FastPath | None:
        import pyopencl as cl

        k, wg = self._plan(spec)
        if block[0] * block[1] * block[2] > wg:
            return None
        gsize = tuple(g * b for g, b in zip(grid, block))
        conv = [(p.kind == "vec", p.dtype.type) for p in spec.params]
        enqueue, queue, set_args = cl.enqueue_nd_range_kernel, self.queue, k.set_args
        i32 = np.int32

        def submit(bound: list[Any]) -> None:
            cargs: list[Any] = []
            for (vec, t), a in zip(conv, bound):
                if vec:
                    cargs += [a[0], i32(a[1])]
                else:
                    cargs.append(t(a))
            set_args(*cargs)
            enqueue(queue, k, gsize, block)

        return FastPath.make(self, spec, grid, block, submit)

    def _run(self, spec: KernelSpec, bound: list[Any], grid: Dim3, block: Dim3, stream: Any) -> None:
        import pyopencl as cl

        k, wg = self._plan(spec)
        if block[0] * block[1] * block[2] > wg:
            why = (f" (it uses {regs} registers per thread; the GPU has 65536 per block)"
                   if self.is_nvidia and (regs := spec.cache.get(f"opencl-registers:{id(self)}")) else "")
            raise LaunchError(f"kernel {spec.name}: block {block} has {block[0] * block[1] * block[2]} threads; "
                              f"this kernel allows at most {wg} per work-group on {self.name}{why}")
        cargs: list[Any] = []
        for p, a in zip(spec.params, bound):
            if p.kind == "vec":
                buf, *lens = a  # its length, or the extents of an N-dimensional one
                cargs += [buf, *map(np.int32, lens)]
            elif p.kind == "record":
                cargs.append(np.ascontiguousarray(a))
            elif p.dtype.kind == "b":
                cargs.append(np.int32(bool(a)))
            elif p.dtype == np.float16:  # an f32 in the kernel (sarek-widen-f16), rounded there on entry
                cargs.append(np.float32(a))
            else:
                cargs.append(np.asarray(a).view(np.uint16)[()] if p.dtype.kind == "V" else a)  # bf16: its bits
        k.set_args(*cargs)
        gsize = tuple(g * b for g, b in zip(grid, block))
        try:
            cl.enqueue_nd_range_kernel(stream if stream is not None else self.queue, k, gsize, block)
        except cl.Error as e:
            if e.code in (cl.status_code.OUT_OF_RESOURCES, cl.status_code.INVALID_WORK_GROUP_SIZE):
                raise LaunchError(f"kernel {spec.name}: a block of {block[0] * block[1] * block[2]} threads needs "
                                  f"more registers or resources than {self.name} has per work-group ({e}); use a "
                                  f"smaller block") from None
            raise DeviceError(f"OpenCL launch of kernel '{spec.name}' failed on {self.name}: {e}",
                              backend="opencl") from None


def nv_registers(log: str, entry: str) -> int | None:
    """The registers per thread ptxas reports for `entry` in an NVIDIA OpenCL build log (`-cl-nv-verbose`)."""
    import re

    m = re.search(rf"Compiling entry function '{re.escape(entry)}'.*?Used (\d+) registers", log, re.S)
    if m is None:
        m = re.search(r"Used (\d+) registers", log)
    return int(m.group(1)) if m else None


def nv_thread_limit(registers: int | None, device_max: int) -> int:
    """Threads per work-group a kernel of `registers` registers per thread can have on an NVIDIA GPU.

    NVIDIA's OpenCL reports CL_KERNEL_WORK_GROUP_SIZE as 256 for every kernel (measured on the H200: a 12-register
    vector add too), the limit of a kernel using the most registers a thread may have (255, 65536 per block);
    blocks of 512 and 1024 run. The real limit comes from the registers ptxas used: 65536 per block, allocated
    per warp in units of 256 (so per thread in multiples of 8). Unknown registers (a binary from the cache of an
    older sarek): the device's maximum; a launch the GPU cannot fit then fails with a LaunchError."""
    if registers is None or registers <= 0:
        return device_max
    per_warp = 32 * ((registers + 7) // 8 * 8)
    return max(32, min(device_max, 65536 // per_warp * 32))


def generated_source(spec: KernelSpec, target: str) -> str:
    """The target source of the spec's module, through the compile cache."""
    from sarek.runtime.compile import compile_source

    return compile_source(spec, target)
