"""Which identifiers a target reserves: its descriptor's keywords and prefixes (sarek.descriptor), the
C rules on leading underscores, and what a C struct member may not be called. The word lists themselves are
sarek.keywords; the naming stage (sarek.analysis.namer) applies these rules.
"""

from __future__ import annotations

from sarek.registry import C_TARGETS, TARGETS
from sarek.keywords import GENERATED, GENERATED_PREFIX, MEMBER_RESERVED

# views of the descriptors: target -> its reserved words / prefixes (targets that name nothing themselves, PTX,
# are left out)
RESERVED: dict[str, frozenset[str]] = {n: t.reserved for n, t in TARGETS.items() if t.reserved}
PREFIXES: dict[str, tuple[str, ...]] = {n: t.prefixes for n, t in TARGETS.items() if t.prefixes}


def is_reserved(target: str, name: str) -> bool:
    """`name` cannot be declared in `target`'s source: a keyword, type, built-in, or a reserved prefix;
    `_` alone and names starting `_` + capital letter (C) are reserved too."""
    if name in RESERVED[target] or name.startswith(PREFIXES[target]) or name == "_":
        return True
    return target in C_TARGETS and len(name) > 1 and name[0] == "_" and name[1].isupper()


def is_member_reserved(target: str, name: str) -> bool:
    """`name` cannot be a struct member in `target`'s C source (keywords, types, macros, reserved prefixes)."""
    return (name in MEMBER_RESERVED[target] or name.startswith(PREFIXES[target]) or name == "_"
            or (len(name) > 1 and name[0] == "_" and name[1].isupper()))


__all__ = ["GENERATED", "GENERATED_PREFIX", "MEMBER_RESERVED", "PREFIXES", "RESERVED", "is_member_reserved",
           "is_reserved"]
