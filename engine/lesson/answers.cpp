#include "engine/lesson/answers.hpp"

#include <set>

#include "engine/json/fields.hpp"
#include "engine/lesson/choose.hpp"
#include "engine/lesson/forks.hpp"

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
                (c.worlds_considered == 1 ? " run" : " runs") + " of the fault space), " + s.en + ": so it knows."};
  }
  const World& w = p.worlds[c.witness_world];
  L10n there = fact_statement(fact, c.witness_value);
  L10n here = fact_statement(fact, c.value);
  L10n run = w.actual ? L10n{"同一时刻稍早一步的这次运行", "this same run a step earlier at the same instant"} : run_name(w);
  return {who.zh + "无法知道：它分不清这次运行和" + run.zh + "。那里" + there.zh + "；这里" + here.zh +
              "。它看到的完全一样。",
          "The " + who.en + " cannot know: it cannot tell this run from " + run.en + ". There " +
              there.en + "; here " + here.en + ". What it has seen is the same in both."};
}

json predict_value(const Question& q, const ForkedRun& f, const std::string& intent) {
  const Run& run = *f.run;
  if (q.ask == "deliveries") return std::to_string(run.steps.back().snap.deliveries.size());
  if (q.ask == "final_status") return final_status(run, intent);
  if (q.ask == "next_status") return next_status(run, f.from_step, intent);
  if (q.ask == "keys_used") return std::to_string(keys_used(run, intent));
  if (q.ask == "requests") return std::to_string(requests_sent(run, intent));
  if (q.ask == "emails") return std::to_string(emails_for(run, static_cast<int>(run.steps.size()) - 1, intent));
  return std::to_string(effects_for(run, static_cast<int>(run.steps.size()) - 1, intent));
}

Expected predict(const PreparedLesson& p, const Question& q) {
  std::string intent = q.fork && !q.fork->intent.empty() ? q.fork->intent : first_intent(p.lesson.scenario);
  std::vector<std::pair<int, json>> values;  // world -> value
  Expected e;
  std::vector<ForkedRun> runs = fork_runs(p, p.question_step(q), q.fork, e.problem);
  if (!e.problem.empty()) return e;
  for (const ForkedRun& f : runs) values.emplace_back(f.world, predict_value(q, f, intent));
  e.answer = values.front().second;  // world 0 comes first: the lesson's own run
  std::string v = e.answer.get<std::string>();
  e.explanation = {"从这一步继续运行，结果是 " + v + "。", "Running on from this step gives " + v + "."};
  bool same = true;
  for (const auto& [w, value] : values) {
    if (value == e.answer) continue;
    same = false;
    L10n run = run_name(p.worlds[w]);
    std::string other = value.get<std::string>();
    e.explanation.zh += "客户端事先无法确定：在" + run.zh + "里，结果会是 " + other + "。";
    e.explanation.en += " The client could not have known beforehand: in " + run.en + ", it would be " + other + ".";
    break;
  }
  if (same && values.size() > 1) {
    std::string n = std::to_string(values.size());
    e.explanation.zh += "在客户端分不清的 " + n + " 次运行里结果都一样。";
    e.explanation.en += values.size() == 2 ? std::string(" It is the same in both runs the client cannot tell apart.")
                                           : " It is the same in all " + n + " runs the client cannot tell apart.";
  }
  return e;
}

// The one safe option is the answer; the explanation is its judgement, and every option's
// judgement goes with it (check_answer puts the chosen unsafe one first).
Expected choose(const PreparedLesson& p, const Question& q) {
  Expected e;
  std::vector<OptionJudgement> judged = judge_options(p, q, e.problem);
  if (e.problem.empty()) e.problem = safe_count_problem(judged);
  if (!e.problem.empty()) return e;
  e.options = json::array();
  for (const OptionJudgement& j : judged) {
    if (j.safe) {
      e.answer = j.id;
      e.explanation = j.explanation;
    }
    e.options.push_back(j.to_json(p, q));
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
  if (q.kind == "choose") return choose(p, q);
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
        json& cell = e.cells[key] = json::object();
        put(cell, "expected", c.verdict());
        put(cell, "explanation", knowledge_explanation(p, side, fact, c).to_json());
      }
    }
  }
  e.explanation = {"每一格都由引擎在故障空间上计算：某方“知道”，意味着在它分不清的所有运行里该事实都成立。",
                   "Every cell is computed by the engine over the fault space: a side knows a fact when it "
                   "holds in every run that side cannot tell apart from this one."};
  return e;
}

Expected computed_answer(const PreparedLesson& p, const Question& q) {
  Expected e = expected_answer(p, q);
  if (!e.problem.empty()) throw std::logic_error("question '" + q.id + "' of a prepared lesson: " + e.problem);
  return e;
}

json all_answers(const PreparedLesson& p) {
  json questions = json::array();
  for (const Question& q : p.lesson.questions) {
    Expected e = computed_answer(p, q);
    json a = json::object();
    put(a, "id", q.id);
    put(a, "kind", q.kind);
    put(a, "step", p.question_step(q));
    put(a, "expected", std::move(e.answer));
    put(a, "explanation", e.explanation.to_json());
    if (!e.cells.is_null()) put(a, "cells", std::move(e.cells));
    if (!e.options.is_null()) put(a, "options", std::move(e.options));
    questions.push_back(std::move(a));
  }
  json out = json::object();
  put(out, "id", p.lesson.id);
  put(out, "questions", std::move(questions));
  return out;
}

std::string answer_problem(const PreparedLesson& p, const std::string& question_id, const json& answer) {
  const Question* q = p.lesson.question(question_id);
  if (!q) return "unknown question '" + question_id + "' in lesson '" + p.lesson.id + "'";
  if (q->kind == "table") return answer.is_object() ? "" : "a table answer is an object keyed \"moment/side/fact\"";
  if (!answer.is_string()) return "the answer to '" + question_id + "' is a string";
  if (q->kind == "knowledge") {
    static const std::set<std::string> allowed = {"knows_true", "knows_false", "cannot_know"};
    if (!allowed.count(answer.get<std::string>())) return "a knowledge answer is knows_true, knows_false or cannot_know";
  }
  return "";
}

Verdict checked_answer(const PreparedLesson& p, const Question& question, const json& answer) {
  const Question* q = &question;
  Verdict v;
  v.expected = computed_answer(p, *q);
  if (q->kind == "table") {
    v.correct = true;
    v.cells = json::object();
    for (const auto& [key, expected] : v.expected.answer.items()) {
      bool right = answer.contains(key) && answer[key] == expected;
      v.correct = v.correct && right;
      json& cell = v.cells[key] = json::object();
      put(cell, "correct", right);
      put(cell, "expected", expected);
      put(cell, "explanation", v.expected.cells[key]["explanation"]);
    }
    return v;
  }
  v.correct = answer == v.expected.answer;
  if (q->kind == "choose") {
    v.options = v.expected.options;
    for (const json& o : v.options) {
      if (o["id"] == answer && !o["safe"].get<bool>()) {
        // Feedback leads with the run where the chosen option duplicates or lies.
        L10n why{o["explanation"]["zh-CN"].get<std::string>(), o["explanation"]["en"].get<std::string>()};
        v.expected.explanation = L10n::join(why, v.expected.explanation, "", " ");
      }
    }
  }
  return v;
}

}  // namespace idemlab
