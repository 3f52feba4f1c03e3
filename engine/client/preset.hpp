#pragma once
// The built-in client's policy written as code (code mode, issue 34): the client knobs of a
// scenario as Lua handlers a learner can read and change (engine/code/code_client.hpp says
// what the code can call). In the sandbox the knobs stay as presets: each one fills in this
// code. The code follows client.cpp's decisions knob by knob, with the code client's own
// table (`intents`, where `attempts` counts requests and lookups alike, as the built-in
// client's budget does); what it cannot carry is listed, never silently dropped.
#include <string>
#include <vector>

#include "engine/scenario/scenario.hpp"

namespace idemlab {

/// A client knob the preset's code does not carry, with the scenario's value for it
/// (as the knob table writes it, engine/scenario/knobs.hpp).
struct UnexpressedKnob {
  std::string knob;   ///< "client.read_back", ...
  std::string value;  ///< "recreate", ...
};

struct CodePreset {
  std::string code;  ///< Lua 5.4 source, within limits::kMaxCodeBytes
  std::vector<UnexpressedKnob> unexpressed;
};

/// The scenario's client knobs (and whether its service offers lookup) as code. Pure: the
/// same scenario gives the same text. Never throws for a scenario the reader accepted.
CodePreset code_preset(const Scenario& scenario);

}  // namespace idemlab
