"""Every corpus kernel emitted as GLSL passes the real validator, or is refused with a located SarekError
(the capability table's reason); the GLSL validator rejects bad source and fails (never skips) without its tool."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

os.environ.setdefault("XDG_RUNTIME_DIR", tempfile.mkdtemp(prefix="sarek-xdg-"))

from sarek.diagnostics import SarekError  # noqa: E402
from sarek.validate import ValidationError  # noqa: E402
from sarek.validate import glsl as validator  # noqa: E402

import importlib.util as _iu  # noqa: E402

_spec = _iu.spec_from_file_location("_shader_corpus", Path(__file__).with_name("test_glsl_wgsl_corpus.py"))
assert _spec is not None and _spec.loader is not None
_corpus = _iu.module_from_spec(_spec)
_spec.loader.exec_module(_corpus)
REFUSED, cases, emit = _corpus.REFUSED, _corpus.cases, _corpus.emit

LANG = "glsl"


@pytest.mark.parametrize("path,kernel", cases(), ids=lambda x: x.name if isinstance(x, Path) else x)
def test_corpus_kernel_validates_or_is_refused(path: Path, kernel: str):
    want_refusal = REFUSED.get((LANG, path.name, kernel))
    try:
        src = emit(path, kernel, LANG)
    except SarekError as e:
        msg = str(e)
        assert "error:" in msg
        assert "internal" not in msg, msg
        if path.name.startswith("shader_"):  # the shader test kernels: only the listed refusals
            if want_refusal is None:
                pytest.fail(f"{path.name}:{kernel} refused on {LANG}: {msg}")
            assert want_refusal in msg.lower()
        return
    assert want_refusal is None, f"{path.name}:{kernel} should be refused on {LANG}"
    validator.check(src)


def test_validator_rejects_bad_source():
    with pytest.raises(ValidationError):
        validator.check("this is not a shader")
