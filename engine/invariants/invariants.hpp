#pragma once
// Safety, defined once (docs/design.md, "Safety"). Every judgement of "safe" or "wrong" —
// the timeline's flags, a choose question's verdicts, the side-by-side counters, the
// course tests, the explorer's counterexamples and the fuzzer — reads this module, and
// nothing else decides safety.
//
// An invariant is judged per intent, on the observer's truth of one Run: the service's
// `deliveries` rows (an effect belongs to the intent whose request carried its op_key,
// Run::key_owner), the client's `intents` rows, and the mail provider's inbox.
//  - Always-invariants must hold at every step; a violation's step is the first step
//    where it fails:
//      duplicate_effect       more than one effect for one intent;
//      false_success          the client's row says DELIVERED or holds a receipt while no
//                             effect of that intent exists, or none of the row's own
//                             content (its payload fingerprint);
//      false_failure          the client's row says FAILED or CONFLICT while an effect of
//                             the very content it sent exists: the user was told it failed
//                             while the work was done. Broken at that step even when a later
//                             step puts the row right (a resend replayed as DELIVERED): the
//                             user acted on the row when it was written. A row resent from
//                             FAILED is PENDING again before its request leaves, so a design
//                             that records FAILED on a timeout is caught where the response
//                             was lost (the effect exists when FAILED is written), not where
//                             the request was (the client cannot tell those runs apart, and
//                             the explorer tries both). A definite refusal (a 429 before
//                             anything was done; a 422 for changed content, the old
//                             content's effect in place) leaves no effect of the row's own
//                             content: not one;
//      duplicate_notification more than one email in the provider's inbox for one intent
//                             (only where the service notifies);
//      concurrent_execution   the service processing two requests of one intent at once
//                             (Snapshot::in_progress: processing_ms > 0 without the
//                             in-progress guard, or two keys for one intent): work that
//                             runs for a while, like a job or a charge call, runs twice.
//  - End-invariants must hold when the run has settled (Run::stop == Settled: nothing is
//    left to come); a violation's step is the first step of the streak in which it held
//    until the end:
//      forgotten_intent       an effect exists whose intent the client has no row for, or
//                             whose row is still PENDING;
//      lost_notification      an effect exists and the inbox holds no email for its
//                             intent (only where the service notifies).
// A run that stopped at a limit (step limit, virtual-time horizon) is judged on its
// always-invariants only, and says why it stopped. With no violation it is inconclusive,
// never "safe": the explorer, challenges, the fuzzer and `check` count it apart.
#include <map>
#include <string>
#include <vector>

#include "engine/sim/run.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

enum class Invariant {
  DuplicateEffect,
  FalseSuccess,
  FalseFailure,
  ForgottenIntent,
  LostNotification,
  DuplicateNotification,
  ConcurrentExecution,
};

/// Must hold at every step, or when the run has settled.
enum class InvariantScope { Always, AtEnd };

struct InvariantInfo {
  Invariant id;
  const char* name;  ///< "duplicate_effect", ... (the JSON name)
  InvariantScope scope;
  L10n title;        ///< its name for a learner: "duplicate effect" / "重复业务效果"
  L10n meaning;      ///< one line: what it forbids
};

/// Every invariant, in the order above (the order verdicts are listed in).
const std::vector<InvariantInfo>& invariant_table();
const InvariantInfo& info(Invariant i);
const char* to_string(Invariant i);

/// One invariant broken for one intent.
struct Violation {
  Invariant invariant = Invariant::DuplicateEffect;
  std::string intent;
  int step = 0;  ///< where it first holds (see above)
  L10n reason;   ///< "duplicate effect: 2 effects for weekly-report", in both languages;
                 ///< the numbers of the run's end while it still fails there, else of
                 ///< its step
  /// {"invariant": name, "intent": s, "step": n, "reason": L10n}
  nlohmann::json to_json() const;
};

/// The invariants' judgement of one whole run.
struct RunVerdict {
  std::vector<Violation> violations;  ///< by step, then table order, then intent
  StopReason stop = StopReason::Settled;
  bool safe() const { return violations.empty(); }
  /// Only the violations about `intent`.
  std::vector<Violation> about(const std::string& intent) const;
  /// The violations shown at `step`: always-invariants broken there (from their first
  /// step on, while they still fail), and at the last step the end-invariants too.
  /// Each reason gives the numbers of `step` itself. Linear in the rows of that step.
  std::vector<Violation> at_step(const Run& run, int step) const;
  /// {"stop": to_string(stop), "stop_text": describe(stop), "violations": [Violation]}
  nlohmann::json to_json() const;
};

/// What the observer sees of one intent at one step: its effects (deliveries rows whose
/// op_key the intent's requests carried, Run::key_owner), how many of them carry the
/// client row's own content, the client's row (nullptr: none), and its emails (counted
/// only where the service notifies).
struct IntentTruth {
  int effects = 0;
  int own_content = 0;  ///< effects whose fingerprint is the row's own (0 without a row)
  const IntentRow* row = nullptr;
  int emails = 0;
  int executions = 0;  ///< the service's requests in progress for the intent (executions)
};

/// Every intent with a row, an effect or an email at `step`, by intent. Rows and effects
/// whose key no intent owns are left out. The one count of effects per intent that the
/// invariants judge (the explorer's outcome classes read it too).
std::map<std::string, IntentTruth> truth_at(const Run& run, const Step& step);

/// Checks every step of `run` (linear in its steps and rows).
RunVerdict check_invariants(const Run& run);

/// How a run ends, per intent: the client's final status ("NONE": no row), its effects,
/// and its emails (where the service notifies). The explorer's outcome classes and the
/// sandbox's summary both read it.
struct IntentEnding {
  std::string intent;
  std::string status;
  int effects = 0;
  int emails = 0;
};
struct RunEnding {
  std::vector<IntentEnding> intents;  ///< the client's rows, then intents with effects only
  bool mail = false;                  ///< emails are counted (the service notifies)
  bool credits = false;               ///< ... as credits to a balance (Run::credits)
  StopReason stop = StopReason::Settled;
  /// "weekly-report=DELIVERED/1[/1mail];..." + "|" + stop when the run did not settle
  std::string key() const;
  /// "weekly-report: DELIVERED, 1 effect" per intent, joined; why it stopped when unsettled
  L10n text() const;
  /// {"key", "text": L10n, "intents": [{"intent", "status", "effects"[, "emails"]}], "stop"}
  nlohmann::json to_json() const;
};
RunEnding ending_of(const Run& run);

/// "settled" | "step_limit" | "horizon"
const char* to_string(StopReason s);
/// Why the run stopped, for a learner ("the run settled: nothing was left to happen", ...).
L10n describe(StopReason s);

}  // namespace idemlab
