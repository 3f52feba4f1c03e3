#include "engine/nodes/nodes.hpp"

#include "engine/client/client.hpp"
#include "engine/net/network.hpp"
#include "engine/provider/provider.hpp"
#include "engine/service/service.hpp"
#include "engine/sim/code_fault.hpp"

namespace idemlab {
namespace {
CodeClientFactory code_factory = nullptr;
}  // namespace

void set_code_client_factory(CodeClientFactory factory) { code_factory = factory; }
CodeClientFactory code_client_factory() { return code_factory; }

Nodes standard_nodes(const Scenario& scenario, Env& env) {
  Nodes nodes;
  if (!scenario.code.empty()) {
    if (!code_factory) throw CodeFault("unavailable", 0, 0, {"这个引擎没有代码模式", "this engine has no code mode"});
    nodes[static_cast<std::size_t>(Side::Client)] = code_factory(scenario, env);
  }
  ClientSetup client{scenario.client, scenario.timing.timeout_ms, scenario.seed, scenario.service.lookup, {}};
  // The user's configuration a re-run reads: each delivered intent's content, from its decision on.
  for (const Action& a : scenario.script) {
    if (a.kind == ActionKind::Deliver) client.desired[a.intent] = {a.payload, a.at};
  }
  if (!nodes[static_cast<std::size_t>(Side::Client)]) {
    nodes[static_cast<std::size_t>(Side::Client)] = std::make_unique<Client>(env, std::move(client));
  }
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
