#include "engine/invariants/invariants.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>

#include "engine/json/fields.hpp"
#include "engine/sim/simulation.hpp"

namespace idemlab {
namespace {

using Tally = IntentTruth;

Tally tally_of(const std::map<std::string, Tally>& all, const std::string& intent) {
  auto it = all.find(intent);
  return it == all.end() ? Tally{} : it->second;
}

}  // namespace

std::map<std::string, IntentTruth> truth_at(const Run& run, const Step& s) {
  std::map<std::string, IntentTruth> out;
  for (const IntentRow& r : s.snap.intents) out[r.intent].row = &r;
  // Every row is in place: an effect's content is compared with its intent's row at once.
  for (const DeliveryRow& d : s.snap.deliveries) {
    auto owner = run.key_owner.find(d.op_key);
    if (owner == run.key_owner.end()) continue;
    IntentTruth& t = out[owner->second];
    ++t.effects;
    if (t.row && t.row->fingerprint == d.fingerprint) ++t.own_content;
  }
  for (const InProgress& p : s.snap.in_progress) {
    auto owner = run.key_owner.find(p.op_key);
    if (owner != run.key_owner.end()) ++out[owner->second].executions;
  }
  if (run.mail) {
    for (const EmailRow& e : s.snap.emails) {
      auto owner = run.key_owner.find(e.op_key);
      if (owner != run.key_owner.end()) ++out[owner->second].emails;
    }
  }
  return out;
}

namespace {

bool believes_done(const IntentRow* r) { return r && (r->status == status::kDelivered || r->receipt.has_value()); }

// Whether `inv` fails for an intent with tally `t` at one step (end-invariants: as if the
// run ended there).
bool fails(Invariant inv, const Tally& t, bool mail) {
  switch (inv) {
    case Invariant::DuplicateEffect: return t.effects > 1;
    case Invariant::FalseSuccess: return believes_done(t.row) && t.own_content == 0;
    case Invariant::FalseFailure:
      return t.row && (t.row->status == status::kFailed || t.row->status == status::kConflict) && t.own_content > 0;
    case Invariant::ForgottenIntent: return t.effects > 0 && (!t.row || t.row->status == status::kPending);
    case Invariant::LostNotification: return mail && t.effects > 0 && t.emails == 0;
    case Invariant::DuplicateNotification: return mail && t.emails > 1;
    case Invariant::ConcurrentExecution: return t.executions > 1;
  }
  return false;
}

std::string num(int n) { return std::to_string(n); }
std::string plural(int n, const std::string& one, const std::string& many) { return num(n) + " " + (n == 1 ? one : many); }
// The first 8 hex digits of a content hash, as the page shows fingerprints.
std::string short_hash(const std::string& fp) { return fp.substr(0, 8); }

// Why `inv` fails for `intent` with tally `t`, after its title: the intent and the numbers.
// `credits`: the provider's notices are credits to a balance (Run::credits), not emails.
L10n reason_body(Invariant inv, const std::string& intent, const Tally& t, bool credits) {
  switch (inv) {
    case Invariant::DuplicateEffect:
      return {"意图 " + intent + " 有 " + num(t.effects) + " 条业务效果，同一件事被服务端做了 " +
                  num(t.effects) + " 次",
              "" + num(t.effects) + " effects for " + intent};
    case Invariant::FalseSuccess: {
      const IntentRow& r = *t.row;
      L10n held = r.status == status::kDelivered ? L10n{"记着 DELIVERED", "says DELIVERED"}
                                                 : L10n{"持有一张回执", "holds a receipt"};
      if (t.effects == 0) {
        return {"客户端关于意图 " + intent + " 的记录" + held.zh + "，服务端却没有这个意图的任何业务效果",
                "the client's row for " + intent + " " + held.en + " while no effect of " + intent +
                    " exists"};
      }
      return {"客户端关于意图 " + intent + " 的记录" + held.zh + "，可它的内容（内容哈希 " +
                  short_hash(r.fingerprint) + "…）服务端从未接受：这个意图的 " + num(t.effects) +
                  " 条业务效果都是别的内容",
              "the client's row for " + intent + " " + held.en + " for content (hash " +
                  short_hash(r.fingerprint) + "…) the service never accepted: " +
                  (t.effects == 1 ? "the one effect of " + intent + " carries"
                                  : "all " + num(t.effects) + " effects of " + intent + " carry") +
                  " other content"};
    }
    case Invariant::FalseFailure: {
      // Judged at every step: the row is what the user is told, and the user acts on it at
      // once, so a later step that puts the row right does not take it back.
      const std::string& st = t.row->status;
      return {"客户端关于意图 " + intent + " 的记录写着 " + st + "，可它发出的这份内容已有 " +
                  num(t.own_content) + " 条业务效果——用户被告知没做成，事情其实已经做了",
              "the client's row for " + intent + " says " + st + " while " +
                  plural(t.own_content, "effect", "effects") + " of the very content it sent " +
                  (t.own_content == 1 ? "exists" : "exist") + ": the user was told it failed while the work was done"};
    }
    case Invariant::ForgottenIntent:
      if (!t.row) {
        return {"意图 " + intent + " 已有 " + num(t.effects) + " 条业务效果，客户端却没有这个意图的记录",
                "" + plural(t.effects, "effect", "effects") + " of " + intent +
                    (t.effects == 1 ? " exists" : " exist") + " and the client has no row for it"};
      }
      return {"意图 " + intent + " 已有 " + num(t.effects) +
                  " 条业务效果，客户端的记录却仍是 PENDING，已没有任何事情会去对账它",
              "" + plural(t.effects, "effect", "effects") + " of " + intent +
                  (t.effects == 1 ? " exists" : " exist") +
                  " and the client's row is still PENDING with nothing left to reconcile it"};
    case Invariant::LostNotification:
      if (credits) {
        return {"意图 " + intent + " 已有 " + num(t.effects) + " 条业务效果，余额账本却没有为它记过加值",
                "" + plural(t.effects, "effect", "effects") + " of " + intent + (t.effects == 1 ? " exists" : " exist") +
                    " and the balance ledger holds no credit for it"};
      }
      return {"意图 " + intent + " 已有 " + num(t.effects) + " 条业务效果，邮件服务商却没有收到关于它的任何通知邮件",
              "" + plural(t.effects, "effect", "effects") + " of " + intent +
                  (t.effects == 1 ? " exists" : " exist") + " and the mail provider's inbox holds no email for it"};
    case Invariant::DuplicateNotification:
      if (credits) {
        return {"余额账本为意图 " + intent + " 记了 " + num(t.emails) + " 次加值",
                plural(t.emails, "credit", "credits") + " for " + intent + " in the balance ledger"};
      }
      return {"邮件服务商收下了意图 " + intent + " 的 " + num(t.emails) + " 封通知邮件",
              "" + num(t.emails) + " emails for " + intent + " in the mail provider's inbox"};
    case Invariant::ConcurrentExecution:
      return {"服务端同时在处理意图 " + intent + " 的 " + num(t.executions) + " 个请求：同一件事的工作正在跑 " +
                  num(t.executions) + " 遍",
              "the service is processing " + num(t.executions) + " requests of " + intent +
                  " at once: the same work is running " + num(t.executions) + " times"};
  }
  return {};
}

// "duplicate effect: 2 effects for weekly-report": the invariant's title, then why. With
// `past_at_ms`, an always-invariant broken at that virtual time that holds again by the
// run's end (a FAILED row a resend put right, two executions that ended): said as of that
// time, so that it is not read as the run's final state.
L10n reason(Invariant inv, const std::string& intent, const Tally& t, bool credits, std::int64_t past_at_ms = -1) {
  const L10n& title = info(inv).title;
  L10n why = reason_body(inv, intent, t, credits);
  if (past_at_ms >= 0) {
    const std::string at = std::to_string(past_at_ms);
    why = {"在 t=" + at + " ms 时，" + why.zh + "（到运行结束时已不再如此）",
           "at t=" + at + " ms, " + why.en + " (no longer so by the end of the run)"};
  }
  return {title.zh + "：" + why.zh, title.en + ": " + why.en};
}

int table_index(Invariant i) {
  const auto& table = invariant_table();
  for (std::size_t k = 0; k < table.size(); ++k) {
    if (table[k].id == i) return static_cast<int>(k);
  }
  return 0;
}

bool before(const Violation& a, const Violation& b) {
  if (a.step != b.step) return a.step < b.step;
  int ia = table_index(a.invariant), ib = table_index(b.invariant);
  if (ia != ib) return ia < ib;
  return a.intent < b.intent;
}

}  // namespace

const std::vector<InvariantInfo>& invariant_table() {
  static const std::vector<InvariantInfo> table = {
      {Invariant::DuplicateEffect, "duplicate_effect", InvariantScope::Always,
       {"重复业务效果", "duplicate effect"},
       {"一个意图至多只有一条业务效果", "one intent has at most one effect"}},
      {Invariant::FalseSuccess, "false_success", InvariantScope::Always,
       {"虚假成功", "false success"},
       {"客户端记着 DELIVERED 或持有回执时，服务端确有这个意图、这份内容的业务效果",
        "a client row that says DELIVERED or holds a receipt has an effect of that intent and that content behind it"}},
      {Invariant::FalseFailure, "false_failure", InvariantScope::Always,
       {"虚假失败", "false failure"},
       {"客户端的记录写着 FAILED 或 CONFLICT 的任何一刻，它发出的这份内容都没有业务效果：不能在事情已经做了的时候告诉用户没做成",
        "whenever a client row says FAILED or CONFLICT, no effect of the content it sent exists: the user is never told it failed while the work was done"}},
      {Invariant::ForgottenIntent, "forgotten_intent", InvariantScope::AtEnd,
       {"被遗忘的意图", "forgotten intent"},
       {"每条业务效果最终都有客户端的记录，且这条记录已不再是 PENDING",
        "every effect ends with a client row for its intent that is no longer PENDING"}},
      {Invariant::LostNotification, "lost_notification", InvariantScope::AtEnd,
       {"丢失的通知", "lost notification"},
       {"每条业务效果最终都有一封通知邮件", "every effect ends with a notification email"}},
      {Invariant::DuplicateNotification, "duplicate_notification", InvariantScope::Always,
       {"重复通知", "duplicate notification"},
       {"一个意图至多只有一封通知邮件", "one intent has at most one notification email"}},
      {Invariant::ConcurrentExecution, "concurrent_execution", InvariantScope::Always,
       {"并发执行", "concurrent execution"},
       {"服务端同一时刻至多在处理一个意图的一个请求", "the service processes at most one request of an intent at a time"}},
  };
  return table;
}

const InvariantInfo& info(Invariant i) { return invariant_table().at(static_cast<std::size_t>(table_index(i))); }

const char* to_string(Invariant i) { return info(i).name; }

nlohmann::json Violation::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  put(out, "invariant", to_string(invariant));
  put(out, "intent", intent);
  put(out, "step", step);
  put(out, "reason", reason.to_json());
  return out;
}

std::vector<Violation> RunVerdict::about(const std::string& intent) const {
  std::vector<Violation> out;
  for (const Violation& v : violations) {
    if (v.intent == intent) out.push_back(v);
  }
  return out;
}

std::vector<Violation> RunVerdict::at_step(const Run& run, int step) const {
  std::vector<Violation> out;
  if (step < 0 || step >= static_cast<int>(run.steps.size())) return out;
  bool last = step == static_cast<int>(run.steps.size()) - 1;
  std::map<std::string, Tally> all;
  bool tallied = false;
  for (const Violation& v : violations) {
    if (info(v.invariant).scope == InvariantScope::AtEnd) {
      if (last) out.push_back(v);
      continue;
    }
    if (v.step > step) continue;
    if (!tallied) {
      all = truth_at(run, run.steps[step]);
      tallied = true;
    }
    Tally t = tally_of(all, v.intent);
    if (!fails(v.invariant, t, run.mail)) continue;  // it holds again here
    Violation now = v;
    now.reason = reason(v.invariant, v.intent, t, run.credits);  // the numbers of this step
    out.push_back(std::move(now));
  }
  return out;
}

nlohmann::json RunVerdict::to_json() const {
  nlohmann::json vs = nlohmann::json::array();
  for (const Violation& v : violations) vs.push_back(v.to_json());
  nlohmann::json out = nlohmann::json::object();
  put(out, "stop", to_string(stop));
  put(out, "stop_text", describe(stop).to_json());
  put(out, "violations", std::move(vs));
  return out;
}

RunVerdict check_invariants(const Run& run) {
  RunVerdict verdict;
  verdict.stop = run.stop;
  if (run.steps.empty()) return verdict;
  const bool mail = run.mail;
  const bool settled = run.stop == StopReason::Settled;

  // The intents to judge: each with a client row at some step, or owning an effect.
  std::set<std::string> intents;
  for (const Step& s : run.steps) {
    for (const IntentRow& r : s.snap.intents) intents.insert(r.intent);
    for (const DeliveryRow& d : s.snap.deliveries) {
      auto owner = run.key_owner.find(d.op_key);
      if (owner != run.key_owner.end()) intents.insert(owner->second);
    }
    for (const InProgress& p : s.snap.in_progress) {
      auto owner = run.key_owner.find(p.op_key);
      if (owner != run.key_owner.end()) intents.insert(owner->second);
    }
  }

  // One pass over the steps. Always-invariants: the first step each fails at. End-
  // invariants: the first step of the current streak in which each fails (-1: holds).
  std::map<std::pair<int, std::string>, Violation> first;  // (table index, intent) -> violation
  std::map<std::pair<int, std::string>, Tally> first_tally;  // its numbers at that step
  std::map<std::pair<int, std::string>, int> streak;
  const auto& table = invariant_table();
  std::map<std::string, Tally> all;
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    const Snapshot& snap = run.steps[i].snap;
    if (i > 0) {
      // A step that changed none of the tables judged (most: a send, a receive) leaves
      // every invariant as the step before did.
      const Snapshot& before = run.steps[i - 1].snap;
      if (snap.intents == before.intents && snap.deliveries == before.deliveries && snap.emails == before.emails &&
          snap.in_progress == before.in_progress) {
        continue;
      }
    }
    all = truth_at(run, run.steps[i]);
    for (std::size_t k = 0; k < table.size(); ++k) {
      const InvariantInfo& inv = table[k];
      bool always = inv.scope == InvariantScope::Always;
      if (!always && !settled) continue;
      for (const std::string& intent : intents) {
        std::pair<int, std::string> at{static_cast<int>(k), intent};
        Tally t = tally_of(all, intent);
        bool f = fails(inv.id, t, mail);
        if (always) {
          if (f && !first.count(at)) {
            first[at] = Violation{inv.id, intent, static_cast<int>(i), reason(inv.id, intent, t, run.credits)};
            first_tally[at] = t;
          }
        } else if (!f) {
          streak.erase(at);
        } else if (!streak.count(at)) {
          streak[at] = static_cast<int>(i);
        }
      }
    }
  }
  for (auto& [at, v] : first) {
    // Still broken at the end: its reason gives the end's numbers, as the run's ending
    // does ("3 effects", not the 2 of the step where it first broke).
    Tally end = tally_of(all, v.intent);
    if (fails(v.invariant, end, mail)) {
      v.reason = reason(v.invariant, v.intent, end, run.credits);
    } else {
      v.reason = reason(v.invariant, v.intent, first_tally[at], run.credits, run.steps[static_cast<std::size_t>(v.step)].t);
    }
    verdict.violations.push_back(std::move(v));
  }
  for (const auto& [at, step] : streak) {
    const InvariantInfo& inv = table[static_cast<std::size_t>(at.first)];
    // The reason as of the end, where the verdict is given.
    verdict.violations.push_back(Violation{inv.id, at.second, step, reason(inv.id, at.second, tally_of(all, at.second), run.credits)});
  }
  std::sort(verdict.violations.begin(), verdict.violations.end(), before);
  return verdict;
}

const char* to_string(StopReason s) {
  switch (s) {
    case StopReason::Settled: return "settled";
    case StopReason::StepLimit: return "step_limit";
    case StopReason::Horizon: return "horizon";
  }
  return "?";
}

L10n describe(StopReason s) {
  switch (s) {
    case StopReason::Settled:
      return {"运行已结束：再没有任何事情会发生，结束时的不变量都已判断",
              "the run settled: nothing was left to happen, so the invariants of its end are judged too"};
    case StopReason::StepLimit: {
      std::string n = std::to_string(Simulation::kMaxSteps);
      return {"运行在第 " + n + " 步的上限处停下，还有事情没有发生：只判断每一步都必须成立的不变量",
              "the run stopped at the limit of " + n +
                  " steps with events still to come: only the invariants that must hold at every step are judged"};
    }
    case StopReason::Horizon: {
      std::string sec = std::to_string(Simulation::kHorizonMs / 1000);
      return {"下一件事发生在虚拟时间 " + sec + " 秒之后，运行在此停下：只判断每一步都必须成立的不变量",
              "the run stopped at the " + sec +
                  " s virtual-time horizon with events still to come: only the invariants that must hold at every "
                  "step are judged"};
    }
  }
  return {};
}

RunEnding ending_of(const Run& run) {
  RunEnding out;
  out.mail = run.mail;
  out.credits = run.credits;
  out.stop = run.stop;
  const Step& last = run.steps.back();
  const std::map<std::string, IntentTruth> truth = truth_at(run, last);
  auto add = [&](const std::string& intent) {
    for (const IntentEnding& e : out.intents) {
      if (e.intent == intent) return;
    }
    IntentEnding e;
    e.intent = intent;
    e.status = "NONE";
    auto t = truth.find(intent);
    if (t != truth.end()) {
      e.effects = t->second.effects;
      e.emails = t->second.emails;
      if (t->second.row) e.status = t->second.row->status;
    }
    out.intents.push_back(std::move(e));
  };
  for (const IntentRow& r : last.snap.intents) add(r.intent);
  for (const DeliveryRow& d : last.snap.deliveries) {
    auto owner = run.key_owner.find(d.op_key);
    if (owner != run.key_owner.end()) add(owner->second);
  }
  return out;
}

std::string RunEnding::key() const {
  std::string key;
  for (const IntentEnding& e : intents) {
    key += (key.empty() ? "" : ";") + e.intent + "=" + e.status + "/" + std::to_string(e.effects);
    if (mail) key += "/" + std::to_string(e.emails) + "mail";
  }
  if (stop != StopReason::Settled) key += std::string("|") + to_string(stop);
  return key;
}

L10n RunEnding::text() const {
  L10n text;
  for (const IntentEnding& e : intents) {
    std::string n = std::to_string(e.effects);
    L10n one = {e.intent + "：" + (e.status == "NONE" ? std::string("客户端没有记录") : e.status) + "，" + n + " 条业务效果",
                e.intent + ": " + (e.status == "NONE" ? std::string("no client row") : e.status) + ", " + n +
                    (e.effects == 1 ? " effect" : " effects")};
    if (mail) {
      std::string m = std::to_string(e.emails);
      L10n count = credits ? L10n{"，" + m + " 次加值", m + (e.emails == 1 ? " credit" : " credits")}
                           : L10n{"，" + m + " 封邮件", m + (e.emails == 1 ? " email" : " emails")};
      one = L10n::join(one, count, "", ", ");
    }
    text = text.en.empty() ? one : L10n::join(text, one, "；", "; ");
  }
  if (stop != StopReason::Settled) {
    text = L10n::join(text, describe(stop), "（", " (");
    text.zh += "）";
    text.en += ")";
  }
  return text;
}

nlohmann::json RunEnding::to_json() const {
  nlohmann::json list = nlohmann::json::array();
  for (const IntentEnding& e : intents) {
    nlohmann::json o = nlohmann::json::object();
    put(o, "intent", e.intent);
    put(o, "status", e.status);
    put(o, "effects", e.effects);
    if (mail) put(o, "emails", e.emails);
    list.push_back(std::move(o));
  }
  nlohmann::json out = nlohmann::json::object();
  put(out, "key", key());
  put(out, "text", text().to_json());
  put(out, "intents", list);
  put(out, "stop", to_string(stop));
  if (mail) put(out, "effect", credits ? "credit" : "email");  // what `emails` counts
  return out;
}

}  // namespace idemlab
