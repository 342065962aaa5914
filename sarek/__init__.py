"""sarek: a multi-backend GPU kernel compiler built on xDSL."""
