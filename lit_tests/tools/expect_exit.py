"""Run a command and succeed only if it exits with the expected status.

    %expect-exit STATUS [--no-stdout] [--stderr-lines=N] CMD ARGS...

The command's stdout and stderr pass through unchanged (pipe `2>&1` into
FileCheck to check the message). Fails (exit 1, reason on stderr) when the
status differs, when --no-stdout is given and the command printed anything on
stdout (an error must not leave partial output), or when --stderr-lines=N is
given and stderr does not have exactly N lines (e.g. one line, no traceback).
lit's `not` only checks for a non-zero status; this pins the number.
"""

import subprocess
import sys


def main(argv: list[str]) -> int:
    if not argv or not argv[0].lstrip("-").isdigit():
        print("usage: expect_exit.py STATUS [--no-stdout] [--stderr-lines=N] CMD ...", file=sys.stderr)
        return 1
    expected = int(argv.pop(0))
    no_stdout = False
    stderr_lines = None
    while argv and argv[0].startswith("--"):
        opt = argv.pop(0)
        if opt == "--no-stdout":
            no_stdout = True
        elif opt.startswith("--stderr-lines="):
            stderr_lines = int(opt.split("=", 1)[1])
        else:
            print(f"expect_exit.py: unknown option {opt}", file=sys.stderr)
            return 1
    proc = subprocess.run(argv, capture_output=True, text=True)
    sys.stdout.write(proc.stdout)
    sys.stdout.flush()
    sys.stderr.write(proc.stderr)
    sys.stderr.flush()
    problems = []
    if proc.returncode != expected:
        problems.append(f"exit status {proc.returncode}, expected {expected}")
    if no_stdout and proc.stdout:
        problems.append(f"{len(proc.stdout)} characters on stdout, expected none")
    if stderr_lines is not None:
        n = len(proc.stderr.splitlines())
        if n != stderr_lines:
            problems.append(f"{n} lines on stderr, expected {stderr_lines}")
    for p in problems:
        print(f"expect_exit.py: {p}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
