#include "engine/lesson/index.hpp"

#include <map>

#include "engine/lesson/prepared.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

json failed(const std::string& file, json errors) {
  json out = json::object();
  out["ok"] = false;
  out["file"] = file;
  out["errors"] = std::move(errors);
  return out;
}

json entry(const PreparedLesson& p, const std::string& file) {
  const Lesson& l = p.lesson;
  json ids = json::array();
  for (const Question& q : l.questions) ids.push_back(q.id);
  json out = json::object();
  out["ok"] = true;
  out["file"] = file;
  out["id"] = l.id;
  out["level"] = l.level;
  out["title"] = l.title.to_json();
  out["summary"] = l.summary.to_json();
  out["question_count"] = l.questions.size();
  out["question_ids"] = std::move(ids);
  out["compare"] = l.compare.has_value();
  return out;
}

}  // namespace

json lesson_index(const std::vector<IndexSource>& sources) {
  json lessons = json::array();
  std::map<std::string, std::string> seen;  // lesson id -> the first file that has it
  for (const IndexSource& s : sources) {
    if (!s.text) {
      lessons.push_back(failed(s.file, json::array({LessonProblem{s.file, "", "cannot read the file"}.to_json()})));
      continue;
    }
    std::shared_ptr<const PreparedLesson> p;
    try {
      p = prepare_lesson(load_lesson(s.file, *s.text));
    } catch (const LessonError& e) {
      json errors = json::array();
      for (const LessonProblem& problem : e.problems()) errors.push_back(problem.to_json());
      lessons.push_back(failed(s.file, std::move(errors)));
      continue;
    }
    const std::string& id = p->lesson.id;
    auto [it, fresh] = seen.emplace(id, s.file);
    if (!fresh) {
      json e = LessonProblem{s.file, "/id", "lesson id '" + id + "' is used twice (also in " + it->second + ")"}.to_json();
      e["kind"] = "duplicate";
      e["id"] = id;
      e["other"] = it->second;
      lessons.push_back(failed(s.file, json::array({e})));
      continue;
    }
    lessons.push_back(entry(*p, s.file));
  }
  json out = json::object();
  out["lessons"] = std::move(lessons);
  return out;
}

}  // namespace idemlab
