"""Validators: `sarek.validate.<lang>.check(source)` runs the real tool and raises ValidationError."""


class ValidationError(Exception):
    """The tool rejected the source, or the tool is missing (the message says which)."""
