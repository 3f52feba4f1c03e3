#include "engine/cli/lesson_index.hpp"

#include <map>

#include "engine/api/api.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/reader.hpp"

namespace idemlab::cli {
namespace {

using nlohmann::json;

json failed(const std::string& file, json errors) {
  json out = json::object();
  out["ok"] = false;
  out["file"] = file;
  out["errors"] = std::move(errors);
  return out;
}

json problem(const std::string& file, const std::string& path, const std::string& reason) {
  return {{"file", file}, {"path", path}, {"reason", reason}};
}

// The problems of a failed API answer ({"error": ...} or {"ok": false, "errors": [...]}),
// or null when it did not fail.
json problems_of(const json& out) {
  if (out.contains("error")) return json::array({out["error"]});
  if (out.contains("ok") && out["ok"] == false) return out["errors"];
  return nullptr;
}

// A file is a lesson, or a bare scenario (docs/design.md, "The scenario and its knob
// table"): a JSON object with none of a lesson's own fields.
bool is_bare_scenario(const json& parsed) {
  if (!parsed.is_object()) return false;
  for (const char* key : {"id", "level", "title", "summary", "scenario", "moments", "questions", "facts", "compare", "challenge", "incident"}) {
    if (parsed.contains(key)) return false;
  }
  return true;
}

}  // namespace

bool is_scenario_wrapper(const json& parsed) {
  return parsed.is_object() && parsed.size() == 1 && parsed.contains("scenario") && parsed["scenario"].is_object();
}

json file_input(const std::string& file, const std::string& text, json& refusal, bool* bare) {
  Reader r(file);
  std::optional<json> parsed = r.parse(text, limits::kMaxLessonBytes);
  if (!parsed) {
    refusal = json::object();
    refusal["ok"] = false;
    refusal["errors"] = json::array({r.problems().front().to_json()});
    return nullptr;
  }
  if (bare) *bare = is_bare_scenario(*parsed);
  if (is_bare_scenario(*parsed)) return {{"file", file}, {"scenario", std::move(*parsed)}};
  if (is_scenario_wrapper(*parsed)) return {{"file", file}, {"scenario", std::move((*parsed)["scenario"])}};
  return {{"file", file}, {"text", text}};
}

json lesson_index(const std::vector<IndexSource>& sources) {
  json lessons = json::array();
  std::map<std::string, std::string> seen;  // lesson id -> the first file that has it
  for (const IndexSource& s : sources) {
    if (!s.text) {
      lessons.push_back(failed(s.file, json::array({problem(s.file, "", "cannot read the file")})));
      continue;
    }
    json refusal;
    if (file_input(s.file, *s.text, refusal).is_null()) {
      lessons.push_back(failed(s.file, problems_of(refusal)));
      continue;
    }
    const std::string input = json{{"file", s.file}, {"text", *s.text}}.dump();
    json run = json::parse(api::call("run", input));
    json problems = problems_of(run);
    if (!problems.is_null()) {
      lessons.push_back(failed(s.file, std::move(problems)));
      continue;
    }
    const json& lesson = run["lesson"];
    const std::string id = lesson["id"].get<std::string>();
    auto [it, fresh] = seen.emplace(id, s.file);
    if (!fresh) {
      json e = problem(s.file, "/id", "lesson id '" + id + "' is used twice (also in " + it->second + ")");
      e["kind"] = "duplicate";
      e["id"] = id;
      e["other"] = it->second;
      lessons.push_back(failed(s.file, json::array({e})));
      continue;
    }
    json ids = json::array();
    for (const json& q : lesson["questions"]) ids.push_back(q["id"]);
    json entry = json::object();
    entry["ok"] = true;
    entry["file"] = s.file;
    entry["id"] = id;
    entry["level"] = lesson["level"];
    entry["title"] = lesson["title"];
    entry["summary"] = lesson["summary"];
    entry["question_count"] = ids.size();
    entry["question_ids"] = std::move(ids);
    entry["compare"] = problems_of(json::parse(api::call("compare", input))).is_null();
    // "break" | "fix" | null: the lesson ends with a challenge (the list shows whether
    // the learner has solved it).
    entry["challenge"] = lesson.contains("challenge") ? lesson["challenge"]["kind"] : json(nullptr);
    // A replayed public report (lessons/README.md, "Incidents"): the list shows it in its
    // own section, citing the report.
    json incident = nullptr;
    if (lesson.contains("incident")) {
      const json& inc = lesson["incident"];
      incident = {{"source", inc["source"]}, {"url", inc["url"]}, {"title", inc["title"]}};
    }
    entry["incident"] = std::move(incident);
    lessons.push_back(std::move(entry));
  }
  json out = json::object();
  out["lessons"] = std::move(lessons);
  return out;
}

}  // namespace idemlab::cli
