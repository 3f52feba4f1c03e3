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
  ResendSameKey,        ///< send the intent again under its own operation key (a safe retry
                        ///< when the service deduplicates by key)
  MarkFailed,           ///< the client records FAILED and stops: no more sends for the intent
                        ///< (wrong after an indefinite error: the effect may exist)
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
