#pragma once
// A scenario: everything one simulated run depends on. Lessons carry one as data
// (lessons/README.md); engine/experiments builds the course's own ones in code.
//
// The knobs each have a right and a wrong setting (DESIGN.md, "The model"):
//  - key_scope: one operation key per intent (right) or a new key per attempt (wrong: the
//    service cannot tell a retry from a new operation).
//  - on_timeout: record UNKNOWN (right: a timeout is an indefinite error) or mark the
//    intent FAILED and resend (wrong).
//  - recovery: reconcile by looking up the original key (right where the service offers
//    lookup) or resend.
//  - persist: store the intent before sending (right) or after (wrong: a crash in between
//    leaves an effect the client has no record of).
//  - recovery_scan: after a restart, reconcile UNKNOWN and stale PENDING intents (right:
//    a crash before the timeout leaves PENDING) or UNKNOWN only (wrong).
//  - retry budget: sends per intent (max_attempts, or retry_layers whose attempts
//    multiply: right is one layer owning the retry, wrong is every layer retrying),
//    deadline_ms and backoff_ms (engine/client/retry_budget.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "engine/faults/fault.hpp"

namespace idemlab {

enum class KeyScope { PerIntent, PerAttempt };
enum class OnTimeout { RecordUnknown, MarkFailedAndResend };
enum class Recovery { Lookup, Resend };
enum class PersistWhen { BeforeSend, AfterSend };
enum class RecoveryScan { UnknownAndStalePending, UnknownOnly };

/// One layer that retries a call (an SDK, the application, a job scheduler): it runs what
/// is inside it up to `attempts` times. Layers nest, innermost first.
struct RetryLayer {
  std::string layer;  ///< its name, as the timeline shows it ("sdk")
  int attempts = 1;   ///< 1..20
};

struct ClientPolicy {
  KeyScope key_scope = KeyScope::PerIntent;
  OnTimeout on_timeout = OnTimeout::RecordUnknown;
  Recovery recovery = Recovery::Lookup;
  PersistWhen persist = PersistWhen::BeforeSend;
  RecoveryScan recovery_scan = RecoveryScan::UnknownOnly;
  /// Budget: sends of any kind (submit attempts and lookups) per intent. When it is spent
  /// and the outcome is still unknown, the intent becomes NEEDS_HUMAN.
  int max_attempts = 3;
  /// If set, the client reconciles by itself this many virtual ms after recording
  /// UNKNOWN; if not, it reconciles only in its recovery scan after a restart, or when
  /// the script says `reconcile`.
  std::optional<std::int64_t> retry_after_ms;
  /// If set: no new send for an intent later than this many virtual ms after the client
  /// decided it; an intent whose outcome is still unknown then becomes NEEDS_HUMAN.
  std::optional<std::int64_t> deadline_ms;
  /// If set: the wait before each automatic retry (after retry_after_ms, if any), doubling
  /// from one retry to the next: backoff, 2 x backoff, 4 x backoff, ... (virtual ms).
  std::optional<std::int64_t> backoff_ms;
  /// If not empty: the layers that retry, innermost first. They replace max_attempts: the
  /// budget is the product of their attempts, and every timeout is retried by resending
  /// the call that timed out (request or lookup), as an SDK or a scheduler does.
  std::vector<RetryLayer> retry_layers;
};

struct ServiceContract {
  bool lookup = true;  ///< lookup(op_key) is offered
};

struct Timing {
  std::int64_t latency_ms = 10;  ///< one way, every message
  std::int64_t timeout_ms = 100; ///< client waits this long for a reply
};

enum class ActionKind {
  Deliver,              ///< the client decides to deliver `payload` as intent `intent`
  CrashClient,          ///< the client process dies; its database survives
  RestartClient,        ///< the client restarts, reopens its database and scans it
  Reconcile,            ///< the client reconciles an UNKNOWN/PENDING intent now
  ResendNewKey,         ///< the naive retry: resend the intent under a fresh key
  ResendChangedPayload, ///< reuse the intent's key with a different payload
  Cancel,               ///< a new intent `<intent>-cancel` whose payload names the original key
};

struct Action {
  ActionKind kind = ActionKind::Deliver;
  std::int64_t at = 0;     ///< virtual ms
  int after_step = -1;     ///< if >= 0: run right after this step instead (a fork)
  std::string intent;
  std::string payload;
};

struct Scenario {
  std::uint64_t seed = 1;
  ClientPolicy client;
  ServiceContract service;
  Timing timing;
  std::vector<Action> script;
  FaultPlan faults;  ///< the faults of the run the learner watches
  FaultSpace space;  ///< the runs a side must consider possible (knowledge)
};

/// The intent of the first `deliver` in the script ("" if none): the default intent
/// that facts, faults and questions are about.
inline std::string first_intent(const Scenario& s) {
  for (const Action& a : s.script) {
    if (a.kind == ActionKind::Deliver) return a.intent;
  }
  return "";
}

}  // namespace idemlab
