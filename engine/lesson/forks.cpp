#include "engine/lesson/forks.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>

#include "engine/invariants/invariants.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {

const IntentRow* final_row(const Run& run, const std::string& intent) {
  for (const IntentRow& r : run.steps.back().snap.intents) {
    if (r.intent == intent) return &r;
  }
  return nullptr;
}

}  // namespace

std::vector<ForkedRun> fork_runs(const PreparedLesson& p, int step, const std::optional<Action>& action,
                                 std::string& unsettled) {
  return std::move(fork_runs(p, step, std::vector<std::optional<Action>>{action}, unsettled).front());
}

std::vector<std::vector<ForkedRun>> fork_runs(const PreparedLesson& p, int step,
                                              const std::vector<std::optional<Action>>& actions, std::string& unsettled) {
  std::vector<std::vector<ForkedRun>> out(actions.size());
  bool any = std::any_of(actions.begin(), actions.end(), [](const std::optional<Action>& a) { return a.has_value(); });
  std::set<int> done;
  for (auto [w, j] : p.knowledge->possible(Side::Client, step)) {
    if (!done.insert(w).second) continue;  // the first matching step of each world
    const World& world = p.worlds[w];
    // The world's run up to its matching step, simulated once for every action: the
    // steps before it are the world's own (no action has happened yet).
    std::optional<Simulation> paused;
    if (any) {
      paused.emplace(p.lesson.scenario, world.plan, std::vector<Action>{}, &standard_nodes);
      if (!paused->pause_after(j)) throw std::logic_error("a world's run ends before its matching step");
    }
    std::size_t last = actions.size();  // the last action: it takes the paused run over
    for (std::size_t k = 0; k < actions.size(); ++k) {
      if (actions[k]) last = k;
    }
    for (std::size_t k = 0; k < actions.size(); ++k) {
      const std::optional<Action>& action = actions[k];
      out[k].emplace_back();
      ForkedRun& f = out[k].back();
      f.world = w;
      f.run = &world.run;
      f.from_step = j;
      if (action) {
        Action a = *action;
        a.after_step = j;
        f.forked = Simulation::fork(*paused, {a}, k == last)->run();
      }
      // A run stopped at a limit (the step limit or the horizon) was never judged at its
      // end: an answer over it would be inconclusive.
      const Run& judged = action ? f.forked : world.run;
      if (judged.stop != StopReason::Settled) {
        unsettled = "a run it is judged on does not settle: " + describe(judged.stop).en;
        return out;
      }
    }
  }
  // Pointers last: the vectors no longer grow.
  for (std::size_t k = 0; k < actions.size(); ++k) {
    for (ForkedRun& f : out[k]) {
      if (actions[k]) f.run = &f.forked;
    }
  }
  return out;
}

std::string next_status(const Run& run, int from, const std::string& intent) {
  for (std::size_t i = static_cast<std::size_t>(from) + 1; i < run.steps.size(); ++i) {
    const Event& e = run.steps[i].event;
    if (e.side == Side::Client && e.type == EventKind::Record && e.intent == intent) return e.local.status.value_or("NONE");
  }
  return "NONE";
}

int keys_used(const Run& run, const std::string& intent) {
  std::set<std::string> keys;
  for (const Message& m : run.messages) {
    if (m.kind == MessageKind::Request && m.intent == intent) keys.insert(m.op_key);
  }
  return static_cast<int>(keys.size());
}

int requests_sent(const Run& run, const std::string& intent) {
  int n = 0;
  for (const Message& m : run.messages) n += m.kind == MessageKind::Request && m.intent == intent;
  return n;
}

std::string final_status(const Run& run, const std::string& intent) {
  const IntentRow* r = final_row(run, intent);
  return r ? r->status : "NONE";
}

bool final_receipt(const Run& run, const std::string& intent) {
  const IntentRow* r = final_row(run, intent);
  return r && r->receipt.has_value();
}

}  // namespace idemlab
