#pragma once
// One line of text per timeline step, in both languages: the text timeline that keeps
// the lesson usable with a keyboard and a screen reader, and the CLI's `run` output.
#include "engine/sim/run.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// What happened at `step`, e.g. "the service commits the effect and receipt rcpt-… for
/// key op-… in one transaction". Never fails: an unknown kind is named as it is.
L10n describe(const Step& step, const Run& run);

}  // namespace idemlab
