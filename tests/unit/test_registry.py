"""sarek.registry: every registered pass, dialect and target exists; the pipelines use only registered passes;
a pass whose module is missing is an error, not skipped."""

from __future__ import annotations

import importlib

import pytest

from sarek import registry
from sarek.diagnostics import SarekError
from sarek.passes.pipeline import PIPELINES, PipelinePass, pipeline_passes


@pytest.mark.parametrize("name", sorted(registry.PASSES))
def test_every_registered_pass_exists_under_its_name(name: str):
    cls = registry.pass_class(name)
    assert cls.name == name
    assert (cls.__doc__ or "").strip(), f"{name} has no docstring (its --help line)"


@pytest.mark.parametrize("name", sorted(registry.DIALECTS))
def test_every_registered_dialect_exists_under_its_name(name: str):
    assert registry.get_all_dialects()[name]().name == name


@pytest.mark.parametrize("name", registry.TARGET_NAMES)
def test_every_target_class_has_its_name_and_a_pipeline(name: str):
    assert registry.get_all_targets()[name]().name == name
    info = registry.TARGETS[name]
    assert info.name == name and info.display and info.native_keys[0] == name
    assert [p.name for p in pipeline_passes(name)][0] == "sarek-reject-features"


def test_pipelines_name_only_registered_passes():
    for family, specs in PIPELINES.items():
        for name, _ in specs:
            for t in (t for t, i in registry.TARGETS.items() if i.family == family):
                assert name.replace("{target}", t) in registry.PASSES


def test_a_pass_whose_module_is_missing_is_an_error(monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(registry.PASSES, "sarek-verify-barriers", ("sarek.passes.no_such_module", "X"))
    with pytest.raises(ModuleNotFoundError, match="no_such_module"):
        pipeline_passes("cuda")


def test_unknown_target_lists_the_known_ones():
    with pytest.raises(SarekError, match=r"sarek-pipeline: unknown target 'vulkan' \(known: cuda, glsl, hip"):
        PipelinePass(target="vulkan").passes()


def test_family_lists_are_derived_from_the_table():
    assert registry.C_TARGETS == ("cuda", "hip", "opencl", "metal")
    assert registry.SHADER_TARGETS == ("glsl", "wgsl")
    assert set(registry.TARGET_NAMES) == set(registry.C_TARGETS) | set(registry.SHADER_TARGETS) | {"ptx"}


def test_library_code_does_not_import_the_tools():
    import ast
    import pathlib

    root = pathlib.Path(importlib.import_module("sarek").__file__ or "").parent
    bad: list[str] = []
    for p in root.rglob("*.py"):
        if p.parts[len(root.parts)] == "tools":
            continue
        for n in ast.walk(ast.parse(p.read_text())):
            mod = n.module if isinstance(n, ast.ImportFrom) else None
            names = [a.name for a in n.names] if isinstance(n, ast.Import) else []
            if any((m or "").startswith("sarek.tools") for m in [mod, *names]):
                bad.append(f"{p.relative_to(root)}:{getattr(n, 'lineno', 0)}")
    assert not bad, f"library modules import sarek.tools: {bad}"
