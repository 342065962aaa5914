"""One descriptor per target (sarek.descriptor): every per-target table is a read of it, and every target's
descriptor is complete (its Target class, validator, extension and keywords exist)."""

from __future__ import annotations

import importlib

import pytest

from sarek import registry
from sarek.analysis import features, namer, native_math, payload, reserved
from sarek.descriptor import DESCRIPTORS, Feature, PayloadLayout, TargetDescriptor
from sarek.runtime.demo import EXT
from sarek.testing import batch, fuzz
from sarek.passes.widen_f16 import WIDENING_TARGETS


def test_registry_targets_are_the_descriptors():
    assert registry.TARGETS is DESCRIPTORS
    assert registry.TargetInfo is TargetDescriptor


@pytest.mark.parametrize("name", sorted(DESCRIPTORS))
def test_descriptor_is_complete(name: str):
    d = DESCRIPTORS[name]
    mod, cls = d.target_class
    assert getattr(importlib.import_module(mod), cls)().name == name
    assert callable(importlib.import_module(f"sarek.validate.{d.validator}").check)
    assert d.ext and d.display and d.native_keys and d.length_limit > 0
    assert d.payload_layout == (None if d.payload is None else d.payload.value)
    assert (d.family == "ptx") == (d.payload is None) == (not d.reserved)
    # every target refuses recursion (no target emits prototypes, PTX inlines helpers)
    assert Feature.RECURSION in d.refused


def test_tables_are_views_of_the_descriptors():
    for n, d in DESCRIPTORS.items():
        assert {f: r for (t, f), r in features.CAPABILITIES.items() if t == n and f != Feature.COOPMAT} \
            == dict(d.refused)
        assert features.ATOMIC_GAPS[n] == list(d.atomic_gaps)
        assert features.INTRINSIC_GAPS.get(n, []) == list(d.intrinsic_gaps)
        assert features.SHARED_LIMITS.get(n) == d.shared_limit
        assert features.STORAGE_BUFFER_LIMITS.get(n) == d.storage_buffer_limit
        assert namer.LENGTH_LIMIT[n] == d.length_limit
        assert payload.TARGET_PAYLOAD_LAYOUT.get(n) == d.payload
        assert reserved.RESERVED.get(n, frozenset()) == d.reserved
        assert EXT[n] == d.ext and fuzz.TOOLS[n] == d.fuzz_tool and (n in batch.BATCHED) == d.batched
        for key in ("f16", "f32", "f64"):
            assert native_math.POLYFILLED.get((n, key), {}) == dict(d.polyfilled.get(key, {}))


def test_known_facts_survive_the_move():
    """Spot checks against the tables as they were spelled before the descriptors (generated sources are
    byte-identical too: scripts/snapshot_sources.py)."""
    assert namer.LENGTH_LIMIT["opencl"] == 200 and features.SHARED_LIMITS == {
        "cuda": 227 * 1024, "hip": 64 * 1024, "metal": 32 * 1024, "glsl": 64 * 1024, "wgsl": 64 * 1024,
        "ptx": 227 * 1024}
    assert batch.BATCHED == ("cuda", "hip", "metal", "ptx")
    assert fuzz.TOOLS == {"cuda": "nvcc", "hip": "hipcc", "opencl": "", "metal": "clang++",
                          "glsl": "glslangValidator", "wgsl": "", "ptx": "ptxas"}
    assert EXT == {"cuda": "cu", "hip": "hip", "opencl": "cl", "metal": "metal", "glsl": "comp", "wgsl": "wgsl",
                   "ptx": "ptx"}
    assert payload.TARGET_PAYLOAD_LAYOUT["wgsl"] == PayloadLayout.WGSL
    assert WIDENING_TARGETS == ("opencl", "metal", "glsl", "wgsl")
    assert reserved.is_reserved("glsl", "bitCount") and reserved.is_reserved("cuda", "__x")
    assert features.support("wgsl", Feature.INT64) is not None and features.support("cuda", Feature.INT64) is None
