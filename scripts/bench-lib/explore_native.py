"""Times the native explorer on the lesson with the most schedules, in CPU time.

usage: python3 explore_native.py IDEMLAB LESSON REPEATS
  ->  {"explore_k2_native_ms": ms, "explore_k2_schedules": n,
       "explore_k3_native_ms": ms, "explore_k3_schedules": n, "explore_k3_complete": bool}
K = 2 with the default limits, and K = 3 with --limit 100000: the default of 20,000
schedules (engine/explore/explore.hpp) keeps a search in the page within seconds and cuts
09-retry-layers at K = 3 (44,281 schedules), which the command line searches whole.
Each figure is the median of REPEATS runs' user + system CPU time (the machine is shared:
CPU time is what the engine spends, whatever else runs).
"""
import json
import resource
import statistics
import subprocess
import sys

idemlab, lesson, repeats = sys.argv[1], sys.argv[2], int(sys.argv[3])


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def explore(*flags):
    """The median CPU ms of REPEATS explores with `flags`, and the last one's result."""
    times, out = [], None
    for _ in range(repeats):
        start = cpu_seconds()
        done = subprocess.run([idemlab, "explore", lesson, *flags], capture_output=True, text=True, check=True)
        times.append((cpu_seconds() - start) * 1000)
        out = json.loads(done.stdout)
    return statistics.median(times), out


k2_ms, k2 = explore("--faults", "2")
k3_ms, k3 = explore("--faults", "3", "--limit", "100000")
print(json.dumps({
    "explore_k2_native_ms": k2_ms, "explore_k2_schedules": k2["schedules"],
    "explore_k3_native_ms": k3_ms, "explore_k3_schedules": k3["schedules"], "explore_k3_complete": k3["complete"],
}))
