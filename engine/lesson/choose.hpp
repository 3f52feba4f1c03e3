#pragma once
// Judging a choose question ("choose the next action", docs/design.md "Lessons and answer
// checking"). Each option is an action the client could take right after the moment. The
// engine runs it in every run the client cannot tell apart there (engine/lesson/forks.hpp)
// and judges it by the invariants (engine/invariants/, the one definition of safety):
//  - unsafe when some run breaks one for the question's intent (a duplicate effect, a
//    false success or failure, a forgotten intent, a lost or duplicated notification);
//    the option's problem is that run's first violation, and its explanation that
//    violation's reason;
//  - safe otherwise.
// A lesson's choose question must have exactly one safe option (prepare_lesson refuses
// it otherwise); that option is the expected answer.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// How one option ends in one run.
struct OptionRun {
  int world = 0;
  int effects = 0;         ///< effects for the question's intent at the run's end
  std::string status;      ///< the client's final status for the intent, or "NONE"
  bool receipt = false;    ///< the client's row holds a receipt
  std::string problem;     ///< "" or the invariant name of the run's first violation
                           ///< for the intent ("duplicate_effect", "false_success", ...)
  L10n reason;             ///< that violation's reason (empty when problem is "")
};

struct OptionJudgement {
  std::string id;
  bool safe = true;
  std::vector<OptionRun> runs;  ///< one per run the client cannot tell apart, world 0 first
  int witness = -1;             ///< index into runs of the first unsafe run (when unsafe)
  L10n explanation;             ///< names the witness run, or says why every run is fine

  /// {"id", "do", "safe", "explanation": L10n, "witness": world | null,
  ///  "runs": [{"world", "run": L10n, "effects", "status", "receipt", "problem": s | null}]}
  nlohmann::json to_json(const PreparedLesson& p, const Question& q) const;
};

/// Judges every option of choose question `q`, in the lesson's order. When a run does not
/// settle, `unsettled` says so and nothing is judged (fork_runs).
std::vector<OptionJudgement> judge_options(const PreparedLesson& p, const Question& q, std::string& unsettled);

/// "" when exactly one option is safe; otherwise why the question cannot be asked (no
/// safe option: each one's witness run; several: their ids), for check to report.
std::string safe_count_problem(const std::vector<OptionJudgement>& judged);

}  // namespace idemlab
