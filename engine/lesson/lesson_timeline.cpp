#include "engine/lesson/lesson_timeline.hpp"

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/knowledge/facts.hpp"
#include "engine/lesson/gating.hpp"
#include "engine/timeline/timeline_json.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

json lesson_view(const PreparedLesson& p) {
  const Lesson& l = p.lesson;
  json moments = json::array();
  for (const Moment& m : l.moments) {
    json o = json::object();
    put(o, "id", m.id);
    put(o, "step", p.moment_step.at(m.id));
    put(o, "label", m.label.to_json());
    put(o, "narration", m.narration.to_json());
    moments.push_back(std::move(o));
  }
  json facts = json::array();
  for (const FactRef& f : l.facts) {
    json o = json::object();
    put(o, "id", f.id);
    put(o, "label", fact_label(f).to_json());
    put(o, "kind", find_fact(f.name)->boolean ? "bool" : "count");
    facts.push_back(std::move(o));
  }
  json questions = json::array();
  for (const Question& q : l.questions) {
    json v = json::object();
    put(v, "id", q.id);
    put(v, "kind", q.kind);
    put(v, "moment", q.moment);
    put(v, "step", p.question_step(q));
    put(v, "prompt", q.prompt.to_json());
    if (q.kind == "knowledge") {
      put(v, "side", to_string(q.side));
      put(v, "fact", q.fact);
      put(v, "fact_label", fact_label(*l.fact(q.fact)).to_json());
    }
    if (q.kind == "predict" || q.kind == "concept" || q.kind == "choose") {
      json options = json::array();
      for (const Option& o : q.options) {
        json option = json::object();
        put(option, "id", o.id);
        put(option, "label", o.label.to_json());
        if (q.kind == "choose") put(option, "do", o.does);
        options.push_back(std::move(option));
      }
      put(v, "options", std::move(options));
    }
    if (q.kind == "choose") put(v, "intent", q.intent);
    if (q.kind == "table") {
      json ms = json::array(), sides = json::array(), fs = json::array();
      for (const std::string& m : q.moments) {
        json o = json::object();
        put(o, "id", m);
        put(o, "step", p.moment_step.at(m));
        put(o, "label", l.moment(m)->label.to_json());
        ms.push_back(std::move(o));
      }
      for (Side s : q.sides) sides.push_back(to_string(s));
      for (const std::string& f : q.facts) {
        json o = json::object();
        put(o, "id", f);
        put(o, "label", fact_label(*l.fact(f)).to_json());
        fs.push_back(std::move(o));
      }
      put(v, "moments", std::move(ms));
      put(v, "sides", std::move(sides));
      put(v, "facts", std::move(fs));
    }
    put(v, "hides", hides_of(p, q).to_json());
    questions.push_back(std::move(v));
  }
  json checks = json::array();
  for (const L10n& c : l.self_check) checks.push_back(c.to_json());
  json out = json::object();
  put(out, "id", l.id);
  put(out, "level", l.level);
  put(out, "title", l.title.to_json());
  put(out, "summary", l.summary.to_json());
  put(out, "moments", std::move(moments));
  put(out, "questions", std::move(questions));
  put(out, "self_check", std::move(checks));
  put(out, "facts", std::move(facts));
  return out;
}

}  // namespace

json timeline_json(const PreparedLesson& p) {
  const Run& run = p.run();
  json worlds = json::array();
  for (const World& w : p.worlds) {
    json faults = json::array();
    for (const Fault& f : w.plan.faults) faults.push_back(f.id());
    json o = json::object();
    put(o, "id", w.id);
    put(o, "actual", w.actual);
    put(o, "faults", std::move(faults));
    put(o, "text", w.plan.describe(run.credits).to_json());
    worlds.push_back(std::move(o));
  }
  json messages = messages_json(run);
  const RunVerdict verdict = check_invariants(run);
  json steps = json::array();
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    json step = step_json(run, static_cast<int>(i), verdict);
    json knowledge = json::object();
    for (const char* side : {"client", "service", "observer"}) put(knowledge, side, json::object());
    for (Side side : {Side::Client, Side::Service}) {
      auto points = p.knowledge->possible(side, static_cast<int>(i));
      json& cells = knowledge[to_string(side)];
      for (const FactRef& f : p.lesson.facts) {
        cells[f.id] = p.knowledge->cell_json(p.knowledge->cell(points, f), f);
      }
    }
    for (const FactRef& f : p.lesson.facts) knowledge["observer"][f.id] = evaluate(f, run, static_cast<int>(i));
    put(step, "knowledge", std::move(knowledge));
    steps.push_back(std::move(step));
  }
  json out = json::object();
  put(out, "lesson", lesson_view(p));
  put(out, "worlds", std::move(worlds));
  put(out, "messages", std::move(messages));
  put(out, "steps", std::move(steps));
  put(out, "verdict", verdict.to_json());
  put(out, "ending", ending_of(run).to_json());
  put(out, "targets", targets_json(run, p.lesson.scenario.faults, p.lesson.scenario.space.restart_after_ms));
  return out;
}

}  // namespace idemlab
