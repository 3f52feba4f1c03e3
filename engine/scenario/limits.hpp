#pragma once
// Every limit on what an input may ask of the engine, each with its reason: the size and
// shape of a lesson file, what a scenario may ask for, and how far a run and the explorer
// go. engine/sim/simulation.hpp and engine/explore/explore.hpp take theirs from here.
//
// The budget they keep: every lesson `check` accepts (and so every lesson method on it)
// runs in the page's WebAssembly engine within 64 MB and 1 s (64 MiB is the module's
// maximum memory, kMaxMemoryMiB below, within which the API's cache and explore are bounded
// too). Measured in node 20 on the development machine (2 cores shared, load 3 to 4): the
// slowest shipped lesson (retry-layers) checks in about 95 ms and the module keeps its
// initial 16 MB; a lesson of 8 intents with every crash point and about 19,000 steps of
// work checked in 490 to 800 ms and grew it to 19 MB, so kMaxCheckWork is 15,000 (about
// 400 to 600 ms); lessons of 30 questions or 40 moments and 16 facts near it stay below
// 600 ms and 16 MB. What a lesson asks is bounded before it is computed: one over a limit
// is refused in about 20 ms (the 133-intent lesson of issue 9: 16 ms in WASM; natively
// 0.02 s and 5 MB, where it took 37 s and 1.34 GB before).
// `explore` is bounded by its own limits below and reports progress while it runs.
#include <cstddef>
#include <cstdint>

namespace idemlab::limits {

/// The latest virtual time a script action, a timer or a duration may name: ten virtual
/// minutes, far beyond any timeout, backoff or retention a lesson needs, and the
/// simulation's horizon, so that every run ends.
inline constexpr std::int64_t kMaxVirtualMs = 600000;
/// How long a service may keep a dedup record: 30 virtual days. Real contracts keep keys
/// far longer than a run lasts (Stripe v1 24 hours, Stripe v2 30 days, the IETF draft
/// leaves it to the resource), so a lesson may say so; a record kept past the horizon
/// simply never expires within the run (Service::write_new schedules no expiry for it).
inline constexpr std::int64_t kMaxRetentionMs = 30LL * 24 * 60 * 60 * 1000;
/// Attempts a fault or a moment may name (the n of an injection point): retry budgets go
/// up to 20 sends per layer; 100 leaves room without letting a typo ask for millions.
inline constexpr int kMaxAttemptNumber = 100;
/// Times a queue may hand one request out again because its lease (visibility timeout,
/// ServiceContract::lease_ms) ran out while a worker still processed it. The report this
/// models (learningequality/studio #3395) saw 6 deliveries of one task; 5 more after the
/// first shows the pile-up while a short lease against a long processing time cannot make
/// a run of thousands of executions.
inline constexpr int kMaxLeaseRedeliveries = 5;
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
/// A lesson's `sandbox` block (lessons/README.md, "Sandbox start"): the knobs its first
/// screen shows (a few: the rest stay one click away, so more would defeat it) and its
/// first experiments (three, each run by `check`).
inline constexpr std::size_t kMaxSandboxFocus = 6;
inline constexpr int kMaxSandboxExperiments = 3;
/// An incident's `source`, `url` and `title` (lessons/README.md, "Incidents") are one line
/// each in the page's report panel and the list's card; the longest real one, a report's
/// title, is under 100 bytes. 300 leaves room without letting a card grow into a page.
inline constexpr std::size_t kMaxIncidentLineBytes = 300;
/// Candidate changes `check` tries when it looks for a fix challenge's solution (each one
/// an explore of up to K faults, stopped at its first violation). The search takes the
/// likeliest first (one knob at its right setting), so a solvable challenge is found within
/// a few; 200 keeps the check of an unsolvable one to seconds natively.
inline constexpr int kMaxFixCandidates = 200;

// --- The text of an input ---

/// Arrays and objects nested in one JSON text (a lesson file, the API's input; the top
/// value is level 1). A lesson is 7 levels deep and the API's input adds one; 32 leaves
/// room for any hand-written file, and keeps every recursive walk of a parsed value
/// (nlohmann's copy, comparison and dump recurse once per level) a few KB of stack, far
/// within WebAssembly's (Emscripten's default, 5 MB before 3.1.27, 64 KB after). About
/// 3,500 levels overflowed it, and killed the page's engine.
inline constexpr int kMaxJsonDepth = 32;
/// Bytes of a lesson file: the largest shipped lesson is about 18 KB (both languages); 256
/// KiB leaves room for a dozen of those, while parsing the text stays a few ms. (What a
/// lesson asks the engine to compute is bounded by the limits below, not by its size.)
inline constexpr std::size_t kMaxLessonBytes = 256 * 1024;
/// Bytes of one API input: a lesson file's text escaped in a JSON string, with room.
inline constexpr std::size_t kMaxInputBytes = 2 * kMaxLessonBytes + 4096;

/// Problems reported for one input: the first 100, then one saying more follow. A file
/// of 256 KiB can hold 40,000 unknown fields; naming each would make an answer of
/// megabytes that nobody reads.
inline constexpr int kMaxProblems = 100;

// --- What a lesson's scenario and questions may ask for ---

/// Intents a script delivers. Every step's snapshot holds one row per intent and every run
/// passes injection points per intent, so the work of a lesson grows with their square;
/// lessons use 1 or 2. (A lesson with 133 intents took 13 s and 1.85 GB to check.)
inline constexpr int kMaxIntents = 8;
/// Bytes of an intent's name and a retry layer's, and of a payload: a run holds them on
/// every step that notes them (its rows, messages and events), copied each time a table is
/// written, so their length multiplies the memory of every run. The shipped lessons' are at
/// most 16 (a name) and 36 (a payload). (8 intents named in 1,000 bytes each, or payloads
/// of 4,000, took a fault space within the other limits past 64 MiB in WASM; at these
/// limits such a scenario peaks at 40 MiB of heap, against 33 with names of 2 bytes.)
inline constexpr std::size_t kMaxNameBytes = 40;
inline constexpr std::size_t kMaxPayloadBytes = 100;
/// Actions in a script (deliveries, crashes, restarts, resends...): lessons use 1 to 3.
/// (10,000 scripted deliveries took 14 s and 640 MB to check.)
inline constexpr int kMaxScriptActions = 32;
/// Faults in the lesson's own plan (the run the learner watches): lessons use 0 or 1.
inline constexpr int kMaxPlannedFaults = 8;
/// Runs in a lesson's fault space (its possible worlds, engine/knowledge/worlds.hpp):
/// every world is a whole run kept in memory, and every knowledge cell and choose option
/// looks at each. Shipped lessons have 3 to 15.
inline constexpr int kMaxWorlds = 100;
/// The work of checking a lesson, in simulated steps, estimated before it is done
/// (engine/lesson/prepared.cpp): the runs of its fault space (each about as long as the
/// run with no fault), then each choose option and predict `if` as a run in every world
/// the client cannot tell apart at its moment; each run counts kRunWork steps more (it
/// opens two SQLite databases). Time follows it (in WebAssembly about 25 to 40 us a step
/// of work, natively about 8 to 13), and memory too: the worlds' steps, each with a
/// snapshot of every side, are kept. Shipped lessons need 60 to 800.
inline constexpr long long kMaxCheckWork = 15000;
inline constexpr long long kRunWork = 10;
/// The memory of a lesson's fault space in the page's engine (its runs, each step with a
/// snapshot of every side), counted by Run::footprint with wasm32's sizes on every platform,
/// so that native and WASM refuse alike. Estimated before the space is built (every run
/// counted whole as the one with no fault, 1.1 to 1.3 times what the runs built hold, as
/// they share their common beginnings: refused past 1.5 times this) and counted once it is.
/// A prepared lesson holds 1.03 to 1.25 times this count (measured in WASM, emmalloc), and
/// it is most of what `check` or `run` needs at its peak: this keeps a lesson's methods
/// within the page's 64 MB beside the cache of prepared lessons. Within kMaxCheckWork a
/// fault space of 8 intents held 28 MiB by this count (33 MiB of heap; `run` peaked at 53)
/// when each reapply was a new key; 8 intents delivered and reapplied 24 times, losing any
/// one message, hold 17 (18 MiB of heap). Shipped lessons hold 0.03 to 0.7.
inline constexpr std::size_t kMaxFaultSpaceBytes = 20 * 1024 * 1024;
/// Table rows the lesson's own run shows, summed over its steps: `run` writes each step's
/// tables whole (the page shows them at every step), so its answer grows with this, and
/// the answer is built in memory before it is written: 23,000 rows (8 intents over 383
/// steps, a new key per attempt and an outbox) made an answer of 6.7 MB and took 41 MiB of
/// heap to write. Shipped lessons show 10 to 191; 8 intents delivered and reapplied 24
/// times 3,800 to 5,900.
inline constexpr long long kMaxShownRows = 6000;
/// Moments, questions, options per question and facts of a lesson: each question is
/// answered at `check` (a choose option is a run in every world the client cannot tell
/// apart), each fact is a row of the knowledge grid at every step. Shipped lessons: up to
/// 9 moments, 9 questions, 4 options and 5 facts.
inline constexpr int kMaxMoments = 40;
inline constexpr int kMaxQuestions = 30;
inline constexpr int kMaxOptions = 8;
inline constexpr int kMaxFacts = 16;
/// The number of a try at a question (`answer`'s "try"): the engine only tells a first try
/// from a later one, and the page counts tries one by one; the bound keeps the number an
/// int and refuses nonsense (no learner tries a question a thousand times).
inline constexpr int kMaxTryNumber = 1000;

// --- How far a run and the explorer go ---

/// Steps of one run (Simulation::kMaxSteps): a lesson's run is a few dozen; a run that
/// has not settled by then stops as `step_limit`.
inline constexpr int kMaxRunSteps = 400;
/// Faults per schedule the explorer tries (ExploreLimits::kMaxFaults): each fault
/// multiplies the schedules by the injection points a run passes (tens), so 3 is
/// already thousands.
inline constexpr int kMaxExploreFaults = 3;
/// Schedules one `explore` call simulates at most (ExploreLimits::kMaxSchedules): a
/// lesson-sized scenario has a few thousand at K = 3; the ceiling keeps one call within
/// seconds in a browser (it reports progress while it runs).
inline constexpr int kMaxExploreSchedules = 200000;
/// The client's code in code mode (Scenario::code, engine/code/): 16 KiB is ten times the
/// reference solutions (about 1.5 KiB each) and keeps a share link's code within a URL.
inline constexpr std::size_t kMaxCodeBytes = 16 * 1024;
/// Lua instructions one handler call of the client's code may run (engine/code/lua_vm.cpp,
/// counted by a count hook every kCodeHookEvery): a handler of the reference solutions
/// runs a few hundred; a million is ~40 ms in the page's WASM, so a loop that never ends
/// stops well inside a grade's budget, with the line it was on.
inline constexpr long long kMaxCodeInstructions = 1000000;
inline constexpr int kCodeHookEvery = 1000;
/// Memory the client's Lua state may hold (its allocator counts it): the code keeps its
/// state in the client's database, so a handler's tables are small; 8 MiB leaves the
/// page's engine its kMaxMemoryMiB.
inline constexpr std::size_t kMaxCodeMemoryBytes = 8 * 1024 * 1024;
/// SQL statements one handler call may run: a handler of the reference solutions runs a
/// handful; more is a loop over the database that would make a grade slow.
inline constexpr int kMaxCodeStatements = 200;
/// Sends, lookups and timers (after) one handler call may start: a handler of the reference
/// solutions starts one; each is an event of the run, so a loop of them would fill the
/// run's step limit at once. Past it the call stops as a budget error, with its line.
inline constexpr int kMaxCodeStarts = 20;
/// What one `explore` keeps while it searches (the schedules seen, the plans of the tree's
/// next depth), estimated as it goes (engine/explore/explore.cpp, the same numbers natively
/// and in WASM, so that a cut falls at the same schedule); past it the search stops, cut
/// "memory". A schedule costs 150 to 450 bytes of heap in WASM (its key names its faults):
/// K = 3 on a scenario of 8 intents was cut at 123,653 schedules (after 7.6 minutes in node;
/// natively the same schedule) with 27.6 MiB of heap; 09-retry-layers at K = 3 completes
/// its 44,281 schedules uncut in 19.9 MiB, and the page's default of 20,000 schedules is
/// never cut (7 MiB on that scenario). It keeps explore within the page's 64 MB (the budget
/// at the top of this file) beside the API's cache of prepared lessons: 200,000 schedules
/// would take 30 to 90 MiB.
inline constexpr std::size_t kMaxExploreBytes = 20 * 1024 * 1024;

// --- Memory ---

/// The page's engine in MiB: its WebAssembly module's maximum memory (CMakeLists.txt reads
/// this line: -sMAXIMUM_MEMORY), the budget the limits of this file keep. Within it: the
/// stack (5 MiB) and static data, the cache of prepared lessons below (8 MiB), and one
/// call's work: the largest `run` (a bare scenario of 8 intents near kMaxFaultSpaceBytes,
/// names and payloads at their limits) peaks at 36 MiB of heap, the largest `explore` at 28
/// (kMaxExploreBytes). A call that would still need more is answered "out of memory: ..."
/// (engine/api/call.cpp). Measured in node 20 (Emscripten 3.1.6, emmalloc): 1,000 random
/// scenarios near the limits, mixes of them with shipped lessons filling the cache (the
/// module grew to 48 MiB at most), and tests/wasm/memory.test.mjs, which repeats every
/// method's largest calls, accepted and refused (40 MiB).
inline constexpr int kMaxMemoryMiB = 64;
/// Bytes of prepared lessons the API keeps between calls (engine/api/api.cpp), so that
/// `answer` after `run` does not prepare the lesson again: estimated per lesson
/// (PreparedLesson::heap_bytes, within 1% of what emmalloc counts in WASM; the parsed lesson
/// at twice its text), the last used kept first. The 20 shipped lessons take 4.4 MiB in
/// all, so they all fit; a lesson over the whole of it (8 intents near kMaxFaultSpaceBytes
/// take up to 25 MiB) is prepared for its call and freed after it. Beside the largest call
/// (such a lesson's `run` peaks at 36 MiB of heap) and the stack, a full cache keeps the
/// page's engine within its 64 MB with room. (Eight lessons of any size used to be
/// kept: ten such scenarios took the module to 248 MiB.)
inline constexpr std::size_t kMaxPreparedCacheBytes = 8 * 1024 * 1024;

}  // namespace idemlab::limits
