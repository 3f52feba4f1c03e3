// Where the lesson part throws for an input it refuses (LessonError, std::invalid_argument),
// for the tests and the command line: the reading, the preparation, the challenge search,
// the answer check and its feedback (read_lesson, prepare_checked, find_challenge_solution,
// answer_problem, feedback_problem, ...) throw nothing and return their problems, which the
// API (engine/api/api.cpp) takes as they are, and these thin functions throw them. In the
// WASM build every engine file but this one and engine/api/call.cpp is compiled without
// unwinding (CMakeLists.txt, IDEMLAB_UNWIND_FILES): an exception thrown across them would
// not destroy their locals, so every lesson, attempt or answer a learner gets refused would
// keep its memory. Here every local is destroyed.
#include <stdexcept>

#include "engine/lesson/answers.hpp"
#include "engine/lesson/challenge.hpp"
#include "engine/lesson/feedback.hpp"
#include "engine/lesson/lesson.hpp"
#include "engine/lesson/prepared.hpp"

namespace idemlab {

Lesson load_lesson(const std::string& file, const std::string& text) {
  Reader r(file);
  Lesson lesson;
  if (!read_lesson(r, text, lesson)) throw LessonError(r.problems());
  return lesson;
}

ChallengeSolution solve_challenge(const Lesson& lesson) {
  ChallengeSolution out;
  LessonProblem why;
  if (!find_challenge_solution(lesson, out, why)) throw LessonError({std::move(why)});
  return out;
}

Verdict check_answer(const PreparedLesson& p, const std::string& question_id, const nlohmann::json& answer) {
  std::string problem = answer_problem(p, question_id, answer);
  if (!problem.empty()) throw std::invalid_argument(problem);
  return checked_answer(p, *p.lesson.question(question_id), answer);
}

nlohmann::json answer_feedback(const PreparedLesson& p, const std::string& question_id, const Try& t) {
  std::string why = feedback_problem(p, question_id, t);
  if (!why.empty()) throw std::invalid_argument(why);
  return feedback_for(p, *p.lesson.question(question_id), t);
}

std::shared_ptr<const PreparedLesson> prepare_lesson(Lesson lesson) {
  std::vector<LessonProblem> problems;
  std::shared_ptr<const PreparedLesson> p = prepare_checked(std::move(lesson), problems);
  if (!p) throw LessonError(std::move(problems));
  return p;
}

nlohmann::json judge_attempt(const Lesson& lesson, const nlohmann::json& attempt) {
  Reader r(lesson.file);
  Scenario a;
  if (!read_attempt(r, attempt, a)) throw LessonError(r.problems());
  return judge_read_attempt(lesson, a);
}

}  // namespace idemlab
