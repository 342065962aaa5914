"""Validators: `sarek.validate.<lang>.check(source)` runs the real tool and raises ValidationError.

The command-line validators share `tool_path` (find the tool or say how to install it) and `run_tool` (write
the source to a scratch directory, run the tool, report a failure with the tool's output and the numbered
source).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from collections.abc import Callable


class ValidationError(Exception):
    """The tool rejected the source, or the tool is missing (the message says which)."""


def numbered(source: str) -> str:
    """The source with 4-column line numbers, as failure messages quote it."""
    return "\n".join(f"{i + 1:4}: {line}" for i, line in enumerate(source.splitlines()))


def tool_path(name: str, fallback: str, missing: str) -> str:
    """`name` on PATH, else `fallback` if it exists; a ValidationError saying `missing` otherwise."""
    p = shutil.which(name) or (fallback if os.path.exists(fallback) else None)
    if p is None:
        raise ValidationError(missing)
    return p


def run_tool(source: str, filename: str, argv: Callable[[str, str], list[str]], failed: str,
             output: str | None = None) -> str:
    """Write `source` to `filename` in a scratch directory and run `argv(directory, source path)`; a non-zero
    exit raises ValidationError(`failed (exit N)`, the tool's output, the numbered source). Gives the text of
    the file `output` the tool wrote in that directory ("" without one)."""
    with tempfile.TemporaryDirectory() as d:
        src = os.path.join(d, filename)
        with open(src, "w") as f:
            f.write(source)
        r = subprocess.run(argv(d, src), capture_output=True, text=True)
        if r.returncode != 0:
            raise ValidationError(f"{failed} (exit {r.returncode}):\n{(r.stderr + r.stdout).strip()}\n"
                                  f"--- source ---\n{numbered(source)}")
        if output is None:
            return ""
        with open(os.path.join(d, output)) as f:
            return f.read()
