"""The storage-buffer and parameter layouts of sarek's shaders (GLSL and WGSL share them, from the shader
lowering's abi): vectors repacked between the host's aligned layout (sarek.analysis.layout, §4.9) and the
shader's struct layout, scalars and by-value records packed into the parameter block (push constants or the
WGSL `Params` uniform). Used by every Vulkan device (sarek.runtime.shader_device)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

import numpy as np

from sarek.runtime.errors import LaunchError

if TYPE_CHECKING:  # xDSL's IR only for the annotations: a warm launch imports none of it
    from xdsl.dialects.builtin import ModuleOp

_KIND = {"i4": np.int32, "i8": np.int64, "f4": np.float32, "f8": np.float64, "b4": np.int32, "f2": np.float16}


def mark_packed(module: ModuleOp, kernel: str, abi: dict[str, Any]) -> None:
    """`packed: true` on the abi of each vector sarek-pack-narrow stores as 32-bit words (8/16-bit or bf16
    elements, records holding them; f16, which sarek-widen-f16 made u16 bits): its buffer holds the host's
    bytes, padded to a multiple of 4."""
    from xdsl.dialects.builtin import Float16Type
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
        if isinstance(t, VecType) and (is_packed_element(t.element_type, records)
                                       or isinstance(t.element_type, Float16Type)):
            p["packed"] = True
        elif t is not None and is_bf16(t):  # an f32 parameter in the shader: the value of the bf16 bits
            p["bf16"] = True
        elif isinstance(t, RecordType) and t.decl_name in records:  # by value: its fields widened to 32 bits
            lay = layout_of(module, t)
            assert isinstance(lay, RecordLayout)
            p["widen"] = [[x.offset, "bf16" if is_bf16(x.type) else numpy_dtype(module, x.type).str]
                          for x in lay.leaves]


class ShaderCodec:
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
        data = np.ascontiguousarray(host) if self.p.get("packed") else to_device(host, self.p)
        dev.write_bytes(buf, data.tobytes() + b"\0" * ((-data.nbytes) % 4))

    def download(self, dev: Any, buf: Any, host: np.ndarray[Any, Any]) -> None:
        raw = dev.read_bytes(buf, self.device_nbytes(host))
        if self.p.get("packed"):  # the host's bytes (u8, int8, uint16, int16, bf16 or uint16 bits, records)
            if len(host):
                host[...] = np.frombuffer(raw, host.dtype, count=len(host))
            return
        from_device(raw, host, self.p)



def to_device(host: np.ndarray[Any, Any], p: dict[str, Any]) -> np.ndarray[Any, Any]:
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


def from_device(raw: bytes, host: np.ndarray[Any, Any], p: dict[str, Any]) -> None:
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


def widened(hb: np.ndarray[Any, Any], leaves: list[list[Any]], lay: dict[str, Any]) -> np.ndarray[Any, Any]:
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


def scalar_bytes(a: Any, p: dict[str, Any]) -> bytes:
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
        hb = widened(hb, p["widen"], lay)
    if hb.size != lay["host_size"]:
        raise LaunchError(f"parameter '{p['name']}': {hb.size} bytes given, the aligned layout needs {lay['host_size']}")
    d = np.zeros(p["size"], np.uint8)
    for ho, do, sz, _ in list(lay["leaves"]) + [x for c in lay.get("ctors", []) for x in c]:
        d[do:do + sz] = hb[ho:ho + sz]
    return d.tobytes()


__all__ = ["ShaderCodec", "mark_packed", "scalar_bytes"]
