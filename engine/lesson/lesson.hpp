#pragma once
// A lesson is data (lessons/README.md): id, level, bilingual title and summary, a
// scenario, the facts of its knowledge grid, labelled moments, questions and a
// self-check list. Answers that depend on the simulation are never stored in a lesson:
// the engine computes them (engine/lesson/answers.hpp).
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/scenario/reader.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// A problem in a lesson file: the file, a JSON Pointer into it, and why.
using LessonProblem = InputProblem;

/// Thrown by load_lesson / prepare_lesson (only from engine/lesson/errors.cpp) with every
/// problem found (at least one).
class LessonError : public std::runtime_error {
 public:
  explicit LessonError(std::vector<LessonProblem> problems)
      : std::runtime_error(problems.empty() ? "invalid lesson"
                                            : problems[0].file + ": " + problems[0].path + ": " +
                                                  problems[0].reason),
        problems_(std::move(problems)) {}
  const std::vector<LessonProblem>& problems() const { return problems_; }

 private:
  std::vector<LessonProblem> problems_;
};

/// A labelled moment: the first step whose event matches `match` (engine resolves it).
struct Moment {
  std::string id;
  nlohmann::json match;  ///< {"event": kind, "side"?, "message"?, "attempt"?, "status"?, "nth"?}
  L10n label, narration;
};

struct Option {
  std::string id;
  L10n label;
  // choose only: the next action this option stands for, as the lesson names it ("do":
  // reconcile, resend_same_key, resend_new_key, mark_failed, wait, or another script
  // action), and the action itself (none for `wait`: the client does nothing).
  std::string does;
  std::optional<Action> action;
};

struct Question {
  std::string id;
  std::string kind;    ///< knowledge | predict | choose | table | concept
  std::string moment;  ///< where the card stands ("" = at the end)
  L10n prompt;
  /// What a wrong first try is told (the author's words): a nudge towards the evidence, never
  /// the answer. Without it the engine computes one (engine/lesson/answers.hpp).
  std::optional<L10n> hint;
  // knowledge
  Side side = Side::Client;
  std::string fact;
  // predict
  std::optional<Action> fork;  ///< what the client does right after the moment
  std::string ask;             ///< effects | deliveries | final_status | next_status | keys_used | requests | emails
  std::vector<Option> options; ///< predict, choose, concept
  // choose
  std::string intent;          ///< the intent the options act on and are judged about
  // concept
  std::string answer;
  L10n explanation;
  // table
  std::vector<std::string> moments;
  std::vector<Side> sides;
  std::vector<std::string> facts;
};

/// One side of a lesson's side-by-side comparison (lessons/README.md, "Side by side"): the
/// lesson's scenario with some knobs of `client`, `service`, `provider` and `timing`
/// replaced, and optionally its whole `script` (what the user does differs: a resubmit, a
/// new intent for new content). Fault plan and fault space stay the lesson's own.
struct ComparePolicy {
  std::string id;
  L10n label;
  /// The overrides as written: {"client"?: {...}, "service"?: {...}, "provider"?: {...},
  /// "timing"?: {...}, "script"?: [...]}.
  nlohmann::json overrides = nlohmann::json::object();
  Scenario scenario;  ///< the lesson's scenario with the overrides applied
};

/// A lesson's `compare` block: exactly two policies run under the same fault plan.
struct Comparison {
  std::vector<ComparePolicy> policies;
  std::optional<L10n> narration;  ///< what to watch for, shown with the two timelines
  std::string intent;  ///< the intent whose effects are counted ("" = the first delivered)
  /// The intent the counters count in `scenario` (the lesson's): `intent`, or the first
  /// delivered one.
  std::string counted_intent(const Scenario& scenario) const { return intent.empty() ? first_intent(scenario) : intent; }
};

/// A lesson's `challenge` (lessons/README.md, "Challenges"): a checked exercise in the
/// sandbox. `break`: from `start` (no fault), place at most `max_faults` faults until the
/// run breaks `goal`. `fix`: from `start` (which breaks some invariant within `faults`
/// faults), change at most `max_changes` of `knobs` until the explorer finds no violation
/// in any schedule of up to `faults` faults. engine/lesson/challenge.hpp checks both.
struct Challenge {
  std::string kind;  ///< "break" | "fix"
  L10n prompt;
  std::optional<Invariant> goal;  ///< break only: the invariant the learner is to break
  int max_faults = 1;    ///< break: faults the learner may place, 1..limits::kMaxChallengeFaults
  int max_changes = 1;   ///< fix: knobs the learner may change, 1..limits::kMaxChallengeChanges
  int faults = 2;        ///< fix: K, the explorer's faults per schedule, 1..ExploreLimits::kMaxFaults
  /// fix: the knobs that may change ("group.name", in knob table order; every knob of the
  /// table when the lesson names none).
  std::vector<std::string> knobs;
  std::optional<L10n> hint;
  /// The starting scenario: the lesson's, with the challenge's `policy` written over it;
  /// for `break` without faults (the learner places them), for `fix` with the lesson's.
  Scenario start;
};

/// A lesson that replays a public bug report (lessons/README.md, "Incidents"; the research is
/// docs/incidents.md): where the report is, what its team expected and saw, what they
/// changed, and the outcome the report saw. The lesson's `compare` block holds the reported
/// behaviour first and the fix second; engine/lesson/incident.hpp checks that the first
/// policy, in the lesson's own run, ends with the reported outcome.
struct Incident {
  std::string source;  ///< how the report is cited: "sidekiq/sidekiq #3303"
  std::string url;     ///< the report's address; always https://
  std::string title;   ///< the report's own title, quoted as written (not translated)
  L10n expected;       ///< what should have happened ("the job runs once")
  L10n seen;           ///< what the team saw ("the job ran twice at once")
  L10n fix;            ///< what the team changed, and whether it makes the design safe
  /// The reported outcome, at least one of: the compared intent's effects at the end of
  /// the reported run, an invariant that run breaks for it, and the client's final status.
  std::optional<int> effects;
  std::optional<Invariant> violation;
  /// The status the client's row for the compared intent ends with ("CONFLICT": a refusal
  /// the report saw, where no invariant is broken).
  std::optional<std::string> status;
  /// The block as written: {"source", "url", "title", "expected", "seen", "fix",
  /// "reported": {"effects"?, "violation"?, "status"?}} (texts as {"zh-CN", "en"}).
  nlohmann::json to_json() const;
};

/// A secrecy warning the author has read and kept (lessons/README.md, "Secrecy"): the text
/// at `path` contains words `check` takes for question `question`'s answer, and `why` says
/// why they do not give it away (for the next author; never shown to a learner).
struct ReviewedWarning {
  std::string path;
  std::string question;
  std::string why;
};

/// One of the sandbox's first experiments (lessons/README.md, "Sandbox start"): a one-line
/// goal, the ending the engine judges it by (`reach`: an invariant's name, the run breaks it;
/// "safe": the run settles and breaks nothing; "survive": the same with at least one fault
/// fired), and an example that reaches it: knob overrides and optionally a fault plan,
/// written over the lesson's scenario (never shown; `check` runs it).
struct Experiment {
  L10n goal;
  std::string reach;
  nlohmann::json example = nlohmann::json::object();  ///< as written
  Scenario scenario;  ///< the lesson's scenario with the example written over it
};

/// A lesson's `sandbox` block: the knobs that decide the lesson ("group.name", in knob
/// table order) and its first experiments (engine/lesson/start.hpp checks and shows them).
struct SandboxStart {
  std::vector<std::string> focus;
  std::vector<Experiment> experiments;
};

struct Lesson {
  std::string file;
  std::string id;
  std::string level;  ///< intro | advanced
  L10n title, summary;
  Scenario scenario;
  std::vector<FactRef> facts;
  std::vector<Moment> moments;
  std::vector<Question> questions;
  std::vector<L10n> self_check;
  std::optional<Comparison> compare;  ///< the side-by-side view, if the lesson has one
  std::optional<Challenge> challenge;  ///< the closing exercise, if the lesson has one
  std::optional<Incident> incident;    ///< the public report it replays, if it is an incident
  std::optional<SandboxStart> sandbox; ///< the sandbox's first screen, if the lesson names one
  std::vector<ReviewedWarning> reviewed;  ///< secrecy warnings the author has reviewed

  const FactRef* fact(const std::string& id) const;
  const Moment* moment(const std::string& id) const;
  const Question* question(const std::string& id) const;
};

/// Parses and validates the structure of a lesson file's text. Throws LessonError naming
/// `file`, the JSON Pointer and the reason for each problem: invalid JSON, a missing
/// field or language, an unknown fact, moment, action, side or injection point, an id
/// used twice. (Problems that need the simulation are found by prepare_lesson.)
Lesson load_lesson(const std::string& file, const std::string& text);

/// load_lesson's work, which throws nothing: reads `text` into `lesson` (its file named by
/// `r`) and records each problem in `r`; false when there is any. load_lesson
/// (engine/lesson/errors.cpp) throws them; this code is compiled without unwinding in the
/// WASM build (CMakeLists.txt), so it must not throw on input.
bool read_lesson(Reader& r, const std::string& text, Lesson& lesson);

}  // namespace idemlab
