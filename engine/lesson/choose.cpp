#include "engine/lesson/choose.hpp"

#include <algorithm>

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/lesson/forks.hpp"

namespace idemlab {
namespace {

L10n quoted(const L10n& label) { return {"“" + label.zh + "”", "“" + label.en + "”"}; }

// Names the witness run and the option, then says what the invariants found there.
L10n unsafe_explanation(const PreparedLesson& p, const Option& o, const OptionRun& r) {
  L10n run = run_name(p.worlds[r.world]);
  L10n label = quoted(o.label);
  return {"不安全：在" + run.zh + "里，" + label.zh + "之后——" + r.reason.zh + "。",
          "Unsafe: in " + run.en + ", after " + label.en + ", " + r.reason.en + "."};
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

std::vector<OptionJudgement> judge_options(const PreparedLesson& p, const Question& q, std::string& unsettled) {
  int step = p.question_step(q);
  std::vector<OptionJudgement> out;
  std::vector<std::optional<Action>> actions;
  for (const Option& o : q.options) actions.push_back(o.action);
  std::vector<std::vector<ForkedRun>> forks = fork_runs(p, step, actions, unsettled);
  if (!unsettled.empty()) return out;
  for (std::size_t k = 0; k < q.options.size(); ++k) {
    const Option& o = q.options[k];
    OptionJudgement j;
    j.id = o.id;
    for (const ForkedRun& f : forks[k]) {
      OptionRun r;
      r.world = f.world;
      const Run& run = *f.run;
      r.effects = effects_for(run, static_cast<int>(run.steps.size()) - 1, q.intent);
      r.status = final_status(run, q.intent);
      r.receipt = final_receipt(run, q.intent);
      std::vector<Violation> broken = check_invariants(run).about(q.intent);
      if (!broken.empty()) {
        r.problem = to_string(broken.front().invariant);
        r.reason = broken.front().reason;
      }
      if (!r.problem.empty() && j.witness < 0) j.witness = static_cast<int>(j.runs.size());
      j.runs.push_back(r);
    }
    j.safe = j.witness < 0;
    j.explanation = j.safe ? safe_explanation(o, j.runs) : unsafe_explanation(p, o, j.runs[j.witness]);
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
  return "options " + safe + " are all safe, and exactly one must be: none of them breaks an invariant "
         "(engine/invariants/) for the intent in any run the client cannot tell apart at this moment";
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
