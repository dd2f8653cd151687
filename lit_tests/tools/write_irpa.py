"""Write a parameter archive for a model's `#flow.parameter.named` globals, from a seed.

    %write-irpa MODEL OUT.irpa [--seed N] [--drop KEY] [--transpose KEY] [--as-f16 KEY]

Values are `parameters.random_value` (what the tuner generates itself); --drop leaves a key
out, --transpose writes a 2-D weight with its dimensions swapped, --as-f16 writes a float
weight as float16: the bad archives the tuner must refuse with one line.
"""

import argparse

import numpy as np

from iree_dsa_tuner.parameters import ParameterGlobal, random_value, read_model_parameters, write_archive


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("model")
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--drop", action="append", default=[])
    parser.add_argument("--transpose", action="append", default=[])
    parser.add_argument("--as-f16", action="append", default=[])
    args = parser.parse_args()
    values = {}
    for p in read_model_parameters(args.model):
        value = random_value(p, args.seed)
        if p.key in args.drop:
            continue
        if p.key in args.transpose:
            p, value = ParameterGlobal(p.name, p.scope, p.key, p.shape[::-1], p.element), value.T
        if p.key in args.as_f16:
            p, value = ParameterGlobal(p.name, p.scope, p.key, p.shape, "f16"), value.astype(np.float16)
        values[p] = value
    write_archive(__import__("pathlib").Path(args.out), values)


if __name__ == "__main__":
    main()
