"""The Vulkan binding (`vulkan`, cffi, pure Python) and what the driver reports about its devices: what
`vulkan-glsl:<n>` is listed from (sarek.runtime.vulkan_driver opens one).

    infos = physical_devices()          # PhysicalInfo per VkPhysicalDevice: limits, features, subgroup size,
                                        # cooperative-matrix shapes (VK_KHR_cooperative_matrix)

One VkInstance per process (`instance()`); `PhysicalInfo.limits` is VkPhysicalDeviceLimits as a dict (what the
capability gate reads at launch: sarek.runtime.shader_device), `features` the names of the VkBool32 features
the driver offers (the 1.1/1.2/1.3 and extension structures of `feature_chain`). Failures raise `DriverError`
with the VkResult's name.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, cast

_VK: list[Any] = []


def vk() -> Any:
    """The `vulkan` module (imported on first use; partly typed, without stubs)."""
    if not _VK:
        _VK.append(importlib.import_module("vulkan"))
    return _VK[0]


class DriverError(Exception):
    """A Vulkan call failed: `what` was being done, `code` the VkResult's name (VK_ERROR_DEVICE_LOST ...)."""

    def __init__(self, what: str, code: str):
        super().__init__(f"{what} failed: {code}")
        self.what = what
        self.code = code


def result_name(code: int) -> str:
    names = cast("dict[str, Any]", vars(vk()))
    for k, v in names.items():
        if k.startswith(("VK_ERROR_", "VK_TIMEOUT", "VK_NOT_READY", "VK_INCOMPLETE")) and v == code:
            return k
    return f"VkResult {code}"


def check(code: int, what: str) -> None:
    if code != 0:
        raise DriverError(what, result_name(code))


def guarded(what: str, fn: Callable[..., Any], *args: Any) -> Any:
    """A call through the binding's helpers, whose failures raise its VkError classes, as a DriverError."""
    try:
        return fn(*args)
    except Exception as e:
        if isinstance(e, DriverError) or not type(e).__module__.startswith("vulkan"):
            raise
        codes: dict[Any, type] = vk().exception_codes  # VkResult -> the binding's exception class
        code = next((k for k, c in codes.items() if c is type(e) and k is not None), None)
        raise DriverError(what, result_name(code) if code is not None else type(e).__name__) from None


# ------------------------------------------------------------------------------------------------ physical devices

#: VkComponentTypeKHR -> sarek's element names (cooperative-matrix shapes)
COMPONENTS = {0: "f16", 1: "f32", 2: "f64", 3: "i8", 4: "i16", 5: "i32", 6: "i64", 7: "u8", 8: "u16", 9: "u32",
              10: "u64", 1000141000: "bf16"}
SCOPES = {1: "device", 2: "workgroup", 3: "subgroup", 5: "queue-family"}
#: the driver features a shader may need (from VkPhysicalDeviceFeatures2 and its chain), as the binding names them
_CHAIN = (("VkPhysicalDeviceVulkan11Features", "PHYSICAL_DEVICE_VULKAN_1_1_FEATURES", None, (1, 1)),
          ("VkPhysicalDeviceVulkan12Features", "PHYSICAL_DEVICE_VULKAN_1_2_FEATURES", None, (1, 2)),
          ("VkPhysicalDeviceVulkan13Features", "PHYSICAL_DEVICE_VULKAN_1_3_FEATURES", None, (1, 3)),
          ("VkPhysicalDeviceShaderAtomicFloatFeaturesEXT", "PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT",
           "VK_EXT_shader_atomic_float", (1, 1)),
          ("VkPhysicalDeviceCooperativeMatrixFeaturesKHR", "PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR",
           "VK_KHR_cooperative_matrix", (1, 1)))
#: enabled when present, beside the features of _CHAIN
EXTENSIONS = ("VK_EXT_shader_atomic_float", "VK_EXT_shader_atomic_float2", "VK_KHR_cooperative_matrix")
#: features left off although supported: robust access costs speed, and sarek bounds-checks in its debug build
OFF_FEATURES = ("robustBufferAccess", "robustImageAccess", "cooperativeMatrixRobustBufferAccess", "robustBufferAccess2")


@dataclass(frozen=True)
class CoopMatShape:
    """One cooperative-matrix configuration the driver offers: an MxK `a` times KxN `b` plus MxN `c` gives
    `result` (element names as sarek spells them: f16, f32, i8 ...), in `scope` (subgroup on NVIDIA)."""

    m: int
    n: int
    k: int
    a: str
    b: str
    c: str
    result: str
    saturating: bool
    scope: str


@dataclass(frozen=True)
class PhysicalInfo:
    """What the driver says about one physical device (nothing is created on it)."""

    handle: Any
    name: str
    api: tuple[int, int, int]
    device_type: str  # discrete | integrated | virtual | cpu | other
    limits: dict[str, Any]
    subgroup_size: int
    subgroup_ops: frozenset[str]  # basic vote arithmetic ballot shuffle shuffle_relative clustered quad
    features: frozenset[str]  # the supported VkPhysicalDevice*Features fields (shaderFloat64, vulkanMemoryModel ...)
    extensions: frozenset[str]
    coopmat: tuple[CoopMatShape, ...] = field(default=())
    #: float widths whose signed zeros, infinities and NaNs a shader can ask the driver to keep
    float_preserve: tuple[int, ...] = field(default=())

    @property
    def unified_memory(self) -> bool:
        """Host and device share memory: buffers are mapped and written in place instead of staged."""
        return self.device_type in ("cpu", "integrated")


_INSTANCE: list[Any] = []


def instance() -> Any:
    """The process's VkInstance (Vulkan 1.3 requested; the loader gives what the driver has)."""
    if not _INSTANCE:
        v = vk()
        app = v.VkApplicationInfo(sType=v.VK_STRUCTURE_TYPE_APPLICATION_INFO, pApplicationName="sarek",
                                  applicationVersion=1, pEngineName="sarek", engineVersion=1,
                                  apiVersion=v.VK_MAKE_VERSION(1, 3, 0))
        info = v.VkInstanceCreateInfo(sType=v.VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, pApplicationInfo=app)
        _INSTANCE.append(guarded("vkCreateInstance", v.vkCreateInstance, info, None))
    return _INSTANCE[0]


def physical_devices() -> list[PhysicalInfo]:
    """Every physical device of the driver(s) the Vulkan loader finds, in its order."""
    v = vk()
    inst = instance()
    return [_describe(inst, pd) for pd in guarded("vkEnumeratePhysicalDevices", v.vkEnumeratePhysicalDevices, inst)]


def _version(x: int) -> tuple[int, int, int]:
    return ((x >> 22) & 0x7F, (x >> 12) & 0x3FF, x & 0xFFF)


def feature_chain(api: tuple[int, int, int], exts: frozenset[str]) -> tuple[Any, list[Any]]:
    """A VkPhysicalDeviceFeatures2 chain for this API version and extensions: (head, [every struct])."""
    v = vk()
    ffi = v.ffi
    structs: list[Any] = []
    nxt = ffi.NULL
    for ctype, stype, ext, since in reversed(_CHAIN):
        if api[:2] < since or (ext is not None and ext not in exts):
            continue
        s = ffi.new(f"{ctype}*", {"sType": getattr(v, f"VK_STRUCTURE_TYPE_{stype}"), "pNext": nxt})
        structs.append(s)
        nxt = s
    head = ffi.new("VkPhysicalDeviceFeatures2*", {"sType": v.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2,
                                                  "pNext": nxt})
    return head, [head, *structs]


def _true_fields(s: Any, ctype: str) -> set[str]:
    ffi = vk().ffi
    return {n for n, f in ffi.typeof(ctype).fields if f.type.cname == "uint32_t" and n not in ("sType",)
            and getattr(s, n)}


def _describe(inst: Any, pd: Any) -> PhysicalInfo:
    v = vk()
    ffi, lib = v.ffi, v.lib
    props = v.vkGetPhysicalDeviceProperties(pd)
    api = _version(props.apiVersion)
    exts = frozenset(e.extensionName for e in guarded("vkEnumerateDeviceExtensionProperties",
                                                      v.vkEnumerateDeviceExtensionProperties, pd, None))
    head, structs = feature_chain(api, exts)
    lib.vkGetPhysicalDeviceFeatures2(pd, head)
    feats = _true_fields(head.features, "VkPhysicalDeviceFeatures")
    for s in structs[1:]:
        feats |= _true_fields(s, ffi.typeof(s).item.cname)
    p12 = ffi.new("VkPhysicalDeviceVulkan12Properties*",
                  {"sType": v.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES})
    sub = ffi.new("VkPhysicalDeviceSubgroupProperties*", {"sType": v.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES,
                                                          "pNext": p12 if api >= (1, 2, 0) else ffi.NULL})
    p2 = ffi.new("VkPhysicalDeviceProperties2*", {"sType": v.VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, "pNext": sub})
    lib.vkGetPhysicalDeviceProperties2(pd, p2)
    ops = frozenset(n for n, bit in (("basic", 1), ("vote", 2), ("arithmetic", 4), ("ballot", 8), ("shuffle", 16),
                                     ("shuffle_relative", 32), ("clustered", 64), ("quad", 128))
                    if sub.supportedOperations & bit)
    lim = props.limits
    limits: dict[str, Any] = {n: (tuple(getattr(lim, n)) if f.type.kind == "array" else getattr(lim, n))
                              for n, f in ffi.typeof("VkPhysicalDeviceLimits").fields}
    kinds = {0: "other", 1: "integrated", 2: "discrete", 3: "virtual", 4: "cpu"}
    coop = _coopmat_shapes(inst, pd) if "VK_KHR_cooperative_matrix" in exts else ()
    return PhysicalInfo(pd, ffi.string(props.deviceName).decode() if not isinstance(props.deviceName, str)
                        else props.deviceName, api, kinds.get(props.deviceType, "other"), limits,
                        int(sub.subgroupSize), ops, frozenset(feats), exts, coop,
                        tuple(b for b in (32, 64) if api >= (1, 2, 0)
                              and getattr(p12, f"shaderSignedZeroInfNanPreserveFloat{b}")))


def _coopmat_shapes(inst: Any, pd: Any) -> tuple[CoopMatShape, ...]:
    """vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR, found through vkGetInstanceProcAddr."""
    v = vk()
    ffi, lib = v.ffi, v.lib
    raw = lib.vkGetInstanceProcAddr(inst, b"vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
    if raw == ffi.NULL:
        return ()
    fn = ffi.cast("PFN_vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", raw)
    count = ffi.new("uint32_t*")
    check(fn(pd, count, ffi.NULL), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
    arr = ffi.new("VkCooperativeMatrixPropertiesKHR[]", count[0])
    for i in range(count[0]):
        arr[i].sType = v.VK_STRUCTURE_TYPE_COOPERATIVE_MATRIX_PROPERTIES_KHR
    check(fn(pd, count, arr), "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR")
    def name(t: Any) -> str:
        return COMPONENTS.get(int(t), str(int(t)))
    return tuple(CoopMatShape(int(p.MSize), int(p.NSize), int(p.KSize), name(p.AType), name(p.BType), name(p.CType),
                              name(p.ResultType), bool(p.saturatingAccumulation), SCOPES.get(int(p.scope), "?"))
                 for p in arr[0:count[0]])


__all__ = ["CoopMatShape", "DriverError", "EXTENSIONS", "OFF_FEATURES", "PhysicalInfo", "check", "feature_chain",
           "guarded", "instance", "physical_devices", "result_name", "vk"]
