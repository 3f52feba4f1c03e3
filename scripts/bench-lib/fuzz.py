"""Times the native fuzzer (invariants checked on every step of every schedule).

usage: python3 fuzz.py IDEMLAB RUNS  ->  {"fuzz_schedules_per_s": x, "fuzz_schedules": n, "fuzz_seconds": s,
                                          "fuzz_cpu_seconds": c, "fuzz_million_cpu_minutes": m}
The targets (scripts/bench-lib/report.py): 1,000,000 schedules in under 5 minutes natively,
that is at least 3,334 schedules per second (scripts/soak runs the full million), and in
under 2 minutes of CPU (issue 32): fuzz_million_cpu_minutes, the fuzzer's user + system CPU
time scaled to a million schedules, which the load of a shared machine does not stretch.
"""
import json
import resource
import subprocess
import sys
import time


def cpu_seconds():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


idemlab, runs = sys.argv[1], sys.argv[2]
start, cpu_start = time.perf_counter(), cpu_seconds()
out = subprocess.run([idemlab, "fuzz", "--seed", "7", "--runs", runs], capture_output=True, text=True, check=True)
seconds, cpu = time.perf_counter() - start, cpu_seconds() - cpu_start
report = json.loads(out.stdout)
print(json.dumps({
    "fuzz_schedules_per_s": report["schedules"] / seconds,
    "fuzz_schedules": report["schedules"],
    "fuzz_seconds": seconds,
    "fuzz_cpu_seconds": cpu,
    "fuzz_million_cpu_minutes": cpu / report["schedules"] * 1_000_000 / 60,
}))
