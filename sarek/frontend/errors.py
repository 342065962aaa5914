"""`sarek.CompileError`: a front-end diagnostic located in the Python source, with the line and a caret.

Defined in sarek.diagnostics (the bottom layer: the runtime and `sarek.types` raise it too); re-exported here.
"""

from __future__ import annotations

from sarek.diagnostics import (CompileError, DeclarationError, at_user_line, caret_text, make_loc,
                               user_frame, user_location)

__all__ = ["CompileError", "DeclarationError", "at_user_line", "caret_text", "make_loc", "user_frame",
           "user_location"]
