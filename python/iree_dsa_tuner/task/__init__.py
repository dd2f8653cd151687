"""Task level: a robot policy's manifest, its action-chunk timeline on a target, tuning in
Amdahl order until the latency budget is met, and the spec set stored against the manifest."""
