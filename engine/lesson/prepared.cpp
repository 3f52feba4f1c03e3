#include "engine/lesson/prepared.hpp"

#include "engine/lesson/answers.hpp"
#include "engine/lesson/choose.hpp"

namespace idemlab {

int PreparedLesson::question_step(const Question& q) const {
  auto it = moment_step.find(q.moment);
  if (it != moment_step.end()) return it->second;
  return static_cast<int>(run().steps.size()) - 1;
}

int find_moment_step(const Run& run, const nlohmann::json& match) {
  int nth = match.value("nth", 1);
  for (const Step& s : run.steps) {
    const Event& e = s.event;
    const Message* m = e.message >= 0 ? &run.messages[e.message] : nullptr;
    if (match.contains("event") && match["event"] != e.kind) continue;
    if (match.contains("side") && match["side"] != to_string(e.side)) continue;
    if (match.contains("intent") && match["intent"] != e.intent) continue;
    if (match.contains("message") && (!m || match["message"] != to_string(m->kind))) continue;
    if (match.contains("attempt") && (!m || match["attempt"] != m->n)) continue;
    if (match.contains("status") && (!e.local.contains("status") || match["status"] != e.local["status"])) continue;
    if (--nth == 0) return s.i;
  }
  return -1;
}

std::shared_ptr<const PreparedLesson> prepare_lesson(Lesson lesson) {
  auto out = std::make_shared<PreparedLesson>();
  out->worlds = build_worlds(lesson.scenario);
  out->knowledge = std::make_unique<Knowledge>(out->worlds);
  std::vector<LessonProblem> problems;
  for (std::size_t i = 0; i < lesson.moments.size(); ++i) {
    int step = find_moment_step(out->run(), lesson.moments[i].match);
    if (step < 0) {
      problems.push_back({lesson.file, "/moments/" + std::to_string(i) + "/at",
                          "no step of the lesson's run matches " + lesson.moments[i].match.dump()});
    } else {
      out->moment_step[lesson.moments[i].id] = step;
    }
  }
  out->lesson = std::move(lesson);
  if (!problems.empty()) throw LessonError(problems);
  const Lesson& l = out->lesson;
  for (std::size_t i = 0; i < l.questions.size(); ++i) {
    const Question& q = l.questions[i];
    std::string path = "/questions/" + std::to_string(i);
    try {
      if (q.kind == "choose") {
        std::string problem = safe_count_problem(judge_options(*out, q));
        if (!problem.empty()) problems.push_back({l.file, path + "/options", problem});
        continue;
      }
      Expected e = expected_answer(*out, q);
      if (q.kind == "predict") {
        bool listed = false;
        for (const Option& o : q.options) listed = listed || o.id == e.answer.get<std::string>();
        if (!listed) {
          problems.push_back({l.file, path + "/options",
                              "the engine computes '" + e.answer.get<std::string>() +
                                  "', which is not among the options"});
        }
      }
    } catch (const std::exception& e) {
      problems.push_back({l.file, path, std::string("the engine cannot compute an answer: ") + e.what()});
    }
  }
  if (!problems.empty()) throw LessonError(problems);
  return out;
}

}  // namespace idemlab
