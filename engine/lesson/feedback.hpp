#pragma once
// Feedback that teaches (docs/design.md, "Lessons, challenges and answer checking"): hint,
// then try, then reveal. A wrong first try is told that it is wrong and given a hint (the
// author's, or one the engine computes that points at evidence without giving the answer);
// the answer and its explanation come when the learner is right, after a second try, or when
// the learner asks for them. The engine decides what is shown; the shape is `answer`'s in
// engine/api/API.md.
#include <optional>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/lesson/answers.hpp"

namespace idemlab {

/// One try at a question: the learner's answer (absent when the learner only asks for the
/// answer), which try it is (1-based) and whether the learner asks for the answer.
struct Try {
  std::optional<nlohmann::json> answer;
  int number = 1;
  bool reveal = false;
  /// The lesson's questions the learner has settled (answered right, or their answer shown),
  /// as the page knows them; absent: every other question at this one's step or later is
  /// taken to be open (the most that can be).
  std::optional<std::set<std::string>> settled;
};

/// Feedback never names what a question still open asks (engine/lesson/secrecy.hpp): in
/// `feedback` (feedback_for's output for a try at `q`), every text that gives away the
/// answer of a question open beside it (`gives_away`), and every choose option whose run is
/// the very run an open predict question at the same step asks about, is withheld: its
/// text says which question to answer first, and the option's runs are left out. While a
/// knowledge or table question asks what the client knows at a choose question's step, all
/// of that choice's runs (the runs the client cannot tell apart there), its explanation and
/// its computed hint are withheld.
void withhold_open_answers(const PreparedLesson& lesson, const Question& q, const Try& t, nlohmann::json& feedback);

/// Whether a try is shown the answer: right, a second try or later, or asked for.
inline bool revealed(bool correct, const Try& t) { return correct || t.number >= 2 || t.reveal; }

/// The `answer` method's output for try `t` at question `question_id`:
/// {"correct", "revealed", "try"} and, revealed, "expected", "explanation" (tables: "cells"
/// per cell {"correct"?, "expected", "explanation"}; choose: "options", every option's
/// judgement); not revealed, "hint": L10n (tables: "rows", one per row as the page draws the
/// table, {"moment", "fact", "wrong"}: how many of the row's cells, one per side, are wrong,
/// not which; and "wrong"; no "cells"; choose: "options" holding only the chosen option's
/// judgement). Tables with an answer also have "wrong" when revealed. Throws std::invalid_argument as check_answer does, or
/// when there is no answer and no reveal.
nlohmann::json answer_feedback(const PreparedLesson& lesson, const std::string& question_id, const Try& t);

/// answer_feedback's work, for a question of the lesson and a try whose answer
/// answer_problem (engine/lesson/answers.hpp) has nothing against, or that asks to reveal.
/// It throws nothing: it is compiled without unwinding in the WASM build (CMakeLists.txt),
/// and answer_feedback throws from engine/lesson/errors.cpp.
/// What answer_feedback would refuse try `t` at `question_id` for ("": nothing): an
/// unknown question, no answer and no reveal, or an answer answer_problem refuses.
std::string feedback_problem(const PreparedLesson& lesson, const std::string& question_id, const Try& t);

nlohmann::json feedback_for(const PreparedLesson& lesson, const Question& q, const Try& t);

/// The hint a wrong try at `q` is given: the question's own `hint`, or computed (below).
/// `verdict`: the try's (tables name how many cells are wrong).
L10n hint_for(const PreparedLesson& lesson, const Question& q, const Verdict& verdict);

/// The hint the engine computes when the author wrote none, per kind: knowledge, the
/// side's own events up to the step; table, how many cells are wrong in all and in each
/// row that has any (never which cell); predict, what to follow in the run (and the action it supposes); choose, the
/// runs the client cannot tell apart there; concept, a general nudge. None names the answer.
L10n computed_hint(const PreparedLesson& lesson, const Question& q, const Verdict& verdict);

}  // namespace idemlab
