#pragma once
// Small queries the engine tests make of a fault space's worlds and of a run.
#include <algorithm>
#include <string>
#include <vector>

#include "engine/knowledge/worlds.hpp"

/// The world whose fault plan has this id ("" for the fault-free run), or nullptr.
inline const idemlab::World* world(const std::vector<idemlab::World>& worlds, const std::string& plan_id) {
  auto it = std::find_if(worlds.begin(), worlds.end(),
                         [&](const idemlab::World& w) { return w.plan.id() == plan_id; });
  return it == worlds.end() ? nullptr : &*it;
}

/// How many steps of `run` have this event kind.
inline int count_events(const idemlab::Run& run, const std::string& kind) {
  return static_cast<int>(std::count_if(run.steps.begin(), run.steps.end(),
                                        [&](const idemlab::Step& s) { return s.event.name() == kind; }));
}
