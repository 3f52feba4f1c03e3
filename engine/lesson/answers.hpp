#pragma once
// Answer checking: every expected answer that depends on the simulation is computed here
// from the scenario (lessons/README.md); only concept questions
// carry a fixed answer.
//
// Answer shapes (engine/api/API.md): knowledge -> "knows_true" | "knows_false" |
// "cannot_know"; predict, choose and concept -> an option id; table -> an object keyed
// "<moment>/<side>/<fact>" with a knowledge answer per cell.
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

struct Expected {
  nlohmann::json answer;      ///< as the learner would give it
  L10n explanation;           ///< why, from the engine's own computation
  nlohmann::json cells;       ///< tables: per cell {"expected": ...}
  nlohmann::json options;     ///< choose: per option its judgement (OptionJudgement::to_json)
  /// Why the answer cannot be computed ("" when it is): a fork that never settles, or a
  /// choose question without exactly one safe option (the message names the safe ones).
  /// prepare_lesson refuses such a lesson, so a prepared lesson's answers have none.
  std::string problem;
};

/// The engine's answer to `q`, or its `problem`. Throws nothing on input.
Expected expected_answer(const PreparedLesson& lesson, const Question& q);

/// expected_answer for a question of a prepared lesson; a problem there is an engine bug
/// (std::logic_error).
Expected computed_answer(const PreparedLesson& lesson, const Question& q);

struct Verdict {
  bool correct = false;
  Expected expected;
  nlohmann::json cells;  ///< tables: per cell {"correct": bool, "expected": ...}
  nlohmann::json options;  ///< choose: every option's judgement, shown after answering
};

/// Checks a learner's answer. Throws std::invalid_argument for an unknown question id or
/// an answer of the wrong shape (the message says which).
Verdict check_answer(const PreparedLesson& lesson, const std::string& question_id,
                     const nlohmann::json& answer);

/// What check_answer would refuse `answer` for ("": nothing): an unknown question id, or an
/// answer of the wrong shape. Throws nothing.
std::string answer_problem(const PreparedLesson& lesson, const std::string& question_id,
                           const nlohmann::json& answer);

/// check_answer for an answer answer_problem has nothing against.
Verdict checked_answer(const PreparedLesson& lesson, const Question& q, const nlohmann::json& answer);

/// Every question's computed answer, in the lesson's order (the entries of the golden file
/// tests/golden/answers.json): {"id": lesson id, "questions": [{"id", "kind", "step",
/// "expected", "explanation": L10n, "cells"? (tables), "options"? (choose)}]}, for a prepared
/// lesson (computed_answer).
nlohmann::json all_answers(const PreparedLesson& lesson);

/// "客户端" / "client"
L10n side_name(Side side);

}  // namespace idemlab
