#pragma once
// Limits on what a scenario may ask for, each with its reason. (Simulation's own limits,
// steps per run and the virtual-time horizon, are in engine/sim/simulation.hpp.)
#include <cstdint>

namespace idemlab::limits {

/// The latest virtual time a script action, a timer or a duration may name: ten virtual
/// minutes, far beyond any timeout, backoff or retention a lesson needs, and the
/// simulation's horizon, so that every run ends.
inline constexpr std::int64_t kMaxVirtualMs = 600000;
/// Attempts a fault or a moment may name (the n of an injection point): retry budgets go
/// up to 20 sends per layer; 100 leaves room without letting a typo ask for millions.
inline constexpr int kMaxAttemptNumber = 100;
/// Sends per intent without layers, and attempts per retry layer: enough to show
/// multiplying retries, small enough that a run stays within its step limit.
inline constexpr int kMaxAttempts = 20;
/// Retry layers a client may nest (SDK, application, scheduler, ...).
inline constexpr int kMaxRetryLayers = 5;
/// One-way network latency: at least 2 ms, so that a message sent at t arrives strictly
/// after an action scheduled at t + 1 (lessons place actions between send and arrival).
inline constexpr std::int64_t kMinLatencyMs = 2;
inline constexpr std::int64_t kMaxLatencyMs = 60000;

/// A challenge (lessons/README.md, "Challenges"): faults a `break` lets the learner place
/// and knobs a `fix` lets them change. Three is the explorer's own ceiling on faults per
/// schedule, and three knobs already make a fix a puzzle rather than a lesson; `check`
/// searches the changes, so more would also make checking a lesson slow.
inline constexpr int kMaxChallengeFaults = 3;
inline constexpr int kMaxChallengeChanges = 3;
/// Candidate changes `check` tries when it looks for a fix challenge's solution (each one
/// an explore of up to K faults, stopped at its first violation). The search takes the
/// likeliest first (one knob at its right setting), so a solvable challenge is found within
/// a few; 200 keeps the check of an unsolvable one to seconds natively.
inline constexpr int kMaxFixCandidates = 200;

}  // namespace idemlab::limits
