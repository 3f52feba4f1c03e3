#pragma once
// The network between client and service (and between the service and the mail
// provider it notifies): every message takes Timing::latency_ms one way;
// the fault plan may lose any one of them (it is lost at the time it would have arrived, so
// that no one can tell from the clock alone whether it arrived).
// A message that reaches a crashed process is lost too.
#include <map>
#include <string>

#include "engine/sim/run.hpp"

namespace idemlab {

class Simulation;

class Network {
 public:
  explicit Network(Simulation& sim) : sim_(sim) {}
  /// A copy of `from` working in `sim` (Simulation::fork).
  Network(Simulation& sim, const Network& from) : sim_(sim), lookups_(from.lookups_), emails_(from.emails_) {}
  /// Puts `m` in flight now; returns its id. The sender records its own step for it.
  int send(Message m);
  /// The next lookup number for an intent (1, 2, ...): the network's numbering, so that a
  /// lookup's drop point has a stable name across runs.
  int next_lookup(const std::string& intent) { return ++lookups_[intent]; }
  /// The next email send number for an intent (1, 2, ...), the same way: the service's
  /// sends to the mail provider, by its direct call or its outbox relay.
  int next_email(const std::string& intent) { return ++emails_[intent]; }

 private:
  void arrive(int id);
  void lose(int id, const char* reason);

  Simulation& sim_;
  std::map<std::string, int> lookups_;
  std::map<std::string, int> emails_;
};

}  // namespace idemlab
