#pragma once
// Today's nodes of a run, built from a scenario: the one place that reads a scenario
// into each side's own contract (engine/sim/node.hpp: no node reads the scenario).
//
// Tier: above the parts that act in a run (client/, service/, provider/, net/) and the
// kernel (sim/), below everything that runs a scenario (invariants/ and up).
#include <memory>
#include <vector>

#include "engine/scenario/scenario.hpp"
#include "engine/sim/node.hpp"
#include "engine/sim/run.hpp"
#include "engine/sim/simulation.hpp"

namespace idemlab {

/// The client (its ClientPolicy, timeout, seed and whether the service's API offers a
/// lookup), the service (its ServiceContract), the mail provider (its contract) and the
/// network (the one-way latency) of `scenario`, acting in `env`.
Nodes standard_nodes(const Scenario& scenario, Env& env);

/// Builds the client of a scenario holding code (Scenario::code): a client running the
/// learner's code. engine/code sets it (register_code_mode) in the builds that have code
/// mode, the CLI, the doctests and the page's second module; in the page's main engine it
/// is null and such a scenario is refused before it runs (engine/api/api.cpp).
using CodeClientFactory = std::unique_ptr<Node> (*)(const Scenario& scenario, Env& env);
void set_code_client_factory(CodeClientFactory factory);
/// The factory set, or nullptr.
CodeClientFactory code_client_factory();

/// A simulation of `scenario` with today's nodes, ready to run, pause or fork (see
/// Simulation): `plan` replaces scenario.faults, `extra` adds script actions.
std::unique_ptr<Simulation> start(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra = {});

/// The run of `scenario` under `plan` (with `extra` actions) with today's nodes: the
/// same Run natively and in WASM.
Run simulate(const Scenario& scenario, const FaultPlan& plan, std::vector<Action> extra = {});

}  // namespace idemlab
