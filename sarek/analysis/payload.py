"""Where a constructor's payloads live inside the emitted variant value, per target layout.

C family (CUDA, HIP, OpenCL, Metal): `<s>.data.<C>_v`, `<s>.data.<C>_v._<i>`; GLSL: `<s>.<C>_v`,
`<s>.<C>_v._<i>` (multi-payload is a hoisted named struct); WGSL: `<s>.<C>_v`, `<s>.<C>_v_<i>` (no union,
no nested struct). A one-payload constructor is `<C>_v` under every layout.
"""

from __future__ import annotations

from sarek.registry import TARGETS
from sarek.descriptor import PayloadLayout


# a view of the target descriptors (sarek.descriptor: `payload`): target -> its layout (PTX lays payloads
# out in memory itself)
TARGET_PAYLOAD_LAYOUT = {n: t.payload for n, t in TARGETS.items() if t.payload is not None}


def payload_fields(layout: PayloadLayout, ctor: str, arity: int, index: int) -> list[str]:
    """The field chain from a scrutinee down to payload `index` of `ctor`, which has `arity` payloads."""
    union = ["data"] if layout == PayloadLayout.C else []
    if arity <= 1:
        return [*union, f"{ctor}_v"]
    if layout == PayloadLayout.WGSL:
        return [*union, f"{ctor}_v_{index}"]
    return [*union, f"{ctor}_v", f"_{index}"]


def payload_suffix(layout: PayloadLayout, ctor: str, arity: int, index: int) -> str:
    """The chain as a source suffix (`.data.C_v._0`)."""
    return "".join("." + f for f in payload_fields(layout, ctor, arity, index))


__all__ = ["TARGET_PAYLOAD_LAYOUT", "PayloadLayout", "payload_fields", "payload_suffix"]
