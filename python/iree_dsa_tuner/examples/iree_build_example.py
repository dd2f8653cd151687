"""An `iree.build` module: the example model tuned for dsa-e1 and compiled with its spec.

    python -m iree_dsa_tuner.examples.iree_build_example --output-dir build/

writes build/bin/pi0_expert.vmfb (compiled with the tuned spec) and build/gen/pi0_expert.spec.mlir.
"""

from iree.build import entrypoint, iree_build_main

from iree_dsa_tuner.build_actions import tuned_compile
from iree_dsa_tuner.examples import DEFAULT_MODEL
from iree_dsa_tuner.search.options import TuneOptions


@entrypoint(description="pi0 action-expert block, tuned for dsa-e1 and compiled with its spec")
def pi0_expert():
    return tuned_compile(name="pi0_expert", source=DEFAULT_MODEL, target="dsa-e1", options=TuneOptions(budget=8))


if __name__ == "__main__":
    iree_build_main()
