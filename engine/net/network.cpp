#include "engine/net/network.hpp"

#include "engine/client/client.hpp"
#include "engine/provider/provider.hpp"
#include "engine/service/service.hpp"
#include "engine/sim/simulation.hpp"

namespace idemlab {

int Network::send(Message m) {
  Run& run = sim_.out();
  m.id = static_cast<int>(run.messages.size());
  m.sent_at = sim_.now();
  m.sent_step = -1;
  m.fate = Message::Fate::InFlight;
  int id = m.id;
  bool dropped = sim_.planned_drop(m);
  run.messages.push_back(std::move(m));
  std::int64_t latency = sim_.scenario().timing.latency_ms;
  if (dropped) {
    sim_.schedule(sim_.now() + latency, [id](Simulation& s) { s.network().lose(id, "fault"); });
  } else {
    sim_.schedule(sim_.now() + latency, [id](Simulation& s) { s.network().arrive(id); });
  }
  return id;
}

void Network::lose(int id, const char* reason) {
  Message& m = sim_.out().messages[id];
  m.fate = Message::Fate::Dropped;
  m.end_at = sim_.now();
  LocalView local;
  local.reason = reason;
  sim_.record("drop", Side::Network, m.intent, id, std::move(local));
}

void Network::arrive(int id) {
  Message m = sim_.out().messages[id];
  // The mail provider never crashes.
  bool alive = m.to == Side::Client    ? sim_.client().alive()
               : m.to == Side::Service ? sim_.service().alive()
                                       : true;
  if (!alive) {
    lose(id, "receiver_down");
    return;
  }
  Message& stored = sim_.out().messages[id];
  stored.fate = Message::Fate::Delivered;
  stored.end_at = sim_.now();
  if (m.to == Side::Client) {
    sim_.client().on_message(m);
  } else if (m.to == Side::Service) {
    sim_.service().on_message(m);
  } else {
    sim_.provider().on_message(m);
  }
}

}  // namespace idemlab
