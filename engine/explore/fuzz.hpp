#pragma once
// The fuzzer: random valid scenarios, each run under random faults placed where the run
// passes, every step judged by engine/invariants/ (docs/design.md, "Fuzz").
//
// Each scenario draws every knob from the knob table (engine/scenario/knobs.hpp): either
// the right configuration (every knob right or neutral) or the right configuration with
// exactly one knob set wrong, taking the wrong settings in turn. Scripts deliver 1-3
// intents (payloads from a small set, so content repeats across intents), may crash and
// always restart the client, and use only the actions the table marks safe. Then 0..3
// faults, each at an injection point the run with the earlier ones passed.
//
// The right configuration must never break an invariant (a finding, reported with a
// scenario file that reproduces it); every wrong setting should be caught by some
// schedule, and the report lists which were and which were not. Deterministic: the same
// seed and runs give the same report (speed is not in it). A developer's tool: the native
// CLI calls it (`idemlab fuzz`); it is not an API method, so the page's WebAssembly
// module does not carry it.
#include <cstdint>
#include <vector>

#include <nlohmann/json.hpp>

namespace idemlab {

struct FuzzOptions {
  std::uint64_t seed = 1;
  int runs = 1000;           ///< scenarios generated
  static constexpr int kMaxRuns = 10000000;
  int max_faults = 3;        ///< faults per scenario, drawn from 0..max_faults
  int keep_examples = 3;     ///< reproducing scenarios kept per finding kind / wrong setting
};

/// {"seed", "runs", "schedules", "right": {"runs", "violations", "inconclusive",
///  "findings": [{"invariant", "intent", "reason", "scenario"}]}, "wrong_settings": [{"knob",
///  "value", "runs", "caught", "inconclusive", "invariants": [names], "example": scenario |
///  null}], "caught": n, "not_caught": [knob=value...], "faults_fired":
///  {"error:service:gateway": n, ...}: the faults that fired, by kind and point (a fault's
///  id without its intent and attempt), "inconclusive": n}. A run that stopped at a limit
///  (horizon, step limit) before it settled and broke nothing is inconclusive: counted as
///  such (per configuration, and in all), never as a clean run.
nlohmann::json fuzz(const FuzzOptions& options);

}  // namespace idemlab
