"""Times the seed course's lab, demo() of seeds/idempotency_recovery.py, in-process.

usage: python3 seed_lab.py SEED_FILE SECONDS  ->  {"runs_per_s": x, "runs": n}
"""
import importlib.util
import json
import sys
import time

path, seconds = sys.argv[1], float(sys.argv[2])
spec = importlib.util.spec_from_file_location("seed_lab", path)
seed = importlib.util.module_from_spec(spec)
spec.loader.exec_module(seed)

seed.demo()  # warm up: imports, first temp folder
runs, start = 0, time.perf_counter()
while True:
    seed.demo()
    runs += 1
    elapsed = time.perf_counter() - start
    if elapsed >= seconds:
        break
print(json.dumps({"runs_per_s": runs / elapsed, "runs": runs}))
