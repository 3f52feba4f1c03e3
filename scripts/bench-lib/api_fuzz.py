"""Runs the libFuzzer target over the engine API (scripts/fuzz) for a few seconds and reads
its rate from libFuzzer's own final stats (stat::average_exec_per_sec).

usage: python3 api_fuzz.py REPO SECONDS  ->  {"fuzz_execs_per_s": x, "fuzz_execs": n}
Each exec is one input through the API as raw input and, when it reads as a lesson,
through check, run, answers, compare, scenario and explore, under ASan and UBSan.
"""
import json
import re
import subprocess
import sys

repo, seconds = sys.argv[1], sys.argv[2]
out = subprocess.run([f"{repo}/scripts/fuzz", "--seconds", seconds], capture_output=True, text=True)
sys.stderr.write(out.stderr[-2000:])
stats = dict(re.findall(r"^stat::(\w+):\s+(\d+)", out.stdout + out.stderr, re.M))
if out.returncode != 0 or "average_exec_per_sec" not in stats:
    sys.exit(1)
print(json.dumps({"fuzz_execs_per_s": int(stats["average_exec_per_sec"]),
                  "fuzz_execs": int(stats.get("number_of_executed_units", 0))}))
