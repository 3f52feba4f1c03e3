#include "engine/api/api.hpp"

#include <deque>
#include <memory>
#include <utility>

#include <nlohmann/json.hpp>

#include "engine/experiments/seed_experiment.hpp"
#include "engine/json/fields.hpp"
#include "engine/lesson/answers.hpp"
#include "engine/lesson/compare.hpp"
#include "engine/lesson/prepared.hpp"
#include "engine/sim/simulation.hpp"
#include "engine/timeline/timeline_json.hpp"

namespace idemlab::api {
namespace {

using nlohmann::json;

json error(const std::string& file, const std::string& path, const std::string& reason) {
  json e = json::object(), out = json::object();
  put(e, "file", file);
  put(e, "path", path);
  put(e, "reason", reason);
  put(out, "error", std::move(e));
  return out;
}

json problems_json(const LessonError& e) {
  json errors = json::array();
  for (const LessonProblem& p : e.problems()) errors.push_back(p.to_json());
  json out = json::object();
  put(out, "ok", false);
  put(out, "errors", std::move(errors));
  return out;
}

std::shared_ptr<const PreparedLesson> prepared(const std::string& file, const std::string& text) {
  static std::deque<std::pair<std::string, std::shared_ptr<const PreparedLesson>>> cache;
  std::string key = file + '\n' + text;
  for (const auto& [k, p] : cache) {
    if (k == key) return p;
  }
  auto p = prepare_lesson(load_lesson(file, text));
  cache.emplace_front(key, p);
  if (cache.size() > 8) cache.pop_back();
  return p;
}

json vocabulary() {
  json facts = json::array();
  for (const FactInfo& f : fact_vocabulary()) {
    json fact = json::object();
    put(fact, "name", f.name);
    put(fact, "kind", f.boolean ? "bool" : "count");
    put(fact, "uses_attempt", f.uses_attempt);
    facts.push_back(std::move(fact));
  }
  json actions = json::array(), points = json::array();
  for (const char* a : {"deliver", "crash_client", "restart_client", "reconcile", "resend_new_key",
                        "resend_changed_payload", "resend_same_key", "mark_failed", "cancel"}) {
    actions.push_back(a);
  }
  for (const char* p : {"drop:request:<intent>:<attempt>", "drop:response:<intent>:<attempt>",
                        "drop:lookup:<intent>:<n>", "drop:lookup_reply:<intent>:<n>",
                        "crash:client:after_persist:<intent>:1", "crash:client:after_send:<intent>:<attempt>",
                        "crash:client:before_record:<intent>:<attempt>"}) {
    points.push_back(p);
  }
  json out = json::object();
  put(out, "facts", std::move(facts));
  put(out, "events", event_kinds());
  put(out, "actions", std::move(actions));
  put(out, "injection_points", std::move(points));
  return out;
}

// Runs the lost-response scenario `runs` times (a full timeline over both databases each
// time): the same work natively and in WASM, for scripts/bench.
json simulate(const std::string& input) {
  json in = json::parse(input, nullptr, false);
  long long runs = in.is_object() ? in.value("runs", 1LL) : 1LL;
  if (runs < 1 || runs > 1000000) return error("", "/runs", "runs is from 1 to 1000000");
  Scenario s = lost_response_reconcile_scenario();
  std::size_t steps = 0;
  for (long long i = 0; i < runs; ++i) steps += Simulation(s, s.faults).run().steps.size();
  json out = json::object();
  put(out, "runs", runs);
  put(out, "steps_per_run", steps / runs);
  return out;
}

json dispatch(const std::string& method, const std::string& input) {
  if (method == "seed_lab") return seed_lab();
  if (method == "simulate") return simulate(input);
  if (method == "seed_experiment") return seed_experiment();
  if (method == "vocabulary") return vocabulary();
  if (method != "check" && method != "run" && method != "answer" && method != "answers" && method != "compare") {
    return error("", "", "unknown method '" + method + "'; known: check, run, answer, answers, compare, seed_lab, seed_experiment, simulate, vocabulary");
  }
  json in = json::parse(input, nullptr, false);
  if (in.is_discarded() || !in.is_object()) return error("", "", "the input is not a JSON object");
  std::string file = in.value("file", "lesson");
  if (!in.contains("text") || !in["text"].is_string()) return error(file, "", "the input has no \"text\" (the lesson file's text)");
  std::string text = in["text"].get<std::string>();
  std::shared_ptr<const PreparedLesson> p;
  try {
    p = prepared(file, text);
  } catch (const LessonError& e) {
    return problems_json(e);
  }
  if (method == "check") {
    json out = json::object();
    put(out, "ok", true);
    put(out, "id", p->lesson.id);
    return out;
  }
  if (method == "run") return timeline_json(*p);
  if (method == "answers") {
    try {
      return all_answers(*p);
    } catch (const std::invalid_argument& e) {
      return error(file, "", e.what());
    }
  }
  if (method == "compare") {
    if (!p->lesson.compare) return error(file, "/compare", "the lesson has no \"compare\" block (side by side)");
    return compare_json(*p);
  }
  std::string question = in.value("question", "");
  if (!in.contains("answer")) return error(file, "", "the input has no \"answer\"");
  try {
    Verdict v = check_answer(*p, question, in["answer"]);
    json out = json::object();
    put(out, "correct", v.correct);
    put(out, "expected", v.expected.answer);
    put(out, "explanation", v.expected.explanation.to_json());
    if (!v.cells.is_null()) put(out, "cells", v.cells);
    if (!v.options.is_null()) put(out, "options", v.options);
    return out;
  } catch (const std::invalid_argument& e) {
    return error(file, "", e.what());
  }
}

}  // namespace

std::string call(const std::string& method, const std::string& input) {
  try {
    return dispatch(method, input).dump();
  } catch (const std::exception& e) {
    return error("", "", std::string("internal error: ") + e.what()).dump();
  }
}

}  // namespace idemlab::api
