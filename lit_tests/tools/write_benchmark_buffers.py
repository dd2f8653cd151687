"""Print a dumped dispatch benchmark with its buffers written first (ir.benchmark_buffers).

    %PYTHON write_benchmark_buffers.py BENCHMARK.mlir
"""

import sys

from iree.compiler import ir

from iree_dsa_tuner.ir.benchmark_buffers import write_buffers_first


def main() -> None:
    with ir.Context():
        module = ir.Module.parse(open(sys.argv[1]).read())
        count = write_buffers_first(module)
        assert module.operation.verify()
        print(f"// buffers written first: {count}")
        print(module.operation.get_asm(assume_verified=True))


if __name__ == "__main__":
    main()
