"""`sarek-pipeline` verifies the module once, after the lowering; `verify-each=true` verifies it after every
pass. Every pass must leave valid IR: checked here on the whole conformance corpus for every target."""

from __future__ import annotations

from typing import Any

import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.utils.exceptions import VerifyException

from sarek.diagnostics import SarekError
from sarek.registry import target_info
from sarek.passes.pipeline import PipelinePass
from sarek.registry import TARGET_NAMES, make_context


def _modules() -> list[tuple[str, ModuleOp]]:
    from sarek.runtime.conformance import corpus

    cases, _ = corpus()
    out: dict[int, tuple[str, ModuleOp]] = {}
    for c in cases:
        try:
            m: Any = c.module_and_name[0]
        except SarekError:  # a kernel the front end refuses is the front end's tests' business
            continue
        out.setdefault(id(m), (c.name, m))
    return list(out.values())


@pytest.mark.parametrize("target", sorted(TARGET_NAMES))
def test_every_pass_leaves_valid_ir(target: str) -> None:
    mods = _modules()
    assert len(mods) >= 20
    lowered = 0
    for name, m in mods:
        try:
            PipelinePass(target=target, verify_each=True).apply(make_context(), m.clone())
        except SarekError as e:  # a refusal (f64 on metal ...), not a broken module: it names the target
            assert f"{target_info(target).display}:" in str(e), f"{name}: {e}"
            continue
        except VerifyException as e:
            raise AssertionError(f"{name}: a pass of sarek-pipeline{{target={target}}} left invalid IR: {e}") from e
        lowered += 1
    assert lowered >= 0.8 * len(mods)  # refusals: f64/i64/u64 on WGSL, f64 and coop on Metal, ...
