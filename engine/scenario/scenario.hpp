#pragma once
// A scenario: everything one simulated run depends on. Lessons carry one as data
// (lessons/README.md); engine/experiments builds the course's own ones in code.
//
// The knobs each have a right and a wrong setting (docs/design.md, "The model"):
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
//  - on_not_found: after a lookup answers not found, resend under the same key (right
//    only where lookup is authoritative) or look up again later (right where it may lag).
//  - on_server_error: a 500 is an indefinite error, UNKNOWN (right), or FAILED (wrong).
//  - on_already_exists: "409 already exists" is looked up (right), taken as DELIVERED
//    (neutral) or recorded FAILED (wrong: the create it retried happened).
//  - key_source: the key drawn once and stored, or derived from the intent and its
//    content (neutral both: changed content is then a new operation).
// The service's knobs are in ServiceContract.
//  - retry budget: sends per intent (max_attempts, or retry_layers whose attempts
//    multiply: right is one layer owning the retry, wrong is every layer retrying),
//    deadline_ms and backoff_ms (engine/client/retry_budget.hpp).
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/faults/fault.hpp"

namespace idemlab {

enum class KeyScope { PerIntent, PerAttempt };
enum class OnTimeout { RecordUnknown, MarkFailedAndResend };
enum class Recovery { Lookup, Resend };
enum class PersistWhen { BeforeSend, AfterSend };
enum class RecoveryScan { UnknownAndStalePending, UnknownOnly };
enum class OnNotFound { Resend, RetryLookup };
/// What the client makes of a 500 Internal Server Error (fault service_error): Unknown is
/// right (the work may have committed before the error: an indefinite error, handled as a
/// timeout is); Fail records FAILED and stops (wrong: the effect may exist).
enum class OnServerError { Unknown, Fail };
/// What the client makes of "409 already exists" (ServiceContract::on_repeat =
/// already_exists): Reconcile looks the key up to learn whose content it holds (right);
/// Success records DELIVERED at once (right only while the key is this intent's alone and
/// its content unchanged); Fail records FAILED (wrong: the create it retried happened).
enum class OnAlreadyExists { Reconcile, Success, Fail };
/// Where an intent's operation key comes from (under key_scope = intent): Stored, drawn
/// once when the client decides the intent and kept in its row (default); or
/// PayloadHash, derived from the intent and its content (ubicloud's "VM id + instance
/// family"), so changed content is sent under a new key: a new operation, never a 422;
/// or RequestHash, a hash of the whole request as sent, which carries a field that changes
/// with every submit (a timestamp, a nonce): every send gets a new key, so a retry is a
/// new operation (wrong, as key_scope = attempt is).
enum class KeySource { Stored, PayloadHash, RequestHash };
/// A reply that arrives after the client stopped waiting for it (its timeout fired):
/// Record reads it like any other (default); Discard drops it unread, as an HTTP client
/// that closed the connection at its timeout does: the intent stays as the timeout left it.
enum class LateReply { Record, Discard };
/// What the client does with a 429 that settles its intent (it answers the only send: the
/// service did nothing): Fail records FAILED (true: nothing was done; whether to try
/// again is the user's call); Retry waits as long as the 429's Retry-After says
/// (ServiceContract::refusal_retry_after_ms; without one, its own backoff) and sends again, within the budget and the
/// deadline (as Stripe's and AWS's SDKs retry a throttle), FAILED when neither allows it.
/// A stored refusal (replayed, or found by lookup) is never retried: the key is bound to it.
enum class OnRefused { Fail, Retry };
/// Whether the client confirms a success by reading it back (a lookup by the key after
/// it recorded DELIVERED), and what a read that finds nothing leads to. Off (right): the
/// receipt is the proof, nothing is read. Keep (neutral): it reads, and a read that finds
/// nothing changes nothing (a lagging replica, an expired record). Recreate (wrong): it
/// takes the read's word over its receipt and creates the intent again under a new key,
/// the second effect of a provider whose read-after-create lags (eventual consistency).
enum class ReadBack { Off, Keep, Recreate };

/// The indefinite errors a retry layer may retry (RetryLayer::retry_on), as bits; JSON
/// names in retry_on_names(). A definite answer (a 422, a settling 429) is never retried.
enum RetryOn : unsigned {
  kRetryTimeout = 1,     ///< "timeout": no reply in time (the request may have taken effect)
  kRetryServerError = 2, ///< "5xx": a 500 (the service may have committed before failing)
  kRetryInProgress = 4,  ///< "409": the IETF draft's 409, the key still being processed
  kRetryThrottled = 8,   ///< "429": a refusal after an earlier send that may have taken effect
  kRetryConnect = 16,    ///< "connect": the connection was refused, the request never left (a
                         ///< definite error: any retry of it is safe)
  kRetryAll = 31
};
/// {"timeout", kRetryTimeout}, {"5xx", ...}, {"409", ...}, {"429", ...}, {"connect", ...},
/// in that order.
inline const std::vector<std::pair<std::string, unsigned>>& retry_on_names() {
  static const std::vector<std::pair<std::string, unsigned>> names = {
      {"timeout", kRetryTimeout}, {"5xx", kRetryServerError}, {"409", kRetryInProgress}, {"429", kRetryThrottled},
      {"connect", kRetryConnect}};
  return names;
}
/// The bit of a retry_on name (0 for an unknown name), and the name of one bit ("" if none).
inline unsigned retry_on_bit(const std::string& name) {
  for (const auto& [n, bit] : retry_on_names()) {
    if (n == name) return bit;
  }
  return 0;
}
inline std::string retry_on_name(unsigned bit) {
  for (const auto& [n, b] : retry_on_names()) {
    if (b == bit) return n;
  }
  return "";
}

/// One layer that retries a call (an SDK, the application, a job scheduler): it runs what
/// is inside it up to `attempts` times. Layers nest, innermost first.
struct RetryLayer {
  std::string layer;  ///< its name, as the timeline shows it ("sdk")
  int attempts = 1;   ///< 1..20
  /// The layer makes its own operation key each time it is called and reuses it across its
  /// own attempts, ignoring the caller's (Stripe's SDKs generate one per request; an SDK
  /// that overrides the key it is given). Layers inside it reuse its key; each retry of a
  /// layer outside it is a new call, so a new key: the key on the wire is not the key the
  /// client stored (JSON "key": "per_call"; default "caller": it sends the key it is given).
  bool key_per_call = false;
  /// The errors it retries (RetryOn bits; JSON "retry_on": ["timeout", "5xx", ...], default
  /// all). An error a layer does not retry, or retries with no attempt left, passes to the
  /// layer outside it (Stripe's SDKs retry connection errors, 409, 429 and 5xx; an
  /// interceptor may retry only a 5xx and leave a timeout to its caller). One that passes
  /// every layer reaches the client with the outcome unknown: NEEDS_HUMAN (with layers the
  /// client has no retry of its own), unless a restart's scan or the script reconciles it.
  unsigned retry_on = kRetryAll;
  /// If set: how long the layer waits for one call of what is inside it, its inner
  /// layers' retries included (virtual ms; a scheduler's start-to-close timeout, as
  /// Temporal's). When it passes, the layer gives up on the call, which may still be
  /// running at the service, and treats it as a timeout: it retries it (if it retries
  /// timeouts and has an attempt left) or passes it outward. Unset: it waits as long as
  /// what is inside it does (timing.timeout_ms per send).
  std::optional<std::int64_t> timeout_ms;
};

struct ClientPolicy {
  KeyScope key_scope = KeyScope::PerIntent;
  OnTimeout on_timeout = OnTimeout::RecordUnknown;
  Recovery recovery = Recovery::Lookup;
  PersistWhen persist = PersistWhen::BeforeSend;
  RecoveryScan recovery_scan = RecoveryScan::UnknownAndStalePending;
  /// Budget: sends of any kind (submit attempts and lookups) per intent. When it is spent
  /// and the outcome is still unknown, the intent becomes NEEDS_HUMAN.
  int max_attempts = 3;
  /// If set, the client reconciles by itself this many virtual ms after recording
  /// UNKNOWN; if not, it reconciles only in its recovery scan after a restart, or when
  /// the script says `reconcile`.
  std::optional<std::int64_t> retry_after_ms;
  /// What a `not_found` lookup answer leads to: Resend (send the request again under the
  /// same key: it never took effect, if the lookup is authoritative) or RetryLookup (look
  /// up again retry_after_ms later; NEEDS_HUMAN when the budget is spent).
  OnNotFound on_not_found = OnNotFound::Resend;
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
  OnServerError on_server_error = OnServerError::Unknown;
  OnAlreadyExists on_already_exists = OnAlreadyExists::Reconcile;
  KeySource key_source = KeySource::Stored;
  LateReply late_reply = LateReply::Record;
  OnRefused on_refused = OnRefused::Fail;
  ReadBack read_back = ReadBack::Off;
  /// Whether a request carries the intent's operation key (the Idempotency-Key header).
  /// True is right; false is wrong: the service cannot tell a retry from a new operation
  /// (it answers 400 or, where the key is optional, does the work again).
  bool sends_key = true;
};

/// The order in which the service writes the dedup record (idempotency_keys) and the
/// effect (deliveries) of a new operation key.
enum class Ordering {
  Atomic,      ///< both in one transaction (right: a crash leaves both or neither)
  KeyFirst,    ///< key committed, then the effect: a crash between leaves a key whose
               ///< repeat is answered "done" for an effect that never happened
  EffectFirst  ///< effect committed, then the key: a crash between lets a retry make a
               ///< second effect
};
/// Where the service's lookup reads: Works (the dedup records, as lookup_lag_ms allows), or
/// Broken: a read path that never finds a record, whatever is stored (a lookup routed to
/// the wrong region or shard, an index that was never built, a lookup by a field the service
/// never stores). Unlike a lagging replica, waiting does not help.
enum class ReadPath { Works, Broken };
/// What the service recognises a repeat by.
enum class Dedup {
  Key,         ///< the operation key (right)
  Fingerprint, ///< the payload fingerprint (wrong: two intents with the same content
               ///< are merged into one effect)
  None         ///< nothing: the service never looks for a repeat, so every request that
               ///< reaches it makes a new effect (wrong: a retry after a lost response
               ///< is a second charge). It still writes the dedup record lookup reads.
};
/// What the service does with a request whose key it is processing right now
/// (processing_ms > 0: between receiving the first request and committing it).
enum class ConcurrentSameKey {
  Reject,          ///< answered `in_progress` at once (right: the IETF Idempotency-Key
                   ///< draft's 409 Conflict); the check for a dedup record and the insert
                   ///< are one transaction at the commit
  ProcessBoth,     ///< no in-progress guard: the second request is processed too, and the
                   ///< check at its commit finds the first's record and replays it: one
                   ///< effect, but the work ran twice at once (wrong: concurrent_execution)
  CheckThenInsert  ///< no guard, and the check runs when the request arrives, the insert
                   ///< when processing ends (wrong: two requests with one key inside the
                   ///< window both pass the check and both commit an effect)
};

/// How the service answers a repeat of a key it holds a record of (same content).
enum class OnRepeat {
  Replay,        ///< the stored result again, marked replayed (right: the IETF Idempotency-Key
                 ///< draft; Stripe's `Idempotent-Replayed: true` header)
  AlreadyExists  ///< "409 Conflict: already exists": a create by natural key (a blob name, a
                 ///< unique column) that stores no result to replay; neither receipt nor
                 ///< content is returned, so the client must know what it means
};

/// What a retry under a key whose first request failed with a 500 (fault service_error at
/// before_commit or after_commit) is answered.
enum class AfterError {
  Complete,    ///< the work is completed: run anew if nothing was committed, answered the
               ///< effect's result if it was (Stripe API v2: "retries failed or partially
               ///< failed work to completion"; right)
  ReplayError  ///< the 500 is saved as the key's result and replayed to every retry under the
               ///< key, whether or not the effect was committed (Stripe API v1 saves "the
               ///< status code and body of the first request ... including 500 errors"):
               ///< a retry under that key can never learn or finish anything
};

/// What the service compares when a key it holds comes back.
enum class Compares {
  Payload,  ///< the request's whole content, by its fingerprint: changed content under the
            ///< key is refused 422 (right: the IETF draft; Stripe "compares incoming
            ///< parameters to those of the original request")
  Nothing   ///< the key alone: changed content is answered the first content's result as if
            ///< it were its own (wrong: the client records a success for content that was
            ///< never done, false_success)
};

/// What the service does with a request that carries no key (ClientPolicy::sends_key).
enum class MissingKey {
  Reject,  ///< 400 Bad Request, nothing done (the IETF draft, for an operation documented
           ///< as requiring the header; right)
  Process  ///< done as a new operation every time, under a name of the service's own, as
           ///< where the key is optional (Stripe): every retry is another effect (neutral:
           ///< harmless only if the client always sends a key)
};

/// What the service does about the notification email each new effect owes (the next
/// delivery boundary: a row in the service's database is not an email sent).
enum class Notify {
  None,    ///< no email (default)
  Direct,  ///< after its commit the service calls the mail provider itself: a crash after
           ///< the commit and before the call loses the email, and nothing durable records
           ///< that one is owed (a retry is replayed and sends nothing)
  Outbox   ///< the transactional outbox: the commit writes an `outbox` row in the same
           ///< transaction as the effect; a relay sends pending rows to the provider and
           ///< marks them sent on its ack. A crash after the send and before the mark makes
           ///< the relay send again after the restart, under the row's email key
};

/// The mock service's contract (engine/service/service.hpp). Times in virtual ms.
struct ServiceContract {
  bool lookup = true;  ///< lookup(op_key) is offered
  Ordering ordering = Ordering::Atomic;
  Dedup dedup = Dedup::Key;
  /// Lookup reads a replica this far behind: a dedup record younger than this is not
  /// found. 0: lookup reads the primary.
  std::int64_t lookup_lag_ms = 0;
  /// Whether lookup's read path finds what is stored at all (ReadPath).
  ReadPath read_path = ReadPath::Works;
  /// If set, a dedup record is forgotten this long after it was made (an `expire` step):
  /// a repeat of its key then makes a new effect, and lookup answers not found.
  std::optional<std::int64_t> retention_ms;
  /// Time between receiving a request and committing it. During it the key is in
  /// progress in the service's memory and, under concurrent_same_key = reject, a second
  /// request (or lookup) with it is answered `in_progress` (IETF
  /// draft-ietf-httpapi-idempotency-key-header: 409 Conflict for a request whose key is
  /// still being processed). 0: no window.
  std::int64_t processing_ms = 0;
  /// A second request with a key still being processed (see processing_ms).
  ConcurrentSameKey concurrent_same_key = ConcurrentSameKey::Reject;
  /// If set, requests reach the service's workers through a queue that leases each one
  /// for this long (SQS's visibility timeout, a Celery/Redis broker's): a request still
  /// being processed when its lease runs out is handed to another worker as well (a
  /// `redeliver` step), at most limits::kMaxLeaseRedeliveries times. The redelivered copy
  /// is the same message, so the in-progress guard does not stop it. Right when at least
  /// processing_ms (the work is done before the lease runs out), wrong when shorter
  /// (virtual ms).
  std::optional<std::int64_t> lease_ms;
  Notify notify = Notify::None;
  OnRepeat on_repeat = OnRepeat::Replay;
  /// Whether a refused request (fault service_error refused, 429) is stored under its
  /// key as its result, the way EC2 binds a client token to the parameters of the call
  /// that used it even when that call failed: a repeat with the same content is answered
  /// the stored 429 again, and one with changed content 422 (EC2's
  /// IdempotentParameterMismatch). False: nothing is stored (Stripe saves no result for a
  /// request that did not begin executing).
  bool stores_refusal = false;
  AfterError after_error = AfterError::Complete;
  Compares compares = Compares::Payload;
  MissingKey missing_key = MissingKey::Reject;
  /// The Retry-After a 429 carries (RFC 9110 section 10.2.3): how long the client should
  /// wait before it sends again (virtual ms; ClientPolicy::on_refused). 0 (default): none
  /// given, as EC2's InsufficientInstanceCapacity gives none.
  std::int64_t refusal_retry_after_ms = 0;
};

/// The mail provider the service notifies (engine/provider/provider.hpp).
struct MailProviderContract {
  /// Whether an email whose key the provider already holds is acknowledged without being
  /// delivered again (right: the outbox row's key is the email's idempotency key), or
  /// delivered as one more email (wrong: every resend of the relay is a second email).
  bool dedup_by_key = true;
  /// What one notice the provider takes in is, in the texts that count them: an email in
  /// an inbox, or one credit to a balance (a payment webhook crediting a wallet: the
  /// provider's lane stands in for the balance ledger). Wording only; the provider acts
  /// the same either way.
  enum class Effect { Email, Credit };
  Effect effect = Effect::Email;
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
  Cancel,               ///< a new intent `<intent>-cancel` whose payload names the original key
  Fallback,             ///< only if the intent is FAILED (a definite refusal): send it again
                        ///< with changed content (another instance family, another card),
                        ///< as resend_changed_payload does; a no-op otherwise
  Reapply,              ///< a desired-state controller's pass (Kubernetes' reconcile loop, a
                        ///< cron job that applies a config): send the intent again whatever
                        ///< the client recorded for it, under the key its settings give. Safe
                        ///< when that is the intent's stored key (the service replays); a new
                        ///< key per attempt or per request hash makes each pass an effect.
                        ///< With no row (fault lose_row) it decides the intent anew from its
                        ///< deliver: a stored key drawn anew, a derived key the same
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
  MailProviderContract provider;
  Timing timing;
  std::vector<Action> script;
  FaultPlan faults;  ///< the faults of the run the learner watches
  FaultSpace space;  ///< the runs a side must consider possible (knowledge)
  /// The client's code (issue 34, engine/code/): Lua 5.4 source the client runs at its
  /// decision points instead of the `client` knobs; "" for the built-in client. At most
  /// limits::kMaxCodeBytes. A scenario holding code runs only in an engine built with code
  /// mode (the CLI, the doctests, the page's second module idemlab-code.wasm).
  std::string code;
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
