#include "engine/sim/schedules.hpp"

#include <algorithm>
#include <set>

namespace idemlab {

bool in_space(const Fault& f, const FaultSpace& space) {
  auto listed = [](const auto& points, auto p) { return std::find(points.begin(), points.end(), p) != points.end(); };
  switch (f.kind) {
    case Fault::Kind::Drop: return space.lose_any_one_message;
    case Fault::Kind::CrashClient: return listed(space.client_crash_points, f.point);
    case Fault::Kind::CrashService: return listed(space.service_crash_points, f.service_point);
    case Fault::Kind::ServiceError: return listed(space.service_error_points, f.error_point);
    case Fault::Kind::ConnectError: return space.connect_errors;
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
  std::set<std::string> taken;
  for (const Fault& f : plan.faults) taken.insert(f.id());
  std::vector<Fault> out;
  for (const Fault& point : run.points) {
    if (!in_space(point, space) || !taken.insert(point.id()).second) continue;
    out.push_back(point);
    out.back().restart_after_ms = space.restart_after_ms;
  }
  return out;
}

std::string schedule_key(const Run& run) {
  std::vector<std::string> ids;
  for (const Fault& f : run.fired) ids.push_back(f.id());
  std::sort(ids.begin(), ids.end());
  std::string key;
  for (const std::string& id : ids) key += (key.empty() ? "" : ",") + id;
  return key;
}

}  // namespace idemlab
