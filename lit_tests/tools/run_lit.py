"""Run lit with this Python: `python lit_tests/tools/run_lit.py [lit args]`.

pip's lit 23.1.5 has no `__main__` module, so `python -m lit` does not work;
CMake's check-dsa calls this instead, which pins lit to the interpreter CMake
found (the active venv).
"""

import sys

from lit.main import main

if __name__ == "__main__":
    sys.argv[0] = "lit"
    sys.exit(main())
