#pragma once
// The deterministic discrete-event simulation: a virtual clock in ms, an event queue
// ordered by (time, priority, insertion), and the nodes (engine/sim/node.hpp: one per
// side, built by a NodeFactory, engine/nodes/) that act on it through its Env face.
// Every event a node performs becomes one timeline Step with a snapshot of every side
// (docs/design.md, "The model"). The kernel knows no node's type.
//
// Determinism: no wall clock, no unordered containers, no floating point; the same
// Scenario and FaultPlan give the same Run natively and in WASM.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <tuple>

#include "engine/sim/node.hpp"
#include "engine/sim/run.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario.hpp"

namespace idemlab {

class Simulation final : public Env {
 public:
  /// `plan` replaces scenario.faults (the fault space runs the same script under other
  /// plans); `extra` adds actions (a predict question's fork); `nodes` builds the sides
  /// (engine/nodes/nodes.hpp: simulate() and start() pass today's).
  Simulation(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra, NodeFactory nodes);
  ~Simulation() override;
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

  // --- Env: the face the nodes act through (engine/sim/node.hpp) ---
  std::int64_t now() const override { return now_; }
  void schedule(std::int64_t at, Side side, std::function<void(Node&)> work) override;
  int send(Message m) override;
  int emit(EventKind kind, Side side, const std::string& intent, int message, LocalView&& local) override;
  const Message& message(int id) const override { return run_.messages[static_cast<std::size_t>(id)]; }
  int next_lookup(const std::string& intent) override { return ++lookups_[intent]; }
  int next_email(const std::string& intent) override { return ++emails_[intent]; }
  // The first intent to send a key owns it: a key two intents share (the learner's code
  // deriving it from content the two have alike) names the effect of the one that sent
  // first, the effect that key made.
  void own_key(const std::string& op_key, const std::string& intent) override { run_.key_owner.emplace(op_key, intent); }
  bool crash_here(ClientPoint point, const std::string& intent, int n) override;
  bool crash_service_here(ServicePoint point, const std::string& intent, int n) override;
  bool error_here(ErrorPoint point, const std::string& intent, int n) override;
  bool connect_error_here(const std::string& intent, int n) override;
  bool lose_row_here(RowPoint point, const std::string& intent, int n) override;
  bool planned_drop(const Message& m) override;
  void arrive(int id) override;
  void lose(int id, const char* reason) override;

 private:
  Simulation(Simulation& paused, std::vector<Action> extra, bool take);
  /// One entry of the queue: work on the node of a side (an action, a restart, or what a
  /// node scheduled for itself).
  struct Work {
    Side side = Side::None;
    std::function<void(Node&)> fn;
  };
  Node& node(Side side);
  /// Room for this many steps from the start (most runs take fewer: no regrowth).
  static constexpr std::size_t kStepsReserved = 64;
  /// A run passes a few dozen injection points: room for them (each regrowth copies Faults).
  static constexpr std::size_t kPointsReserved = 32;
  /// Copies `from` (a paused simulation's run) into run_, its steps with room to grow;
  /// `from` is left as it was.
  void copy_run(Run& from);
  /// Schedules script action `a` on the node its ActionInfo names (the client's).
  void schedule_action(std::int64_t at, const Action& a, bool first);
  void queue(std::int64_t at, Side side, std::function<void(Node&)> fn, bool first = false);
  void begin();
  /// Performs the next scheduled work; false when the run has ended (run_.stop says why).
  bool next();
  void snapshot(Snapshot& into);
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
  std::map<std::tuple<std::int64_t, int, std::uint64_t, int>, Work> queue_;
  std::vector<std::uint64_t> seq_after_step_;  // seq_ once step i's forks were scheduled
  int work_first_step_ = 0;  // the first step the last work performed recorded (if any)
  int works_ = 0;            // events of the queue performed so far
  Run run_;
  // The message ids by fate as of the last snapshot (a cache: a step shares them with the
  // step before unless a fate changed; a fork starts without them), and the lists being
  // compared with them.
  Rows<int> in_flight_, delivered_, dropped_;
  std::vector<int> fates_now_[3];
  Nodes nodes_;  // by Side
  // The network's numbering of lookups and email sends per intent (next_lookup, next_email).
  std::map<std::string, int> lookups_, emails_;
  bool ran_ = false;
  bool begun_ = false;
  bool ended_ = false;
};

}  // namespace idemlab
