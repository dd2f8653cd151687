"""The types every layer shares; `core` imports nothing else of the package.

problems (root-op problems), shape (their GEMM view), candidate (a point of a space),
config (a compilation_info as data), measurement + status (what measuring gave),
reasons (why the funnel pruned), fingerprint (the database's keys), words (a count's plural).
"""
