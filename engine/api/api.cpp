#include "engine/api/api.hpp"
#include "engine/api/dispatch.hpp"

#include <algorithm>
#include <deque>
#include <memory>
#include <optional>
#include <set>
#include <utility>

#include <nlohmann/json.hpp>

#include "engine/base/bytes.hpp"
#include "engine/client/preset.hpp"
#include "engine/experiments/seed_experiment.hpp"
#include "engine/explore/explore.hpp"
#include "engine/explore/reach.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/json/fields.hpp"
#include "engine/json/parse.hpp"
#include "engine/json/write.hpp"
#include "engine/grade/grade.hpp"
#include "engine/lesson/answers.hpp"
#include "engine/lesson/challenge.hpp"
#include "engine/lesson/compare.hpp"
#include "engine/lesson/incident.hpp"
#include "engine/lesson/start.hpp"
#include "engine/lesson/feedback.hpp"
#include "engine/lesson/prepared.hpp"
#include "engine/lesson/warnings.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/store/database.hpp"
#include "engine/lesson/lesson_timeline.hpp"
#include "engine/timeline/timeline_json.hpp"

namespace idemlab::api {

using nlohmann::json;

json error(const std::string& file, const std::string& path, const std::string& reason) {
  json e = json::object(), out = json::object();
  put(e, "file", file);
  put(e, "path", path);
  put(e, "reason", reason);
  put(out, "error", std::move(e));
  return out;
}

namespace {

ProgressHook progress_hook = nullptr;

// The API's input itself is not JSON the engine reads (Reader::parse said why): an error
// with the line and column in the input's text.
json input_error(Reader& r) {
  const InputProblem& p = r.problems().front();
  json out = error("", p.path, "the input is not JSON the engine reads: " + p.reason);
  if (p.line > 0) {
    put(out["error"], "line", p.line);
    put(out["error"], "column", p.column);
  }
  return out;
}

json problems_json(const std::vector<LessonProblem>& problems) {
  json errors = json::array();
  for (const LessonProblem& p : problems) errors.push_back(p.to_json());
  json out = json::object();
  put(out, "ok", false);
  put(out, "errors", std::move(errors));
  return out;
}

// The prepared lessons of the last calls, the last used first, keyed by file name and text,
// with an estimate of the bytes each holds: within limits::kMaxPreparedCacheBytes in all.
struct CachedLesson {
  std::string key;
  std::shared_ptr<const PreparedLesson> lesson;
  std::size_t bytes = 0;
};
struct PreparedCache {
  std::deque<CachedLesson> lessons;
  std::size_t bytes = 0;
  // The lesson this call answers from when it is too large to keep (it alone is over the
  // limit): freed when the call ends (release_prepared).
  std::shared_ptr<const PreparedLesson> uncached;
};
PreparedCache& cache() {
  static PreparedCache c;
  return c;
}

// The bytes a prepared lesson and its key hold: its runs and knowledge as counted
// (PreparedLesson::heap_bytes), the key, and the parsed lesson at twice its text (natively
// the shipped lessons' take 0.7 to 1.6 times theirs, a bare scenario's up to 2).
std::size_t cached_bytes(const std::string& key, const std::string& text, const PreparedLesson& p) {
  return bytes::block(key.size() + 1) + 2 * text.size() + bytes::block(sizeof(PreparedLesson)) + p.heap_bytes();
}

// The lesson prepared, or nullptr with its problems. The cache owns it, not the caller: a
// throw across dispatch (which does not unwind in the WASM build: engine/api/call.cpp)
// then leaves no reference behind that would keep it after release_prepared.
const PreparedLesson* prepared(const std::string& file, const std::string& text, std::vector<LessonProblem>& problems) {
  PreparedCache& c = cache();
  std::string key = file + '\n' + text;
  for (auto it = c.lessons.begin(); it != c.lessons.end(); ++it) {
    if (it->key != key) continue;
    std::rotate(c.lessons.begin(), it, it + 1);  // the last used first
    return c.lessons.front().lesson.get();
  }
  Reader r(file);
  Lesson lesson;
  if (!read_lesson(r, text, lesson)) {
    problems = r.problems();
    return nullptr;
  }
  std::shared_ptr<const PreparedLesson> p = prepare_checked(std::move(lesson), problems);
  if (!p) return nullptr;
  std::size_t bytes = cached_bytes(key, text, *p);
  if (bytes > limits::kMaxPreparedCacheBytes) {
    c.uncached = std::move(p);
    return c.uncached.get();
  }
  c.lessons.push_front({std::move(key), std::move(p), bytes});
  c.bytes += bytes;
  while (c.bytes > limits::kMaxPreparedCacheBytes) {
    c.bytes -= c.lessons.back().bytes;
    c.lessons.pop_back();
  }
  return c.lessons.front().lesson.get();
}

// Everything a front end may offer, from the one table of each (engine/scenario/knobs.hpp,
// engine/invariants/, engine/knowledge/facts.hpp): no front end lists knobs of its own.
json vocabulary() {
  json facts = json::array();
  for (const FactInfo& f : fact_vocabulary()) {
    json fact = json::object();
    put(fact, "name", f.name);
    put(fact, "kind", f.boolean ? "bool" : "count");
    put(fact, "uses_attempt", f.uses_attempt);
    facts.push_back(std::move(fact));
  }
  json knobs = json::array(), points = json::array(), actions = json::array(), invariants = json::array();
  for (const Knob& k : knob_table()) knobs.push_back(k.to_json());
  for (const InjectionPointKind& k : injection_point_table()) points.push_back(k.to_json());
  for (const ActionInfo& a : action_table()) actions.push_back(a.to_json());
  for (const InvariantInfo& i : invariant_table()) {
    json o = json::object();
    put(o, "name", i.name);
    put(o, "scope", i.scope == InvariantScope::Always ? "always" : "at_end");
    put(o, "title", i.title.to_json());
    put(o, "meaning", i.meaning.to_json());
    invariants.push_back(std::move(o));
  }
  json out = json::object();
  put(out, "knobs", std::move(knobs));
  put(out, "injection_points", std::move(points));
  put(out, "actions", std::move(actions));
  put(out, "invariants", std::move(invariants));
  put(out, "facts", std::move(facts));
  // One per row of the events table (engine/sim/events.hpp), in its order.
  json events = json::array();
  for (const EventRow& r : event_table()) {
    json o = json::object();
    put(o, "name", r.name);
    put(o, "side", to_string(r.side));
    put(o, "observable", r.observable);
    put(o, "hint", r.hint_name.to_json());
    put(o, "mark", mark_json(r.glyph, false));
    events.push_back(std::move(o));
  }
  put(out, "events", std::move(events));
  // The latest virtual time a scenario's fields outside the knob table may name (a script
  // action's `at`, a crash's `restart_after_ms`; engine/scenario/limits.hpp): a front
  // end's fields offer no more.
  json bounds = json::object();
  put(bounds, "max_virtual_ms", limits::kMaxVirtualMs);
  // The longest intent's or retry layer's name and payload, in bytes (UTF-8).
  put(bounds, "max_name_bytes", limits::kMaxNameBytes);
  put(bounds, "max_payload_bytes", limits::kMaxPayloadBytes);
  put(out, "limits", std::move(bounds));
  return out;
}

// A bare scenario as a lesson with nothing but the scenario (the sandbox's input): its
// problems are named at /scenario/..., as in the input object.
std::string sandbox_lesson(const json& scenario) {
  json lesson = json::object();
  lesson["id"] = "sandbox";
  lesson["level"] = "intro";
  lesson["title"] = {{"zh-CN", "沙盒"}, {"en", "Sandbox"}};
  lesson["summary"] = {{"zh-CN", "你自己的场景"}, {"en", "A scenario of your own"}};
  lesson["scenario"] = scenario;
  lesson["moments"] = json::array();
  lesson["questions"] = json::array();
  return lesson.dump();
}

// The scenario an `explore` or `scenario` call is about: the lesson's (or a bare one),
// optionally run as one of the lesson's compare policies ("policy": "<id>") or with knobs
// overridden ("policy": {"client": {...}, "service": {...}, ...}).
// False with the problems when the policy is unknown or does not read.
bool scenario_of(const Lesson& lesson, const json& in, const std::string& file, const std::string& text, Scenario& out,
                 std::vector<LessonProblem>& problems) {
  auto policy = in.find("policy");
  if (policy == in.end() || policy->is_null()) {
    out = lesson.scenario;
    return true;
  }
  if (policy->is_string()) {
    std::vector<std::string> ids;
    if (lesson.compare) {
      for (const ComparePolicy& c : lesson.compare->policies) {
        if (c.id == policy->get<std::string>()) {
          out = c.scenario;
          return true;
        }
        ids.push_back(c.id);
      }
    }
    problems = {{file, "/policy", ids.empty() ? "unknown policy '" + policy->get<std::string>() + "': this has no side-by-side (compare) block, so it names no policy"
                                              : "unknown policy '" + policy->get<std::string>() + "'; the lesson's policies: " + join_names(ids)}};
    return false;
  }
  Reader r(file);
  std::optional<json> file_json = r.parse(text, limits::kMaxLessonBytes);  // read before, by load_lesson
  std::vector<std::string> overridden;
  json merged = override_knobs(file_json && file_json->is_object() ? file_json->value("scenario", json::object()) : json::object(),
                               *policy, "/policy", overridden);
  std::set<std::string> intents;
  read_scenario(r, merged, "/policy", out, intents);
  problems = r.problems();
  return problems.empty();
}

// A sandbox edits a scenario knob by knob: a planned fault may stop firing when a knob
// changes the run (no lookup, so no lookup to lose). A lesson with such a fault is refused
// (prepared.cpp); a bare scenario given to `run` instead has those faults taken out of
// `scenario` (they change nothing in the run), and they are returned, each
// {"id", "fault", "text"}, for the front end to say so. Nothing is done to a scenario that
// does not read: the usual problems follow.
json drop_unfired(json& scenario) {
  Reader r("scenario");
  Scenario sc;
  std::set<std::string> intents;
  read_scenario(r, scenario, "/scenario", sc, intents);
  if (!r.problems().empty() || sc.faults.faults.empty() || !scenario.contains("faults") || !scenario["faults"].is_array() ||
      scenario["faults"].size() != sc.faults.faults.size()) {
    return json();
  }
  Run run = simulate(sc, sc.faults);
  std::set<std::string> fired;
  for (const Fault& f : run.fired) fired.insert(f.id());
  json kept = json::array();
  json out = json::array();
  for (std::size_t i = 0; i < sc.faults.faults.size(); ++i) {
    const Fault& f = sc.faults.faults[i];
    if (fired.count(f.id())) {
      kept.push_back(scenario["faults"][i]);
      continue;
    }
    json o = json::object();
    put(o, "id", f.id());
    put(o, "fault", write_fault(f));
    put(o, "text", f.describe(sc.provider.effect == MailProviderContract::Effect::Credit).to_json());
    out.push_back(std::move(o));
  }
  if (out.empty()) return json();
  scenario["faults"] = std::move(kept);
  return out;
}

// How the knob table judges each knob of `s` ({"client.key_scope": "right" | "wrong" |
// "neutral", ...}): what a sandbox labels its controls with.
json settings_json(const Scenario& s) {
  json out = json::object();
  for (const Knob& k : knob_table()) out[k.path()] = to_string(k.setting_of(k.get(s), &s));
  return out;
}

// Runs the lost-response scenario `runs` times (a full timeline over both databases each
// time): the same work natively and in WASM, for scripts/bench.
json simulate(const std::string& input) {
  Reader r("");
  std::optional<json> in = r.parse(input, limits::kMaxInputBytes);
  if (!in) return input_error(r);
  const json* n = in->is_object() ? r.field(*in, "", "runs", false) : nullptr;
  long long runs = !n ? 1 : n->is_number_integer() ? n->get<long long>() : 0;
  if (runs < 1 || runs > 1000000) return error("", "/runs", "runs is from 1 to 1000000");
  const json* sql = in->is_object() ? r.field(*in, "", "sql_only", false) : nullptr;
  if (sql && !sql->is_boolean()) return error("", "/sql_only", "sql_only is true or false");
  Scenario s = lost_response_reconcile_scenario();
  std::size_t steps = 0;
  json out = json::object();
  if (sql && sql->get<bool>()) {
    // The statements one run executes (recorded from a run), executed `runs` times on
    // their own: what the run costs in SQL alone, for scripts/bench to put beside it.
    // (A throw on the way stops the recording in api::call: engine/api/call.cpp.)
    std::vector<SqlCall> log;
    Database::record_sql(&log);
    steps = simulate(s, s.faults).steps.size();
    Database::record_sql(nullptr);
    long long statements = 0;
    for (const SqlCall& c : log) statements += c.kind != SqlCall::Kind::Open;
    for (long long i = 0; i < runs; ++i) Database::replay_sql(log);
    put(out, "runs", runs);
    put(out, "steps_per_run", steps);
    put(out, "statements_per_run", statements);
    return out;
  }
  for (long long i = 0; i < runs; ++i) steps += simulate(s, s.faults).steps.size();
  put(out, "runs", runs);
  put(out, "steps_per_run", steps / runs);
  return out;
}

// `scenario` and `explore`: only the scenario is needed, so the lesson is read and
// checked, not prepared (its questions are not answered).
json scenario_or_explore(const std::string& method, const json& in, const std::string& file, const std::string& text) {
  Scenario sc;
  Reader lesson_reader(file);
  Lesson lesson;
  if (!read_lesson(lesson_reader, text, lesson)) return problems_json(lesson_reader.problems());
  std::vector<LessonProblem> problems;
  if (!scenario_of(lesson, in, file, text, sc, problems)) return problems_json(problems);
  if (method == "scenario") {
    json out = json::object();
    put(out, "scenario", write_scenario(sc));
    return out;
  }
  ExploreLimits limits;
  Reader r(file);
  limits.max_faults = static_cast<int>(r.integer(in, "", "faults", false, 2, 1, ExploreLimits::kMaxFaults));
  limits.max_schedules = static_cast<int>(r.integer(in, "", "limit", false, limits.max_schedules, 1, ExploreLimits::kMaxSchedules));
  limits.max_ms = r.integer(in, "", "max_ms", false, 0, 0, 3600000);
  if (!r.problems().empty()) return problems_json(r.problems());
  limits.on_progress = [](const ExploreProgress& p) {
    if (progress_hook) progress_hook(p.depth, p.max_faults, p.done, p.total, p.schedules);
  };
  return explore(sc, limits).to_json(sc);
}

// `challenge`: the learner's attempt at the lesson's challenge; the lesson is read, not
// prepared.
json challenge_method(const json& in, const std::string& file, const std::string& text) {
  Reader r(file);
  Lesson lesson;
  if (!read_lesson(r, text, lesson)) return problems_json(r.problems());
  if (!lesson.challenge) return error(file, "/challenge", "the lesson has no \"challenge\" block");
  if (!in.contains("attempt")) return error(file, "/attempt", "the input has no \"attempt\" (the learner's scenario)");
  Scenario attempt;
  if (!read_attempt(r, in["attempt"], attempt)) return problems_json(r.problems());
  return judge_read_attempt(lesson, attempt);
}

// `start`: the sandbox's first screen for a lesson, and with the learner's scenario
// (`attempt`) which presets it matches and which experiments it reaches; the lesson is read,
// not prepared.
json start_method(const json& in, const std::string& file, const std::string& text) {
  Reader r(file);
  Lesson lesson;
  if (!read_lesson(r, text, lesson)) return problems_json(r.problems());
  if (!in.contains("attempt")) return start_view(lesson, nullptr);
  Scenario attempt;
  if (!read_attempt(r, in["attempt"], attempt)) return problems_json(r.problems());
  return start_view(lesson, &attempt);
}

// `run`: the lesson's timeline, and for a bare scenario its settings, the faults that never
// fired and the settings wrong alone; a challenge or incident block as the page shows it.
json run_method(const PreparedLesson& lesson, const json& in, json unfired) {
  json out = timeline_json(lesson);
  if (!unfired.is_null()) put(out, "unfired", std::move(unfired));
  if (in.contains("scenario")) {
    put(out, "settings", settings_json(lesson.lesson.scenario));
    json wrong = json::array();
    for (const WrongAlone& w : wrong_alone(lesson.lesson.scenario, lesson.run())) wrong.push_back(w.to_json());
    put(out, "wrong_settings", std::move(wrong));
  }
  if (lesson.lesson.challenge) put(out["lesson"], "challenge", challenge_view(*lesson.lesson.challenge));
  if (lesson.lesson.incident) put(out["lesson"], "incident", incident_view(lesson.lesson));
  return out;
}

// `answer`: one try at one question, judged with the feedback it earns.
json answer_method(const PreparedLesson& lesson, const json& in, const std::string& file) {
  Reader r(file);
  // Read by type, not with json::value: that threw on a number or null (a type error that
  // crossed code compiled without unwinding, and kept that code's memory: engine/api/call.cpp).
  const json* id = r.field(in, "", "question", true);
  if (id && !id->is_string()) r.problem("/question", "a question is named by its id, a string");
  std::string question = id && id->is_string() ? id->get<std::string>() : "";
  Try t;
  t.number = static_cast<int>(r.integer(in, "", "try", false, 1, 1, limits::kMaxTryNumber));
  t.reveal = r.boolean(in, "", "reveal", false);
  if (!r.problems().empty()) return problems_json(r.problems());
  if (in.contains("answer") && !in["answer"].is_null()) t.answer = in["answer"];
  if (const json* settled = r.bounded_array(in, "", "settled", false, limits::kMaxQuestions)) {
    t.settled.emplace();
    for (std::size_t i = 0; i < settled->size(); ++i) {
      const json& id = (*settled)[i];
      if (!id.is_string()) {
        r.problem(Reader::at("/settled", i), "a settled question is named by its id, a string");
        continue;
      }
      t.settled->insert(id.get<std::string>());
    }
    if (!r.problems().empty()) return problems_json(r.problems());
  }
  std::string why = feedback_problem(lesson, question, t);
  if (!why.empty()) return error(file, "", why);
  return feedback_for(lesson, *lesson.lesson.question(question), t);
}

// `grade`: the learner's code on an exercise (engine/grade/grade.hpp).
json grade_method(const std::string& input) {
  Reader r("exercise");
  std::optional<json> parsed = r.parse(input, limits::kMaxInputBytes);
  if (!parsed) return input_error(r);
  const json& in = *parsed;
  if (!in.is_object()) return error("", "", "the input is not a JSON object");
  const json* ex = r.field(in, "", "exercise", true);
  // Empty code and code past its limit are the learner's to hear about in the grade itself
  // (an empty client fails for progress; a long one is refused as too_long), not input errors.
  std::string code;
  if (const json* c = r.field(in, "", "code", true)) {
    if (c->is_string()) code = c->get<std::string>();
    else r.problem("/code", "must be a string: the client's code (Lua 5.4)");
  }
  int limit = static_cast<int>(r.integer(in, "", "limit", false, 20000, 1, ExploreLimits::kMaxSchedules));
  Exercise exercise;
  if (ex) exercise = read_exercise(r, *ex, "/exercise");
  if (!r.problems().empty()) return problems_json(r.problems());
  return grade(exercise, code, limit);
}

// `preset`: a scenario's client knobs as the code a learner can read (engine/client/preset.hpp).
json preset_method(const std::string& input) {
  Reader r("scenario");
  std::optional<json> parsed = r.parse(input, limits::kMaxInputBytes);
  if (!parsed) return input_error(r);
  const json& in = *parsed;
  if (!in.is_object()) return error("", "", "the input is not a JSON object");
  const json* sc = r.field(in, "", "scenario", true);
  Scenario scenario;
  std::set<std::string> intents;
  if (sc) read_scenario(r, *sc, "/scenario", scenario, intents);
  if (!r.problems().empty()) return problems_json(r.problems());
  CodePreset preset = code_preset(scenario);
  json unexpressed = json::array();
  for (const UnexpressedKnob& u : preset.unexpressed) unexpressed.push_back({{"knob", u.knob}, {"value", u.value}});
  return {{"code", preset.code}, {"unexpressed", unexpressed}};
}

}  // namespace

json dispatch(const std::string& method, const std::string& input) {
  if (method == "grade") return grade_method(input);
  if (method == "preset") return preset_method(input);
  if (method == "seed_lab") return seed_lab();
  if (method == "simulate") return simulate(input);
  if (method == "seed_experiment") return seed_experiment();
  if (method == "vocabulary") return vocabulary();
  if (method != "check" && method != "run" && method != "answer" && method != "answers" && method != "compare" &&
      method != "explore" && method != "scenario" && method != "challenge" && method != "start") {
    return error("", "", "unknown method '" + method + "'; known: challenge, check, run, answer, answers, compare, explore, grade, preset, scenario, seed_lab, seed_experiment, simulate, start, vocabulary");
  }
  Reader input_reader("");
  std::optional<json> parsed = input_reader.parse(input, limits::kMaxInputBytes);
  if (!parsed) return input_error(input_reader);
  json& in = *parsed;
  if (!in.is_object()) return error("", "", "the input is not a JSON object");
  std::string file = in.contains("file") && in["file"].is_string() ? in["file"].get<std::string>()
                     : in.contains("scenario") ? "scenario" : "lesson";
  std::string text;
  json unfired;  // `run` of a bare scenario: the planned faults that never fired, left out
  if (in.contains("scenario")) {
    // The client's code runs only in an engine with code mode (engine/nodes/nodes.hpp).
    const json& sc = in["scenario"];
    if (sc.is_object() && sc.contains("code") && !code_client_factory()) {
      return error(file, "/scenario/code", "this engine has no code mode: a scenario with code runs in idemlab-code (the CLI, or the page's code engine)");
    }
    text = sandbox_lesson(in["scenario"]);
  } else if (in.contains("text") && in["text"].is_string()) {
    text = in["text"].get<std::string>();
  } else {
    return error(file, "", "the input has no \"text\" (the lesson file's text) and no \"scenario\"");
  }
  if (method == "scenario" || method == "explore") return scenario_or_explore(method, in, file, text);
  if (method == "challenge") return challenge_method(in, file, text);
  if (method == "start") return start_method(in, file, text);
  std::vector<LessonProblem> problems;
  const PreparedLesson* p = prepared(file, text, problems);
  if (!p) {
    // Only when a bare scenario is refused is it looked at for faults that never fire
    // (drop_unfired simulates it once more): the common edit pays nothing for it.
    if (method != "run" || !in.contains("scenario") || (unfired = drop_unfired(in["scenario"])).is_null()) return problems_json(problems);
    problems.clear();
    p = prepared(file, sandbox_lesson(in["scenario"]), problems);
    if (!p) return problems_json(problems);
  }
  // Every run of the lesson's fault space settles: one cut short at a limit is
  // inconclusive, and what the lesson computes over the space would judge it.
  if (method == "check" || method == "answers") {
    std::vector<LessonProblem> unsettled = unsettled_world_problems(*p);
    if (!unsettled.empty()) return problems_json(unsettled);
  }
  // A challenge must be solvable and not solved at its start: `check` and `answers` search
  // for a solution with the explorer (`run` does not: it only shows the challenge).
  std::optional<ChallengeSolution> solution;
  if ((method == "check" || method == "answers") && p->lesson.challenge) {
    ChallengeSolution found;
    LessonProblem why;
    if (!find_challenge_solution(p->lesson, found, why)) return problems_json({why});
    solution = std::move(found);
  }
  // An incident must reproduce its report: `check` and `answers` run the reported
  // behaviour once (engine/lesson/incident.hpp); `run` shows the block with that replay.
  if (method == "check" || method == "answers") {
    std::vector<LessonProblem> unreproduced = incident_problems(p->lesson);
    if (!unreproduced.empty()) return problems_json(unreproduced);
    // The sandbox's first screen: each example reaches its goal, the right design is safe
    // over the fault space (engine/lesson/start.hpp).
    std::vector<LessonProblem> start = start_problems(p->lesson);
    if (!start.empty()) return problems_json(start);
  }
  if (method == "check") {
    json out = json::object(), warnings = json::array();
    for (const LessonProblem& w : lesson_warnings(*p)) warnings.push_back(w.to_json());
    put(out, "ok", true);
    put(out, "id", p->lesson.id);
    put(out, "warnings", std::move(warnings));
    return out;
  }
  if (method == "run") return run_method(*p, in, std::move(unfired));
  if (method == "answers") {
    // Every answer was computed once when the lesson was prepared, which refuses a lesson
    // whose answer cannot be: all_answers computes them again and does not throw here.
    json out = all_answers(*p);
    if (solution) put(out, "challenge", solution->to_json());
    return out;
  }
  if (method == "compare") {
    if (!p->lesson.compare) return error(file, "/compare", "the lesson has no \"compare\" block (side by side)");
    return compare_json(*p);
  }
  return answer_method(*p, in, file);
}

void release_prepared(bool all) {
  PreparedCache& c = cache();
  c.uncached.reset();
  if (!all) return;
  c.lessons.clear();
  c.bytes = 0;
}

void set_progress_hook(ProgressHook hook) { progress_hook = hook; }

}  // namespace idemlab::api
