#include "engine/lesson/feedback.hpp"

#include <set>

#include "engine/json/fields.hpp"
#include "engine/lesson/secrecy.hpp"
#include "engine/scenario/knobs.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

// An event of a side's own, named for a hint ("record UNKNOWN" / "记录 UNKNOWN"): its
// name in the events table (engine/sim/events.hpp), with the status a record step wrote.
L10n event_name(const Event& e) {
  L10n out = event_row(e.type).hint_name;
  if (e.type == EventKind::Record && e.local.status) {
    const std::string& st = *e.local.status;
    out.zh += " " + st;
    out.en += " " + st;
  }
  return out;
}

// knowledge: the side's own events up to the question's step (the last few, when many).
L10n knowledge_hint(const PreparedLesson& p, const Question& q) {
  const int step = p.question_step(q);
  const Run& run = p.run();
  // A crash wipes what the side saw: after its last restart its view is what it reads back
  // from its database and what follows.
  std::vector<int> own;
  int restarted = -1;
  for (int i = 0; i <= step && i < static_cast<int>(run.steps.size()); ++i) {
    if (run.steps[i].event.side != q.side) continue;
    if (run.steps[i].event.type == EventKind::Restart) {
      own.clear();
      restarted = i;
    }
    own.push_back(i);
  }
  constexpr std::size_t kShown = 8;  // the last few are enough to point at
  std::size_t first = own.size() > kShown ? own.size() - kShown : 0;
  L10n events, steps;
  for (std::size_t k = first; k < own.size(); ++k) {
    L10n name = event_name(run.steps[own[k]].event);
    std::string n = std::to_string(own[k]);
    events = events.en.empty() ? name : L10n::join(events, name, "、", ", ");
    steps = steps.en.empty() ? L10n{n, n} : L10n::join(steps, {n, n}, "、", ", ");
  }
  L10n who = side_name(q.side);
  L10n fact = fact_label(*p.lesson.fact(q.fact));
  std::string at = std::to_string(step);
  L10n out = {"只看" + who.zh + "自己到第 " + at + " 步为止经历了什么，别看上帝视角的真相。",
              "Look only at what the " + who.en + " itself has seen up to step " + at +
                  ", not at the truth the observer sees."};
  if (restarted >= 0) {
    std::string r = std::to_string(restarted);
    out.zh += "它在第 " + r + " 步重启：此前见过的都随崩溃忘掉了，只剩数据库里读回来的记录和之后的事。";
    out.en += " It restarted at step " + r + ": what it saw before the crash is forgotten; only what it reads back "
              "from its database and what follows count.";
  }
  if (!own.empty()) {
    std::string more_zh = first > 0 ? "……" : "";
    std::string more_en = first > 0 ? "..., " : "";
    out.zh += (restarted >= 0 ? "从重启起它自己的事件：" : "它自己的事件：") + more_zh + events.zh + "（第 " + steps.zh + " 步）。";
    out.en += (restarted >= 0 ? " Its own events since: " : " Its own events so far: ") + more_en + events.en + (own.size() - first == 1 ? " (step " : " (steps ") + steps.en + ").";
  }
  out.zh += "凡是会让" + who.zh + "看到完全相同这些事件的运行，在“" + fact.zh + "”上都一致吗？";
  out.en += " Would every run that shows the " + who.en + " exactly these events agree on \"" + fact.en + "\"?";
  return out;
}

// table: a table's rows as the page draws them (web/src/views/questions.js): one row per
// moment and fact, moments in the question's order and each moment's facts in order, with
// one cell per side. `wrong`: the row's cells the try did not get right (a cell missing
// from the verdict counts as not right).
struct TableRow {
  std::string moment;
  std::string fact;
  int wrong = 0;
};

std::vector<TableRow> table_rows(const Question& q, const Verdict& v) {
  std::vector<TableRow> rows;
  for (const std::string& m : q.moments) {
    for (const std::string& f : q.facts) {
      TableRow row{m, f, 0};
      for (Side side : q.sides) {
        std::string key = m + "/" + to_string(side) + "/" + f;
        bool right = v.cells.is_object() && v.cells.contains(key) && v.cells[key].value("correct", false);
        if (!right) ++row.wrong;
      }
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

// table: how many cells are wrong, and how many in each row (moment and fact) that has any;
// never which cell, so that a second try is thought through, not looked up.
L10n table_hint(const PreparedLesson& p, const Question& q, const Verdict& v) {
  int wrong = 0;
  const int total = static_cast<int>(q.moments.size() * q.facts.size() * q.sides.size());
  L10n where;
  for (const TableRow& row : table_rows(q, v)) {
    if (row.wrong == 0) continue;
    wrong += row.wrong;
    L10n moment = p.lesson.moment(row.moment)->label;
    L10n fact = fact_label(*p.lesson.fact(row.fact));
    std::string s = std::to_string(p.moment_step.at(row.moment)), n = std::to_string(row.wrong);
    L10n one = {"“" + moment.zh + "”（第 " + s + " 步）·“" + fact.zh + "”这一行 " + n + " 格",
                n + " in the row \"" + moment.en + "\" (step " + s + ") · \"" + fact.en + "\""};
    where = where.en.empty() ? one : L10n::join(where, one, "；", "; ");
  }
  std::string n = std::to_string(wrong), m = std::to_string(total);
  return {"共 " + m + " 格，有 " + n + " 格不对：" + where.zh +
              "。每一行里每一方各占一格；这里只说一行错了几格，不说是哪一格。回到这些行所在的那几步，只看每一方自己到那时见过的事件："
              "某方“知道”，要求它分不清的每一次运行里该事实都一样。",
          n + " of " + m + (wrong == 1 ? " cells is" : " cells are") + " wrong: " + where.en +
              ". A row has one cell per side; the count says how many of them are wrong, not which. Go back to "
              "the step of each such row and look only at the events each side itself has seen by then: a side knows a fact only "
              "when it holds in every run that side cannot tell apart from this one."};
}

// predict: what to follow in the run from the question's step on.
L10n predict_hint(const PreparedLesson& p, const Question& q) {
  std::string intent = q.fork && !q.fork->intent.empty() ? q.fork->intent : first_intent(p.lesson.scenario);
  std::string at = std::to_string(p.question_step(q));
  L10n follow;
  bool whole_run = false;  // counted over the whole run, what was sent before the step included
  if (q.ask == "deliveries") {
    follow = {"服务端的 deliveries 表（每一行是一次业务效果，不分意图）。", "the service's deliveries table (one row per effect, any intent)."};
  } else if (q.ask == "final_status") {
    follow = {"客户端 intents 表里 " + intent + " 那一行：之后还有哪些步骤会改写它？",
              "the client's intents row for " + intent + ": which later steps still write to it?"};
  } else if (q.ask == "next_status") {
    follow = {"客户端下一次为 " + intent + " 记录状态的那一步：那时它手里有什么证据？",
              "the next step at which the client records a status for " + intent + ": what evidence does it hold then?"};
  } else if (q.ask == "keys_used") {
    whole_run = true;
    follow = {"客户端为 " + intent + " 发出的每个请求上带的操作标识。", "the operation key each request for " + intent + " carries."};
  } else if (q.ask == "requests") {
    whole_run = true;
    follow = {"客户端为 " + intent + " 发出的每个请求（不算对账查询）。", "every request the client sends for " + intent + " (lookups are not requests)."};
  } else if (q.ask == "emails") {
    follow = {"邮件服务商收件箱里关于 " + intent + " 的邮件。", "the provider's inbox: the emails about " + intent + "."};
  } else {
    follow = {"服务端为 " + intent + " 留下的业务效果（deliveries 行，不管用的是哪个操作标识）。",
              "the effects the service holds for " + intent + " (deliveries rows, under any operation key)."};
  }
  L10n out = whole_run ? L10n{"把整次运行算进去，第 " + at + " 步之前已经发生的也算：" + follow.zh,
                              "Count over the whole run, what happened before step " + at + " included: " + follow.en}
                       : q.ask == "next_status"
                           ? L10n{"从第 " + at + " 步往后跟着看：" + follow.zh, "Follow the run on from step " + at + ": " + follow.en}
                           : L10n{"从第 " + at + " 步往后一直跟到运行结束：" + follow.zh,
                                  "Follow the run on from step " + at + " to its end: " + follow.en};
  if (q.fork) {
    L10n does = action_info(q.fork->kind).meaning;
    out = L10n::join({"假设客户端紧接着这一步做的是：" + does.zh + "。", "Suppose that right after this step the client does this: " + does.en + "."},
                     out, "", " ");
  }
  out.zh += "问题问的是你正在看的这次运行。";
  out.en += " The question is about the run on screen.";
  return out;
}

// choose: the runs the client cannot tell apart at the question's step.
L10n choose_hint(const PreparedLesson& p, const Question& q) {
  std::vector<int> worlds;
  for (const auto& [w, j] : p.knowledge->possible(Side::Client, p.question_step(q))) {
    (void)j;
    if (std::find(worlds.begin(), worlds.end(), w) == worlds.end()) worlds.push_back(w);
  }
  constexpr std::size_t kShown = 4;  // a few runs make the point; the page shows each option's
  L10n runs;
  for (std::size_t k = 0; k < worlds.size() && k < kShown; ++k) {
    L10n one = run_name(p.worlds[worlds[k]]);
    runs = runs.en.empty() ? one : L10n::join(runs, one, "；", "; ");
  }
  if (worlds.size() > kShown) runs = L10n::join(runs, {"……", "..."}, "；", "; ");
  std::string n = std::to_string(worlds.size());
  return {"在这一步，客户端分不清 " + n + " 次运行：" + runs.zh + "。它只能选一个在每一次里都不出错的动作：逐个选项、逐次运行地想一遍。",
          "At this step the client cannot tell apart " + n + " runs: " + runs.en +
              ". It can only take an action that goes right in every one of them: try each option against each run."};
}

L10n concept_hint() {
  return {"这题不依赖这次运行的细节：想想每一方各自能观察到什么，排除那些只在一切顺利时才成立的选项。",
          "This one does not depend on the details of this run: think about what each side can observe by itself, and "
          "rule out the options that only hold when nothing goes wrong."};
}

}  // namespace

L10n computed_hint(const PreparedLesson& p, const Question& q, const Verdict& v) {
  if (q.kind == "knowledge") return knowledge_hint(p, q);
  if (q.kind == "table") return table_hint(p, q, v);
  if (q.kind == "predict") return predict_hint(p, q);
  if (q.kind == "choose") return choose_hint(p, q);
  return concept_hint();
}

L10n hint_for(const PreparedLesson& p, const Question& q, const Verdict& v) {
  return q.hint ? *q.hint : computed_hint(p, q, v);
}

std::string feedback_problem(const PreparedLesson& p, const std::string& question_id, const Try& t) {
  if (!p.lesson.question(question_id)) return "unknown question '" + question_id + "' in lesson '" + p.lesson.id + "'";
  if (!t.answer && !t.reveal) return "the input has no \"answer\" (and no \"reveal\": true)";
  return t.answer ? answer_problem(p, question_id, *t.answer) : "";
}

namespace {

json feedback_unwithheld(const PreparedLesson& p, const Question& question, const Try& t) {
  const Question* q = &question;
  Verdict v;
  if (t.answer) {
    v = checked_answer(p, question, *t.answer);
  } else {
    v.expected = computed_answer(p, *q);
  }
  const bool shown = revealed(v.correct, t);
  json out = json::object();
  put(out, "correct", v.correct);
  put(out, "revealed", shown);
  put(out, "try", t.number);
  int wrong = 0;
  if (q->kind == "table" && t.answer) {
    for (const auto& [key, cell] : v.cells.items()) {
      (void)key;
      if (!cell["correct"].get<bool>()) ++wrong;
    }
  }
  if (shown) {
    put(out, "expected", v.expected.answer);
    put(out, "explanation", v.expected.explanation.to_json());
    if (q->kind == "table") {
      if (t.answer) {
        put(out, "cells", v.cells);
        put(out, "wrong", wrong);
      } else {
        put(out, "cells", v.expected.cells);
      }
    }
    if (q->kind == "choose") put(out, "options", v.expected.options);
    return out;
  }
  // A wrong first try: the verdict and a hint, nothing that tells the answer.
  put(out, "hint", hint_for(p, *q, v).to_json());
  if (q->kind == "table") {
    // How many cells are wrong in each row, not which: no cell is marked before the reveal.
    json rows = json::array();
    for (const TableRow& row : table_rows(*q, v)) rows.push_back(json{{"moment", row.moment}, {"fact", row.fact}, {"wrong", row.wrong}});
    put(out, "rows", std::move(rows));
    put(out, "wrong", wrong);
  }
  if (q->kind == "choose") {
    json chosen = json::array();
    for (const json& o : v.expected.options) {
      if (o["id"] == *t.answer) chosen.push_back(o);
    }
    put(out, "options", std::move(chosen));
  }
  return out;
}

}  // namespace

json feedback_for(const PreparedLesson& p, const Question& q, const Try& t) {
  json out = feedback_unwithheld(p, q, t);
  withhold_open_answers(p, q, t, out);
  return out;
}

namespace {

// The questions that may be open while feedback on `q` is on screen (Try::settled).
std::vector<std::pair<int, const Question*>> open_beside(const PreparedLesson& p, const Question& q, const Try& t) {
  std::vector<std::pair<int, const Question*>> out;
  const int step = p.question_step(q);
  for (std::size_t k = 0; k < p.lesson.questions.size(); ++k) {
    const Question& y = p.lesson.questions[k];
    const bool cells = y.kind == "knowledge" || y.kind == "table";
    if (&y == &q || (!p.right_option.count(y.id) && !cells)) continue;
    bool open = t.settled ? !t.settled->count(y.id) : p.question_step(y) >= step;
    if (open) out.emplace_back(static_cast<int>(k) + 1, &y);
  }
  return out;
}

// Whether `y` (a knowledge or table question) asks what the client knows at `step`: a
// choice's runs there are the very runs the client cannot tell apart, and say so.
bool asks_client_at(const PreparedLesson& p, const Question& y, int step) {
  for (const AskedCell& a : asked_cells(p, y)) {
    if (a.side == Side::Client && a.step == step) return true;
  }
  return false;
}

bool same_action(const std::optional<Action>& a, const std::optional<Action>& b) {
  if (!a || !b) return !a && !b;
  return a->kind == b->kind && a->intent == b->intent && a->payload == b->payload;
}

L10n withheld(int number) {
  std::string n = std::to_string(number);
  return {"这里先不说：它会透露第 " + n + " 题的答案。先回答第 " + n + " 题，再回来看。",
          "Not said here yet: it would give away the answer to question " + n + ". Answer question " + n +
              " first, then come back to this."};
}

// Whether the L10n JSON `text` gives away `y`'s answer in either language.
bool tells(const PreparedLesson& p, const Question& y, const json& text) {
  if (!text.is_object()) return false;
  return !gives_away(p, y, text.value("en", ""), "en").empty() || !gives_away(p, y, text.value("zh-CN", ""), "zh-CN").empty();
}

// A choose option's runs as the page lists them ("2 effects, UNKNOWN"), to look for an answer in.
json runs_text(const json& option) {
  std::string zh, en;
  for (const json& r : option.value("runs", json::array())) {
    std::string n = std::to_string(r.value("effects", 0));
    std::string st = r.value("status", "");
    zh += n + " 条业务效果，" + st + "；";
    en += n + (n == "1" ? " effect, " : " effects, ") + st + "; ";
  }
  return L10n{zh, en}.to_json();
}

}  // namespace

void withhold_open_answers(const PreparedLesson& p, const Question& q, const Try& t, json& out) {
  for (const auto& [number, y] : open_beside(p, q, t)) {
    for (const char* key : {"explanation", "hint"}) {
      if (out.contains(key) && tells(p, *y, out[key])) out[key] = withheld(number).to_json();
    }
    if (out.contains("cells") && out["cells"].is_object()) {
      for (auto& [key, cell] : out["cells"].items()) {
        (void)key;
        if (cell.contains("explanation") && tells(p, *y, cell["explanation"])) cell["explanation"] = withheld(number).to_json();
      }
    }
    if (q.kind != "choose") continue;
    // A choice lists the runs the client cannot tell apart at its step, and how each ends:
    // what a question about the client's knowledge there asks.
    const bool knowledge_here = (y->kind == "knowledge" || y->kind == "table") && asks_client_at(p, *y, p.question_step(q));
    if (knowledge_here) {
      if (!q.hint && out.contains("hint")) out["hint"] = withheld(number).to_json();
      if (out.contains("explanation")) out["explanation"] = withheld(number).to_json();
    }
    if (!out.contains("options")) continue;
    const bool same_moment = y->kind == "predict" && p.question_step(*y) == p.question_step(q);
    for (json& o : out["options"]) {
      const Option* option = nullptr;
      for (const Option& c : q.options) {
        if (c.id == o.value("id", "")) option = &c;
      }
      bool same_run = same_moment && option && same_action(option->action, y->fork);
      if (!knowledge_here && !same_run && !tells(p, *y, o.value("explanation", json())) && !tells(p, *y, runs_text(o))) continue;
      o["explanation"] = withheld(number).to_json();
      o["runs"] = json::array();
      o["witness"] = nullptr;
      o["withheld"] = y->id;
    }
  }
}

}  // namespace idemlab
