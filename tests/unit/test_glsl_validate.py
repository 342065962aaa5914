"""Every corpus kernel emitted as GLSL passes the real validator, or is refused with a located SarekError
(the capability table's reason); the GLSL validator rejects bad source and fails (never skips) without its tool.
The tests are built by shader_validate.py, shared with the other shader language."""

from __future__ import annotations

import importlib.util
from pathlib import Path

_spec = importlib.util.spec_from_file_location("_shader_validate", Path(__file__).with_name("shader_validate.py"))
assert _spec is not None and _spec.loader is not None
_shared = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(_shared)

test_corpus_kernel_validates_or_is_refused = _shared.corpus_test("glsl")
test_validator_rejects_bad_source = _shared.bad_source_test("glsl")
