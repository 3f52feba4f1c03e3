#pragma once
// The process boundary of a run: one interface for a side that acts in it (Node) and the
// one narrow face of the kernel a node acts through (Env).
//
// Modelled on Stateright's actors (src/actor/model.rs: nodes behind one trait, each with
// its own state, the model delivering messages to an id, never to a type) and on
// LevelDB's Env (include/leveldb/env.h: time and I/O through one seam). A node is built
// with its own contract (a client policy, a service contract, a provider contract: see
// engine/nodes/); it never reads the scenario, the observer's truth or another node's
// contract. What it learns of another side it learns from a message.
//
// The kernel (engine/sim/simulation.hpp) holds one node per Side and knows no node's
// type: the network delivers to node(side), a script action to the client (every action in
// action_table() is the client's), a fault's crash to the node of its side.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "engine/scenario/scenario.hpp"
#include "engine/sim/events.hpp"
#include "engine/sim/run.hpp"

namespace idemlab {

class Env;

/// A side that acts in a run: the client, the service, the mail provider, the network.
class Node {
 public:
  virtual ~Node() = default;
  /// Whether the process is up (a crashed node receives nothing: the network loses a
  /// message that reaches it, Run's drop with reason "receiver_down").
  virtual bool alive() const { return true; }
  /// A message the network delivered to this node, which is alive. The network's own
  /// node is handed every message sent, to carry.
  virtual void on_message(const Message& m) = 0;
  /// A script action addressed to this node (engine/scenario/knobs.hpp, action_table()).
  virtual void act(const Action& a) { (void)a; }
  /// A crash point of this side's fired: volatile state is lost, the database stays.
  virtual void crash() {}
  virtual void restart() {}
  /// This node's part of a step's snapshot (what the observer sees of it now).
  virtual void snapshot(Snapshot& into) = 0;
  /// A copy of this node working in `env` (Simulation::fork). With `take` it may move
  /// its database into the copy instead of copying it: this node is not used again.
  virtual std::unique_ptr<Node> fork(Env& env, bool take) = 0;
};

/// One node per Side (indexed by the Side's value); a side that takes no part is null.
using Nodes = std::array<std::unique_ptr<Node>, kSideCount>;

/// The narrow face of the kernel a node acts through (named after LevelDB's Env, one seam
/// for time and I/O): the clock, the queue, the network, the timeline and the injection
/// points. Times are virtual ms.
class Env {
 public:
  virtual ~Env() = default;
  virtual std::int64_t now() const = 0;
  /// Runs `work` at virtual time `at` (>= now) on the node of `side` in the simulation
  /// running then (a fork's copy, for work scheduled before a fork): `work` captures
  /// values only, never a node.
  virtual void schedule(std::int64_t at, Side side, std::function<void(Node&)> work) = 0;
  /// Puts `m` on the network now (m.from, m.to, m.kind, m.intent, m.n and its content set
  /// by the sender); its id. The sender records its own step for it.
  virtual int send(Message m) = 0;
  /// Appends one timeline step for event `kind` of `side` about `intent` ("" for none)
  /// and `message` (-1 for none), with what the side observed (`local`). Its index.
  virtual int emit(EventKind kind, Side side, const std::string& intent, int message, LocalView&& local) = 0;
  /// A message sent so far, by id (its numbering, Message::n, is the network's).
  virtual const Message& message(int id) const = 0;
  /// The next lookup / email send number of an intent (1, 2, ...): the numbering that
  /// names a lookup's or an email's drop point, stable across runs.
  virtual int next_lookup(const std::string& intent) = 0;
  virtual int next_email(const std::string& intent) = 0;
  /// The observer's note that `op_key` serves `intent` (Run::key_owner, the truth's index):
  /// a node writes it where it binds a key, and never reads it.
  virtual void own_key(const std::string& op_key, const std::string& intent) = 0;

  // Injection points (engine/faults/fault.hpp). Each records the point as passed; true if
  // the fault plan fires a fault there (a fault fires once, at its point's first pass).
  /// The client's crash point: the kernel crashes the client and schedules its restart
  /// (the caller stops what it was doing).
  virtual bool crash_here(ClientPoint point, const std::string& intent, int n) = 0;
  /// The service's crash point for the request of attempt n of `intent`, the same way.
  virtual bool crash_service_here(ServicePoint point, const std::string& intent, int n) = 0;
  /// The service answers the request of attempt n of `intent` with that error here.
  virtual bool error_here(ErrorPoint point, const std::string& intent, int n) = 0;
  /// The request of attempt n of `intent` has its connection refused: it never leaves.
  virtual bool connect_error_here(const std::string& intent, int n) = 0;
  /// The client loses its row of `intent` here, after the request of attempt n left (fault
  /// lose_row). At RowPoint::NotSaved the kernel crashes the client, as at a crash point,
  /// and schedules its restart (the client, which passed the point, forgets the row in
  /// its crash()); at RolledBack the client stays up and forgets it itself.
  virtual bool lose_row_here(RowPoint point, const std::string& intent, int n) = 0;
  /// The drop point of `m` (a message being carried): the network loses it.
  virtual bool planned_drop(const Message& m) = 0;
  /// The network's arrival of message `id`: delivered to the node of its `to` side if
  /// that node is alive, else lost (reason "receiver_down").
  virtual void arrive(int id) = 0;
  /// The network's loss of message `id` (`reason`: "fault").
  virtual void lose(int id, const char* reason) = 0;
};

/// Builds the nodes of a run from its scenario, each with its own contract
/// (engine/nodes/nodes.hpp builds today's client, service, provider and network).
using NodeFactory = Nodes (*)(const Scenario& scenario, Env& env);

/// Calls `fn` with the node of `side` as its concrete type `Self`: work a node schedules
/// for itself (Env::schedule) runs on the same kind of node it was scheduled by.
template <typename Self, typename Fn>
void schedule_self(Env& env, std::int64_t at, Side side, Fn fn) {
  env.schedule(at, side, [fn = std::move(fn)](Node& n) { fn(static_cast<Self&>(n)); });
}

}  // namespace idemlab
