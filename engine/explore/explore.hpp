#pragma once
// The explorer: every fault schedule of up to K faults, searched as a tree (docs/design.md,
// "Explore"). The root is the run with no fault; a child adds one fault at an injection
// point its parent's run actually passed (engine/sim/schedules.hpp), so every fault of a
// schedule fires; plans whose fired faults are the same are one schedule. Breadth first:
// all schedules of k faults before any of k + 1, so the first counterexample of a kind
// has the fewest faults. Every run is judged by engine/invariants/ and nothing else.
//
// A schedule whose run stopped at the horizon or the step limit before it settled, breaking
// nothing on the way, is inconclusive (InconclusiveSchedule): counted apart, and a search
// with one claims no "no violation".
//
// The faults searched are every_fault() (sim/schedules.hpp) and, where the script has a
// user's re-run (`reapply`), the client losing its row (lose_row) at a point a re-run of
// that intent follows: without a re-run no client design can make the row again, so every
// policy would break forgotten_intent there and the search would say nothing of it.
//
// Limits (ExploreLimits) bound the work; when one cuts the search short the result says
// which, in plain words, and is marked incomplete. Without a cut the result depends on the
// scenario and K only: the same input gives the same output, natively and in WASM.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/invariants/invariants.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// How far a search has got, for a front end's progress bar: the depth (faults per
/// schedule) being searched, the plans of that depth tried and planned, and the distinct
/// schedules simulated so far (all depths). `total` is the plans at this depth before
/// duplicates are skipped, so `done` reaches it exactly when the depth is finished.
struct ExploreProgress {
  int depth = 0;
  int max_faults = 0;
  int done = 0;
  int total = 0;
  int schedules = 0;
};

struct ExploreLimits {
  /// Faults per schedule, 1..kMaxFaults (engine/scenario/limits.hpp says why).
  int max_faults = 2;
  static constexpr int kMaxFaults = limits::kMaxExploreFaults;
  /// Schedules simulated at most (default, and the ceiling from engine/scenario/limits.hpp).
  int max_schedules = 20000;
  static constexpr int kMaxSchedules = limits::kMaxExploreSchedules;
  /// Wall-clock budget in ms (0: none). The only limit that makes a result depend on the
  /// machine; when it cuts, the result says so.
  std::int64_t max_ms = 0;
  /// What the search may keep, in bytes as it estimates them (engine/explore/explore.cpp):
  /// at most limits::kMaxExploreBytes, the default. Past it the search is cut ("memory").
  std::size_t max_bytes = limits::kMaxExploreBytes;
  /// Counterexamples kept per (invariant, intent).
  int per_kind = 3;
  /// Called at the start of each depth and then every kProgressEvery plans (nullptr: none).
  /// It must not throw; it cannot change the result.
  void (*on_progress)(const ExploreProgress&) = nullptr;
  static constexpr int kProgressEvery = 32;
  /// Stop at the first schedule that breaks one of these invariants (empty: never), for a
  /// yes/no question ("can this break?", asked by engine/lesson/challenge). The result is
  /// then cut ("violation"): it covers the schedules up to that one, which is among its
  /// counterexamples.
  std::vector<Invariant> stop_on;
};

/// One schedule that breaks an invariant, shrunk: no fault of it can be removed and the
/// same invariant still break for the same intent.
struct Counterexample {
  FaultPlan plan;       ///< the faults, in the order they fired
  Violation violation;  ///< the first violation of that kind in the run
  /// The violation, its faults (as a scenario holds them, with their ids and described),
  /// and `scenario` with these faults: what explore's "counterexamples" list holds.
  nlohmann::json to_json(const Scenario& scenario) const;
};

/// How runs end: the final state of every intent (status and effects, emails where the
/// service notifies), with how many schedules end so.
struct OutcomeClass {
  std::string key;      ///< "weekly-report=DELIVERED/1" joined by ";"
  L10n text;            ///< "weekly-report: DELIVERED, 1 effect"
  int count = 0;
  FaultPlan example;    ///< the first schedule (fewest faults) that ends so
  int violating = 0;    ///< how many of its `count` schedules break some invariant
  std::vector<std::string> violations;  ///< invariant names broken in any of them, first seen first
};

/// Retry layers that kept a search from reaching a layer's retry: no schedule searched made
/// `layer` retry, and the layers inside it make `faults` sends per call (the product of
/// their attempts, more than the search's K), every one of which must fail before `layer`
/// retries. A search of K >= `faults` reaches past them (when the explorer allows that K).
struct LayersAbsorb {
  std::string layer;               ///< the innermost retrying layer never seen to retry
  std::vector<std::string> inner;  ///< the layers inside it, innermost first
  long long faults = 0;            ///< the sends per call of the layers inside it
  L10n text;                       ///< says so, and which K to explore with
};

/// A schedule whose run stopped at a limit (the virtual-time horizon or the step limit)
/// before it settled and broke no invariant on the way: its end-invariants were never
/// judged, so it is inconclusive, never "no violation" (docs/design.md, "Safety").
struct InconclusiveSchedule {
  FaultPlan plan;  ///< the faults that fired
  StopReason stop = StopReason::Horizon;
  /// {"stop": "horizon" | "step_limit", "stop_text": L10n, "faults": [Fault JSON],
  ///  "fault_ids", "plan": L10n, "scenario": the scenario with these faults}
  nlohmann::json to_json(const Scenario& scenario) const;
};

struct ExploreResult {
  int max_faults = 0;
  int schedules = 0;           ///< distinct schedules simulated (the fault-free one included)
  int violating = 0;           ///< schedules that break some invariant
  /// Schedules that stopped at a limit before settling and broke no invariant (see
  /// InconclusiveSchedule): neither violating nor clean. Any makes the search inconclusive.
  int inconclusive = 0;
  bool inconclusive_horizon = false;     ///< some of them stopped at the horizon
  bool inconclusive_step_limit = false;  ///< some of them stopped at the step limit
  /// The first of them (fewest faults).
  std::optional<InconclusiveSchedule> inconclusive_example;
  bool complete = true;        ///< false when a limit cut the search
  std::string cut;             ///< "" | "schedules" | "time" | "memory" | "violation" (stop_on)
  L10n cut_text;               ///< why it was cut, for the learner
  std::vector<OutcomeClass> outcomes;             ///< most common first
  std::vector<Counterexample> counterexamples;    ///< fewest faults first, then earliest step
  /// Only when the search is complete: see LayersAbsorb.
  std::optional<LayersAbsorb> layers_absorb;
  /// Complete, and no schedule broke an invariant or stopped before it settled: what a
  /// search must be to stand for "no violation up to K" (no_violation_up_to, a fix).
  bool clean() const { return complete && violating == 0 && inconclusive == 0; }
  /// What the search found, in words that claim nothing beyond it ("no violation in 130
  /// schedules of up to 2 faults: ...", "27 of 130 schedules of up to 2 faults break ...",
  /// "... 270 did not settle within the 600 s horizon: their end was not checked").
  L10n text() const;
  /// Why the inconclusive schedules are ("did not settle within the 600 s virtual-time
  /// horizon: the invariants of their end were not checked"); empty when there are none.
  L10n inconclusive_text() const;
  /// The limit(s) they stopped at ("the 600 s virtual-time horizon", "the limit of 400
  /// steps", or both), for a front end's own sentence; empty when there are none.
  L10n inconclusive_limit() const;
  /// {"max_faults", "schedules", "violating", "complete", "cut": null | {"limit", "text"},
  ///  "no_violation_up_to": K | null (K when clean()), "text": L10n,
  ///  "inconclusive": n, "inconclusive_text": L10n | null, "inconclusive_limit": L10n | null,
  ///  "inconclusive_example": null | InconclusiveSchedule JSON,
  ///  "layers_absorb": null | {"layer", "inner": [names], "faults", "text": L10n},
  ///  "outcomes": [{"key", "text", "count", "example": [Fault JSON], "violating", "violations"}],
  ///  "counterexamples": [{"invariant", "intent", "step", "reason", "faults": [Fault JSON],
  ///  "fault_ids", "plan": L10n, "scenario": the scenario with these faults}]}
  nlohmann::json to_json(const Scenario& scenario) const;
};

/// Explores `scenario` (its own fault plan is ignored: the search starts from no fault;
/// crashes restart after scenario.space.restart_after_ms).
ExploreResult explore(const Scenario& scenario, const ExploreLimits& limits);

/// Removes faults from `plan` while the run still breaks `invariant` for `intent`;
/// returns the smallest plan found and its violation.
Counterexample shrink(const Scenario& scenario, FaultPlan plan, Invariant invariant, const std::string& intent);

}  // namespace idemlab
