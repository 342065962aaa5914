"""Every example of the corpus (examples/*.py) compiles to IR that verifies, with a location on every op,
and computes its numpy reference on the reference interpreter."""

import copy

import numpy as np
import pytest
from xdsl.dialects.builtin import FileLineColLoc

from sarek.frontend.api import _dim3
from sarek.frontend.corpus import all_cases
from sarek.interp import run

CASES = all_cases()


def test_corpus_is_complete():
    modules = {m for m, _ in CASES}
    assert len(modules) >= 25
    assert len(CASES) >= 50


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{m}.{c.name}" for m, c in CASES])
def test_example_verifies_and_is_located(case):
    m = case.kernel.module
    m.verify()
    for op in m.walk():
        if op is not m:
            assert isinstance(op.location, FileLineColLoc), op.name


@pytest.mark.parametrize("case", [c for _, c in CASES], ids=[f"{m}.{c.name}" for m, c in CASES])
def test_example_matches_reference_on_interp(case):
    n = case.n
    args = case.make_args(n)
    expected = case.reference(copy.deepcopy(args))
    if case.launch is not None:
        case.launch(case.kernel, args, "interp")
    else:
        g, b = case.dims(n)
        run(case.kernel.module, case.kernel.name, list(args), _dim3(g, "grid"), _dim3(b, "block"),
            executor="reference")
    for i, want in expected.items():
        got = args[i]
        if got.dtype.names:
            assert case.same_structured(got, want, case.rtol, case.atol), i
        else:
            np.testing.assert_allclose(got, want, rtol=case.rtol, atol=case.atol)
