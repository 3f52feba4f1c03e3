"""Times the native fuzzer (invariants checked on every step of every schedule).

usage: python3 fuzz.py IDEMLAB RUNS  ->  {"fuzz_schedules_per_s": x, "fuzz_schedules": n, "fuzz_seconds": s}
The target (scripts/bench-lib/report.py): 1,000,000 schedules in under 5 minutes natively,
that is at least 3,334 schedules per second (scripts/soak runs the full million).
"""
import json
import subprocess
import sys
import time

idemlab, runs = sys.argv[1], sys.argv[2]
start = time.perf_counter()
out = subprocess.run([idemlab, "fuzz", "--seed", "7", "--runs", runs], capture_output=True, text=True, check=True)
seconds = time.perf_counter() - start
report = json.loads(out.stdout)
print(json.dumps({
    "fuzz_schedules_per_s": report["schedules"] / seconds,
    "fuzz_schedules": report["schedules"],
    "fuzz_seconds": seconds,
}))
