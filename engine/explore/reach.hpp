#pragma once
// Which of a scenario's wrong settings its run's faults reach (engine/api/API.md, `run` of
// a bare scenario, "wrong_settings"). The knob table judges each value on its own ("wrong
// alone": engine/scenario/knobs.hpp); whether a wrong value came into play in one run is a
// question about that run, answered here, and never by the page.
//
// The criterion, the cheapest honest one we found: a wrong setting is NOT REACHED by a run
// when the same scenario under the same fault plan, with that one knob moved to its right
// setting (Knob::right_value), runs the same course (same_course): the same steps (virtual
// time, event, side, intent, message, and the key and status the event notes), the same
// durable rows and liveness of both sides at every step, and the same messages with the
// same keys and fates. Then nothing the knob decides came into play: no fault of the run
// led to where it acts (no second attempt for key_scope = attempt, no timeout for
// on_timeout = mark_failed_and_resend, no retry for retry_layers). It costs one simulation
// per wrong setting and no search. It errs one way only: a knob whose right setting changes
// the run even without a fault (an outbox relay where a direct call was; another order of
// writes) counts as reached, as does one whose moved scenario does not read; "reached" is
// no claim that anything breaks, only that the run would have gone otherwise.
// Annotations that only name the knob (a send's budget and layer iterations under
// retry_layers, a backoff's length) are not compared: what they describe is.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/scenario/knobs.hpp"
#include "engine/sim/run.hpp"

namespace idemlab {

/// One knob of a scenario whose value the table judges wrong alone.
struct WrongAlone {
  const Knob* knob = nullptr;
  nlohmann::json value;  ///< as the scenario holds it (Knob::get)
  bool reached = true;   ///< see the criterion above
  /// The table's condition under which this value composes safely, when the scenario
  /// meets it (Knob::composes_in); none otherwise.
  std::optional<L10n> composes;
  /// {"knob": "client.key_scope", "value": "attempt", "reached": false, "composes": L10n | null}
  nlohmann::json to_json() const;
};

/// The wrong-alone settings of `scenario`, in the knob table's order, each judged against
/// `run`: the scenario's own run under its own fault plan (Simulation(scenario,
/// scenario.faults)). Simulates once per wrong setting.
std::vector<WrongAlone> wrong_alone(const Scenario& scenario, const Run& run);

/// Whether runs `a` and `b` ran the same course (the criterion above).
bool same_course(const Run& a, const Run& b);

}  // namespace idemlab
