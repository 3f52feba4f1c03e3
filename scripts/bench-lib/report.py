"""Puts the bench measurements together: a table, or with --json one JSON object.

usage: python3 report.py [--json] NATIVE SEED WASM PAGE TRANSFER_BYTES SITE_BYTES [FUZZ [SANDBOX [API_FUZZ]]]
Each of NATIVE SEED WASM PAGE FUZZ SANDBOX API_FUZZ is the JSON one measurement printed ("{}" if it failed).
TRANSFER_BYTES: what a visit fetches (the list, then a lesson), gzip -9; "" if unknown.
SITE_BYTES: every file of the built site, gzip -9.
"""
import json
import sys

args = sys.argv[1:]
as_json = args[:1] == ["--json"]
if as_json:
    args = args[1:]
native, seed, wasm, page = (json.loads(a or "{}") for a in args[:4])
transfer = int(args[4]) if args[4:] and args[4].isdigit() else None
site = int(args[5]) if args[5:] and args[5].isdigit() else None
fuzz = json.loads(args[6] or "{}") if args[6:] else {}
sandbox = json.loads(args[7] or "{}") if args[7:] else {}
api_fuzz = json.loads(args[8] or "{}") if args[8:] else {}

result = {
    "native_runs_per_s": native.get("runs_per_s"),
    # the SQL a lost-response run executes, executed alone (natively, then in WASM), and the
    # whole run's time over it: the engine's own cost beside its SQL's
    "native_sql_runs_per_s": native.get("sql_runs_per_s"),
    "native_run_over_sql": native.get("run_over_sql"),
    # for scale only, no longer a target: the seed's script writes real files and calls
    # fdatasync, so its runs per second (and the engine's ratio to them) measure the disk
    "seed_lab_runs_per_s": seed.get("runs_per_s"),
    "wasm_runs_per_s": wasm.get("wasm_runs_per_s"),
    "wasm_sql_runs_per_s": wasm.get("wasm_sql_runs_per_s"),
    "wasm_run_over_sql": wasm.get("wasm_run_over_sql"),
    "knowledge_ms_max": wasm.get("knowledge_ms_max"),
    "page_interactive_ms": page.get("page_interactive_ms"),
    "list_interactive_ms": page.get("list_interactive_ms"),
    "transfer_gzip_bytes": transfer,
    # per lesson: the runs (worlds) of its fault space and its knowledge time (wasm)
    "lessons": wasm.get("lessons") or [],
    "site_gzip_bytes": site,
    # the native fuzzer, invariants checked on every step of every schedule
    "fuzz_schedules_per_s": fuzz.get("fuzz_schedules_per_s"),
    # the libFuzzer target over the engine API (ASan + UBSan), from its own final stats
    "fuzz_execs_per_s": api_fuzz.get("fuzz_execs_per_s"),
    # explore at K = 2 in WASM, the lesson with the most schedules
    "explore_ms": wasm.get("explore_ms"),
    "explore_lesson": wasm.get("explore_lesson"),
    "explore_schedules": wasm.get("explore_schedules"),
    # the sandbox in chromium, on the lesson with the most schedules (scripts/bench-lib/sandbox.mjs)
    "sandbox_edit_ms": sandbox.get("sandbox_edit_ms"),
    "explore_ms_page": sandbox.get("explore_ms_page"),
    "explore_longest_task_ms": sandbox.get("explore_longest_task_ms"),
}
ratio = None
if result["native_runs_per_s"] and result["seed_lab_runs_per_s"]:
    ratio = result["native_runs_per_s"] / result["seed_lab_runs_per_s"]


def target(value, want, ok):
    return {"want": want, "value": value, "met": None if value is None else ok(value)}


result["targets"] = {
    # the engine's own work per lost-response run at most its SQL's (issue 12)
    "native_run_over_sql": target(result["native_run_over_sql"], "<= 2", lambda v: v <= 2),
    "wasm_run_over_sql": target(result["wasm_run_over_sql"], "<= 2", lambda v: v <= 2),
    "knowledge_ms_max": target(result["knowledge_ms_max"], "< 20", lambda v: v < 20),
    "page_interactive_ms": target(result["page_interactive_ms"], "< 500", lambda v: v < 500),
    "transfer_gzip_bytes": target(transfer, "< 400000", lambda v: v < 400000),
    # 1,000,000 schedules in under 5 minutes
    "fuzz_schedules_per_s": target(result["fuzz_schedules_per_s"], ">= 3334", lambda v: v >= 3334),
    "explore_ms": target(result["explore_ms"], "< 1000", lambda v: v < 1000),
    "sandbox_edit_ms": target(result["sandbox_edit_ms"], "< 50", lambda v: v < 50),
    "explore_ms_page": target(result["explore_ms_page"], "< 1000", lambda v: v < 1000),
    # 0: no main-thread task over 50 ms (the Long Tasks API reports only those)
    "explore_longest_task_ms": target(result["explore_longest_task_ms"], "< 50", lambda v: v < 50),
}

if as_json:
    print(json.dumps(result))
    sys.exit(0)


def show(v):
    if v is None:
        return "n/a"
    return f"{v:,.0f}" if v >= 100 else f"{v:,.2f}"


rows = [
    ("native runs/s", result["native_runs_per_s"], ""),
    ("native runs/s, their SQL alone", result["native_sql_runs_per_s"], ""),
    ("native run / its SQL alone", result["native_run_over_sql"], "native_run_over_sql"),
    ("seed lab runs/s (python, disk-bound)", result["seed_lab_runs_per_s"], ""),
    ("native / seed lab (not a target)", ratio, ""),
    ("wasm runs/s (node)", result["wasm_runs_per_s"], ""),
    ("wasm runs/s, their SQL alone", result["wasm_sql_runs_per_s"], ""),
    ("wasm run / its SQL alone", result["wasm_run_over_sql"], "wasm_run_over_sql"),
    ("knowledge ms, slowest lesson's run (wasm)", result["knowledge_ms_max"], "knowledge_ms_max"),
    ("page interactive ms (median)", result["page_interactive_ms"], "page_interactive_ms"),
    ("lesson list shown ms (median)", result["list_interactive_ms"], ""),
    ("transfer of a visit, gzip -9 bytes", transfer, "transfer_gzip_bytes"),
    ("whole site, gzip -9 bytes", site, ""),
    ("fuzz schedules/s (native, invariants on)", result["fuzz_schedules_per_s"], "fuzz_schedules_per_s"),
    ("api fuzz execs/s (libFuzzer, ASan+UBSan)", result["fuzz_execs_per_s"], ""),
    ("explore ms, K = 2, most schedules (wasm)", result["explore_ms"], "explore_ms"),
    ("sandbox edit ms, click to redrawn (median)", result["sandbox_edit_ms"], "sandbox_edit_ms"),
    ("explore ms in the page (worker), K = 2", result["explore_ms_page"], "explore_ms_page"),
    ("longest main-thread task while exploring", result["explore_longest_task_ms"], "explore_longest_task_ms"),
]
print(f"{'measure':<44} {'value':>12}  target")
for label, value, key in rows:
    t = result["targets"].get(key)
    verdict = ""
    if t:
        verdict = f"{t['want']:<9} " + {True: "met", False: "MISSED", None: "-"}[t["met"]]
    print(f"{label:<44} {show(value):>12}  {verdict}")
if wasm.get("knowledge_lesson"):
    print(f"slowest lesson: {wasm['knowledge_lesson']}")
if result["explore_lesson"]:
    print(f"explored: {result['explore_lesson']}, {result['explore_schedules']} schedules at K = 2")
if result["lessons"]:
    print()
    print(f"{'lesson':<44} {'runs (worlds)':>13}  {'knowledge ms (wasm)':>19}  {'schedules K=2':>13}")
    for row in result["lessons"]:
        print(f"{row['lesson']:<44} {row['worlds']:>13}  {show(row['knowledge_ms']):>19}  {row.get('explore_schedules', 'n/a'):>13}")
if page.get("console_errors"):
    print(f"note: the page logged {page['console_errors']} console error(s) while loading")
