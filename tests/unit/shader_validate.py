"""Shared by test_glsl_validate.py and test_wgsl_validate.py: every corpus kernel emitted for a shader language
passes that language's real validator, or is refused with a located SarekError (the capability table's
reason); the validator rejects bad source and fails (never skips) without its tool.

Each test file binds the tests this module builds for its language (`corpus_test(lang)`, `bad_source_test(lang)`).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek.diagnostics import SarekError  # noqa: E402
from sarek.validate import ValidationError  # noqa: E402

_spec = importlib.util.spec_from_file_location("_shader_corpus", Path(__file__).with_name("test_glsl_wgsl_corpus.py"))
assert _spec is not None and _spec.loader is not None
_corpus = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_corpus)
REFUSED, cases, emit = _corpus.REFUSED, _corpus.cases, _corpus.emit


def _check(lang: str) -> Callable[[str], None]:
    """The validator of `lang` (`sarek.validate.glsl` / `sarek.validate.wgsl`)."""
    return importlib.import_module(f"sarek.validate.{lang}").check


def corpus_test(lang: str) -> Callable[[Path, str], None]:
    """The test that every corpus kernel emitted as `lang` validates or is refused as listed."""
    check = _check(lang)

    @pytest.mark.parametrize("path,kernel", cases(), ids=lambda x: x.name if isinstance(x, Path) else x)
    def test_corpus_kernel_validates_or_is_refused(path: Path, kernel: str):
        want_refusal = REFUSED.get((lang, path.name, kernel))
        try:
            src = emit(path, kernel, lang)
        except SarekError as e:
            msg = str(e)
            assert "error:" in msg
            assert "internal" not in msg, msg
            if path.name.startswith("shader_"):  # the shader test kernels: only the listed refusals
                if want_refusal is None:
                    pytest.fail(f"{path.name}:{kernel} refused on {lang}: {msg}")
                assert want_refusal in msg.lower()
            return
        assert want_refusal is None, f"{path.name}:{kernel} should be refused on {lang}"
        check(src)

    return test_corpus_kernel_validates_or_is_refused


def bad_source_test(lang: str) -> Callable[[], None]:
    """The test that the `lang` validator rejects text that is not a shader."""
    check = _check(lang)

    def test_validator_rejects_bad_source():
        with pytest.raises(ValidationError):
            check("this is not a shader")

    return test_validator_rejects_bad_source
