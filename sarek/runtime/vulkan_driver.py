"""One Vulkan device through the `vulkan` binding (cffi, pure Python): what `vulkan-glsl:<n>` runs on (the
binding and the physical devices: sarek.runtime.vulkan_physical).

    drv = DriverDevice(physical_devices()[0])        # VkDevice with every supported feature the shaders use enabled
    buf = drv.buffer(1024); drv.write(buf, data); drv.read(buf, 1024)
    pipe = drv.pipeline(spirv, bindings=3, push_size=16, name="k")
    cmd = drv.record(pipe, drv.descriptor_set(pipe, [(0, buf), ...]), params, (groups_x, y, z))
    drv.submit(cmd); drv.wait()         # launches are asynchronous; the host waits on a timeline semaphore

Ordering: every recorded command buffer starts with a compute/transfer memory barrier, so submissions on the
one queue run in order (each sees the writes of the ones before). Command buffers are recorded with
SIMULTANEOUS_USE and re-submitted as they are. Objects a pending submission may still use (freed buffers,
one-shot command buffers and descriptor sets) are destroyed once the timeline passes it. Memory: device-local;
on a unified-memory device (CPU, integrated) the buffers are mapped and written directly, elsewhere copies go
through a host-visible staging buffer. The VkPipelineCache is loaded from and saved (at exit) beside sarek's
compile cache. Failures raise `DriverError` with the VkResult's name (the device layer names the kernel).
"""

from __future__ import annotations

import atexit
import hashlib
import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sarek.runtime.vulkan_physical import (EXTENSIONS, OFF_FEATURES, CoopMatShape, DriverError, PhysicalInfo, check,
                                           feature_chain, physical_devices, result_name, vk)

# ------------------------------------------------------------------------------------------------ the device


class Buffer:
    """A storage buffer and its memory (`mapped`: the host's view of it, on unified memory)."""

    __slots__ = ("handle", "memory", "size", "mapped", "__weakref__")

    def __init__(self, handle: Any, memory: Any, size: int, mapped: Any):
        self.handle = handle
        self.memory = memory
        self.size = size
        self.mapped = mapped


@dataclass
class Pipeline:
    """A compute pipeline, its layout and descriptor-set layout; `push_size`: bytes of push constants."""

    pipeline: Any
    layout: Any
    set_layout: Any
    bindings: int
    push_size: int
    name: str


class DriverDevice:
    """One VkDevice and its compute queue (see the module docstring)."""

    def __init__(self, info: PhysicalInfo):
        v = vk()
        ffi, lib = v.ffi, v.lib
        self.info = info
        self._lock = threading.Lock()
        pd = info.handle
        fam = next(i for i, q in enumerate(v.vkGetPhysicalDeviceQueueFamilyProperties(pd))
                   if q.queueFlags & v.VK_QUEUE_COMPUTE_BIT)
        self.family = fam
        self.timestamp_bits = int(v.vkGetPhysicalDeviceQueueFamilyProperties(pd)[fam].timestampValidBits)
        head, self._chain = feature_chain(info.api, info.extensions)
        lib.vkGetPhysicalDeviceFeatures2(pd, head)
        for s in self._chain:
            target = s.features if s is head else s
            for off in OFF_FEATURES:
                if hasattr(target, off):
                    setattr(target, off, 0)
        exts = [e.encode() for e in EXTENSIONS if e in info.extensions]
        ext_names = [ffi.new("char[]", e) for e in exts]
        ext_arr = ffi.new("char*[]", ext_names)
        prio = ffi.new("float[]", [1.0])
        qinfo = ffi.new("VkDeviceQueueCreateInfo*", {"sType": v.VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
                                                      "queueFamilyIndex": fam, "queueCount": 1,
                                                      "pQueuePriorities": prio})
        dinfo = ffi.new("VkDeviceCreateInfo*", {"sType": v.VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, "pNext": head,
                                                "queueCreateInfoCount": 1, "pQueueCreateInfos": qinfo,
                                                "enabledExtensionCount": len(exts), "ppEnabledExtensionNames": ext_arr})
        out = ffi.new("VkDevice*")
        check(lib.vkCreateDevice(pd, dinfo, ffi.NULL, out), "vkCreateDevice")
        self.device = dev = out[0]
        q = ffi.new("VkQueue*")
        lib.vkGetDeviceQueue(dev, fam, 0, q)
        self.queue = q[0]
        pool = ffi.new("VkCommandPool*")
        check(lib.vkCreateCommandPool(dev, ffi.new("VkCommandPoolCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO, "queueFamilyIndex": fam,
            "flags": v.VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT}), ffi.NULL, pool), "vkCreateCommandPool")
        self.pool = pool[0]
        # the timeline: submission k signals value k; the host waits for a value
        tl = ffi.new("VkSemaphoreTypeCreateInfo*", {"sType": v.VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO,
                                                    "semaphoreType": v.VK_SEMAPHORE_TYPE_TIMELINE})
        sem = ffi.new("VkSemaphore*")
        check(lib.vkCreateSemaphore(dev, ffi.new("VkSemaphoreCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO, "pNext": tl}), ffi.NULL, sem), "vkCreateSemaphore")
        self.semaphore = sem[0]
        self.value = 0  # the last value submitted
        self._done = 0  # the last value known reached
        self._sig = ffi.new("uint64_t[1]")
        self._sems = ffi.new("VkSemaphore[1]", [self.semaphore])
        self._cmd = ffi.new("VkCommandBuffer[1]")
        self._tl = ffi.new("VkTimelineSemaphoreSubmitInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_TIMELINE_SEMAPHORE_SUBMIT_INFO, "signalSemaphoreValueCount": 1,
            "pSignalSemaphoreValues": self._sig})
        self._submit = ffi.new("VkSubmitInfo*", {"sType": v.VK_STRUCTURE_TYPE_SUBMIT_INFO, "pNext": self._tl,
                                                 "commandBufferCount": 1, "pCommandBuffers": self._cmd,
                                                 "signalSemaphoreCount": 1, "pSignalSemaphores": self._sems})
        self._wait_val = ffi.new("uint64_t[1]")
        self._wait = ffi.new("VkSemaphoreWaitInfo*", {"sType": v.VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO,
                                                      "semaphoreCount": 1, "pSemaphores": self._sems,
                                                      "pValues": self._wait_val})
        self._garbage: list[tuple[int, Callable[[], None]]] = []
        self._pools: list[Any] = []
        self._staging: Buffer | None = None
        self._types = self._memory_types()
        self.cache_path = _pipeline_cache_path(info)
        self.pipeline_cache = self._load_cache()
        self._queries: Any = None
        atexit.register(self.save_cache)

    # -------------------------------------------------------------------------------- memory

    def _memory_types(self) -> tuple[int, int]:
        """(device-local type, host-visible coherent type for staging, cached where offered)."""
        v = vk()
        mp = v.vkGetPhysicalDeviceMemoryProperties(self.info.handle)
        types = [(i, mp.memoryTypes[i].propertyFlags) for i in range(mp.memoryTypeCount)]
        host = v.VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | v.VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
        local = v.VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT
        if self.info.unified_memory:
            loc = next((i for i, f in types if f & (local | host) == local | host), None)
        else:
            loc = next((i for i, f in types if f & local), None)
        stage = next((i for i, f in types if f & host == host and f & v.VK_MEMORY_PROPERTY_HOST_CACHED_BIT),
                     next(i for i, f in types if f & host == host))
        return (loc if loc is not None else stage), stage

    def buffer(self, nbytes: int, staging: bool = False) -> Buffer:
        """A storage buffer of at least `nbytes` (16 at least, a multiple of 4)."""
        v = vk()
        ffi, lib = v.ffi, v.lib
        size = max(16, (nbytes + 3) // 4 * 4)
        usage = v.VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | v.VK_BUFFER_USAGE_TRANSFER_SRC_BIT \
            | v.VK_BUFFER_USAGE_TRANSFER_DST_BIT
        out = ffi.new("VkBuffer*")
        check(lib.vkCreateBuffer(self.device, ffi.new("VkBufferCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO, "size": size, "usage": usage,
            "sharingMode": v.VK_SHARING_MODE_EXCLUSIVE}), ffi.NULL, out), "vkCreateBuffer")
        handle = out[0]
        req = ffi.new("VkMemoryRequirements*")
        lib.vkGetBufferMemoryRequirements(self.device, handle, req)
        tindex = self._types[1] if staging else self._types[0]
        mem = ffi.new("VkDeviceMemory*")
        r = lib.vkAllocateMemory(self.device, ffi.new("VkMemoryAllocateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, "allocationSize": req.size,
            "memoryTypeIndex": tindex}), ffi.NULL, mem)
        if r != 0:
            lib.vkDestroyBuffer(self.device, handle, ffi.NULL)
            raise DriverError(f"allocating {size} bytes of device memory", result_name(r))
        check(lib.vkBindBufferMemory(self.device, handle, mem[0], 0), "vkBindBufferMemory")
        mapped = None
        if staging or self.info.unified_memory:
            p = ffi.new("void**")
            check(lib.vkMapMemory(self.device, mem[0], 0, size, 0, p), "vkMapMemory")
            mapped = ffi.buffer(p[0], size)
        return Buffer(handle, mem[0], size, mapped)

    def free(self, buf: Buffer) -> None:
        """Destroy `buf` once every submission so far has finished."""
        lib, ffi = vk().lib, vk().ffi
        dev = self.device

        def destroy() -> None:
            lib.vkDestroyBuffer(dev, buf.handle, ffi.NULL)
            lib.vkFreeMemory(dev, buf.memory, ffi.NULL)
        self.defer(destroy)

    def write(self, buf: Buffer, data: bytes) -> None:
        """`data` to the start of `buf`, after every submission so far (it may still read the old contents)."""
        n = len(data)
        if buf.mapped is not None:
            self.wait()
            buf.mapped[0:n] = data
            return
        st = self._stage(n)
        self.wait()  # the staging buffer is free once everything before has run
        assert st.mapped is not None
        st.mapped[0:n] = data
        self._copy(st, buf, n)
        self.wait()

    def read(self, buf: Buffer, nbytes: int) -> bytes:
        """The first `nbytes` of `buf` once every submission so far has finished."""
        if buf.mapped is not None:
            self.wait()
            return bytes(buf.mapped[0:nbytes])
        st = self._stage(nbytes)
        self._copy(buf, st, nbytes)
        self.wait()
        assert st.mapped is not None
        return bytes(st.mapped[0:nbytes])

    def _stage(self, nbytes: int) -> Buffer:
        if self._staging is None or self._staging.size < nbytes:
            if self._staging is not None:
                self.free(self._staging)
            self._staging = self.buffer(1 << max(16, (nbytes - 1).bit_length()), staging=True)
        return self._staging

    def _copy(self, src: Buffer, dst: Buffer, nbytes: int) -> None:
        v = vk()
        ffi, lib = v.ffi, v.lib
        cb = self._begin(one_shot=True)
        region = ffi.new("VkBufferCopy*", {"srcOffset": 0, "dstOffset": 0, "size": max(4, (nbytes + 3) // 4 * 4)})
        lib.vkCmdCopyBuffer(cb, src.handle, dst.handle, 1, region)
        self._end(cb)
        self.submit(cb)
        self.defer(lambda: lib.vkFreeCommandBuffers(self.device, self.pool, 1, ffi.new("VkCommandBuffer[1]", [cb])))

    # -------------------------------------------------------------------------------- pipelines

    def pipeline(self, spirv: bytes, bindings: int, push_size: int, name: str) -> Pipeline:
        v = vk()
        ffi, lib = v.ffi, v.lib
        dev = self.device
        code = ffi.from_buffer("uint32_t[]", spirv)
        sm = ffi.new("VkShaderModule*")
        check(lib.vkCreateShaderModule(dev, ffi.new("VkShaderModuleCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO, "codeSize": len(spirv), "pCode": code}),
            ffi.NULL, sm), f"vkCreateShaderModule ({name})")
        binds = ffi.new("VkDescriptorSetLayoutBinding[]", [
            {"binding": i, "descriptorType": v.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "descriptorCount": 1,
             "stageFlags": v.VK_SHADER_STAGE_COMPUTE_BIT} for i in range(bindings)] or 1)
        dsl = ffi.new("VkDescriptorSetLayout*")
        check(lib.vkCreateDescriptorSetLayout(dev, ffi.new("VkDescriptorSetLayoutCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO, "bindingCount": bindings,
            "pBindings": binds}), ffi.NULL, dsl), "vkCreateDescriptorSetLayout")
        push = (push_size + 3) // 4 * 4
        rng = ffi.new("VkPushConstantRange*", {"stageFlags": v.VK_SHADER_STAGE_COMPUTE_BIT, "offset": 0, "size": push})
        dsls = ffi.new("VkDescriptorSetLayout[1]", [dsl[0]])
        pl = ffi.new("VkPipelineLayout*")
        check(lib.vkCreatePipelineLayout(dev, ffi.new("VkPipelineLayoutCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO, "setLayoutCount": 1, "pSetLayouts": dsls,
            "pushConstantRangeCount": 1 if push else 0, "pPushConstantRanges": rng if push else ffi.NULL}),
            ffi.NULL, pl), "vkCreatePipelineLayout")
        entry = ffi.new("char[]", b"main")
        info = ffi.new("VkComputePipelineCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO, "layout": pl[0],
            "stage": {"sType": v.VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO,
                      "stage": v.VK_SHADER_STAGE_COMPUTE_BIT, "module": sm[0], "pName": entry}})
        pipe = ffi.new("VkPipeline*")
        r = lib.vkCreateComputePipelines(dev, self.pipeline_cache, 1, info, ffi.NULL, pipe)
        lib.vkDestroyShaderModule(dev, sm[0], ffi.NULL)
        check(r, f"vkCreateComputePipelines ({name})")
        return Pipeline(pipe[0], pl[0], dsl[0], bindings, push, name)

    def descriptor_set(self, pipe: Pipeline, bufs: list[tuple[int, Buffer]]) -> Any:
        """A descriptor set of `pipe`'s layout with `bufs` ((binding, buffer)) bound (`free_set` frees it)."""
        v = vk()
        ffi, lib = v.ffi, v.lib
        out = ffi.new("VkDescriptorSet*")
        layouts = ffi.new("VkDescriptorSetLayout[1]", [pipe.set_layout])
        r, used = -1, None
        for pool in reversed(self._pools):  # the newest first; older ones have room again once sets are freed
            r = lib.vkAllocateDescriptorSets(self.device, ffi.new("VkDescriptorSetAllocateInfo*", {
                "sType": v.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, "descriptorPool": pool,
                "descriptorSetCount": 1, "pSetLayouts": layouts}), out)
            if r == 0:
                used = pool
                break
        if r != 0:  # no pool yet, or every one is full: a new pool
            size = ffi.new("VkDescriptorPoolSize*", {"type": v.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, "descriptorCount": 8192})
            p = ffi.new("VkDescriptorPool*")
            check(lib.vkCreateDescriptorPool(self.device, ffi.new("VkDescriptorPoolCreateInfo*", {
                "sType": v.VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO, "maxSets": 512, "poolSizeCount": 1,
                "pPoolSizes": size, "flags": v.VK_DESCRIPTOR_POOL_CREATE_FREE_DESCRIPTOR_SET_BIT}), ffi.NULL, p),
                "vkCreateDescriptorPool")
            self._pools.append(p[0])
            check(lib.vkAllocateDescriptorSets(self.device, ffi.new("VkDescriptorSetAllocateInfo*", {
                "sType": v.VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO, "descriptorPool": p[0],
                "descriptorSetCount": 1, "pSetLayouts": layouts}), out), "vkAllocateDescriptorSets")
            used = p[0]
        ds = out[0]
        if bufs:
            infos = ffi.new("VkDescriptorBufferInfo[]", [{"buffer": b.handle, "offset": 0, "range": 2**64 - 1}
                                                         for _, b in bufs])
            writes = ffi.new("VkWriteDescriptorSet[]", [
                {"sType": v.VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET, "dstSet": ds, "dstBinding": i,
                 "descriptorCount": 1, "descriptorType": v.VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,
                 "pBufferInfo": infos + k} for k, (i, _) in enumerate(bufs)])
            lib.vkUpdateDescriptorSets(self.device, len(bufs), writes, 0, ffi.NULL)
        return (used, ds)

    def free_set(self, held: Any) -> None:
        lib, ffi = vk().lib, vk().ffi
        pool, ds = held
        self.defer(lambda: lib.vkFreeDescriptorSets(self.device, pool, 1, ffi.new("VkDescriptorSet[1]", [ds])))

    # -------------------------------------------------------------------------------- commands

    def _begin(self, one_shot: bool) -> Any:
        v = vk()
        ffi, lib = v.ffi, v.lib
        cbs = ffi.new("VkCommandBuffer[1]")
        check(lib.vkAllocateCommandBuffers(self.device, ffi.new("VkCommandBufferAllocateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO, "commandPool": self.pool,
            "level": v.VK_COMMAND_BUFFER_LEVEL_PRIMARY, "commandBufferCount": 1}), cbs), "vkAllocateCommandBuffers")
        cb = cbs[0]
        flags = v.VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT if one_shot else \
            v.VK_COMMAND_BUFFER_USAGE_SIMULTANEOUS_USE_BIT
        check(lib.vkBeginCommandBuffer(cb, ffi.new("VkCommandBufferBeginInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO, "flags": flags})), "vkBeginCommandBuffer")
        stages = v.VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | v.VK_PIPELINE_STAGE_TRANSFER_BIT
        access = v.VK_ACCESS_SHADER_WRITE_BIT | v.VK_ACCESS_TRANSFER_WRITE_BIT
        after = access | v.VK_ACCESS_SHADER_READ_BIT | v.VK_ACCESS_TRANSFER_READ_BIT
        bar = ffi.new("VkMemoryBarrier*", {"sType": v.VK_STRUCTURE_TYPE_MEMORY_BARRIER, "srcAccessMask": access,
                                           "dstAccessMask": after})
        lib.vkCmdPipelineBarrier(cb, stages, stages, 0, 1, bar, 0, ffi.NULL, 0, ffi.NULL)
        return cb

    def _end(self, cb: Any) -> None:
        check(vk().lib.vkEndCommandBuffer(cb), "vkEndCommandBuffer")

    def record(self, pipe: Pipeline, held_set: Any, params: bytes, grid: tuple[int, int, int],
               one_shot: bool = False, timestamps: tuple[int, int] | None = None) -> Any:
        """A command buffer: barrier, bind, push constants, dispatch (between two timestamp writes of the
        query pool when `timestamps` gives their indices)."""
        v = vk()
        ffi, lib = v.ffi, v.lib
        cb = self._begin(one_shot)
        if timestamps is not None:
            lib.vkCmdResetQueryPool(cb, self.queries(), timestamps[0], 2)
            lib.vkCmdWriteTimestamp(cb, v.VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, self.queries(), timestamps[0])
        lib.vkCmdBindPipeline(cb, v.VK_PIPELINE_BIND_POINT_COMPUTE, pipe.pipeline)
        lib.vkCmdBindDescriptorSets(cb, v.VK_PIPELINE_BIND_POINT_COMPUTE, pipe.layout, 0, 1,
                                    ffi.new("VkDescriptorSet[1]", [held_set[1]]), 0, ffi.NULL)
        if pipe.push_size:
            data = bytes(params) + b"\0" * (pipe.push_size - len(params))
            lib.vkCmdPushConstants(cb, pipe.layout, v.VK_SHADER_STAGE_COMPUTE_BIT, 0, pipe.push_size,
                                   ffi.from_buffer(data))
        lib.vkCmdDispatch(cb, *grid)
        if timestamps is not None:
            lib.vkCmdWriteTimestamp(cb, v.VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, self.queries(), timestamps[1])
        self._end(cb)
        return cb

    def free_commands(self, cb: Any) -> None:
        lib, ffi = vk().lib, vk().ffi
        self.defer(lambda: lib.vkFreeCommandBuffers(self.device, self.pool, 1, ffi.new("VkCommandBuffer[1]", [cb])))

    def submit(self, cb: Any) -> int:
        """Submit a recorded command buffer; returns the timeline value its completion signals."""
        lib = vk().lib
        with self._lock:
            self.value += 1
            self._sig[0] = self.value
            self._cmd[0] = cb
            r = lib.vkQueueSubmit(self.queue, 1, self._submit, vk().ffi.NULL)
        if r != 0:
            raise DriverError("vkQueueSubmit", result_name(r))
        if len(self._garbage) > 256:
            self._collect(self.completed())
        return self.value

    def completed(self) -> int:
        ffi, lib = vk().ffi, vk().lib
        out = ffi.new("uint64_t*")
        check(lib.vkGetSemaphoreCounterValue(self.device, self.semaphore, out), "vkGetSemaphoreCounterValue")
        self._done = max(self._done, int(out[0]))
        return self._done

    def wait(self, value: int | None = None) -> None:
        """Block until the submission signalling `value` (default: the last one) and all before it finished."""
        want = self.value if value is None else value
        if want > self._done:
            lib = vk().lib
            self._wait_val[0] = want
            while True:
                r = lib.vkWaitSemaphores(self.device, self._wait, 10**9)
                if r != 2:  # VK_TIMEOUT: wait on
                    break
            check(r, "waiting for the queue (vkWaitSemaphores)")
            self._done = want
        if self._garbage:
            self._collect(self._done)

    def defer(self, fn: Callable[[], None]) -> None:
        """Run `fn` (a destruction) once every submission so far has finished."""
        if self.value <= self._done:
            fn()
        else:
            self._garbage.append((self.value, fn))

    def _collect(self, done: int) -> None:
        keep: list[tuple[int, Callable[[], None]]] = []
        for val, fn in self._garbage:
            if val <= done:
                fn()
            else:
                keep.append((val, fn))
        self._garbage = keep

    # -------------------------------------------------------------------------------- timestamps

    QUERIES = 512

    def queries(self) -> Any:
        """The timestamp query pool (QUERIES entries), created on first use."""
        if self._queries is None:
            v = vk()
            ffi, lib = v.ffi, v.lib
            p = ffi.new("VkQueryPool*")
            check(lib.vkCreateQueryPool(self.device, ffi.new("VkQueryPoolCreateInfo*", {
                "sType": v.VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO, "queryType": v.VK_QUERY_TYPE_TIMESTAMP,
                "queryCount": self.QUERIES}), ffi.NULL, p), "vkCreateQueryPool")
            self._queries = p[0]
        return self._queries

    def timestamps_ns(self, first: int, count: int) -> list[float]:
        """The timestamps `first` .. `first + count - 1` in nanoseconds (after a wait)."""
        v = vk()
        ffi, lib = v.ffi, v.lib
        out = ffi.new("uint64_t[]", count)
        check(lib.vkGetQueryPoolResults(self.device, self.queries(), first, count, 8 * count, out, 8,
                                        v.VK_QUERY_RESULT_64_BIT | v.VK_QUERY_RESULT_WAIT_BIT),
              "vkGetQueryPoolResults")
        period = float(self.info.limits.get("timestampPeriod", 1.0))
        return [int(out[i]) * period for i in range(count)]

    # -------------------------------------------------------------------------------- the pipeline cache

    def _load_cache(self) -> Any:
        v = vk()
        ffi, lib = v.ffi, v.lib
        data = b""
        if self.cache_path is not None:
            try:
                with open(self.cache_path, "rb") as f:
                    data = f.read()
            except OSError:
                data = b""
        blob = ffi.from_buffer(data) if data else ffi.NULL
        out = ffi.new("VkPipelineCache*")
        r = lib.vkCreatePipelineCache(self.device, ffi.new("VkPipelineCacheCreateInfo*", {
            "sType": v.VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO, "initialDataSize": len(data),
            "pInitialData": blob}), ffi.NULL, out)
        if r != 0 and data:  # a stale or foreign file: start empty
            r = lib.vkCreatePipelineCache(self.device, ffi.new("VkPipelineCacheCreateInfo*", {
                "sType": v.VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO}), ffi.NULL, out)
        check(r, "vkCreatePipelineCache")
        return out[0]

    def save_cache(self) -> None:
        """Write the pipeline cache beside sarek's compile cache (at exit; nothing when caching is off)."""
        if self.cache_path is None:
            return
        ffi, lib = vk().ffi, vk().lib
        try:
            n = ffi.new("size_t*")
            if lib.vkGetPipelineCacheData(self.device, self.pipeline_cache, n, ffi.NULL) != 0 or not n[0]:
                return
            buf = ffi.new("char[]", n[0])
            if lib.vkGetPipelineCacheData(self.device, self.pipeline_cache, n, buf) != 0:
                return
            os.makedirs(os.path.dirname(self.cache_path), exist_ok=True)
            tmp = f"{self.cache_path}.tmp-{os.getpid()}"
            with open(tmp, "wb") as f:
                f.write(ffi.buffer(buf, n[0])[:])
            os.replace(tmp, self.cache_path)
        except OSError:
            pass


def _pipeline_cache_path(info: PhysicalInfo) -> str | None:
    """`<sarek cache>/vulkan-pipelines/<device and driver>.bin` (None when $SAREK_CACHE turns caching off)."""
    from sarek.runtime import cache

    if not cache.enabled():
        return None
    tag = hashlib.sha256(repr((info.name, info.api, info.limits.get("maxComputeSharedMemorySize"),
                               sorted(info.extensions))).encode()).hexdigest()[:24]
    return str(cache.cache_dir() / "vulkan-pipelines" / f"{tag}.bin")


__all__ = ["Buffer", "CoopMatShape", "DriverDevice", "DriverError", "PhysicalInfo", "Pipeline", "physical_devices"]
