"""Every examples/*.mlir parses, verifies and round-trips exactly (custom and generic syntax)."""

from pathlib import Path

import pytest

from sarek.tools.ir import parse_module, print_module

EXAMPLES = sorted((Path(__file__).parents[2] / "examples").glob("*.mlir"))


def test_examples_exist():
    assert len(EXAMPLES) >= 5


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example_roundtrips(path: Path):
    m = parse_module(path.read_text(), str(path))
    m.verify()
    text = print_module(m)
    again = print_module(parse_module(text))
    assert text == again
    generic = print_module(m, generic=True)
    assert print_module(parse_module(generic)) == text
