#include "engine/explore/explore.hpp"

#include <algorithm>
#include <chrono>
#include <map>
#include <set>

#include "engine/json/fields.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/sim/schedules.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

FaultPlan fired_plan(const Run& run) {
  FaultPlan p;
  p.faults = run.fired;
  return p;
}

const Violation* find_violation(const RunVerdict& v, Invariant invariant, const std::string& intent) {
  for (const Violation& x : v.violations) {
    if (x.invariant == invariant && x.intent == intent) return &x;
  }
  return nullptr;
}

std::string count_text(long long n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

// The innermost layer (past the first) that retries and was never seen to, when the layers
// inside it make more sends per call than the search's K: each of those sends must fail
// before it retries, so no schedule of up to K faults got there (see LayersAbsorb).
std::optional<LayersAbsorb> layers_absorb(const std::vector<RetryLayer>& layers, const std::set<std::string>& retried, int k) {
  long long sends = 1;  // per call of the layers inside layers[i]
  std::vector<std::string> inner;
  for (const RetryLayer& l : layers) {
    if (!inner.empty() && l.attempts > 1 && !retried.count(l.layer) && sends > k) {
      std::string names, zh_names;
      for (const std::string& n : inner) {
        names += (names.empty() ? "\"" : ", \"") + n + "\"";
        zh_names += (zh_names.empty() ? "“" : "、“") + n + "”";
      }
      std::string until = "no schedule of up to " + count_text(k, "fault", "faults") + " made the \"" + l.layer +
                          "\" layer retry: the layers inside it (" + names + ") make up to " + count_text(sends, "send", "sends") +
                          " per call, and it retries only once every one of them has failed";
      std::string zh = "最多含 " + std::to_string(k) + " 个故障的组合都没能让“" + l.layer + "”层重试：它里面的层（" + zh_names +
                       "）每次调用最多发送 " + std::to_string(sends) + " 次，全部失败它才会重试";
      if (sends <= ExploreLimits::kMaxFaults) {
        until += "; explore with K = " + std::to_string(sends) + " to reach past them";
        zh += "；用 K = " + std::to_string(sends) + " 再搜索，才能越过它们";
      } else {
        until += "; that is more faults than the explorer searches (" + std::to_string(ExploreLimits::kMaxFaults) +
                 "): give the inner layers fewer attempts to search past them";
        zh += "；这超过了搜索的上限（" + std::to_string(ExploreLimits::kMaxFaults) + " 个故障）：减少里面各层的尝试次数才能越过它们";
      }
      return LayersAbsorb{l.layer, inner, sends, {zh, until}};
    }
    inner.push_back(l.layer);
    sends *= l.attempts;  // at most 20^5 (limits: 5 layers of 20 attempts)
  }
  return std::nullopt;
}


// The plan's faults by id, sorted and joined: the same faults listed in another order are
// the same schedule.
std::string plan_key(const FaultPlan& plan) {
  std::vector<std::string> ids;
  for (const Fault& f : plan.faults) ids.push_back(f.id());
  std::sort(ids.begin(), ids.end());
  std::string planned;
  for (const std::string& id : ids) planned += (planned.empty() ? "" : ",") + id;
  return planned;
}

// Why a search was cut, for the learner ("" when it was not).
L10n cut_text(const std::string& cut, int max_schedules, std::int64_t max_ms, int schedules) {
  if (cut == "memory") {
    return {"搜索在 " + std::to_string(schedules) + " 个故障组合处停下（内存上限），结果不完整",
            "the search stopped at " + std::to_string(schedules) +
                " schedules (the memory limit): the result is incomplete"};
  }
  if (cut == "schedules") {
    return {"搜索在 " + std::to_string(max_schedules) + " 个故障组合处停下（组合数上限），结果不完整",
            "the search stopped at " + std::to_string(max_schedules) +
                " schedules (the schedule limit): the result is incomplete"};
  }
  if (cut == "time") {
    return {"搜索在 " + std::to_string(max_ms) + " 毫秒时停下（时间上限），结果不完整",
            "the search stopped after " + std::to_string(max_ms) +
                " ms (the time limit): the result is incomplete"};
  }
  if (cut == "violation") {
    return {"搜索在第一个违反所问不变量的故障组合处停下，结果不完整",
            "the search stopped at the first schedule that breaks an invariant it was asked about: the result is incomplete"};
  }
  return {};
}

// (invariant, intent): the kind of a violation; counterexamples are kept per kind.
using ViolationKind = std::pair<int, std::string>;

// The counterexamples found, each shrunk (one that shrinks to a plan already kept for its
// kind is dropped): fewest faults first, then the earliest violation; ties keep the order
// found.
std::vector<Counterexample> shrunk_counterexamples(const Scenario& scenario,
                                                   const std::map<ViolationKind, std::vector<Counterexample>>& found) {
  std::vector<Counterexample> shrunk;
  for (const auto& [kind, list] : found) {
    std::set<std::string> kept;
    for (const Counterexample& c : list) {
      Counterexample s = c.plan.faults.size() > 1
                             ? shrink(scenario, c.plan, c.violation.invariant, c.violation.intent)
                             : c;
      if (kept.insert(s.plan.id()).second) shrunk.push_back(std::move(s));
    }
  }
  std::vector<std::size_t> order;
  for (std::size_t i = 0; i < shrunk.size(); ++i) order.push_back(i);
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    const Counterexample& x = shrunk[a];
    const Counterexample& y = shrunk[b];
    if (x.plan.faults.size() != y.plan.faults.size()) return x.plan.faults.size() < y.plan.faults.size();
    if (x.violation.step != y.violation.step) return x.violation.step < y.violation.step;
    return a < b;
  });
  std::vector<Counterexample> sorted;
  for (std::size_t i : order) sorted.push_back(std::move(shrunk[i]));
  return sorted;
}

// Every kind of fault, and the client's lost row where a user's re-run may answer it
// (next_searched_faults).
FaultSpace search_space(const Scenario& scenario) {
  FaultSpace space = every_fault(scenario.space.restart_after_ms);
  if (has_rerun(scenario.script)) space.row_loss_points = {RowPoint::RolledBack, RowPoint::NotSaved};
  return space;
}

// A plan in the search tree, and how many children it has. The faults its children add are
// found again from its run when the search reaches them (visit_depth): kept for every node
// of a depth, they took up to 14 KB a node in WASM (20,000 schedules of K = 3 on a scenario
// of 8 intents: 281 MiB; now 7). The run more per node costs time where nodes have few
// children: natively 09-retry-layers at K = 3 takes 2.3 -> 2.7 s for 20,000 schedules.
struct Node {
  FaultPlan plan;
  int children = 0;
};

// One search (explore()): the tree walked breadth first, a depth at a time, and what its
// runs have shown so far.
class Search {
 public:
  using Clock = std::chrono::steady_clock;

  Search(const Scenario& scenario, const ExploreLimits& limits)
      : scenario_(scenario),
        limits_(limits),
        start_(Clock::now()),
        max_schedules_(std::clamp(limits.max_schedules, 1, ExploreLimits::kMaxSchedules)),
        space_(search_space(scenario)) {
    out_.max_faults = std::clamp(limits.max_faults, 0, ExploreLimits::kMaxFaults);
  }

  ExploreResult run() {
    std::vector<Node> frontier;
    bool go = visit(FaultPlan{}, 0, &frontier, nullptr, -1, false);
    for (int depth = 1; go && depth <= out_.max_faults; ++depth) go = visit_depth(depth, frontier);
    out_.cut_text = cut_text(out_.cut, max_schedules_, limits_.max_ms, out_.schedules);
    if (out_.complete) out_.layers_absorb = layers_absorb(scenario_.client.retry_layers, retried_, out_.max_faults);
    sort_outcomes();
    out_.counterexamples = shrunk_counterexamples(scenario_, found_);
    return std::move(out_);
  }

 private:
  // Visits every child of the nodes in `frontier` (the plans of `depth` faults), reporting
  // progress; `frontier` becomes the nodes of this depth. False when a limit stops the search.
  bool visit_depth(int depth, std::vector<Node>& frontier) {
    std::vector<Node> next_level;
    ExploreProgress progress;
    progress.depth = depth;
    progress.max_faults = out_.max_faults;
    for (const Node& node : frontier) progress.total += node.children;
    auto report = [&] {
      progress.schedules = out_.schedules;
      if (limits_.on_progress) limits_.on_progress(progress);
    };
    report();
    bool go = true;
    for (const Node& node : frontier) {
      // The node's run again, for the faults its children add and where its run passes them.
      std::vector<Fault> next;
      std::vector<int> works;
      children_of(node.plan, next, works);
      // The children forked from one paused run of the node's plan (sim/schedules.hpp).
      OneMoreFault forks(scenario_, &standard_nodes, node.plan);
      for (std::size_t c = 0; c < next.size(); ++c) {
        FaultPlan plan = node.plan;
        plan.faults.push_back(next[c]);
        if (!(go = visit(plan, depth, depth < out_.max_faults ? &next_level : nullptr, &forks, works[c],
                         c + 1 == next.size()))) {
          break;
        }
        if (++progress.done % ExploreLimits::kProgressEvery == 0) report();
      }
      if (!go) break;
    }
    if (go) report();
    frontier = std::move(next_level);
    return go;
  }

  // Simulates one plan (with `forks`, forked from its parent's paused run: the plan's last
  // fault is the one added, first passed at event `work`); false when a limit stops the search.
  bool visit(const FaultPlan& plan, int depth, std::vector<Node>* children, OneMoreFault* forks, int work, bool last) {
    if (limit_reached()) return false;
    // The same faults listed in another order are the same schedule: skip it unrun.
    std::string planned = plan_key(plan);
    if (seen_.count(planned)) return true;
    Run run = forks ? forks->run(plan.faults.back(), work, last) : simulate(scenario_, plan);
    std::string fired_key = schedule_key(run);
    const bool same = fired_key == planned;
    remember(std::move(planned));
    if (!same && !remember(std::move(fired_key))) return true;
    // A lost row no re-run answers in this run is outside the space (search_space).
    if (!losses_answered(run)) return true;
    ++out_.schedules;
    note_retries(run);
    RunVerdict verdict = check_invariants(run);
    FaultPlan fired = fired_plan(run);
    count_outcome(run, verdict, fired);
    count_inconclusive(run, verdict, fired);
    keep_counterexamples(verdict, fired);
    if (stops_on(verdict)) {
      out_.complete = false;
      out_.cut = "violation";
      return false;
    }
    if (children && depth < out_.max_faults) {
      children->push_back({fired, static_cast<int>(next_searched_faults(run, fired, space_, scenario_.script).size())});
      bytes_ += kNodeBytes;
      for (const Fault& f : fired.faults) bytes_ += kFaultBytes + f.intent.size();
    }
    return true;
  }

  // Adds a schedule's key to those seen, counting its bytes; false when it was there.
  bool remember(std::string key) {
    const std::size_t size = key.size();
    if (!seen_.insert(std::move(key)).second) return false;
    bytes_ += kKeyBytes + size;
    return true;
  }

  // The faults that extend `plan` (a node's fired faults) and, for each, the event of its run
  // that first passes the fault's point: from the run of `plan`, which the plan's run as the
  // search first met it is (a planned fault that never fires changes nothing).
  void children_of(const FaultPlan& plan, std::vector<Fault>& next, std::vector<int>& works) const {
    Run run = simulate(scenario_, plan);
    next = next_searched_faults(run, plan, space_, scenario_.script);
    works = first_pass_works(run, next);
  }

  // True (and the result marked cut) when the schedule or time limit is reached.
  bool limit_reached() {
    if (bytes_ > std::min(limits_.max_bytes, limits::kMaxExploreBytes)) {
      out_.complete = false;
      out_.cut = "memory";
      return true;
    }
    if (out_.schedules >= max_schedules_) {
      out_.complete = false;
      out_.cut = "schedules";
      return true;
    }
    if (limits_.max_ms > 0 && Clock::now() - start_ > std::chrono::milliseconds(limits_.max_ms)) {
      out_.complete = false;
      out_.cut = "time";
      return true;
    }
    return false;
  }

  // The retry layers seen to retry in the run (a send's LocalView::retried_by).
  void note_retries(const Run& run) {
    if (scenario_.client.retry_layers.empty()) return;
    for (const Step& st : run.steps) {
      if (st.event.local.retried_by) retried_.insert(*st.event.local.retried_by);
    }
  }

  // The class of runs that end as `ending` does, made (with `fired` as its example) when
  // it is the first such run.
  OutcomeClass& outcome_class(const RunEnding& ending, const FaultPlan& fired) {
    const std::string key = ending.key();
    auto it = class_index_.find(key);
    if (it != class_index_.end()) return out_.outcomes[it->second];
    OutcomeClass c;
    c.key = key;
    c.text = ending.text();
    c.example = fired;
    class_index_[key] = out_.outcomes.size();
    out_.outcomes.push_back(std::move(c));
    return out_.outcomes.back();
  }

  // Counts the run in its outcome class, with what it breaks.
  void count_outcome(const Run& run, const RunVerdict& verdict, const FaultPlan& fired) {
    const RunEnding ending = ending_of(run);
    OutcomeClass& outcome = outcome_class(ending, fired);
    ++outcome.count;
    // What breaks in any schedule of the class, and in how many: a class holds runs that
    // end alike, not runs that break alike (a learner read one ⚠ as "all of them break").
    for (const Violation& v : verdict.violations) {
      std::string name = to_string(v.invariant);
      if (std::find(outcome.violations.begin(), outcome.violations.end(), name) == outcome.violations.end()) outcome.violations.push_back(name);
    }
    if (!verdict.safe()) {
      ++out_.violating;
      ++outcome.violating;
    }
  }

  // Counts the run as inconclusive when it stopped at a limit before it settled and broke no
  // invariant on the way: its end was never judged (InconclusiveSchedule).
  void count_inconclusive(const Run& run, const RunVerdict& verdict, const FaultPlan& fired) {
    if (run.stop == StopReason::Settled || !verdict.safe()) return;
    ++out_.inconclusive;
    (run.stop == StopReason::Horizon ? out_.inconclusive_horizon : out_.inconclusive_step_limit) = true;
    if (!out_.inconclusive_example) out_.inconclusive_example = InconclusiveSchedule{fired, run.stop};
  }

  // Keeps the run as a counterexample of each kind it breaks, up to limits.per_kind a kind.
  void keep_counterexamples(const RunVerdict& verdict, const FaultPlan& fired) {
    std::set<ViolationKind> kinds;
    for (const Violation& v : verdict.violations) {
      auto kind = std::make_pair(static_cast<int>(v.invariant), v.intent);
      if (!kinds.insert(kind).second) continue;  // the first of its kind in this run
      std::vector<Counterexample>& list = found_[kind];
      if (static_cast<int>(list.size()) < limits_.per_kind) list.push_back({fired, v});
    }
  }

  // Whether the run breaks an invariant the search was asked to stop at (limits.stop_on).
  bool stops_on(const RunVerdict& verdict) const {
    for (const Violation& v : verdict.violations) {
      if (std::find(limits_.stop_on.begin(), limits_.stop_on.end(), v.invariant) != limits_.stop_on.end()) return true;
    }
    return false;
  }

  // Most common first; ties keep the order first met (the class keys are distinct, and
  // class_index_ holds that order).
  void sort_outcomes() {
    std::sort(out_.outcomes.begin(), out_.outcomes.end(), [&](const OutcomeClass& a, const OutcomeClass& b) {
      if (a.count != b.count) return a.count > b.count;
      return class_index_.at(a.key) < class_index_.at(b.key);
    });
  }

  const Scenario& scenario_;
  const ExploreLimits& limits_;
  const Clock::time_point start_;
  const int max_schedules_;
  const FaultSpace space_;
  ExploreResult out_;
  std::set<std::string> seen_;
  // What the search keeps as it goes, estimated with the same numbers on every platform (so
  // that a memory cut falls at the same schedule natively and in WASM): per key of seen_ its
  // characters and kKeyBytes (a set's node, a string and two blocks in WASM), per node of
  // the tree kNodeBytes and kFaultBytes per fault of its plan. The rest (the outcome classes,
  // the counterexamples) is bounded by the scenario, not by the schedules.
  static constexpr std::size_t kKeyBytes = 48, kNodeBytes = 48, kFaultBytes = 64;
  std::size_t bytes_ = 0;
  std::map<std::string, std::size_t> class_index_;
  // (invariant, intent) -> counterexamples found, before shrinking
  std::map<ViolationKind, std::vector<Counterexample>> found_;
  // The retry layers seen to retry in some schedule.
  std::set<std::string> retried_;
};

// "the 600 s virtual-time horizon", "the limit of 400 steps", or both: the limits the
// inconclusive schedules of a search stopped at.
L10n stopped_at(bool horizon, bool step_limit) {
  L10n h = {"虚拟时间 " + std::to_string(Simulation::kHorizonMs / 1000) + " 秒的上限",
            "the " + std::to_string(Simulation::kHorizonMs / 1000) + " s virtual-time horizon"};
  L10n s = {std::to_string(Simulation::kMaxSteps) + " 步的上限", "the limit of " + std::to_string(Simulation::kMaxSteps) + " steps"};
  if (horizon && step_limit) return L10n::join(h, s, "或", " or ");
  return horizon ? h : s;
}

}  // namespace

L10n ExploreResult::inconclusive_limit() const {
  if (inconclusive == 0) return {};
  return stopped_at(inconclusive_horizon, inconclusive_step_limit);
}

L10n ExploreResult::inconclusive_text() const {
  if (inconclusive == 0) return {};
  L10n limit = inconclusive_limit();
  std::string n = std::to_string(inconclusive);
  return {n + " 个组合在" + limit.zh + "内没有结束（还有事情没有发生）：结束时的不变量没有检查，不能算作没有违反",
          count_text(inconclusive, "schedule", "schedules") + " did not settle within " + limit.en +
              " (events were still to come): the invariants of their end were not checked, so they count as no verdict, "
              "not as no violation"};
}

L10n ExploreResult::text() const {
  std::string upto = "up to " + count_text(max_faults, "fault", "faults");
  std::string n = count_text(schedules, "schedule", "schedules");
  std::string zh_n = std::to_string(schedules) + " 个最多含 " + std::to_string(max_faults) + " 个故障的组合";
  L10n out;
  if (violating > 0) {
    out = {zh_n + "中有 " + std::to_string(violating) + " 个违反了不变量",
           std::to_string(violating) + " of " + std::to_string(schedules) + " schedules of " + upto + " break an invariant"};
  } else if (inconclusive > 0) {
    out = {zh_n + "中没有发现违反不变量的运行，但搜索没有结论",
           "no violation found in " + n + " of " + upto + ", but the search is inconclusive"};
  } else if (!complete) {
    return {"在搜索被截断之前的 " + zh_n + "中没有发现违反不变量的运行：结果不完整，不能说明没搜到的组合",
            "no violation in the " + n + " of " + upto + " searched before the search was cut: the result is incomplete and says nothing of the rest"};
  } else {
    return {"在 " + zh_n + "中没有发现违反不变量的运行：这是搜过的范围，不能说明更多故障时也安全",
            "no violation in " + n + " of " + upto + ": that is what was searched, not a proof that more faults are safe"};
  }
  if (inconclusive > 0) out = L10n::join(out, inconclusive_text(), "；", "; ");
  if (violating == 0 && !complete) out = L10n::join(out, {"搜索也被截断了，结果不完整", "the search was cut, too: the result is incomplete"}, "；", "; ");
  return out;
}

Counterexample shrink(const Scenario& scenario, FaultPlan plan, Invariant invariant, const std::string& intent) {
  Run run = simulate(scenario, plan);
  RunVerdict verdict = check_invariants(run);
  const Violation* v = find_violation(verdict, invariant, intent);
  Counterexample best{fired_plan(run), v ? *v : Violation{}};
  bool smaller = true;
  while (smaller && best.plan.faults.size() > 1) {
    smaller = false;
    for (std::size_t i = 0; i < best.plan.faults.size(); ++i) {
      FaultPlan fewer = best.plan;
      fewer.faults.erase(fewer.faults.begin() + static_cast<std::ptrdiff_t>(i));
      Run r = simulate(scenario, fewer);
      RunVerdict rv = check_invariants(r);
      const Violation* w = find_violation(rv, invariant, intent);
      if (w && r.fired.size() < best.plan.faults.size()) {
        best = {fired_plan(r), *w};
        smaller = true;
        break;
      }
    }
  }
  return best;
}

ExploreResult explore(const Scenario& scenario, const ExploreLimits& limits) {
  return Search(scenario, limits).run();
}

namespace {

// A schedule's plan into `o`: its faults, their ids, the plan in words, and the scenario
// that reproduces it (`scenario` with the plan as its faults).
void put_schedule(json& o, const FaultPlan& plan, const Scenario& scenario) {
  put(o, "faults", write_plan(plan));
  json ids = json::array();
  for (const Fault& f : plan.faults) ids.push_back(f.id());
  put(o, "fault_ids", std::move(ids));
  put(o, "plan", plan.describe().to_json());
  Scenario reproduce = scenario;
  reproduce.faults = plan;
  put(o, "scenario", write_scenario(reproduce));
}

}  // namespace

json Counterexample::to_json(const Scenario& scenario) const {
  json o = violation.to_json();
  put_schedule(o, plan, scenario);
  return o;
}

json InconclusiveSchedule::to_json(const Scenario& scenario) const {
  json o = json::object();
  put(o, "stop", to_string(stop));
  put(o, "stop_text", describe(stop).to_json());
  put_schedule(o, plan, scenario);
  return o;
}

json ExploreResult::to_json(const Scenario& scenario) const {
  json outcomes_json = json::array();
  for (const OutcomeClass& c : outcomes) {
    json o = json::object();
    put(o, "key", c.key);
    put(o, "text", c.text.to_json());
    put(o, "count", c.count);
    put(o, "example", write_plan(c.example));
    put(o, "violating", c.violating);
    put(o, "violations", c.violations);
    outcomes_json.push_back(std::move(o));
  }
  json cex = json::array();
  for (const Counterexample& c : counterexamples) cex.push_back(c.to_json(scenario));
  json out = json::object();
  put(out, "max_faults", max_faults);
  put(out, "schedules", schedules);
  put(out, "violating", violating);
  put(out, "complete", complete);
  if (cut.empty()) {
    put(out, "cut", nullptr);
  } else {
    json c = json::object();
    put(c, "limit", cut);
    put(c, "text", cut_text.to_json());
    put(out, "cut", std::move(c));
  }
  // Named for what it is: a bounded search found nothing (never "safe"), and every schedule
  // it searched settled, so that nothing was left unjudged.
  put(out, "no_violation_up_to", clean() ? json(max_faults) : json(nullptr));
  put(out, "text", text().to_json());
  put(out, "inconclusive", inconclusive);
  put(out, "inconclusive_text", inconclusive > 0 ? inconclusive_text().to_json() : json(nullptr));
  put(out, "inconclusive_limit", inconclusive > 0 ? inconclusive_limit().to_json() : json(nullptr));
  put(out, "inconclusive_example", inconclusive_example ? inconclusive_example->to_json(scenario) : json(nullptr));
  if (layers_absorb) {
    json a = json::object();
    put(a, "layer", layers_absorb->layer);
    put(a, "inner", layers_absorb->inner);
    put(a, "faults", layers_absorb->faults);
    put(a, "text", layers_absorb->text.to_json());
    put(out, "layers_absorb", std::move(a));
  } else {
    put(out, "layers_absorb", nullptr);
  }
  put(out, "outcomes", std::move(outcomes_json));
  put(out, "counterexamples", std::move(cex));
  return out;
}

}  // namespace idemlab
