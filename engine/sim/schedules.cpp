#include "engine/sim/schedules.hpp"

#include <algorithm>

#include "engine/sim/simulation.hpp"

namespace idemlab {

bool in_space(const Fault& f, const FaultSpace& space) {
  auto listed = [](const auto& points, auto p) { return std::find(points.begin(), points.end(), p) != points.end(); };
  switch (f.kind) {
    case Fault::Kind::Drop: return space.lose_any_one_message;
    case Fault::Kind::CrashClient: return listed(space.client_crash_points, f.point);
    case Fault::Kind::CrashService: return listed(space.service_crash_points, f.service_point);
    case Fault::Kind::ServiceError: return listed(space.service_error_points, f.error_point);
    case Fault::Kind::ConnectError: return space.connect_errors;
    case Fault::Kind::LoseRow: return listed(space.row_loss_points, f.row_point);
  }
  return false;
}

FaultSpace every_fault(std::int64_t restart_after_ms) {
  FaultSpace s;
  s.lose_any_one_message = true;
  s.client_crash_points = {ClientPoint::AfterPersist, ClientPoint::AfterSend, ClientPoint::BeforeRecord};
  s.service_crash_points = {ServicePoint::BeforeCommit, ServicePoint::BetweenWrites, ServicePoint::AfterCommit,
                            ServicePoint::AfterEmailSend};
  s.service_error_points = {ErrorPoint::BeforeCommit, ErrorPoint::AfterCommit, ErrorPoint::Refused};
  s.connect_errors = true;
  s.restart_after_ms = restart_after_ms;
  return s;
}

std::vector<Fault> next_faults(const Run& run, const FaultPlan& plan, const FaultSpace& space) {
  // Compared point by point (same_point: equal ids, none written out): a run passes a few
  // dozen points, and writing their ids took a tenth of the explorer's time.
  auto among = [](const std::vector<Fault>& faults, const Fault& point) {
    return std::any_of(faults.begin(), faults.end(), [&](const Fault& f) { return f.same_point(point); });
  };
  std::vector<Fault> out;
  for (const Fault& point : run.points) {
    if (!in_space(point, space) || among(plan.faults, point) || among(out, point)) continue;
    out.push_back(point);
    out.back().restart_after_ms = space.restart_after_ms;
  }
  return out;
}

bool has_rerun(const std::vector<Action>& script) {
  return std::any_of(script.begin(), script.end(), [](const Action& a) { return a.kind == ActionKind::Reapply; });
}

namespace {
// Whether a re-run of `f`'s intent in `script` follows `run`'s first pass of its point (always
// true of a fault that loses no row).
bool rerun_follows(const Fault& f, const Run& run, const std::vector<Action>& script) {
  if (f.kind != Fault::Kind::LoseRow) return true;
  std::int64_t t = -1;
  for (std::size_t k = 0; k < run.points.size() && t < 0; ++k) {
    if (f.same_point(run.points[k])) t = run.point_where[k].t;
  }
  // The client must be up again by then: a crash's restart comes restart_after_ms later.
  std::int64_t after = t + (f.crashes() ? f.restart_after_ms : 0);
  return t >= 0 && std::any_of(script.begin(), script.end(), [&](const Action& a) {
           return a.kind == ActionKind::Reapply && a.intent == f.intent && a.after_step < 0 && a.at > after;
         });
}
}  // namespace

std::vector<Fault> next_searched_faults(const Run& run, const FaultPlan& plan, const FaultSpace& space,
                                        const std::vector<Action>& script) {
  std::vector<Fault> next = next_faults(run, plan, space);
  next.erase(std::remove_if(next.begin(), next.end(), [&](const Fault& f) { return !rerun_follows(f, run, script); }),
             next.end());
  return next;
}

bool losses_answered(const Run& run) {
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    const Event& lost = run.steps[i].event;
    if (lost.type != EventKind::LoseRow) continue;
    bool again = false;
    for (std::size_t j = i + 1; j < run.steps.size() && !again; ++j) {
      const Event& e = run.steps[j].event;
      again = e.type == EventKind::Decide && e.intent == lost.intent && e.local.reapply.value_or(false);
    }
    if (!again) return false;
  }
  return true;
}

std::string schedule_key(const Run& run) {
  std::vector<std::string> ids;
  for (const Fault& f : run.fired) ids.push_back(f.id());
  std::sort(ids.begin(), ids.end());
  std::string key;
  for (const std::string& id : ids) key += (key.empty() ? "" : ",") + id;
  return key;
}

std::vector<int> first_pass_works(const Run& run, const std::vector<Fault>& faults) {
  std::vector<int> out(faults.size(), -1);
  for (std::size_t i = 0; i < faults.size(); ++i) {
    for (std::size_t k = 0; k < run.points.size(); ++k) {
      if (faults[i].same_point(run.points[k])) {
        out[i] = run.point_where[k].work;
        break;
      }
    }
  }
  return out;
}

OneMoreFault::OneMoreFault(const Scenario& scenario, NodeFactory nodes, FaultPlan base, std::vector<Action> extra)
    : scenario_(scenario), nodes_(nodes), base_(std::move(base)), extra_(std::move(extra)) {}

OneMoreFault::~OneMoreFault() = default;

Run OneMoreFault::run(const Fault& fault, int work, bool last) {
  if (work >= 0) {
    if (!paused_) paused_ = std::make_unique<Simulation>(scenario_, base_, extra_, nodes_);
    // False when the paused run has gone past that event (asked out of order) or ended.
    if (paused_->pause_before_work(work)) {
      Run out = Simulation::fork_with_fault(*paused_, fault, last)->run();
      if (last) paused_.reset();
      return out;
    }
  }
  FaultPlan plan = base_;
  plan.faults.push_back(fault);
  return Simulation(scenario_, plan, extra_, nodes_).run();
}

}  // namespace idemlab
