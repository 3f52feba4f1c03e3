#include "engine/sim/simulation.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "engine/base/assert.hpp"
#include "engine/scenario/knobs.hpp"

namespace idemlab {

Simulation::Simulation(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra, NodeFactory nodes)
    : scenario_(scenario), plan_(plan) {
  fired_.assign(plan_.faults.size(), false);
  run_.lookup_offered = scenario_.service.lookup;
  run_.lookup_lag_ms = scenario_.service.lookup_lag_ms;
  run_.lookup_broken = scenario_.service.read_path == ReadPath::Broken;
  run_.key_per_attempt = scenario_.client.key_scope == KeyScope::PerAttempt;
  run_.mail = scenario_.service.notify != Notify::None;
  run_.outbox = scenario_.service.notify == Notify::Outbox;
  run_.credits = scenario_.provider.effect == MailProviderContract::Effect::Credit;
  run_.processing = scenario_.service.processing_ms > 0;
  nodes_ = nodes(scenario_, *this);
  std::vector<Action> all = scenario_.script;
  all.insert(all.end(), extra.begin(), extra.end());
  for (const Action& a : all) {
    if (a.after_step >= 0) {
      forks_.push_back(a);
    } else {
      schedule_action(a.at, a, false);
    }
  }
}

Simulation::Simulation(Simulation& paused, std::vector<Action> extra, bool take)
    : now_(paused.now_), work_first_step_(paused.work_first_step_), works_(paused.works_), begun_(paused.begun_) {
  if (paused.ran_ || paused.ended_) throw std::logic_error("Simulation::fork: the run has ended");
  seq_ = paused.seq_;
  if (take) {
    scenario_ = std::move(paused.scenario_);
    plan_ = std::move(paused.plan_);
    fired_ = std::move(paused.fired_);
    forks_ = std::move(paused.forks_);
    queue_ = std::move(paused.queue_);
    seq_after_step_ = std::move(paused.seq_after_step_);
    run_ = std::move(paused.run_);
    paused.ended_ = true;  // what is left of it can neither be forked nor run
  } else {
    scenario_ = paused.scenario_;
    plan_ = paused.plan_;
    fired_ = paused.fired_;
    forks_ = paused.forks_;
    queue_ = paused.queue_;
    seq_after_step_ = paused.seq_after_step_;
    copy_run(paused.run_);
  }
  lookups_ = paused.lookups_;
  emails_ = paused.emails_;
  for (std::size_t side = 0; side < nodes_.size(); ++side) {
    if (paused.nodes_[side]) nodes_[side] = paused.nodes_[side]->fork(*this, take);
  }
  int last = static_cast<int>(run_.steps.size()) - 1;
  int k = 0;
  for (Action& a : extra) {
    if (a.after_step < 0 || a.after_step > last) {
      if (a.after_step >= 0) {
        forks_.push_back(a);
      } else {
        schedule_action(a.at, a, false);
      }
      continue;
    }
    // Recorded already: its place is where record() would have put it, before whatever
    // was scheduled after that step (each entry scheduled since has a seq one lower than
    // it would have had, which keeps their order).
    std::size_t j = static_cast<std::size_t>(a.after_step);
    if (a.after_step < work_first_step_) {
      throw std::logic_error("Simulation::fork: an action after step " + std::to_string(j) +
                             " of a simulation paused after step " + std::to_string(last));
    }
    queue_.emplace(std::make_tuple(run_.steps[j].t, 0, seq_after_step_[j], -1000 + k++),
                   Work{Side::Client, [a](Node& n) { n.act(a); }});
  }
}

void Simulation::copy_run(Run& from) {
  // Every field but the steps, then the steps into room for twice as many: a vector's copy
  // has no room to spare, and the fork's first step would move every step copied (1.5 KB
  // each) to a new block.
  std::vector<Step> steps = std::move(from.steps);
  run_ = from;
  from.steps = std::move(steps);
  run_.steps.reserve(std::max({from.steps.capacity(), 2 * from.steps.size(), kStepsReserved}));
  run_.steps.insert(run_.steps.end(), from.steps.begin(), from.steps.end());
  run_.points.reserve(kPointsReserved);
  run_.point_where.reserve(kPointsReserved);
}

std::unique_ptr<Simulation> Simulation::fork(Simulation& paused, std::vector<Action> extra, bool take) {
  return std::unique_ptr<Simulation>(new Simulation(paused, std::move(extra), take));
}

std::unique_ptr<Simulation> Simulation::fork_with_fault(Simulation& paused, const Fault& fault, bool take) {
  for (const Fault& p : paused.run_.points) {
    if (fault.same_point(p)) throw std::logic_error("Simulation::fork_with_fault: the fault's point was passed already");
  }
  std::unique_ptr<Simulation> out = fork(paused, {}, take);
  out->plan_.faults.push_back(fault);
  out->fired_.push_back(false);
  return out;
}

Simulation::~Simulation() = default;

Node& Simulation::node(Side side) {
  Node* n = nodes_[static_cast<std::size_t>(side)].get();
  if (!n) throw std::logic_error(std::string("Simulation: no node on the side ") + to_string(side));
  return *n;
}

void Simulation::queue(std::int64_t at, Side side, std::function<void(Node&)> fn, bool first) {
  queue_.emplace(std::make_tuple(at < now_ ? now_ : at, first ? 0 : 1, seq_++, 0), Work{side, std::move(fn)});
}

void Simulation::schedule(std::int64_t at, Side side, std::function<void(Node&)> work) {
  IDEMLAB_ASSERT(at >= now_, "time never goes back: a node schedules work at a time already past");
  queue(at, side, std::move(work));
}

void Simulation::schedule_action(std::int64_t at, const Action& a, bool first) {
  // Every script action is the client's (action_table()).
  queue(at, Side::Client, [a](Node& n) { n.act(a); }, first);
}

void Simulation::refresh_fates() {
  for (std::vector<int>& ids : fates_now_) ids.clear();
  for (const Message& m : run_.messages) fates_now_[static_cast<int>(m.fate)].push_back(m.id);
  Rows<int>* held[3] = {&in_flight_, &delivered_, &dropped_};  // in Message::Fate's order
  for (int f = 0; f < 3; ++f) held[f]->follow(fates_now_[f]);
}

void Simulation::snapshot(Snapshot& snap) {
  refresh_fates();
  for (const std::unique_ptr<Node>& n : nodes_) {
    if (n) n->snapshot(snap);
  }
  snap.in_flight = in_flight_;
  snap.delivered = delivered_;
  snap.dropped = dropped_;
}

int Simulation::emit(EventKind kind, Side side, const std::string& intent, int message, LocalView&& local) {
  IDEMLAB_ASSERT(side == Side::None || kind == EventKind::Crash || node(side).alive(),
                 "a crashed node receives nothing and does nothing: no step of its side until it restarts");
  int index = static_cast<int>(run_.steps.size());
  if (message >= 0) {
    Message& m = run_.messages[message];
    if (m.sent_step < 0) m.sent_step = index;
    // A message ends where it is received, lost, or taken by a gateway that answers in
    // its receiver's stead (ErrorPoint::Gateway).
    else if (kind == EventKind::Receive || kind == EventKind::Drop || kind == EventKind::GatewayError) m.end_step = index;
  }
  run_.steps.emplace_back(index, now_, kind, side, message, intent, std::move(local));
  snapshot(run_.steps.back().snap);  // written in place: a step's snapshot is never moved
  for (const Action& a : forks_) {
    if (a.after_step == index) schedule_action(now_, a, true);
  }
  seq_after_step_.push_back(seq_);
  return index;
}

const Fault* Simulation::pass(Fault point, int message) {
  run_.point_where.push_back({static_cast<int>(run_.steps.size()), now_, message, works_ - 1});
  if (plan_.faults.empty()) {  // nothing planned: no id to compare
    run_.points.push_back(std::move(point));
    return nullptr;
  }
  run_.points.push_back(std::move(point));
  const Fault& passed = run_.points.back();
  for (std::size_t i = 0; i < plan_.faults.size(); ++i) {
    const Fault& f = plan_.faults[i];
    if (!f.same_point(passed)) continue;
    // A fault fires once, at the first pass of its point (a client's before_record of
    // attempt 1 is passed by the response of attempt 1 and again by the reply to lookup 1).
    if (fired_[i]) return nullptr;
    IDEMLAB_ASSERT(std::count_if(run_.points.begin(), run_.points.end(),
                                 [&](const Fault& p) { return f.same_point(p); }) == 1,
                   "a fault fires once, at the first pass of its point (fork_with_fault refuses a point passed)");
    fired_[i] = true;
    run_.fired.push_back(f);
    return &f;
  }
  return nullptr;
}

int Simulation::send(Message m) {
  m.id = static_cast<int>(run_.messages.size());
  m.sent_at = now_;
  m.sent_step = -1;
  m.fate = Message::Fate::InFlight;
  run_.messages.push_back(std::move(m));
  const Message& sent = run_.messages.back();
  node(Side::Network).on_message(sent);  // the network carries it
  return sent.id;
}

void Simulation::arrive(int id) {
  Message& stored = run_.messages[static_cast<std::size_t>(id)];
  Node& to = node(stored.to);
  if (!to.alive()) {
    lose(id, reasons::kReceiverDown);
    return;
  }
  stored.fate = Message::Fate::Delivered;
  stored.end_at = now_;
  to.on_message(stored);  // stays put while the receiver sends (Run::messages is a deque)
}

void Simulation::lose(int id, const char* why) {
  Message& m = run_.messages[static_cast<std::size_t>(id)];
  m.fate = Message::Fate::Dropped;
  m.end_at = now_;
  LocalView local;
  local.reason = why;
  emit(EventKind::Drop, Side::Network, m.intent, id, std::move(local));
}

bool Simulation::planned_drop(const Message& m) {
  Fault point;
  point.kind = Fault::Kind::Drop;
  point.message = m.kind;
  point.intent = m.intent;
  point.n = m.n;
  return pass(point, m.id) != nullptr;
}

bool Simulation::crash_here(ClientPoint where, const std::string& intent, int n) {
  Fault point;
  point.kind = Fault::Kind::CrashClient;
  point.point = where;
  return crash_at(point, intent, n);
}

bool Simulation::crash_service_here(ServicePoint where, const std::string& intent, int n) {
  Fault point;
  point.kind = Fault::Kind::CrashService;
  point.service_point = where;
  return crash_at(point, intent, n);
}

bool Simulation::error_here(ErrorPoint where, const std::string& intent, int n) {
  Fault point;
  point.kind = Fault::Kind::ServiceError;
  point.error_point = where;
  point.intent = intent;
  point.n = n;
  return pass(point) != nullptr;
}

bool Simulation::connect_error_here(const std::string& intent, int n) {
  Fault point;
  point.kind = Fault::Kind::ConnectError;
  point.intent = intent;
  point.n = n;
  return pass(point) != nullptr;
}

bool Simulation::lose_row_here(RowPoint where, const std::string& intent, int n) {
  Fault point;
  point.kind = Fault::Kind::LoseRow;
  point.row_point = where;
  if (where == RowPoint::NotSaved) return crash_at(point, intent, n);
  point.intent = intent;
  point.n = n;
  return pass(point) != nullptr;
}

bool Simulation::crash_at(Fault point, const std::string& intent, int n) {
  point.intent = intent;
  point.n = n;
  point.restart_after_ms = scenario_.space.restart_after_ms;
  bool service = point.kind == Fault::Kind::CrashService;
  const Fault* f = pass(point);
  if (!f) return false;
  Side side = service ? Side::Service : Side::Client;
  node(side).crash();
  queue(now_ + f->restart_after_ms, side, [](Node& n) { n.restart(); });
  return true;
}

void Simulation::begin() {
  if (begun_) return;
  begun_ = true;
  run_.steps.reserve(kStepsReserved);
  run_.points.reserve(kPointsReserved);
  run_.point_where.reserve(kPointsReserved);
  emit(EventKind::Start, Side::None, "", -1, LocalView());
  run_.stop = StopReason::Settled;
}

bool Simulation::next() {
  if (ended_ || queue_.empty()) {
    ended_ = true;
    return false;
  }
  if (static_cast<int>(run_.steps.size()) >= kMaxSteps) {
    run_.stop = StopReason::StepLimit;
    ended_ = true;
    return false;
  }
  auto it = queue_.begin();
  std::int64_t at = std::get<0>(it->first);
  if (at > kHorizonMs) {
    run_.stop = StopReason::Horizon;
    ended_ = true;
    return false;
  }
  Work work = std::move(it->second);
  queue_.erase(it);
  IDEMLAB_ASSERT(at >= now_, "time never goes back: the queue is ordered by time and never takes the past");
  now_ = at;
  work_first_step_ = static_cast<int>(run_.steps.size());
  ++works_;
  work.fn(node(work.side));
  return true;
}

bool Simulation::pause_after(int step) {
  if (ran_) throw std::logic_error("Simulation::pause_after: the run was handed over");
  begin();
  while (static_cast<int>(run_.steps.size()) <= step && next()) {
  }
  return static_cast<int>(run_.steps.size()) > step;
}

bool Simulation::pause_before_work(int work) {
  if (ran_) throw std::logic_error("Simulation::pause_before_work: the run was handed over");
  begin();
  while (works_ < work && next()) {
  }
  return works_ == work && !ended_;
}

Run Simulation::run() {
  if (ran_) throw std::logic_error("Simulation::run is called once: the run was handed over");
  ran_ = true;
  begin();
  while (next()) {
  }
  return std::move(run_);  // handed over, not copied: a run holds every step's snapshot
}

}  // namespace idemlab
