#pragma once
// The deterministic discrete-event simulation: a virtual clock in ms, an event queue
// ordered by (time, priority, insertion), and the parts (client, network, service, and the
// mail provider the service may notify) that schedule work on it. Every event a part performs becomes one timeline Step with a
// snapshot of both sides (docs/design.md, "The model").
//
// Determinism: no wall clock, no unordered containers, no floating point; the same
// Scenario and FaultPlan give the same Run natively and in WASM.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <tuple>

#include "engine/sim/run.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario.hpp"

namespace idemlab {

class Client;
class Service;
class Network;
class MailProvider;

class Simulation {
 public:
  /// `plan` replaces scenario.faults (the fault space runs the same script under other
  /// plans); `extra` adds actions (a predict question's fork).
  Simulation(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra = {});
  ~Simulation();
  Simulation(const Simulation&) = delete;
  Simulation& operator=(const Simulation&) = delete;

  /// A copy of `paused` (see pause_after) that goes on with `extra` actions added, as if
  /// they had been part of the run from the start: one tied to a step already recorded
  /// (after_step <= the last step) is performed where it would have been, right after
  /// that step. The copy has its own databases (their rows copied) and its own run so
  /// far; running it gives the run Simulation(scenario, plan, extra) gives, without
  /// simulating the steps before the fork again. `paused` is left as it was, or with
  /// `take`, its state (databases included) is moved into the fork instead of copied:
  /// cheaper for the last fork of a paused simulation, which is then ended (neither
  /// forked nor run again). Throws std::logic_error if `paused` has been run to its end,
  /// or an extra action's after_step lies before the step `paused` was paused after.
  static std::unique_ptr<Simulation> fork(Simulation& paused, std::vector<Action> extra, bool take = false);
  /// A copy of `paused` (see pause_before_work) whose fault plan has `fault` added: running
  /// it gives the run Simulation(scenario, plan + fault, extra) gives, as nothing before a
  /// fault's point depends on whether it is planned. `take` as for fork. Throws
  /// std::logic_error if `paused` has passed the fault's point already or has ended.
  static std::unique_ptr<Simulation> fork_with_fault(Simulation& paused, const Fault& fault, bool take = false);

  /// Runs until nothing is scheduled, or a limit is hit (kMaxSteps steps or kHorizonMs of
  /// virtual time: a lesson whose script never settles still ends). Call once: the run is
  /// moved out (a second call throws std::logic_error).
  Run run();
  /// Runs until step `step` is recorded and the work that recorded it is done (the same
  /// events run() would perform), or the run ends first; returns whether step `step` was
  /// recorded. A paused simulation is forked (fork) or run on (run).
  bool pause_after(int step);
  /// Runs until `work` events of the queue have been performed, before the next one (the
  /// one Run::PointWhere::work == `work` names), or the run ends first; returns whether it
  /// got there. A paused simulation is forked or run on.
  bool pause_before_work(int work);

  static constexpr int kMaxSteps = limits::kMaxRunSteps;
  static constexpr std::int64_t kHorizonMs = limits::kMaxVirtualMs;

  // --- used by the parts ---
  std::int64_t now() const { return now_; }
  const Scenario& scenario() const { return scenario_; }
  /// Schedules `fn` at virtual time `at` (>= now). `first` puts it before other work at
  /// that time (forks run right after the step they follow).
  /// `fn` is given the simulation it runs in (a fork's copy, for work scheduled before
  /// the fork), so it captures values only, never a part.
  void schedule(std::int64_t at, std::function<void(Simulation&)> fn, bool first = false);
  /// Appends one timeline step for the event `kind` (one of event_kinds()) of `side`
  /// about `intent` ("" for none) and `message` (-1 for none), with what the side observed
  /// (`local`, moved into the step) and a snapshot taken now. Returns its index. The event
  /// is built in its step: a LocalView is large (its members are the union of every
  /// event's), and moving it once per step instead of four times was ~8% of a run.
  int record(const char* kind, Side side, const std::string& intent, int message, LocalView&& local);
  /// The drop fault planned for this message, recorded as an injection point passed.
  bool planned_drop(const Message& m);
  /// Records the crash point as passed; if the plan crashes the client here, crashes it,
  /// schedules its restart and returns true (the caller stops what it was doing).
  bool crash_here(ClientPoint point, const std::string& intent, int n);
  /// The same for the service's crash points (the request of attempt n of `intent`).
  bool crash_service_here(ServicePoint point, const std::string& intent, int n);
  /// Records the service's error point as passed; true if the plan makes the service
  /// answer the request of attempt n of `intent` with that error here (it stays up).
  bool error_here(ErrorPoint point, const std::string& intent, int n);
  /// Records the request of attempt n of `intent` as a connect-error point passed; true if
  /// the plan refuses its connection (Fault::Kind::ConnectError): it is never sent.
  bool connect_error_here(const std::string& intent, int n);
  /// op_key -> intent, for the observer's truth.
  void own_key(const std::string& op_key, const std::string& intent) { run_.key_owner[op_key] = intent; }

  Client& client() { return *client_; }
  Service& service() { return *service_; }
  Network& network() { return *network_; }
  MailProvider& provider() { return *provider_; }
  Run& out() { return run_; }

 private:
  Simulation(Simulation& paused, std::vector<Action> extra, bool take);
  void perform(const Action& a);
  void begin();
  /// Performs the next scheduled work; false when the run has ended (run_.stop says why).
  bool next();
  Snapshot snapshot();
  /// Brings in_flight_, delivered_ and dropped_ up to the messages' fates now.
  void refresh_fates();
  /// Records `point` as an injection point passed (`message`: the message a drop point is
  /// about, -1 for none); the planned fault there, or nullptr.
  const Fault* pass(Fault point, int message = -1);
  /// A crash point of either side passed: crashes that side and schedules its restart
  /// when the plan says so.
  bool crash_at(Fault point, const std::string& intent, int n);

  Scenario scenario_;
  FaultPlan plan_;
  std::vector<bool> fired_;            // plan_.faults[i] has fired (a fault fires once)
  std::vector<Action> forks_;  // actions tied to a step
  std::int64_t now_ = 0;
  std::uint64_t seq_ = 0;
  // (time, 0 for a fork's action / 1, insertion order, and for an action a fork adds at a
  // step already recorded, its place before the work scheduled after that step: < 0)
  std::map<std::tuple<std::int64_t, int, std::uint64_t, int>, std::function<void(Simulation&)>> queue_;
  std::vector<std::uint64_t> seq_after_step_;  // seq_ once step i's forks were scheduled
  int work_first_step_ = 0;  // the first step the last work performed recorded (if any)
  int works_ = 0;            // events of the queue performed so far
  Run run_;
  // The message ids by fate as of the last snapshot (a cache: a step shares them with the
  // step before unless a fate changed; a fork starts without them), and the lists being
  // compared with them.
  Rows<int> in_flight_, delivered_, dropped_;
  std::vector<int> fates_now_[3];
  std::unique_ptr<Client> client_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<Network> network_;
  std::unique_ptr<MailProvider> provider_;
  bool ran_ = false;
  bool begun_ = false;
  bool ended_ = false;
};

}  // namespace idemlab
