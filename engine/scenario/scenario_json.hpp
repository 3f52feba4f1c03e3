#pragma once
// A scenario as JSON (lessons/README.md, "scenario"; the same object a lesson embeds and
// the API takes bare as {"scenario": ...}). Knobs are read and written through the knob
// table (engine/scenario/knobs.hpp); a knob left out takes its default, its right setting.
//
// Round trip: write_scenario(read_scenario(x)) names every knob, so it reads back to the
// same scenario and writes the same JSON again.
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/scenario/reader.hpp"
#include "engine/scenario/scenario.hpp"

namespace idemlab {

/// Reads the scenario object `j` at JSON Pointer `path` into `out`, reporting every
/// problem to `r` (unknown fields and values, ranges, intents the script never delivers,
/// retry_layers beside max_attempts, ...). `intents` receives the intents the script
/// delivers, and their `<intent>-cancel` twins. Never throws on bad input.
void read_scenario(Reader& r, const nlohmann::json& j, const std::string& path, Scenario& out,
                   std::set<std::string>& intents);

/// Reads one action of a script (`timed`: with "at") or of a question's fork.
Action read_action(Reader& r, const nlohmann::json& a, const std::string& path, bool timed);

/// The scenario with every knob, its script, faults and fault space.
nlohmann::json write_scenario(const Scenario& s);
/// {"drop": "response", "intent": "weekly-report", "attempt": 1} or
/// {"crash_client": "after_send", "intent": ..., "attempt": n, "restart_after_ms": 50}
nlohmann::json write_fault(const Fault& f);
/// A plan's faults, each as write_fault gives it, in the plan's order.
nlohmann::json write_plan(const FaultPlan& plan);
nlohmann::json write_action(const Action& a);

/// The scenario `base` (JSON) with the knobs of `overrides` ({"client": {...},
/// "service": {...}, ...}, as a compare policy or the sandbox gives them) written over it.
/// A knob set to null is removed: the result reads as if `base` never named it.
/// `overridden` receives the JSON Pointers (under `path`) of the knobs replaced.
nlohmann::json override_knobs(const nlohmann::json& base, const nlohmann::json& overrides,
                              const std::string& path, std::vector<std::string>& overridden);

}  // namespace idemlab
