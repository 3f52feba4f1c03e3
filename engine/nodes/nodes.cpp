#include "engine/nodes/nodes.hpp"

#include "engine/client/client.hpp"
#include "engine/net/network.hpp"
#include "engine/provider/provider.hpp"
#include "engine/service/service.hpp"

namespace idemlab {

Nodes standard_nodes(const Scenario& scenario, Env& env) {
  Nodes nodes;
  ClientSetup client{scenario.client, scenario.timing.timeout_ms, scenario.seed, scenario.service.lookup, {}};
  // The user's configuration a re-run reads: each delivered intent's content, from its decision on.
  for (const Action& a : scenario.script) {
    if (a.kind == ActionKind::Deliver) client.desired[a.intent] = {a.payload, a.at};
  }
  nodes[static_cast<std::size_t>(Side::Client)] = std::make_unique<Client>(env, std::move(client));
  nodes[static_cast<std::size_t>(Side::Service)] =
      std::make_unique<Service>(env, ServiceSetup{scenario.service, scenario.timing.timeout_ms, scenario.seed});
  nodes[static_cast<std::size_t>(Side::Network)] = std::make_unique<Network>(env, scenario.timing.latency_ms);
  nodes[static_cast<std::size_t>(Side::Provider)] = std::make_unique<MailProvider>(env, scenario.provider);
  return nodes;
}

std::unique_ptr<Simulation> start(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra) {
  return std::make_unique<Simulation>(scenario, plan, std::move(extra), &standard_nodes);
}

Run simulate(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra) {
  return Simulation(scenario, plan, std::move(extra), &standard_nodes).run();
}

}  // namespace idemlab
