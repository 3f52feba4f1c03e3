#include "engine/client/client.hpp"

#include <algorithm>

#include "engine/client/retry_budget.hpp"
#include "engine/fingerprint/sha256.hpp"
#include "engine/sim/rng.hpp"

namespace idemlab {
namespace {

bool is_final(const std::string& s) {
  return s == status::kDelivered || s == status::kConflict || s == status::kNeedsHuman;
}

SqlParam text_or_null(const std::optional<std::string>& s) {
  return s ? SqlParam(*s) : SqlParam();
}

}  // namespace

Client::Client(Env& env, ClientSetup setup) : env_(env), setup_(std::move(setup)), db_(Database::with_schema(
      "CREATE TABLE intents(intent TEXT PRIMARY KEY, op_key TEXT NOT NULL,"
      " fingerprint TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL,"
      " receipt TEXT, attempts INTEGER NOT NULL, lookups INTEGER NOT NULL,"
      " decided_at INTEGER NOT NULL, recreated INTEGER NOT NULL DEFAULT 0);"
      "CREATE TABLE earlier_versions(intent TEXT NOT NULL, version INTEGER NOT NULL, op_key TEXT NOT NULL,"
      " fingerprint TEXT NOT NULL, payload TEXT NOT NULL, status TEXT NOT NULL, receipt TEXT,"
      " PRIMARY KEY(intent, version))",
      "DELETE FROM intents; DELETE FROM earlier_versions")) {}

Client::Client(Env& env, Client& from, bool take)
    : env_(env),
      setup_(from.setup_),
      db_(take ? std::move(from.db_) : from.db_.copy()),
      rows_(from.rows_),
      rows_read_at_(take ? from.rows_read_at_ : from.rows_read_at_ == from.db_.changes() ? db_.changes() : -1),
      earlier_(from.earlier_),
      earlier_stale_(from.earlier_stale_),
      alive_(from.alive_),
      epoch_(from.epoch_),
      waiting_(from.waiting_),
      layers_(from.layers_),
      never_left_(from.never_left_),
      abandoned_(from.abandoned_) {}

std::unique_ptr<Node> Client::fork(Env& env, bool take) {
  return std::make_unique<Client>(env, *this, take);
}

void Client::snapshot(Snapshot& into) {
  into.client_alive = alive_;
  into.intents = rows();
  into.earlier = earlier();
  into.waiting = waiting_seen_.follow(waiting_);
}

std::string Client::make_key(const std::string& intent, long long k) const {
  return "op-" + Rng::derive_hex(setup_.seed, "key/" + intent + "/" + std::to_string(k), 12);
}

std::string Client::key_of(const std::string& intent, const std::string& fingerprint) const {
  KeySource source = setup_.policy.key_source;
  if (source == KeySource::PayloadHash) return "op-" + sha256_hex(intent + "\n" + fingerprint).substr(0, 12);
  // The request as sent carries the time it was submitted (virtual ms).
  if (source == KeySource::RequestHash) {
    return "op-" + sha256_hex(intent + "\n" + fingerprint + "\n" + std::to_string(env_.now())).substr(0, 12);
  }
  return make_key(intent, 1);
}

int Client::record(EventKind kind, const std::string& intent, LocalView&& local, int message) {
  return env_.emit(kind, Side::Client, intent, message, std::move(local));
}

Rows<IntentRow> Client::rows() {
  if (!alive_ || rows_read_at_ == db_.changes()) return rows_;
  std::vector<IntentRow> rows;
  for (SqlRow& r : db_.query(
           "SELECT intent, op_key, fingerprint, payload, status, receipt, attempts FROM intents ORDER BY rowid")) {
    // The rows are this call's own: their texts are moved, not copied.
    IntentRow row{std::move(r[0].text), std::move(r[1].text), std::move(r[2].text), std::move(r[3].text),
                  std::move(r[4].text), std::nullopt,          r[6].integer};
    if (r[5].kind == SqlValue::Kind::Text) row.receipt = std::move(r[5].text);
    rows.push_back(std::move(row));
  }
  rows_ = Rows<IntentRow>(std::move(rows));
  rows_read_at_ = db_.changes();
  return rows_;
}

Rows<EarlierVersionRow> Client::earlier() {
  if (!alive_ || !earlier_stale_) return earlier_;
  std::vector<EarlierVersionRow> rows;
  for (SqlRow& r : db_.query("SELECT intent, version, op_key, fingerprint, payload, status, receipt"
                                   " FROM earlier_versions ORDER BY intent, version")) {
    EarlierVersionRow row{std::move(r[0].text), r[1].integer,          std::move(r[2].text), std::move(r[3].text),
                          std::move(r[4].text), std::move(r[5].text), std::nullopt};
    if (r[6].kind == SqlValue::Kind::Text) row.receipt = std::move(r[6].text);
    rows.push_back(std::move(row));
  }
  earlier_ = Rows<EarlierVersionRow>(std::move(rows));
  earlier_stale_ = false;
  return earlier_;
}

std::optional<IntentRow> Client::row(const std::string& intent) {
  for (const IntentRow& r : rows()) {
    if (r.intent == intent) return r;
  }
  return std::nullopt;
}

void Client::decide(const std::string& intent, const std::string& payload, const std::string& cancels) {
  if (!alive_ || row(intent)) return;
  std::string fp = sha256_hex(payload);
  KeySource source = setup_.policy.key_source;
  std::string key = key_of(intent, fp);
  // A re-run that finds no row (reapply) draws a stored key anew: the first draw went with the row.
  if (reapplying_ && source == KeySource::Stored) {
    key = "op-" + Rng::derive_hex(setup_.seed, "key/" + intent + "/anew/" + std::to_string(env_.now()), 12);
  }
  LocalView view;
  view.op_key = key;
  view.fingerprint = fp;
  if (!cancels.empty()) view.cancels = cancels;
  // Started over from nothing: whether an earlier run's send left, the client cannot tell.
  if (reapplying_) view.reapply = true;
  if (source != KeySource::Stored) view.key_source = source == KeySource::PayloadHash ? "payload_hash" : "request_hash";
  record(EventKind::Decide, intent, std::move(view));
  bool send_first = setup_.policy.persist == PersistWhen::AfterSend;
  bool sent = false;
  if (send_first) {
    // The mistake: the request leaves before the intent is stored. A crash here leaves
    // an effect at the service and no trace of the intent at the client.
    begin_calls(intent, static_cast<int>(setup_.policy.retry_layers.size()) - 1);
    sent = launch_request(intent, wire_key(intent, key), payload, fp, static_cast<int>(wire_n(intent, 1)), 0, key);
    if (sent && env_.crash_here(ClientPoint::AfterSend, intent, static_cast<int>(wire_n(intent, 1)))) return;
  }
  db_.query(
      "INSERT INTO intents(intent, op_key, fingerprint, payload, status, receipt, attempts, lookups, decided_at, recreated)"
      " VALUES (?1, ?2, ?3, ?4, 'PENDING', NULL, ?5, 0, ?6, ?7)",
      {SqlParam(intent), SqlParam(key), SqlParam(fp), SqlParam(payload),
       SqlParam(send_first ? 1LL : 0LL), SqlParam(static_cast<long long>(env_.now())), SqlParam(reapplying_ ? 1LL : 0LL)});
  LocalView persisted;
  persisted.op_key = key;
  persisted.status = status::kPending;
  record(EventKind::Persist, intent, std::move(persisted));
  if (send_first) {
    if (sent) row_lost_after_send(intent);
    return;
  }
  if (env_.crash_here(ClientPoint::AfterPersist, intent, 1)) return;
  // Every retry layer starts its first call of the intent.
  begin_calls(intent, static_cast<int>(setup_.policy.retry_layers.size()) - 1);
  if (send_attempt(intent, KeyChoice::ByPolicy)) row_lost_after_send(intent);
}

bool Client::send_attempt(const std::string& intent, KeyChoice choice, std::int64_t waited) {
  std::optional<IntentRow> r = row(intent);
  if (!r) return false;
  long long attempt = r->attempts + 1;
  const int n = static_cast<int>(wire_n(intent, attempt));
  std::string key = r->op_key;
  bool fresh = choice == KeyChoice::Fresh ||
               (choice == KeyChoice::ByPolicy && setup_.policy.key_scope == KeyScope::PerAttempt);
  if (fresh && attempt > 1) key = make_key(intent, n);
  // A key derived from the content follows it: changed content, a new key.
  if (!fresh && setup_.policy.key_source != KeySource::Stored) key = key_of(intent, r->fingerprint);
  std::string status = r->status == status::kFailed ? status::kPending : r->status;
  db_.query("UPDATE intents SET op_key = ?1, attempts = ?2, status = ?3 WHERE intent = ?4",
            {SqlParam(key), SqlParam(attempt), SqlParam(status), SqlParam(intent)});
  std::string wire = fresh ? key : wire_key(intent, key);
  if (!launch_request(intent, wire, r->payload, r->fingerprint, n, waited, key)) return false;
  return !env_.crash_here(ClientPoint::AfterSend, intent, n);
}

std::string Client::wire_key(const std::string& intent, const std::string& stored) {
  const std::vector<RetryLayer>& layers = setup_.policy.retry_layers;
  int own = -1;  // the innermost layer that makes its own key per call
  for (std::size_t i = 0; i < layers.size() && own < 0; ++i) {
    if (layers[i].key_per_call) own = static_cast<int>(i);
  }
  if (own < 0) return stored;
  // One call of that layer is one iteration of every layer outside it.
  std::string call;
  const std::vector<LayerState>& at = layers_of(intent);
  for (std::size_t i = static_cast<std::size_t>(own) + 1; i < at.size(); ++i) call += "/" + std::to_string(at[i].iteration);
  return "op-" + Rng::derive_hex(setup_.seed, "key/" + intent + "/" + layers[static_cast<std::size_t>(own)].layer + call, 12);
}

bool Client::launch_request(const std::string& intent, const std::string& key, const std::string& payload,
                            const std::string& fingerprint, int attempt, std::int64_t waited,
                            const std::string& stored) {
  if (env_.connect_error_here(intent, attempt)) {
    // The connection is refused before a byte leaves: the client knows at once that this
    // request reached no one (a definite error), and decides what next once the step that
    // tried to send is over.
    LocalView local = send_view(intent, waited);
    local.op_key = key;
    if (!stored.empty() && stored != key) local.stored_key = stored;
    local.fingerprint = fingerprint;
    local.attempt = attempt;
    if (reapplying_) local.reapply = true;
    // Whether an earlier request of the intent went out: then this refusal says nothing of it.
    ++never_left_[intent];
    if (any_left(intent, attempt - wire_n(intent, 0))) local.earlier_sent = true;
    if (recreated(intent)) local.earlier = true;  // an earlier run's send, for all it knows
    record(EventKind::ConnectError, intent, std::move(local));
    int epoch = epoch_;
    schedule_self<Client>(env_, env_.now(), Side::Client, [intent, epoch](Client& c) {
      if (c.alive_ && epoch == c.epoch_) c.on_connect_error(intent);
    });
    return false;
  }
  Message m;
  m.kind = MessageKind::Request;
  m.from = Side::Client;
  m.to = Side::Service;
  m.intent = intent;
  m.n = attempt;
  m.op_key = key;
  m.payload = payload;
  m.fingerprint = fingerprint;
  m.key_sent = setup_.policy.sends_key;
  env_.own_key(key, intent);
  int id = env_.send(m);
  LocalView local = send_view(intent, waited);
  local.op_key = key;
  if (!m.key_sent) local.key_sent = false;  // the key stays in the client's row
  // A layer's own key on the wire, not the one the client stored (RetryLayer::key_per_call).
  if (!stored.empty() && stored != key) local.stored_key = stored;
  local.fingerprint = fingerprint;
  local.attempt = attempt;
  if (reapplying_) local.reapply = true;
  record(EventKind::Send, intent, std::move(local), id);
  wait_for(intent, MessageKind::Response, attempt);
  return true;
}

bool Client::any_left(const std::string& intent, long long attempts) {
  auto refused = never_left_.find(intent);
  return refused == never_left_.end() || attempts > refused->second || recreated(intent);
}

void Client::on_connect_error(const std::string& intent) {
  std::optional<IntentRow> r = row(intent);
  if (!r || is_final(r->status)) return;
  const bool nothing_left = !any_left(intent, r->attempts);
  const ClientPolicy& policy = setup_.policy;
  std::int64_t wait = backoff_before(policy, sends(intent) + 1);
  bool retried = no_send_reason(intent, env_.now() + wait).empty() &&
                 (policy.retry_layers.empty() || retrying_layer_for(intent, kRetryConnect) >= 0);
  if (retried) {
    retry(intent, MessageKind::Request, kRetryConnect, true);
    return;
  }
  if (nothing_left) {
    record_status(intent, status::kFailed, std::nullopt, kConnectRefused, error_kind::kDefinite);
    return;
  }
  // An earlier send may have taken effect, and nothing sends this content again: whatever
  // the client still waits for may be an answer to other content (resend_changed_payload),
  // so a person is told now; a reply that still comes settles the row as any reply does.
  std::string stop = no_send_reason(intent, env_.now() + wait);
  if (!stop.empty()) {
    escalate(intent, stop);
    return;
  }
  not_retried(intent, kRetryConnect);
}

// The send's place in the retry budget, for its local view; called when the send is
// counted in the intent's row (or, sending before persisting, is the first).
LocalView Client::send_view(const std::string& intent, std::int64_t waited) {
  const ClientPolicy& policy = setup_.policy;
  LocalView view;
  if (waited > 0) view.backoff_ms = waited;
  if (policy.retry_layers.empty()) return view;
  long long send = std::max(1LL, sends(intent));
  if (send > send_budget(policy)) return view;
  std::vector<LayerAt> layers;
  layers.reserve(policy.retry_layers.size());
  const std::vector<LayerState>& at = layers_of(intent);
  for (std::size_t i = 0; i < policy.retry_layers.size(); ++i) {
    layers.push_back({policy.retry_layers[i].layer, at[i].iteration, policy.retry_layers[i].attempts});
  }
  view.layers = std::move(layers);
  view.send = send;
  view.budget = send_budget(policy);
  // Only a layer's own retry is one (a lookup the client decided on, or a scripted resend,
  // spends the same budget but no layer retried anything).
  if (!retrying_layer_.empty()) view.retried_by = retrying_layer_;
  return view;
}

void Client::send_lookup(const std::string& intent, std::int64_t waited, bool read_back) {
  std::optional<IntentRow> r = row(intent);
  if (!r) return;
  db_.query("UPDATE intents SET lookups = lookups + 1 WHERE intent = ?1", {SqlParam(intent)});
  Message m;
  m.kind = MessageKind::Lookup;
  m.from = Side::Client;
  m.to = Side::Service;
  m.intent = intent;
  m.n = env_.next_lookup(intent);
  m.op_key = r->op_key;
  int id = env_.send(m);
  LocalView local = send_view(intent, waited);
  local.op_key = r->op_key;
  if (read_back) local.read_back = true;
  record(EventKind::Lookup, intent, std::move(local), id);
  wait_for(intent, MessageKind::LookupReply, m.n);
}

void Client::wait_for(const std::string& intent, MessageKind kind, int n) {
  std::int64_t deadline = env_.now() + setup_.timeout_ms;
  waiting_.push_back({intent, kind, n, deadline});
  int epoch = epoch_;
  schedule_self<Client>(env_, deadline, Side::Client, [intent, kind, n, epoch](Client& c) { c.on_timeout(intent, kind, n, epoch); });
}

void Client::stop_waiting(const std::string& intent) {
  waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(),
                                [&](const Waiting& w) { return w.intent == intent; }),
                 waiting_.end());
}

bool Client::waiting_on(const std::string& intent) const {
  return std::any_of(waiting_.begin(), waiting_.end(), [&](const Waiting& w) { return w.intent == intent; });
}

long long Client::sends(const std::string& intent) {
  auto r = db_.query("SELECT attempts + lookups FROM intents WHERE intent = ?1", {SqlParam(intent)});
  return r.empty() ? 0 : r[0][0].integer;
}

std::optional<std::int64_t> Client::deadline_at(const std::string& intent) {
  const ClientPolicy& policy = setup_.policy;
  if (!policy.deadline_ms) return std::nullopt;
  auto r = db_.query("SELECT decided_at FROM intents WHERE intent = ?1", {SqlParam(intent)});
  if (r.empty()) return std::nullopt;
  return r[0][0].integer + *policy.deadline_ms;
}

std::string Client::no_send_reason(const std::string& intent, std::int64_t at) {
  if (sends(intent) >= send_budget(setup_.policy)) return kBudgetSpent;
  std::optional<std::int64_t> deadline = deadline_at(intent);
  if (deadline && at > *deadline) return kDeadlinePassed;
  return "";
}

void Client::escalate(const std::string& intent, const std::string& reason) {
  LocalView extra;
  if (reason == kDeadlinePassed) {
    extra.deadline_at = *deadline_at(intent);
  } else if (reason == kBudgetSpent) {
    extra.budget = send_budget(setup_.policy);
  }
  record_status(intent, status::kNeedsHuman, std::nullopt, reason, error_kind::kIndefinite, std::move(extra));
}

// No layer from `from_layer` out retries `error` now, and with layers the client has no retry of its own
// (retry_after_ms is refused beside them): the outcome is left to a person. Either no
// layer retries it at all, or those that do have used their attempts; the budget and the
// deadline are not what stopped it (retry_stops would have said so first).
void Client::not_retried(const std::string& intent, unsigned error, int from_layer) {
  const ClientPolicy& policy = setup_.policy;
  LocalView extra;
  extra.error_kind = retry_on_name(error);
  std::vector<LayerAt> spent;
  const std::vector<LayerState>& at = layers_of(intent);
  for (std::size_t i = static_cast<std::size_t>(from_layer); i < policy.retry_layers.size(); ++i) {
    const RetryLayer& l = policy.retry_layers[i];
    if (l.retry_on & error) spent.push_back({l.layer, at[i].iteration, l.attempts});
  }
  const char* reason = spent.empty() ? kNotRetried : kLayersSpent;
  if (!spent.empty()) {
    extra.layers = std::move(spent);
    extra.send = sends(intent);
    extra.budget = send_budget(policy);
  }
  record_status(intent, status::kNeedsHuman, std::nullopt, reason, error_kind::kIndefinite, std::move(extra));
}

void Client::on_timeout(const std::string& intent, MessageKind kind, int n, int epoch) {
  if (!alive_ || epoch != epoch_) return;
  auto it = std::find_if(waiting_.begin(), waiting_.end(), [&](const Waiting& w) {
    return w.intent == intent && w.for_kind == kind && w.n == n;
  });
  if (it == waiting_.end()) return;
  waiting_.erase(it);
  LocalView local;
  local.awaited = to_string(kind);
  local.n = n;
  record(EventKind::Timeout, intent, std::move(local));
  on_indefinite(intent, kind, kRetryTimeout);
}

// An indefinite error on the call whose reply of kind `awaited` the client waited for:
// the call may or may not have taken effect.
void Client::on_indefinite(const std::string& intent, MessageKind awaited, unsigned error) {
  std::optional<IntentRow> r = row(intent);
  if (!r || is_final(r->status)) return;
  const ClientPolicy& policy = setup_.policy;
  if (awaited == MessageKind::Response && policy.on_timeout == OnTimeout::MarkFailedAndResend) {
    // The mistake: an indefinite error recorded as if it were a definite one.
    record_status(intent, status::kFailed, std::nullopt, "", error_kind::kIndefinite);
    retry(intent, MessageKind::Request, error, false);
    return;
  }
  if (r->status != status::kUnknown) {
    record_status(intent, status::kUnknown, std::nullopt, "", error_kind::kIndefinite);
  }
  if (policy.retry_layers.empty()) {
    after_unknown(intent);
  } else {
    retry(intent, awaited == MessageKind::Response ? MessageKind::Request : MessageKind::Lookup, error, true);
  }
}

// A retry layer resends the call that failed (same key under key_scope intent), after
// the backoff, within the budget and the deadline. When neither allows it and nothing
// else is in flight, `escalate` makes the intent NEEDS_HUMAN (FAILED stays FAILED).
void Client::retry(const std::string& intent, MessageKind call, unsigned error, bool escalate_when_spent, int from_layer) {
  std::int64_t wait = backoff_before(setup_.policy, sends(intent) + 1);
  // Known already: the retry would come past the budget or after the deadline.
  if (retry_stops(intent, env_.now() + wait, escalate_when_spent)) return;
  // Without layers the client's own budget (max_attempts) is all there is.
  bool layered = !setup_.policy.retry_layers.empty();
  int layer = layered ? retrying_layer_for(intent, error, from_layer) : -1;
  if (layered && layer < 0) {
    if (escalate_when_spent && !waiting_on(intent)) not_retried(intent, error, from_layer);
    return;
  }
  if (wait == 0) {
    retry_now(intent, call, wait, escalate_when_spent, layer);
    return;
  }
  int epoch = epoch_;
  int calls = layer >= 0 ? layers_of(intent)[static_cast<std::size_t>(layer)].calls : -1;
  schedule_self<Client>(env_, env_.now() + wait, Side::Client, [intent, call, wait, escalate_when_spent, epoch, layer, calls](Client& c) {
    if (c.alive_ && epoch == c.epoch_) c.retry_now(intent, call, wait, escalate_when_spent, layer, calls);
  });
}

void Client::begin_calls(const std::string& intent, int upto) {
  const std::vector<RetryLayer>& layers = setup_.policy.retry_layers;
  std::vector<LayerState>& at = layers_of(intent);
  for (int i = 0; i <= upto && i < static_cast<int>(layers.size()); ++i) {
    int n = ++at[static_cast<std::size_t>(i)].calls;
    const std::optional<std::int64_t>& timeout = layers[static_cast<std::size_t>(i)].timeout_ms;
    if (!timeout) continue;
    int epoch = epoch_;
    schedule_self<Client>(env_, env_.now() + *timeout, Side::Client, [intent, i, n, epoch](Client& c) { c.on_layer_timeout(intent, i, n, epoch); });
  }
}

void Client::on_layer_timeout(const std::string& intent, int layer, int calls, int epoch) {
  if (!alive_ || epoch != epoch_) return;
  if (layers_of(intent)[static_cast<std::size_t>(layer)].calls != calls) return;  // a newer call
  std::optional<IntentRow> r = row(intent);
  if (!r || is_final(r->status) || r->status == status::kFailed) return;  // the call ended
  const RetryLayer& l = setup_.policy.retry_layers.at(static_cast<std::size_t>(layer));
  LocalView local;
  local.awaited = "layer";
  local.layer = l.layer;
  local.timeout_ms = *l.timeout_ms;
  record(EventKind::Timeout, intent, std::move(local));
  // It stops waiting for the call it gave up on: a reply that still comes is late.
  stop_waiting(intent);
  if (r->status != status::kUnknown) record_status(intent, status::kUnknown, std::nullopt, "", error_kind::kIndefinite);
  retry(intent, MessageKind::Request, kRetryTimeout, true, layer);
}

std::vector<LayerState>& Client::layers_of(const std::string& intent) {
  std::vector<LayerState>& at = layers_[intent];
  at.resize(setup_.policy.retry_layers.size());
  return at;
}

int Client::retrying_layer_for(const std::string& intent, unsigned error, int from_layer) {
  const std::vector<RetryLayer>& layers = setup_.policy.retry_layers;
  const std::vector<LayerState>& at = layers_of(intent);
  for (std::size_t i = static_cast<std::size_t>(from_layer); i < layers.size(); ++i) {
    if ((layers[i].retry_on & error) && at[i].iteration < layers[i].attempts) return static_cast<int>(i);
  }
  return -1;
}

bool Client::retry_stops(const std::string& intent, std::int64_t at, bool escalate_when_spent) {
  std::string stop = no_send_reason(intent, at);
  if (!stop.empty() && escalate_when_spent && !waiting_on(intent)) escalate(intent, stop);
  return !stop.empty();
}

void Client::retry_now(const std::string& intent, MessageKind call, std::int64_t wait, bool escalate_when_spent,
                       int layer, int calls) {
  // A layer's timer gave up on this call and retried it meanwhile.
  if (layer >= 0 && calls >= 0 && layers_of(intent)[static_cast<std::size_t>(layer)].calls != calls) return;
  std::optional<IntentRow> r = row(intent);
  if (!r || is_final(r->status)) return;                          // a late reply settled it during the backoff
  if (retry_stops(intent, env_.now(), escalate_when_spent)) return;  // a scripted send spent the budget meanwhile
  if (layer >= 0) {
    std::vector<LayerState>& at = layers_of(intent);
    const RetryLayer& l = setup_.policy.retry_layers[static_cast<std::size_t>(layer)];
    if (at[static_cast<std::size_t>(layer)].iteration >= l.attempts) return;  // another retry used it meanwhile
    ++at[static_cast<std::size_t>(layer)].iteration;
    for (int i = 0; i < layer; ++i) at[static_cast<std::size_t>(i)].iteration = 1;
    retrying_layer_ = l.layer;
    begin_calls(intent, layer);
  }
  if (call == MessageKind::Lookup) {
    send_lookup(intent, wait);
  } else {
    send_attempt(intent, KeyChoice::ByPolicy, wait);
  }
  retrying_layer_.clear();
}

void Client::after_unknown(const std::string& intent) {
  const ClientPolicy& policy = setup_.policy;
  if (waiting_on(intent)) return;
  std::string stop = no_send_reason(intent, env_.now());
  if (stop.empty() && policy.retry_after_ms) {
    std::int64_t wait = backoff_before(policy, sends(intent) + 1);
    std::int64_t due = env_.now() + *policy.retry_after_ms + wait;
    stop = no_send_reason(intent, due);
    if (stop.empty()) {
      int epoch = epoch_;
      schedule_self<Client>(env_, due, Side::Client, [intent, epoch, wait](Client& c) {
        if (epoch == c.epoch_) c.reconcile(intent, wait);
      });
      return;
    }
  }
  if (!stop.empty()) escalate(intent, stop);
}

void Client::reconcile(const std::string& intent, std::int64_t waited) {
  if (!alive_) return;
  std::optional<IntentRow> r = row(intent);
  if (!r || (r->status != status::kUnknown && r->status != status::kPending)) return;
  std::string stop = no_send_reason(intent, env_.now());
  if (!stop.empty()) {
    escalate(intent, stop);
    return;
  }
  if (setup_.policy.recovery == Recovery::Lookup && setup_.lookup_offered) {
    send_lookup(intent, waited);
  } else {
    send_attempt(intent, KeyChoice::ByPolicy, waited);
  }
}

void Client::record_status(const std::string& intent, const std::string& status,
                           const std::optional<std::string>& receipt, const std::string& reason,
                           const char* error, LocalView&& extra) {
  db_.query("UPDATE intents SET status = ?1, receipt = COALESCE(?2, receipt) WHERE intent = ?3",
            {SqlParam(status), text_or_null(receipt), SqlParam(intent)});
  LocalView& local = extra;
  local.status = status;
  if (receipt) local.receipt = *receipt;
  if (!reason.empty()) local.reason = reason;
  if (error) local.error = error;
  record(EventKind::Record, intent, std::move(local));
}

void Client::on_message(const Message& m) {
  const MessageKind awaited = m.kind == MessageKind::LookupReply ? MessageKind::LookupReply : MessageKind::Response;
  auto answers = [&](const Waiting& w) { return w.intent == m.intent && w.n == m.n && w.for_kind == awaited; };
  const bool waited = std::any_of(waiting_.begin(), waiting_.end(), answers);
  // Its timeout fired first: the client closed the connection and never reads it.
  const bool discard = !waited && setup_.policy.late_reply == LateReply::Discard;
  LocalView local;
  local.message = to_string(m.kind);
  local.op_key = m.op_key;
  local.outcome = m.outcome;
  if (m.http) local.http = m.http;
  if (m.replayed) local.replayed = true;
  if (m.retry_after_ms > 0) local.retry_after_ms = m.retry_after_ms;
  if (!m.receipt.empty()) local.receipt = m.receipt;
  if (!m.reason.empty()) local.reason = m.reason;
  if (discard) local.discarded = true;
  if (m.outcome == "refused" && !discard) {
    // Whether an earlier send may have taken effect: then this 429 settles nothing.
    std::optional<IntentRow> before = row(m.intent);
    if (before && !refusal_settles(*before, m)) local.earlier = true;
  }
  // What it waited for has come: the receive step's memory no longer waits for it.
  if (!discard) waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), answers), waiting_.end());
  record(EventKind::Receive, m.intent, std::move(local), m.id);
  if (discard) return;
  if (env_.crash_here(ClientPoint::BeforeRecord, m.intent, m.n)) return;
  std::optional<IntentRow> r = row(m.intent);
  if (r && r->status == status::kDelivered && m.kind == MessageKind::LookupReply) {
    on_read_back(*r, m);
    return;
  }
  if (!r || r->status == status::kDelivered || r->status == status::kConflict) return;
  bool vouches = m.outcome == "ok" || m.outcome == "found";
  if (vouches && !m.fingerprint.empty() && m.fingerprint != r->fingerprint) {
    // The receipt is for other content than the row now holds (the row was changed and
    // resent under the same key). A late response to the earlier content says nothing
    // about this content: the row's own request is answered on its own. A lookup that
    // finds the key bound to the other content means this content will be refused under
    // this key (IETF draft: 422): a definite error.
    if (m.outcome == "ok") return;
    stop_waiting(m.intent);
    record_status(m.intent, status::kConflict, std::nullopt, reasons::kSameKeyDifferentPayload, error_kind::kDefinite);
    return;
  }
  const ClientPolicy& policy = setup_.policy;
  if (vouches) {
    stop_waiting(m.intent);
    record_status(m.intent, status::kDelivered, m.receipt);
    // Confirming by reading it back: one lookup by the key, within the budget.
    if (policy.read_back != ReadBack::Off && setup_.lookup_offered && no_send_reason(m.intent, env_.now()).empty()) {
      send_lookup(m.intent, 0, true);
    }
  } else if (m.outcome == "rejected" && m.reason == reasons::kAlreadyExists) {
    on_already_exists(m.intent);
  } else if (m.outcome == "error" && policy.on_server_error == OnServerError::Fail) {
    // The mistake: a 500 read as a definite failure, though the work may have committed.
    stop_waiting(m.intent);
    record_status(m.intent, status::kFailed, std::nullopt, m.reason.empty() ? reasons::kInternalError : m.reason,
                  error_kind::kIndefinite);
  } else if (m.outcome == "refused" && refusal_settles(*r, m)) {
    // A definite error: the service did nothing (a 429, or the stored one found again).
    stop_waiting(m.intent);
    if (!retry_after_refusal(m)) record_status(m.intent, status::kFailed, std::nullopt, m.reason, error_kind::kDefinite);
  } else if (m.outcome == "rejected" && m.reason == reasons::kMissingKey) {
    // A definite error: the service did nothing, and the same request would be refused again.
    stop_waiting(m.intent);
    record_status(m.intent, status::kFailed, std::nullopt, m.reason, error_kind::kDefinite);
  } else if (m.outcome == "rejected") {
    // A definite error: the service refused before doing anything.
    stop_waiting(m.intent);
    record_status(m.intent, status::kConflict, std::nullopt, m.reason, error_kind::kDefinite);
  } else if (m.outcome == "not_found") {
    std::string stop = no_send_reason(m.intent, env_.now());
    if (!stop.empty()) {
      escalate(m.intent, stop);
    } else if (setup_.policy.on_not_found == OnNotFound::RetryLookup) {
      // The lookup may lag or have forgotten the key: the outcome is unknown (a row a
      // recovery scan reconciled may still say PENDING), and the client asks again later.
      if (r->status != status::kUnknown) {
        record_status(m.intent, status::kUnknown, std::nullopt, "", error_kind::kIndefinite);
      }
      after_unknown(m.intent);
    } else {
      // Trusting the lookup: the request never took effect, so sending it again under
      // the same key is safe (when the lookup is authoritative).
      send_attempt(m.intent, KeyChoice::ByPolicy);
    }
  } else {
    // Any other answer (the IETF draft's 409 for a key still in progress, a 500, a 429
    // after an earlier send) leaves the outcome open: an indefinite error, handled as a
    // timeout is, by the layer that retries its kind.
    unsigned error = m.outcome == "in_progress" ? kRetryInProgress : m.outcome == "refused" ? kRetryThrottled : kRetryServerError;
    on_indefinite(m.intent, m.kind, error);
  }
}

void Client::on_read_back(const IntentRow& r, const Message& m) {
  if (m.outcome != "not_found" || setup_.policy.read_back != ReadBack::Recreate) return;
  if (!no_send_reason(r.intent, env_.now()).empty()) return;
  // The mistake: the read's "not found" outweighs the receipt in hand, and the intent is
  // created again. The create is the client's own code path, so its key is the one the
  // client is configured with: a stored key is made anew for the new create (a new
  // operation: a second effect), while a key derived from the resource comes out the same
  // and the service replays it.
  record_status(r.intent, status::kPending, std::nullopt, kReadBackMissing);
  send_attempt(r.intent, setup_.policy.key_source == KeySource::Stored ? KeyChoice::Fresh : KeyChoice::ByPolicy);
}

bool Client::retry_after_refusal(const Message& m) {
  // A stored refusal binds the key: a retry under it is refused again.
  if (setup_.policy.on_refused != OnRefused::Retry || m.replayed || m.kind != MessageKind::Response) return false;
  // Without a Retry-After, its own backoff (none: at once).
  std::int64_t wait = m.retry_after_ms > 0 ? m.retry_after_ms : backoff_before(setup_.policy, sends(m.intent) + 1);
  std::int64_t due = env_.now() + wait;
  if (!no_send_reason(m.intent, due).empty()) return false;  // past the budget or the deadline: FAILED
  LocalView extra;
  extra.retry_at = due;
  record_status(m.intent, status::kPending, std::nullopt, m.reason, error_kind::kDefinite, std::move(extra));
  int epoch = epoch_;
  std::string intent = m.intent;
  schedule_self<Client>(env_, due, Side::Client, [intent, epoch, wait](Client& c) {
    if (!c.alive_ || epoch != c.epoch_) return;  // a restart's scan finds the PENDING row
    std::optional<IntentRow> r = c.row(intent);
    if (r && r->status == status::kPending) c.send_attempt(intent, KeyChoice::ByPolicy, wait);
  });
  return true;
}

bool Client::refusal_settles(const IntentRow& r, const Message& m) {
  // A 429 says this request did nothing, not that the intent never happened: only when
  // it answers the intent's one and only send, or speaks for the key (a stored refusal,
  // replayed or found by lookup), is nothing done at all.
  // A row a re-run made from nothing cannot tell whether an earlier run's send took effect.
  return m.kind == MessageKind::LookupReply || m.replayed || (m.n == wire_n(r.intent, 1) && r.attempts == 1 && !recreated(r.intent));
}

void Client::on_already_exists(const std::string& intent) {
  stop_waiting(intent);
  const ClientPolicy& policy = setup_.policy;
  if (policy.on_already_exists == OnAlreadyExists::Success) {
    record_status(intent, status::kDelivered, std::nullopt, reasons::kAlreadyExists);
    return;
  }
  if (policy.on_already_exists == OnAlreadyExists::Fail) {
    // The mistake: the create this retry repeats did happen.
    record_status(intent, status::kFailed, std::nullopt, reasons::kAlreadyExists, error_kind::kDefinite);
    return;
  }
  // Something exists under the key, but whose content? Only a lookup says.
  std::string stop = no_send_reason(intent, env_.now());
  if (!setup_.lookup_offered) stop = reasons::kAlreadyExists;  // nothing to ask: a person decides
  if (!stop.empty()) {
    escalate(intent, stop);
    return;
  }
  send_lookup(intent);
}

void Client::crash() {
  if (!alive_) return;
  // At the not_saved point (row_lost_after_send) the row never reached the disk.
  if (!unsaved_.empty()) forget_row(unsaved_, RowPoint::NotSaved);
  rows();  // the rows as the database holds them, shown while the client is down
  alive_ = false;
  ++epoch_;
  waiting_.clear();
  layers_.clear();
  never_left_.clear();
  record(EventKind::Crash, "", LocalView());
}

void Client::restart() {
  if (alive_) return;
  alive_ = true;  // the database was never lost: only memory was
  record(EventKind::Restart, "", LocalView());
  // Every PENDING intent is stale after a restart: whatever was in flight for it was
  // forgotten with the process's memory.
  bool pending_too = setup_.policy.recovery_scan == RecoveryScan::UnknownAndStalePending;
  std::vector<std::string> unknown;
  for (const SqlRow& r : db_.query("SELECT intent FROM intents WHERE status = 'UNKNOWN'"
                                   " OR (?1 AND status = 'PENDING') ORDER BY rowid",
                                   {SqlParam(pending_too ? 1LL : 0LL)})) {
    unknown.push_back(r[0].text);
  }
  LocalView local;
  local.found = unknown;
  local.scan = pending_too ? "unknown_and_pending" : "unknown";
  record(EventKind::Recover, "", std::move(local));
  for (const std::string& intent : unknown) reconcile(intent);
}

}  // namespace idemlab
