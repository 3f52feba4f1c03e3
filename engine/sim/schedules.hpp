#pragma once
// Fault schedules: which faults can be added to a run, and when two plans are the same
// schedule. One enumeration, used by the knowledge fault space (engine/knowledge/worlds.cpp)
// and the explorer (engine/explore/explore.hpp), so both consider the same runs.
//
// A new fault is only ever placed at an injection point that the run with the earlier
// faults actually passed (Run::points): a fault elsewhere would never fire. Two plans are
// one schedule when the same faults fire (a planned fault at a point the run never
// reaches changes nothing), whatever the order they were listed in.
#include <string>
#include <vector>

#include "engine/faults/fault.hpp"
#include "engine/sim/run.hpp"

namespace idemlab {

/// Whether the space allows a fault of this kind.
bool in_space(const Fault& f, const FaultSpace& space);

/// A space holding every kind of fault: any message may be lost, either side may crash at
/// any of its points (restart after `restart_after_ms`).
FaultSpace every_fault(std::int64_t restart_after_ms = 50);

/// The faults that extend `plan`: one per injection point `run` passed, allowed by
/// `space`, not already in `plan`, each point once, in the order the run passed them;
/// crashes restart after space.restart_after_ms.
std::vector<Fault> next_faults(const Run& run, const FaultPlan& plan, const FaultSpace& space);

/// The schedule of a run: the ids of the faults that fired, sorted, joined by ",".
std::string schedule_key(const Run& run);

}  // namespace idemlab
