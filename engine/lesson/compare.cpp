#include "engine/lesson/compare.hpp"

#include <optional>
#include <stdexcept>
#include <vector>

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/timeline/timeline_json.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

json policy_json(const ComparePolicy& policy) {
  const Run run = simulate(policy.scenario, policy.scenario.faults);
  const RunVerdict verdict = check_invariants(run);
  json steps = json::array();
  for (std::size_t i = 0; i < run.steps.size(); ++i) steps.push_back(step_json(run, static_cast<int>(i), verdict));
  json out = json::object();
  put(out, "id", policy.id);
  put(out, "label", policy.label.to_json());
  // What this side replaces: client and service always (an object, maybe empty); provider,
  // timing and the script only where the policy replaces them.
  for (const std::string part : {"client", "service", "provider", "timing", "script"}) {
    auto o = policy.overrides.find(part);
    if (o != policy.overrides.end()) put(out, part.c_str(), *o);
    else if (part == "client" || part == "service") put(out, part.c_str(), json::object());
  }
  put(out, "messages", messages_json(run));
  put(out, "steps", std::move(steps));
  put(out, "verdict", verdict.to_json());
  put(out, "ending", ending_of(run).to_json());
  return out;
}

// The crashes and restarts the script itself performs ("the client crashes at 5 ms and
// restarts at 60 ms"), or nothing when it performs none.
std::optional<L10n> scripted_text(const Scenario& s) {
  std::vector<L10n> parts;
  std::vector<bool> used(s.script.size(), false);
  for (std::size_t i = 0; i < s.script.size(); ++i) {
    const Action& a = s.script[i];
    if (used[i] || (a.kind != ActionKind::CrashClient && a.kind != ActionKind::RestartClient)) continue;
    std::string at = std::to_string(a.at);
    if (a.kind == ActionKind::RestartClient) {
      parts.push_back({"客户端在 " + at + " ms 重启", "the client restarts at " + at + " ms"});
      continue;
    }
    std::size_t j = i + 1;
    while (j < s.script.size() && s.script[j].kind != ActionKind::RestartClient && s.script[j].kind != ActionKind::CrashClient) ++j;
    if (j < s.script.size() && s.script[j].kind == ActionKind::RestartClient) {
      used[j] = true;
      std::string back = std::to_string(s.script[j].at);
      parts.push_back({"客户端在 " + at + " ms 崩溃，" + back + " ms 重启",
                       "the client crashes at " + at + " ms and restarts at " + back + " ms"});
    } else {
      parts.push_back({"客户端在 " + at + " ms 崩溃，不再重启", "the client crashes at " + at + " ms and does not restart"});
    }
  }
  if (parts.empty()) return std::nullopt;
  L10n out = parts.front();
  for (std::size_t i = 1; i < parts.size(); ++i) out = L10n::join(out, parts[i], "；", "; ");
  return out;
}

// With nothing injected and nothing scripted, what still goes wrong is slowness: the
// service's work outlasting the client's timeout, or its queue's lease. Nothing when the
// service does its work at once.
std::optional<L10n> slowness_text(const Scenario& s) {
  if (s.service.processing_ms <= 0) return std::nullopt;
  const std::string work = std::to_string(s.service.processing_ms);
  const std::string wait = std::to_string(s.timing.timeout_ms);
  L10n out{"服务端的工作要做 " + work + " ms", "the service's work takes " + work + " ms"};
  if (s.service.processing_ms > s.timing.timeout_ms) {
    out = L10n::join(out, {"，比客户端等待回复的 " + wait + " ms 更长", ", longer than the " + wait + " ms the client waits for a reply"}, "", "");
  }
  if (s.service.lease_ms && *s.service.lease_ms < s.service.processing_ms) {
    const std::string lease = std::to_string(*s.service.lease_ms);
    out = L10n::join(out, {"，而队列借给 worker 的租期只有 " + lease + " ms", ", and the queue's lease (how long a worker may hold a request) is only " + lease + " ms"}, "", "");
  } else if (s.service.lease_ms) {
    // The lease is what differs when a fix lengthens it: say it outlasts the work.
    const std::string lease = std::to_string(*s.service.lease_ms);
    out = L10n::join(out, {"，队列借给 worker 的 " + lease + " ms 租期撑得到它做完", ", within the queue's " + lease + " ms lease"}, "", "");
  }
  return out;
}

}  // namespace

json compare_json(const PreparedLesson& p) {
  const Lesson& l = p.lesson;
  if (!l.compare) throw std::logic_error("compare_json: the lesson has no \"compare\" block");
  json policies = json::array();
  for (const ComparePolicy& policy : l.compare->policies) policies.push_back(policy_json(policy));
  json out = json::object();
  json lesson = json::object();
  put(lesson, "id", l.id);
  put(lesson, "title", l.title.to_json());
  put(out, "lesson", std::move(lesson));
  put(out, "intent", l.compare->counted_intent(l.scenario));
  // What goes wrong in both runs: the planned faults (a crash with when it restarts) and
  // the script's own crashes.
  L10n planned = l.scenario.faults.describe();
  for (std::size_t i = 0; i < l.scenario.faults.faults.size(); ++i) {
    const Fault& f = l.scenario.faults.faults[i];
    L10n one = f.describe();
    if (f.crashes()) {  // an error answer restarts nothing
      std::string ms = std::to_string(f.restart_after_ms);
      one = L10n::join(one, {"，" + ms + " ms 后重启", " and restarts " + ms + " ms later"}, "", "");
    }
    planned = i == 0 ? one : L10n::join(planned, one, "，", ", and ");
  }
  std::optional<L10n> scripted = scripted_text(l.scenario);
  // Slowness is each side's own (a policy may replace the timing or the service): the same
  // on both sides is said once, else per side.
  std::optional<L10n> slow;
  if (l.scenario.faults.faults.empty() && !scripted) {
    std::optional<L10n> a = slowness_text(l.compare->policies.front().scenario);
    std::optional<L10n> b = slowness_text(l.compare->policies.back().scenario);
    const L10n none{"没有注入故障，但", "no fault is injected, but "};
    if (a && b && a->en != b->en) {
      slow = L10n::join(none, L10n::join(L10n::join({"左边", "on the left "}, *a, "", ""),
                                         L10n::join({"右边", "on the right "}, *b, "", ""), "；", "; "), "", "");
    } else if (a || b) {
      slow = L10n::join(none, a ? *a : *b, "", "");
    }
  }
  L10n faults = slow                              ? *slow
                : !scripted                         ? planned
                : l.scenario.faults.faults.empty() ? *scripted
                                                   : L10n::join(planned, *scripted, "；", "; ");
  put(out, "faults", faults.to_json());
  put(out, "planned", planned.to_json());
  put(out, "scripted", scripted ? scripted->to_json() : json(nullptr));
  put(out, "narration", l.compare->narration ? l.compare->narration->to_json() : json(nullptr));
  put(out, "policies", std::move(policies));
  return out;
}

}  // namespace idemlab
