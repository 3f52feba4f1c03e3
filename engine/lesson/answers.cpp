#include "engine/lesson/answers.hpp"

#include <set>

#include "engine/sim/simulation.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

std::string cell_key(const std::string& moment, Side side, const std::string& fact) {
  return moment + "/" + to_string(side) + "/" + fact;
}

L10n knowledge_explanation(const PreparedLesson& p, Side side, const FactRef& fact, const Cell& c) {
  L10n who = side_name(side);
  std::string n = std::to_string(c.worlds_considered);
  if (c.known) {
    L10n s = fact_statement(fact, c.value);
    return {"在" + who.zh + "无法与这次运行区分开的所有运行里（故障空间中的 " + n + " 次运行），" + s.zh +
                "：所以它知道。",
            "In every run the " + who.en + " cannot tell apart from this one (" + n +
                " runs of the fault space), " + s.en + ": so it knows."};
  }
  const World& w = p.worlds[c.witness_world];
  L10n there = fact_statement(fact, c.witness_value);
  L10n here = fact_statement(fact, c.value);
  L10n plan = w.actual ? L10n{"同一时刻的稍早一步", "a moment earlier at the same instant"} : w.plan.describe();
  return {who.zh + "无法知道：它分不清这次运行和“" + plan.zh + "”的运行。那里" + there.zh + "；这里" + here.zh +
              "。它看到的完全一样。",
          "The " + who.en + " cannot know: it cannot tell this run from one where " + plan.en + ". There " +
              there.en + "; here " + here.en + ". What it has seen is the same in both."};
}

json predict_value(const Question& q, const Run& run, const std::string& intent) {
  const Step& last = run.steps.back();
  if (q.ask == "deliveries") return std::to_string(last.snap.deliveries.size());
  if (q.ask == "emails") return std::to_string(emails_for(run, static_cast<int>(run.steps.size()) - 1, intent));
  if (q.ask == "final_status") {
    for (const IntentRow& r : last.snap.intents) {
      if (r.intent == intent) return r.status;
    }
    return "NONE";
  }
  return std::to_string(effects_for(run, static_cast<int>(run.steps.size()) - 1, intent));
}

Expected predict(const PreparedLesson& p, const Question& q) {
  int step = p.question_step(q);
  std::string intent = q.fork && !q.fork->intent.empty() ? q.fork->intent : first_intent(p.lesson.scenario);
  // Fork every world the client cannot tell apart from this point, at its matching step.
  std::vector<std::pair<int, json>> values;  // world -> value
  std::set<int> done;
  for (auto [w, j] : p.knowledge->possible(Side::Client, step)) {
    if (!done.insert(w).second) continue;
    const World& world = p.worlds[w];
    Run run;
    if (q.fork) {
      Action a = *q.fork;
      a.after_step = j;
      run = Simulation(p.lesson.scenario, world.plan, {a}).run();
    } else {
      run = world.run;
    }
    if (static_cast<int>(run.steps.size()) >= Simulation::kMaxSteps) {
      throw std::invalid_argument("the run does not settle within " + std::to_string(Simulation::kMaxSteps) + " steps");
    }
    values.emplace_back(w, predict_value(q, run, intent));
  }
  Expected e;
  e.answer = values.front().second;  // world 0 comes first: the lesson's own run
  std::string v = e.answer.get<std::string>();
  e.explanation = {"从这一步继续运行，结果是 " + v + "。", "Running on from this step gives " + v + "."};
  bool same = true;
  for (const auto& [w, value] : values) {
    if (value == e.answer) continue;
    same = false;
    L10n plan = p.worlds[w].plan.describe();
    std::string other = value.get<std::string>();
    e.explanation.zh += "客户端事先无法确定：在“" + plan.zh + "”的运行里，结果会是 " + other + "。";
    e.explanation.en += " The client could not have known beforehand: in a run where " + plan.en +
                        ", it would be " + other + ".";
    break;
  }
  if (same && values.size() > 1) {
    std::string n = std::to_string(values.size());
    e.explanation.zh += "在客户端分不清的 " + n + " 次运行里结果都一样。";
    e.explanation.en += " It is the same in all " + n + " runs the client cannot tell apart.";
  }
  return e;
}

}  // namespace

L10n side_name(Side side) {
  return side == Side::Service ? L10n{"服务端", "service"} : L10n{"客户端", "client"};
}

Expected expected_answer(const PreparedLesson& p, const Question& q) {
  Expected e;
  if (q.kind == "concept") {
    e.answer = q.answer;
    e.explanation = q.explanation;
    return e;
  }
  if (q.kind == "knowledge") {
    const FactRef& fact = *p.lesson.fact(q.fact);
    Cell c = p.knowledge->cell(q.side, p.question_step(q), fact);
    e.answer = c.verdict();
    e.explanation = knowledge_explanation(p, q.side, fact, c);
    return e;
  }
  if (q.kind == "predict") return predict(p, q);
  // table
  e.answer = json::object();
  e.cells = json::object();
  for (const std::string& m : q.moments) {
    int step = p.moment_step.at(m);
    for (Side side : q.sides) {
      for (const std::string& f : q.facts) {
        const FactRef& fact = *p.lesson.fact(f);
        Cell c = p.knowledge->cell(side, step, fact);
        std::string key = cell_key(m, side, f);
        e.answer[key] = c.verdict();
        e.cells[key] = {{"expected", c.verdict()},
                        {"explanation", knowledge_explanation(p, side, fact, c).to_json()}};
      }
    }
  }
  e.explanation = {"每一格都由引擎在故障空间上计算：某方“知道”，意味着在它分不清的所有运行里该事实都成立。",
                   "Every cell is computed by the engine over the fault space: a side knows a fact when it "
                   "holds in every run that side cannot tell apart from this one."};
  return e;
}

Verdict check_answer(const PreparedLesson& p, const std::string& question_id, const json& answer) {
  const Question* q = p.lesson.question(question_id);
  if (!q) throw std::invalid_argument("unknown question '" + question_id + "' in lesson '" + p.lesson.id + "'");
  Verdict v;
  v.expected = expected_answer(p, *q);
  if (q->kind == "table") {
    if (!answer.is_object()) throw std::invalid_argument("a table answer is an object keyed \"moment/side/fact\"");
    v.correct = true;
    v.cells = json::object();
    for (const auto& [key, expected] : v.expected.answer.items()) {
      bool right = answer.contains(key) && answer[key] == expected;
      v.correct = v.correct && right;
      v.cells[key] = {{"correct", right}, {"expected", expected},
                      {"explanation", v.expected.cells[key]["explanation"]}};
    }
    return v;
  }
  if (!answer.is_string()) throw std::invalid_argument("the answer to '" + question_id + "' is a string");
  if (q->kind == "knowledge") {
    static const std::set<std::string> allowed = {"knows_true", "knows_false", "cannot_know"};
    if (!allowed.count(answer.get<std::string>())) {
      throw std::invalid_argument("a knowledge answer is knows_true, knows_false or cannot_know");
    }
  }
  v.correct = answer == v.expected.answer;
  return v;
}

}  // namespace idemlab
