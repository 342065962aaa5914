"""The Python front end: kernels written in Python compiled (from their AST) to the sarek dialect."""
