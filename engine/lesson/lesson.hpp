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

#include "engine/knowledge/facts.hpp"
#include "engine/sim/scenario.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// A problem in a lesson file: the file, a JSON Pointer into it, and why.
struct LessonProblem {
  std::string file;
  std::string path;
  std::string reason;
  nlohmann::json to_json() const { return {{"file", file}, {"path", path}, {"reason", reason}}; }
};

/// Thrown by load_lesson / prepare_lesson with every problem found (at least one).
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
};

struct Question {
  std::string id;
  std::string kind;    ///< knowledge | predict | table | concept
  std::string moment;  ///< where the card stands ("" = at the end)
  L10n prompt;
  // knowledge
  Side side = Side::Client;
  std::string fact;
  // predict
  std::optional<Action> fork;  ///< what the client does right after the moment
  std::string ask;             ///< effects | deliveries | final_status | emails
  std::vector<Option> options; ///< predict, concept
  // concept
  std::string answer;
  L10n explanation;
  // table
  std::vector<std::string> moments;
  std::vector<Side> sides;
  std::vector<std::string> facts;
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

  const FactRef* fact(const std::string& id) const;
  const Moment* moment(const std::string& id) const;
  const Question* question(const std::string& id) const;
};

/// Parses and validates the structure of a lesson file's text. Throws LessonError naming
/// `file`, the JSON Pointer and the reason for each problem: invalid JSON, a missing
/// field or language, an unknown fact, moment, action, side or injection point, an id
/// used twice. (Problems that need the simulation are found by prepare_lesson.)
Lesson load_lesson(const std::string& file, const std::string& text);

}  // namespace idemlab
