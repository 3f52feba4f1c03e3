#pragma once
// Incidents (lessons/README.md, "Incidents"; the research is docs/incidents.md): a lesson
// that replays a public bug report. The report's outcome is data the author copies from
// the report (`incident.reported`); whether idemlab reproduces it is the engine's to say:
// the compare block's first policy (the reported behaviour), run once under the lesson's
// own scenario and fault plan, must end with that outcome. The fix (the second policy)
// is checked over the fault space by the course's tests, as for every compare block.
#include <vector>

#include "engine/lesson/lesson.hpp"

namespace idemlab {

/// What the reported run shows for the compared intent (the compare block's `intent`, or
/// the lesson's first): its effects at the end and the invariants it breaks.
struct ReportedRun {
  std::string policy;  ///< the compare policy run: the first
  std::string intent;
  int effects = 0;
  std::string status = "NONE";    ///< the client's final status for the intent (RunEnding)
  std::vector<Invariant> broken;  ///< in table order, each once
};

/// Runs `lesson`'s reported behaviour (it must be an incident: it has `incident` and
/// `compare`; the API checks first). Throws std::logic_error otherwise (a bug).
ReportedRun reported_run(const Lesson& lesson);

/// The incident as `run` shows it (engine/api/API.md): the block as written, and
/// "replayed": {"policy", "intent", "effects", "broken": [invariant names]}, the engine's
/// own ending of the reported run (the page shows this, not the author's `reported`).
/// `lesson` must be an incident (see reported_run).
nlohmann::json incident_view(const Lesson& lesson);

/// The problems of `lesson`'s incident block that need the simulation: the reported run
/// ending with other effects than `reported.effects` (at /incident/reported/effects), or
/// not breaking `reported.violation` (at /incident/reported/violation). Empty when it
/// reproduces the report, or when the lesson is no incident.
std::vector<LessonProblem> incident_problems(const Lesson& lesson);

}  // namespace idemlab
