#pragma once
// The client: a process with a durable SQLite intent store and volatile memory.
//
// Table `intents(intent TEXT PRIMARY KEY, op_key, fingerprint, payload, status, receipt,
// attempts, lookups)`. The operation key is generated when the client decides to deliver
// (or under KeySource::PayloadHash derived from the intent and its content, so changed
// content gets its own key) and persisted before the request is sent (KeyScope::PerIntent), or drawn anew for every
// attempt (KeyScope::PerAttempt, the mistake the course warns about).
// A timeout is an indefinite error: with OnTimeout::RecordUnknown the intent becomes
// UNKNOWN and stays so until reconciled; the client never turns UNKNOWN into FAILED.
// A crash loses the volatile state (timers, what it was waiting for) and keeps the
// database; a restart reads it again and scans for UNKNOWN intents (and, with
// RecoveryScan::UnknownAndStalePending, for PENDING ones a crash left behind before the
// timeout could record UNKNOWN), which it reconciles by looking up the original key (or
// resending, per ClientPolicy::recovery). A lookup answered not found leads to a resend
// or another lookup (ClientPolicy::on_not_found); an `in_progress` answer (the service is
// still processing the key) is indefinite: the intent stays UNKNOWN.
//
// Errors are definite or indefinite (docs/design.md): a rejection (the service refused before
// doing anything) is definite and ends the intent as CONFLICT; a refused connection (fault
// connect_error: the request never left) is definite about that send, which is retried like
// any other or, when no send of the intent ever left, ends it FAILED; a timeout, or a reply
// that leaves the outcome open, is indefinite and leaves it UNKNOWN. Every `record` step
// after an error carries local.error = "definite" | "indefinite"; the wrong on_timeout
// policy writes FAILED after an indefinite one, and its step says so.
// The retry budget (engine/client/retry_budget.hpp) bounds the sends of an intent by
// count (max_attempts or retry layers) and by time (deadline_ms from the decision); when
// it is spent and the outcome is still unknown the intent becomes NEEDS_HUMAN, with
// local.reason "budget_spent" or "deadline_passed". A send under retry layers records
// local.layers (each layer's iteration), local.send, local.budget and local.retried_by.
// The service's other answers (engine/service/service.hpp): a 500 is indefinite (UNKNOWN,
// then as after a timeout), or with OnServerError::Fail recorded FAILED (the mistake); a
// 429 is definite about its request (FAILED, reason refused, when it answers the only send;
// indefinite for the intent after an earlier send); "409 already exists" is resolved per
// ClientPolicy::on_already_exists (a lookup; DELIVERED without a receipt; or FAILED).
// A cancel is a new intent `<intent>-cancel` with its own operation key and the payload
// "cancel <original key>": a new effect at the service, which undoes nothing there.
// The client may lose its own row of an intent after the request left (fault lose_row,
// engine/faults/fault.hpp: a transaction rolled back after the call, a state file not
// saved before a crash): the effect may exist and the client has no row, so nothing it
// does later is about that intent. Only a pass that starts from nothing brings one back:
// a `reapply` with no row decides the intent anew from the user's configuration
// (ClientSetup::desired), under the key the settings give: a stored key is drawn anew (a
// new operation), a key derived from the intent and its content comes out the same and is
// replayed (engine/client/lost_row.cpp).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/scenario/scenario.hpp"
#include "engine/sim/node.hpp"
#include "engine/store/database.hpp"

namespace idemlab {

/// What the client is built with: its own policy and what it is written against, nothing
/// of another side's contract.
struct ClientSetup {
  ClientPolicy policy;
  /// How long it waits for a reply before it times out (virtual ms; Timing::timeout_ms).
  std::int64_t timeout_ms = 0;
  /// Its seed for the operation keys it draws (Scenario::seed).
  std::uint64_t seed = 1;
  /// Whether the service's API it is written against offers a lookup by key
  /// (ServiceContract::lookup): a published API, not the service's state.
  bool lookup_offered = false;
  /// The user's configuration a re-run reads (a `reapply`): each intent's content and the
  /// virtual ms from which the user wants it (the script's `deliver`). It lives outside the
  /// client's database, as Terraform's .tf files live beside its state file, so a lost row
  /// does not lose it.
  struct Desired {
    std::string payload;
    std::int64_t from = 0;
  };
  std::map<std::string, Desired> desired;
};

/// One retry layer's place in one intent's call: its iteration (from 1: which of its
/// attempts is running) and the calls it has started (monotonic: a layer's timer or a
/// scheduled retry from before a newer call is stale).
struct LayerState {
  int iteration = 1;
  int calls = 0;
};

class Client final : public Node {
 public:
  Client(Env& env, ClientSetup setup);
  /// A copy of `from` working in `env` (Simulation::fork): its own database holding the
  /// same rows, or with `take`, from's own database (`from` is then left without one).
  Client(Env& env, Client& from, bool take);

  /// A script action (engine/scenario/knobs.hpp): one about an intent the client has not
  /// decided (yet) does nothing, and an `ignored` step (reason "undecided") says so.
  void act(const Action& a) override;
  void snapshot(Snapshot& into) override;
  std::unique_ptr<Node> fork(Env& env, bool take) override;

  // Script actions (each a no-op on a crashed client, except restart).
  void deliver(const std::string& intent, const std::string& payload);
  void crash() override;
  void restart() override;
  void reconcile(const std::string& intent) { reconcile(intent, 0); }
  void resend_new_key(const std::string& intent);
  void resend_changed_payload(const std::string& intent, const std::string& payload);
  /// resend_changed_payload, only while the intent's row says FAILED: the fallback a
  /// client takes after a definite refusal (ubicloud: another instance family after
  /// InsufficientInstanceCapacity). A no-op on any other status.
  void fallback(const std::string& intent, const std::string& payload);
  /// Sends the intent again under the operation key its row holds (the retry the
  /// Idempotency-Key draft makes safe: the service replays the original receipt).
  void resend_same_key(const std::string& intent);
  /// A desired-state controller's pass: sends the intent again whatever its row says
  /// (DELIVERED, FAILED, NEEDS_HUMAN included), under the key the settings give
  /// (key_scope, key_source): the stored key makes it a replay, a new one a new effect.
  /// A reply to it settles an unsettled row as any reply does; a settled one stays.
  /// With no row (lost, or never written while the client was down) and the intent in
  /// ClientSetup::desired since then, it starts from nothing: decides the intent anew, with
  /// a stored key drawn anew (a second effect if the first request took effect) or a
  /// derived key that comes out the same (the service replays it).
  void reapply(const std::string& intent);
  /// Records the intent FAILED and stops waiting for it: no timer or retry sends it again
  /// (a reply that still arrives is recorded). Right only after a definite error.
  void mark_failed(const std::string& intent);
  /// Decides the intent `<intent>-cancel` (see above); a no-op without a row for `intent`.
  void cancel(const std::string& intent);

  /// A reply that reached the (alive) client.
  void on_message(const Message& m) override;

  /// local.reason of a NEEDS_HUMAN record: the sends are used up / the deadline passed.
  static constexpr const char* kBudgetSpent = reasons::kBudgetSpent;
  static constexpr const char* kDeadlinePassed = reasons::kDeadlinePassed;
  /// local.reason of the PENDING record a read-back that found nothing leads to (read_back = recreate).
  static constexpr const char* kReadBackMissing = reasons::kReadBackMissing;
  /// local.reason of a NEEDS_HUMAN record: no retry layer retries the error that reached
  /// the client (RetryLayer::retry_on).
  static constexpr const char* kNotRetried = reasons::kNotRetried;
  /// local.reason of a NEEDS_HUMAN record: the layers that retry the error have used their
  /// attempts (local.layers: those layers), with sends of the budget left (local.send of
  /// local.budget) and no other layer retrying it.
  static constexpr const char* kLayersSpent = reasons::kLayersSpent;
  /// local.reason of the FAILED record after a refused connection no retry follows, when no
  /// send of the intent ever left.
  static constexpr const char* kConnectRefused = reasons::kConnectRefused;

  bool alive() const override { return alive_; }
  /// Whether the client has decided `intent` (its row exists).
  bool has_row(const std::string& intent) { return row(intent).has_value(); }
  /// Every row of `intents`, in insertion order (as last read while crashed).
  Rows<IntentRow> rows();
  /// Every row of `earlier_versions` (an intent's content before resend_changed_payload),
  /// by intent and version.
  Rows<EarlierVersionRow> earlier();
  const std::vector<Waiting>& waiting() const { return waiting_; }

 private:
  std::optional<IntentRow> row(const std::string& intent);
  void decide(const std::string& intent, const std::string& payload, const std::string& cancels);
  enum class KeyChoice { ByPolicy, Fresh, Same };
  /// True when the request left and the client did not crash right after it.
  bool send_attempt(const std::string& intent, KeyChoice key, std::int64_t waited = 0);
  /// After the request of attempt 1 left: the row-loss points (fault lose_row); true if the
  /// row was lost there (at not_saved the client has crashed too).
  bool row_lost_after_send(const std::string& intent);
  /// Forgets the row of `intent` as fault lose_row at `point` does, with a lose_row step:
  /// it is deleted, and nothing the client waits for or retries is about it any more.
  void forget_row(const std::string& intent, RowPoint point);
  /// The user's configuration of `intent`, if the user wants it by now (ClientSetup::desired).
  const ClientSetup::Desired* desired_now(const std::string& intent) const;
  /// The number on the wire (Message::n, the injection points' n) of the row's attempt
  /// `attempt`: the attempt itself, after the attempts sent under rows of the intent the
  /// client lost (abandoned_).
  long long wire_n(const std::string& intent, long long attempt) const;
  /// Whether the row of `intent` was made by a re-run that found none (its `recreated`
  /// column): an earlier run may have sent the intent, and for all the client knows it took
  /// effect, so neither a refused connection nor a 429 to the row's only send settles it.
  bool recreated(const std::string& intent);
  /// Sends attempt `attempt` under `key` (the key on the wire); `stored`: the key the
  /// client's row holds, when a layer put its own on the wire instead.
  /// False if the plan refuses its connection (fault connect_error): it is never sent, the
  /// step says connect_error, and on_connect_error decides what next.
  bool launch_request(const std::string& intent, const std::string& key, const std::string& payload,
                      const std::string& fingerprint, int attempt, std::int64_t waited,
                      const std::string& stored = "");
  /// After a refused connection: the send again (by the layer that retries "connect", or
  /// without layers the client's own budget), else FAILED when no send of the intent ever
  /// left (a definite error), else as after an unretried indefinite error.
  void on_connect_error(const std::string& intent);
  /// Whether any of the intent's first `attempts` requests went out: not all of them were
  /// refused at the connection (lookups create nothing, so only attempts count); always,
  /// for all the client knows, of a row a re-run made from nothing (recreated).
  bool any_left(const std::string& intent, long long attempts);
  /// The key the next send of `intent` carries: `stored`, or under a retry layer that makes
  /// its own key per call (RetryLayer::key_per_call) that layer's key for this call (the
  /// iterations of the layers outside it).
  std::string wire_key(const std::string& intent, const std::string& stored);
  /// A lookup by the intent's key; `read_back`: to confirm a success it recorded
  /// (ClientPolicy::read_back), not to reconcile.
  void send_lookup(const std::string& intent, std::int64_t waited = 0, bool read_back = false);
  LocalView send_view(const std::string& intent, std::int64_t waited);
  void on_timeout(const std::string& intent, MessageKind kind, int n, int epoch);
  /// An indefinite error of kind `error` (a RetryOn bit) on the call whose reply of kind
  /// `awaited` the client waited for.
  void on_indefinite(const std::string& intent, MessageKind awaited, unsigned error);
  /// The layer that retries an error of kind `error` resends `call`; with no such layer the
  /// error reaches the client (see RetryLayer::retry_on).
  void retry(const std::string& intent, MessageKind call, unsigned error, bool escalate, int from_layer = 0);
  bool retry_stops(const std::string& intent, std::int64_t at, bool escalate_when_spent);
  /// Sends the retry of `layer` (an index into retry_layers): its iteration goes up by one,
  /// the layers inside it start again at 1.
  void retry_now(const std::string& intent, MessageKind call, std::int64_t wait, bool escalate_when_spent, int layer,
                 int calls = -1);
  /// Layers 0..`upto` start a new call of the intent now: each one with a timeout_ms gets
  /// a timer for it (on_layer_timeout).
  void begin_calls(const std::string& intent, int upto);
  /// Layer `layer`'s call number `calls` of the intent has run past its timeout_ms.
  void on_layer_timeout(const std::string& intent, int layer, int calls, int epoch);
  /// The intent's iteration of each retry layer (all 1 until a layer retries).
  /// Where the intent stands in each retry layer, innermost first (layers_).
  std::vector<LayerState>& layers_of(const std::string& intent);
  /// The innermost layer that retries errors of kind `error` and has an attempt left (-1:
  /// none): the one that retries it.
  int retrying_layer_for(const std::string& intent, unsigned error, int from_layer = 0);
  void after_unknown(const std::string& intent);
  void reconcile(const std::string& intent, std::int64_t waited);
  /// "409 already exists": success, fail or a lookup, per ClientPolicy::on_already_exists.
  void on_already_exists(const std::string& intent);
  /// Whether a 429 (`m`) settles the intent as FAILED: it answers its only send, or it is
  /// a stored refusal (replayed or looked up). Otherwise an earlier send may have taken
  /// effect, and the 429 is indefinite for the intent.
  bool refusal_settles(const IntentRow& r, const Message& m);
  /// Under OnRefused::Retry, for a settling 429 to a request (not a stored refusal):
  /// records PENDING and schedules the send its Retry-After asks for, if the budget and
  /// the deadline allow it then. False if it does not retry (the caller records FAILED).
  bool retry_after_refusal(const Message& m);
  /// The answer to a read-back (ClientPolicy::read_back) of an intent recorded DELIVERED:
  /// under Recreate, a not_found makes it PENDING again and sends it under a new key.
  void on_read_back(const IntentRow& r, const Message& m);
  long long sends(const std::string& intent);
  std::optional<std::int64_t> deadline_at(const std::string& intent);
  std::string no_send_reason(const std::string& intent, std::int64_t at);
  bool waiting_on(const std::string& intent) const;
  void escalate(const std::string& intent, const std::string& reason);
  /// NEEDS_HUMAN because no layer (from `from_layer` out) retries `error` (a RetryOn bit)
  /// now: kNotRetried, or kLayersSpent when the layers that retry it have used their attempts.
  void not_retried(const std::string& intent, unsigned error, int from_layer = 0);
  void record_status(const std::string& intent, const std::string& status,
                     const std::optional<std::string>& receipt, const std::string& reason = "",
                     const char* error = nullptr, LocalView&& extra = LocalView());
  void wait_for(const std::string& intent, MessageKind kind, int n);
  void stop_waiting(const std::string& intent);
  std::string make_key(const std::string& intent, long long k) const;
  /// The intent's operation key for content `fingerprint`: drawn (make_key 1), or under
  /// KeySource::PayloadHash derived from the intent and the content.
  std::string key_of(const std::string& intent, const std::string& fingerprint) const;
  int record(EventKind kind, const std::string& intent, LocalView&& local, int message = -1);

  Env& env_;
  const ClientSetup setup_;
  Database db_;
  Rows<IntentRow> rows_;         // the last read of `intents`
  long long rows_read_at_ = -1;  // db_.changes() when rows_ was read
  Rows<EarlierVersionRow> earlier_;  // the last read of `earlier_versions`
  bool earlier_stale_ = false;       // written since earlier_ was read
  bool alive_ = true;
  int epoch_ = 0;  // bumped by a crash: timers of an earlier life do nothing
  std::vector<Waiting> waiting_;
  Rows<Waiting> waiting_seen_;  // waiting_ as the last snapshot shared it
  // Where each intent stands in the retry layers, innermost first (volatile: a restarted
  // process's layers start again).
  std::map<std::string, std::vector<LayerState>> layers_;
  std::string retrying_layer_;  // the layer whose retry is being sent (retry_now): its sends say so
  bool reapplying_ = false;     // a desired-state controller's pass is sending (reapply): its send says so
  std::string unsaved_;         // passing the not_saved point: the row a crash now loses (crash())
  // Attempts of each intent whose connection was refused (volatile: after a restart the
  // client no longer knows which of its sends never left, and assumes any may have).
  std::map<std::string, long long> never_left_;
  // Attempts sent under rows of each intent that the client lost (forget_row). A re-created
  // row numbers its sends on from them, as each call has its own connection: a late reply
  // to an abandoned call never answers a new one. The wire's numbering, not the client's
  // knowledge, so a crash keeps it (the budget counts the row's own attempts only).
  std::map<std::string, long long> abandoned_;
};

}  // namespace idemlab
