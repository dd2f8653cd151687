"""Roofline of one problem on one target (R5.1, R5.5).

Bytes are counted two ways and both are reported, because the seed's worked
example counts only the dominant operand (the weights) while a model that
wants to be a lower bound must count every operand once:
- `weight_bytes`: the B operand alone (the seed's ~65536 B for 1x256x256 INT8);
- `compulsory_bytes`: A + B + C, each moved exactly once (C at its own type).
The regime (compute- vs memory-bound) and the `bound_ops_per_s` use the
compulsory count; `seed_bound_ops_per_s` reproduces the seed's arithmetic.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..core.shape import GemmShape
from ..description import TargetDescription


@dataclass(frozen=True)
class RooflineReport:
    target: str
    shape: str
    ops: int
    lhs_bytes: float
    weight_bytes: float
    out_bytes: float
    compulsory_bytes: float
    peak_ops_per_s: float
    bandwidth_bytes_per_s: float
    compute_type: str

    @property
    def intensity(self) -> float:
        return self.ops / self.compulsory_bytes

    @property
    def seed_intensity(self) -> float:
        return self.ops / self.weight_bytes

    @property
    def ridge(self) -> float:
        return self.peak_ops_per_s / self.bandwidth_bytes_per_s

    @property
    def memory_bound(self) -> bool:
        return self.intensity < self.ridge

    @property
    def regime(self) -> str:
        return "memory-bound" if self.memory_bound else "compute-bound"

    @property
    def bound_ops_per_s(self) -> float:
        return min(self.peak_ops_per_s, self.intensity * self.bandwidth_bytes_per_s)

    @property
    def seed_bound_ops_per_s(self) -> float:
        return min(self.peak_ops_per_s, self.seed_intensity * self.bandwidth_bytes_per_s)

    @property
    def bound_seconds(self) -> float:
        """No schedule can finish sooner: max(ops / peak, compulsory bytes / bandwidth)."""
        return max(self.ops / self.peak_ops_per_s, self.compulsory_bytes / self.bandwidth_bytes_per_s)

    def to_json(self) -> dict:
        return {
            "target": self.target,
            "shape": self.shape,
            "ops": self.ops,
            "bytes": {
                "lhs": self.lhs_bytes,
                "weights": self.weight_bytes,
                "out": self.out_bytes,
                "compulsory": self.compulsory_bytes,
            },
            "intensity_op_per_byte": self.intensity,
            "seed_intensity_op_per_byte": self.seed_intensity,
            "ridge_op_per_byte": self.ridge,
            "regime": self.regime,
            "peak_ops_per_s": self.peak_ops_per_s,
            "bandwidth_bytes_per_s": self.bandwidth_bytes_per_s,
            "bound_ops_per_s": self.bound_ops_per_s,
            "seed_bound_ops_per_s": self.seed_bound_ops_per_s,
            "bound_seconds": self.bound_seconds,
        }

    def lines(self) -> list[str]:
        pct = 100 * self.weight_bytes / self.compulsory_bytes
        return [
            f"ops               {self.ops}  (2 x {self.ops // 2} MACs)",
            f"bytes             weights {self.weight_bytes:.0f} ({pct:.1f}%) + A {self.lhs_bytes:.0f}"
            f" + C {self.out_bytes:.0f} = {self.compulsory_bytes:.0f} compulsory",
            f"intensity         {self.seed_intensity:.2f} op/B on weights (seed's count), "
            f"{self.intensity:.2f} op/B on all operands",
            f"ridge             {self.ridge:.0f} op/B  ({self.peak_ops_per_s / 1e12:g} TOPS {self.compute_type}"
            f" / {self.bandwidth_bytes_per_s / 1e9:g} GB/s)",
            f"regime            {self.regime}",
            f"bound             {self.seed_bound_ops_per_s / 1e9:.1f} GOP/s on weights, "
            f"{self.bound_ops_per_s / 1e9:.1f} GOP/s on all operands "
            f"({self.bound_seconds * 1e6:.3f} us)",
        ]


def _bandwidth(shape: GemmShape, desc: TargetDescription) -> float:
    """DRAM for a DSA; for a CPU, its fastest cache level when the operands fit the LLC."""
    if desc.cpu is not None and shape.compulsory_bytes <= desc.shared_bytes:
        return desc.cpu.near_cache_bytes_per_s
    return desc.dram_bytes_per_s


def roofline(shape: GemmShape, desc: TargetDescription) -> RooflineReport:
    ob = shape.operand_bytes()
    compute_type = desc.compute_type(shape.lhs_type, shape.rhs_type)
    return RooflineReport(
        target=desc.name,
        shape=shape.label(),
        ops=shape.ops,
        lhs_bytes=ob["lhs"],
        weight_bytes=ob["rhs"],
        out_bytes=ob["out"],
        compulsory_bytes=sum(ob.values()),
        peak_ops_per_s=desc.peak_ops(compute_type),
        bandwidth_bytes_per_s=_bandwidth(shape, desc),
        compute_type=compute_type,
    )
