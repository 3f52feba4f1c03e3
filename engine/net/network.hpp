#pragma once
// The network between client and service (and between the service and the mail
// provider it notifies), as the node of Side::Network: every message sent is handed to it
// to carry (Env::send), and takes Timing::latency_ms one way; the fault plan may lose any
// one of them (it is lost at the time it would have arrived, so that no one can tell from
// the clock alone whether it arrived). It delivers to the node of the message's side
// (Env::arrive), never to a type; a message that reaches a crashed process is lost too.
#include <cstdint>

#include "engine/sim/node.hpp"

namespace idemlab {

class Network final : public Node {
 public:
  /// `latency_ms`: one way, every message (Timing::latency_ms, virtual ms).
  Network(Env& env, std::int64_t latency_ms) : env_(env), latency_ms_(latency_ms) {}
  /// Carries `m` (just sent, its id set): it arrives, or is lost, latency_ms later.
  void on_message(const Message& m) override;
  void snapshot(Snapshot&) override {}  // what is in flight is the kernel's record of messages
  std::unique_ptr<Node> fork(Env& env, bool) override { return std::make_unique<Network>(env, latency_ms_); }

 private:
  Env& env_;
  std::int64_t latency_ms_;
};

}  // namespace idemlab
