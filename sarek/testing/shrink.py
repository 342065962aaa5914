"""Shrinking a failing generated kernel: greedy line-block deletion while the failure persists.

A candidate removes one statement with its indented body, unwraps one `if`/`for`/`while` (its body, dedented,
replaces it), or removes one top-level definition (decorator to blank line). `still_fails(source)` decides;
candidates that are not Python are skipped, and those the front end refuses are rejected by it. Passes repeat until none helps or the time is up.
"""

from __future__ import annotations

import ast
import time
from collections.abc import Callable, Iterator


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _block_end(lines: list[str], i: int) -> int:
    """The index after line i's indented body."""
    ind = _indent(lines[i])
    j = i + 1
    while j < len(lines) and lines[j].strip() and _indent(lines[j]) > ind:  # a blank line ends a definition
        j += 1
    return j


def candidates(lines: list[str]) -> Iterator[list[str]]:
    """Smaller variants of `lines`, the largest cuts first within each position (last positions first)."""
    for i in range(len(lines) - 1, -1, -1):
        s = lines[i].strip()
        if not s:
            continue
        ind = _indent(lines[i])
        if ind == 0:
            if s.startswith("@") and not s.startswith("@kernel"):
                j = i
                while j < len(lines) and lines[j].strip():
                    j += 1
                yield lines[:i] + lines[j:]
            continue
        if s.startswith(("def ", "case ", "else:", "elif ")) or lines[i - 1].strip() == "@kernel":
            continue
        end = _block_end(lines, i)
        yield lines[:i] + lines[end:]
        if s.startswith(("if ", "for ", "while ")) and s.endswith(":"):
            body = [ln[4:] if ln.startswith(" " * (ind + 4)) else ln for ln in lines[i + 1:end]]
            # an `if` with elif/else branches: keep only the first branch's body
            k = end
            while k < len(lines) and _indent(lines[k]) == ind and lines[k].strip().startswith(("elif ", "else:")):
                k = _block_end(lines, k)
            yield lines[:i] + body + lines[k:]


def shrink(source: str, still_fails: Callable[[str], bool], seconds: float = 120.0) -> str:
    """The smallest variant of `source` found within `seconds` for which `still_fails` holds."""
    deadline = time.monotonic() + seconds
    lines = source.splitlines()
    progress = True
    while progress and time.monotonic() < deadline:
        progress = False
        for cand in candidates(lines):
            if time.monotonic() >= deadline:
                break
            text = "\n".join(cand) + "\n"
            try:
                ast.parse(text)
            except SyntaxError:  # e.g. an `elif` left without its `if`, a block left empty
                continue
            if still_fails(text):
                lines = cand
                progress = True
                break
    return "\n".join(lines) + "\n"
