#include "engine/lesson/choose.hpp"

#include <algorithm>

#include "engine/json/fields.hpp"
#include "engine/lesson/forks.hpp"

namespace idemlab {
namespace {

// Why one run's end is unsafe for the intent, or "".
std::string problem_of(const OptionRun& r) {
  if (r.effects > 1) return "duplicate";
  bool believes_done = r.status == status::kDelivered || r.receipt;
  if (believes_done && r.effects == 0) return "belief_contradicts_truth";
  if (r.status == status::kFailed && r.effects > 0) return "belief_contradicts_truth";
  return "";
}

L10n quoted(const L10n& label) { return {"“" + label.zh + "”", "“" + label.en + "”"}; }

L10n unsafe_explanation(const PreparedLesson& p, const Option& o, const std::string& intent, const OptionRun& r) {
  L10n run = run_name(p.worlds[r.world]);
  L10n label = quoted(o.label);
  std::string n = std::to_string(r.effects);
  if (r.problem == "duplicate") {
    return {"不安全：在" + run.zh + "里，" + label.zh + "最后让意图 " + intent + " 有 " + n +
                " 条业务效果——同一件事被服务端做了 " + n + " 次。",
            "Unsafe: in " + run.en + ", " + label.en + " ends with " + n + " effects for the intent " + intent +
                ": the service did the same work " + (r.effects == 2 ? std::string("twice") : n + " times") + "."};
  }
  if (r.status == status::kFailed) {
    return {"不安全：在" + run.zh + "里，" + label.zh + "最后客户端记下 FAILED，可服务端已有 " + n +
                " 条业务效果——客户端以为没做成的事，其实已经做了。",
            "Unsafe: in " + run.en + ", " + label.en + " ends with the client recording FAILED while " + n +
                (r.effects == 1 ? " effect exists" : " effects exist") +
                ": the client believes the work was not done, and it was."};
  }
  L10n held = r.status == status::kDelivered ? L10n{"DELIVERED", "DELIVERED"} : L10n{"一张回执", "a receipt"};
  return {"不安全：在" + run.zh + "里，" + label.zh + "最后客户端记着 " + held.zh +
              "，服务端却没有任何业务效果——客户端以为做成了，其实没有。",
          "Unsafe: in " + run.en + ", " + label.en + " ends with the client holding " + held.en +
              " while no effect exists: the client believes the work was done, and it was not."};
}

L10n safe_explanation(const Option& o, const std::vector<OptionRun>& runs) {
  // The distinct ends, in the order first met: "DELIVERED with 1 effect".
  std::vector<std::pair<std::string, int>> ends;
  for (const OptionRun& r : runs) {
    std::pair<std::string, int> e{r.status, r.effects};
    if (std::find(ends.begin(), ends.end(), e) == ends.end()) ends.push_back(e);
  }
  std::string zh_ends, en_ends;
  for (const auto& [status, effects] : ends) {
    std::string n = std::to_string(effects);
    zh_ends += (zh_ends.empty() ? "" : "；") + status + "，" + n + " 条业务效果";
    en_ends += (en_ends.empty() ? "" : "; ") + status + " with " + n + " effect" + (effects == 1 ? "" : "s");
  }
  L10n label = quoted(o.label);
  std::string n = std::to_string(runs.size());
  return {"安全：在客户端此刻分不清的 " + n + " 次运行里，" + label.zh +
              "每一次最后都至多只有一条业务效果，客户端的记录也与事实相符（" + zh_ends + "）。",
          "Safe: in each of the " + n + " runs the client cannot tell apart at this moment, " + label.en +
              " ends with at most one effect and a client record the truth agrees with (" + en_ends + ")."};
}

}  // namespace

std::vector<OptionJudgement> judge_options(const PreparedLesson& p, const Question& q) {
  int step = p.question_step(q);
  std::vector<OptionJudgement> out;
  for (const Option& o : q.options) {
    OptionJudgement j;
    j.id = o.id;
    for (const ForkedRun& f : fork_runs(p, step, o.action)) {
      OptionRun r;
      r.world = f.world;
      const Run& run = *f.run;
      r.effects = effects_for(run, static_cast<int>(run.steps.size()) - 1, q.intent);
      r.status = final_status(run, q.intent);
      r.receipt = final_receipt(run, q.intent);
      r.problem = problem_of(r);
      if (!r.problem.empty() && j.witness < 0) j.witness = static_cast<int>(j.runs.size());
      j.runs.push_back(r);
    }
    j.safe = j.witness < 0;
    j.explanation = j.safe ? safe_explanation(o, j.runs) : unsafe_explanation(p, o, q.intent, j.runs[j.witness]);
    out.push_back(std::move(j));
  }
  return out;
}

std::string safe_count_problem(const std::vector<OptionJudgement>& judged) {
  std::string safe, why;
  for (const OptionJudgement& j : judged) {
    if (j.safe) safe += (safe.empty() ? "'" : ", '") + j.id + "'";
    else why += (why.empty() ? "" : " ") + ("'" + j.id + "': " + j.explanation.en);
  }
  if (safe.empty()) return "no option is safe, and exactly one must be. " + why;
  if (safe.find(',') == std::string::npos) return "";
  return "options " + safe + " are all safe, and exactly one must be: none of them ends with a duplicate "
         "effect or a false client record in any run the client cannot tell apart at this moment";
}

nlohmann::json OptionJudgement::to_json(const PreparedLesson& p, const Question& q) const {
  nlohmann::json rs = nlohmann::json::array();
  for (const OptionRun& r : runs) {
    nlohmann::json run = nlohmann::json::object();
    put(run, "world", r.world);
    put(run, "run", run_name(p.worlds[r.world]).to_json());
    put(run, "effects", r.effects);
    put(run, "status", r.status);
    put(run, "receipt", r.receipt);
    put(run, "problem", r.problem.empty() ? nlohmann::json(nullptr) : nlohmann::json(r.problem));
    rs.push_back(std::move(run));
  }
  std::string does;
  for (const Option& o : q.options) {
    if (o.id == id) does = o.does;
  }
  nlohmann::json out = nlohmann::json::object();
  put(out, "id", id);
  put(out, "do", does);
  put(out, "safe", safe);
  put(out, "explanation", explanation.to_json());
  put(out, "witness", witness < 0 ? nlohmann::json(nullptr) : nlohmann::json(runs[witness].world));
  put(out, "runs", std::move(rs));
  return out;
}

}  // namespace idemlab
