"""The sync mishap simulation under pytest: one test per seed (sim.py).

SYNC_SIM_SEEDS=N (default 200): seeds 1 to N, from SYNC_SIM_FIRST (default 1); SYNC_SIM_SEED=S:
that seed alone; SYNC_SIM_MISHAPS=a,b (default all): the mishaps the seeds play, or none."""
import os

import pytest

import sim


def seeds():
    if os.environ.get("SYNC_SIM_SEED"):
        return [int(os.environ["SYNC_SIM_SEED"])]
    first = int(os.environ.get("SYNC_SIM_FIRST", "1"))
    return list(range(first, first + int(os.environ.get("SYNC_SIM_SEEDS", "200"))))


SELECTED = [m for m in os.environ.get("SYNC_SIM_MISHAPS", "all").split(",") if m]


@pytest.mark.parametrize("seed", seeds())
def test_seed(seed):
    mishaps = sim.mishaps_of(seed, SELECTED)
    failures, log, _ = sim.simulate(seed, mishaps)
    if failures:
        pytest.fail("seed %d (%s):\n%s\n\nreplay: %s\n\nwhat happened:\n%s" % (
            seed, ",".join(mishaps) or "none", "\n".join(failures), sim.replay_command(seed, mishaps), "\n".join(log[-150:])),
            pytrace=False)
