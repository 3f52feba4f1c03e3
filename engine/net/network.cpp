#include "engine/net/network.hpp"

#include "engine/sim/events.hpp"

namespace idemlab {

void Network::on_message(const Message& m) {
  int id = m.id;
  bool dropped = env_.planned_drop(m);
  schedule_self<Network>(env_, env_.now() + latency_ms_, Side::Network, [id, dropped](Network& self) {
    if (dropped) {
      self.env_.lose(id, reasons::kFault);
    } else {
      self.env_.arrive(id);
    }
  });
}

}  // namespace idemlab
