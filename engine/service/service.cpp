#include "engine/service/service.hpp"

#include <algorithm>

#include "engine/scenario/limits.hpp"
#include "engine/sim/rng.hpp"

namespace idemlab {
namespace {

// A cache's read mark (a db.changes() value) carried over to `to`, a copy of `from` or
// `from` itself taken over: still current when it was, otherwise stale (-1).
long long current(bool take, long long read_at, const Database& from, const Database& to) {
  if (take) return read_at;
  return read_at == from.changes() ? to.changes() : -1;
}

}  // namespace

Service::Service(Env& env, ServiceSetup setup) : env_(env), setup_(std::move(setup)), db_(Database::with_schema(
      "CREATE TABLE idempotency_keys(op_key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,"
      " receipt TEXT NOT NULL, created_at INTEGER NOT NULL, status INTEGER NOT NULL DEFAULT 201);"
      "CREATE TABLE deliveries(id INTEGER PRIMARY KEY, op_key TEXT NOT NULL, fingerprint TEXT NOT NULL,"
      " receipt TEXT NOT NULL, created_at INTEGER NOT NULL);"
      "CREATE TABLE outbox(id INTEGER PRIMARY KEY, email_key TEXT NOT NULL UNIQUE, op_key TEXT NOT NULL,"
      " receipt TEXT NOT NULL, status TEXT NOT NULL, attempts INTEGER NOT NULL, created_at INTEGER NOT NULL);"
      "CREATE TABLE expired_keys(op_key TEXT PRIMARY KEY, expired_at INTEGER NOT NULL)",
      "DELETE FROM idempotency_keys; DELETE FROM deliveries; DELETE FROM outbox; DELETE FROM expired_keys")) {}

Service::Service(Env& env, Service& from, bool take)
    : env_(env),
      setup_(from.setup_),
      db_(take ? std::move(from.db_) : from.db_.copy()),
      intent_of_key_(from.intent_of_key_),
      alive_(from.alive_),
      epoch_(from.epoch_),
      in_progress_(from.in_progress_),
      relay_waiting_(from.relay_waiting_),
      begun_at_(db_.changes()),
      keys_(from.keys_),
      keys_read_at_(current(take, from.keys_read_at_, from.db_, db_)),
      rows_(from.rows_),
      rows_read_at_(current(take, from.rows_read_at_, from.db_, db_)),
      outbox_(from.outbox_),
      outbox_read_at_(current(take, from.outbox_read_at_, from.db_, db_)) {}

std::unique_ptr<Node> Service::fork(Env& env, bool take) {
  return std::make_unique<Service>(env, *this, take);
}

void Service::snapshot(Snapshot& into) {
  into.service_alive = alive_;
  into.keys = keys();
  into.deliveries = rows();
  into.in_progress = in_progress_seen_.follow(in_progress_);
  if (contract().notify == Notify::Outbox) {
    into.outbox = outbox();
    into.relay_waiting = relay_waiting_seen_.follow(relay_waiting_);
  }
}

void Service::bind_key(const std::string& op_key, const Message& m) {
  intent_of_key_[op_key] = m.intent;
  env_.own_key(op_key, m.intent);
}

Rows<KeyRow> Service::keys() {
  if (keys_read_at_ == db_.changes()) return keys_;
  std::vector<KeyRow> rows;
  for (SqlRow& r : db_.query(
           "SELECT op_key, fingerprint, receipt, created_at, status FROM idempotency_keys ORDER BY rowid")) {
    rows.push_back({std::move(r[0].text), std::move(r[1].text), std::move(r[2].text), r[3].integer, r[4].integer});
  }
  keys_ = Rows<KeyRow>(std::move(rows));
  keys_read_at_ = db_.changes();
  return keys_;
}

Rows<DeliveryRow> Service::rows() {
  if (rows_read_at_ == db_.changes()) return rows_;
  std::vector<DeliveryRow> rows;
  for (SqlRow& r :
       db_.query("SELECT op_key, fingerprint, receipt, created_at, id FROM deliveries ORDER BY id")) {
    rows.push_back({std::move(r[0].text), std::move(r[1].text), std::move(r[2].text), r[3].integer, r[4].integer});
  }
  rows_ = Rows<DeliveryRow>(std::move(rows));
  rows_read_at_ = db_.changes();
  return rows_;
}

Rows<OutboxRow> Service::outbox() {
  if (outbox_read_at_ == db_.changes()) return outbox_;
  std::vector<OutboxRow> rows;
  for (SqlRow& r : db_.query("SELECT id, email_key, op_key, receipt, status, attempts, created_at"
                                   " FROM outbox ORDER BY id")) {
    rows.push_back({r[0].integer, std::move(r[1].text), std::move(r[2].text), std::move(r[3].text),
                    std::move(r[4].text), r[5].integer, r[6].integer});
  }
  outbox_ = Rows<OutboxRow>(std::move(rows));
  outbox_read_at_ = db_.changes();
  return outbox_;
}

int Service::record(EventKind kind, const std::string& intent, LocalView&& local, int message) {
  return env_.emit(kind, Side::Service, intent, message, std::move(local));
}

bool Service::in_progress(const Message& m) const {
  // A service that never deduplicates keeps no key in progress either.
  if (m.kind == MessageKind::Request && contract().dedup == Dedup::None) return false;
  bool by_fingerprint = m.kind == MessageKind::Request && contract().dedup == Dedup::Fingerprint;
  return std::any_of(in_progress_.begin(), in_progress_.end(), [&](const InProgress& p) {
    return by_fingerprint ? p.fingerprint == m.fingerprint : p.op_key == m.op_key;
  });
}

std::vector<SqlRow> Service::dedup_record(const Message& m) {
  if (contract().dedup == Dedup::None) return {};  // it never looks
  return contract().dedup == Dedup::Fingerprint
             ? db_.query("SELECT fingerprint, receipt, op_key, status FROM idempotency_keys WHERE fingerprint = ?1"
                         " ORDER BY rowid LIMIT 1", {SqlParam(m.fingerprint)})
             : db_.query("SELECT fingerprint, receipt, op_key, status FROM idempotency_keys WHERE op_key = ?1",
                         {SqlParam(m.op_key)});
}

void Service::on_keyless(const Message& m) {
  if (contract().missing_key == MissingKey::Reject) {
    LocalView local;
    local.message = to_string(m.kind);
    local.key_sent = false;
    local.fingerprint = m.fingerprint;
    record(EventKind::Receive, m.intent, std::move(local), m.id);
    LocalView refused;
    refused.reason = kMissingKey;
    record(EventKind::Reject, m.intent, std::move(refused), m.id);
    reply(m, MessageKind::Response, "rejected", "", kMissingKey);
    return;
  }
  // A new operation, every time: the service names it itself (one name per message), so
  // nothing it holds can match it.
  Message named = m;
  named.key_sent = true;
  named.named_by_service = true;
  named.op_key = "nokey-" + Rng::derive_hex(setup_.seed, "nokey/" + std::to_string(m.id), 10);
  on_message(named);
}

void Service::on_message(const Message& m) {
  if (m.kind == MessageKind::EmailAck) {
    on_email_ack(m);
    return;
  }
  if (m.kind == MessageKind::Request && env_.error_here(ErrorPoint::Gateway, m.intent, m.n)) {
    // Answered in front of the service: no receive, no dedup record looked at or written,
    // whatever the key holds (a retry of a committed key gets the 502 too). The gateway's
    // step takes the request (it ends there), then the 502 goes back as a reply.
    LocalView took;
    took.op_key = m.op_key;
    took.http = static_cast<int>(http::kBadGateway);
    record(EventKind::GatewayError, m.intent, std::move(took), m.id);
    reply(m, MessageKind::Response, "error", "", reasons::kBadGateway);
    return;
  }
  if (m.kind == MessageKind::Request && !m.key_sent) {
    on_keyless(m);
    return;
  }
  std::int64_t processing = contract().processing_ms;
  bool request = m.kind == MessageKind::Request;
  // The IETF Idempotency-Key draft: a repeat of a key whose first request has completed is
  // answered from the stored result at once (replayed, or the 422 for another payload);
  // only a key not yet committed is processed for processing_ms, and only a key being
  // processed right now is answered 409.
  bool committed = request && processing > 0 && !dedup_record(m).empty();
  // Only a service with the in-progress guard answers 409; without it the key being
  // processed is not looked at, and the second request is processed as well.
  bool guard = contract().concurrent_same_key == ConcurrentSameKey::Reject;
  bool busy = guard && !committed && in_progress(m);
  bool process_later = request && !committed && !busy && processing > 0;
  // Shown in progress from the step that receives it.
  if (process_later) in_progress_.push_back({m.op_key, m.fingerprint, env_.now() + processing});
  LocalView local;
  local.message = to_string(m.kind);
  local.op_key = m.op_key;
  if (m.named_by_service) local.key_sent = false;
  if (m.kind == MessageKind::Request) local.fingerprint = m.fingerprint;
  // Check, then insert: this is the only look for a dedup record the request gets.
  if (process_later && contract().concurrent_same_key == ConcurrentSameKey::CheckThenInsert) {
    local.checked = "no_record";
  }
  // No dedup at all: the request is never compared with anything (the timeline says so).
  if (m.kind == MessageKind::Request && contract().dedup == Dedup::None) local.checked = "never";
  record(EventKind::Receive, m.intent, std::move(local), m.id);
  if (request && env_.error_here(ErrorPoint::Refused, m.intent, m.n)) {
    if (process_later) in_progress_.pop_back();  // refused: it is not processed after all
    refuse(m);
    return;
  }
  if (busy) {
    // The draft's 409: the first request with this key may still take effect.
    LocalView key;
    key.op_key = m.op_key;
    record(EventKind::InProgress, m.intent, std::move(key), m.id);
    reply(m, m.kind == MessageKind::Request ? MessageKind::Response : MessageKind::LookupReply,
          "in_progress", "", "");
    return;
  }
  if (m.kind == MessageKind::Lookup) {
    lookup(m);
    return;
  }
  if (!process_later) {
    submit(m);
    return;
  }
  start_processing(m, 0);
}

void Service::start_processing(const Message& m, int redelivered) {
  const ServiceContract& contract = this->contract();
  int epoch = epoch_;
  schedule_self<Service>(env_, env_.now() + contract.processing_ms, Side::Service,
                         [m, epoch](Service& self) { self.processed(m, epoch); });
  // The queue's lease on this delivery runs out before the work is done: it hands the
  // same request to another worker while this one still runs it.
  if (contract.lease_ms && *contract.lease_ms < contract.processing_ms && redelivered < limits::kMaxLeaseRedeliveries) {
    schedule_self<Service>(env_, env_.now() + *contract.lease_ms, Side::Service,
                           [m, epoch, redelivered](Service& self) { self.redeliver(m, epoch, redelivered + 1); });
  }
}

void Service::redeliver(const Message& m, int epoch, int n) {
  if (epoch != epoch_ || !alive_) return;  // a crash forgot the work and its lease
  in_progress_.push_back({m.op_key, m.fingerprint, env_.now() + contract().processing_ms});
  LocalView local;
  local.op_key = m.op_key;
  local.lease_ms = *contract().lease_ms;
  local.redelivery = n;
  // How many copies of this request's work now run at once (this one among them).
  local.running = std::count_if(in_progress_.begin(), in_progress_.end(),
                                [&](const InProgress& p) { return p.op_key == m.op_key; });
  // The model's queue stops here (limits::kMaxLeaseRedeliveries); the timeline says so.
  if (n == limits::kMaxLeaseRedeliveries) local.last = true;
  record(EventKind::Redeliver, m.intent, std::move(local), m.id);
  start_processing(m, n);
}

void Service::processed(const Message& m, int epoch) {
  if (epoch != epoch_) return;  // the service crashed meanwhile: the request is forgotten
  in_progress_.erase(std::find_if(in_progress_.begin(), in_progress_.end(), [&](const InProgress& p) {
    return p.op_key == m.op_key && p.fingerprint == m.fingerprint;
  }));
  // Check, then insert: the check ran when the request arrived (on_message), so the
  // insert does not look again, and a second request that arrived meanwhile commits too.
  submit(m, contract().concurrent_same_key != ConcurrentSameKey::CheckThenInsert);
}

void Service::submit(const Message& m, bool look) {
  const ServiceContract& contract = this->contract();
  bool atomic = contract.ordering == Ordering::Atomic;
  if (atomic) {
    db_.query("BEGIN IMMEDIATE");
    begun_at_ = db_.changes();
  }
  std::vector<SqlRow> found = look ? dedup_record(m) : std::vector<SqlRow>{};
  if (found.empty()) {
    write_new(m);
    return;
  }
  if (atomic) db_.query("COMMIT");
  const std::string& receipt = found[0][1].text;
  const long long stored = found[0][3].integer;  // the saved answer's HTTP status
  bool same = found[0][0].text == m.fingerprint || contract.compares == Compares::Nothing;
  if (stored != 201 && same) {
    // A saved 429 (stores_refusal: the key is bound to a call that did nothing) or 500
    // (after_error = replay_error: whether or not the effect was committed), replayed.
    bool refusal = stored == kRefusedStatus;
    LocalView local;
    local.op_key = m.op_key;
    local.stored_status = stored;
    record(EventKind::Replay, m.intent, std::move(local), m.id);
    reply(m, MessageKind::Response, refusal ? "refused" : "error", "", refusal ? kRefusedReason : kInternalError,
          "", true);
  } else if (stored == 201 && contract.on_repeat == OnRepeat::AlreadyExists) {
    // A create by natural key: the unique key refuses the insert, and no result is kept
    // to replay, so the answer says neither whose content exists nor its receipt.
    LocalView local;
    local.op_key = m.op_key;
    local.reason = kAlreadyExists;
    record(EventKind::Reject, m.intent, std::move(local), m.id);
    reply(m, MessageKind::Response, "rejected", "", kAlreadyExists);
  } else if (same) {
    LocalView local;
    local.op_key = m.op_key;
    local.receipt = receipt;
    if (found[0][2].text != m.op_key) local.matched_key = found[0][2].text;
    // Not compared: the answer speaks for the stored content, the client takes it for its own.
    if (found[0][0].text != m.fingerprint) local.unchecked = true;
    record(EventKind::Replay, m.intent, std::move(local), m.id);
    reply(m, MessageKind::Response, "ok", receipt, "", m.fingerprint, true);
  } else {
    LocalView local;
    local.op_key = m.op_key;
    local.reason = kSameKeyDifferentPayload;
    record(EventKind::Reject, m.intent, std::move(local), m.id);
    reply(m, MessageKind::Response, "rejected", "", kSameKeyDifferentPayload);
  }
}

void Service::write_new(const Message& m) {
  const ServiceContract& contract = this->contract();
  if (env_.crash_service_here(ServicePoint::BeforeCommit, m.intent, m.n)) return;
  if (env_.error_here(ErrorPoint::BeforeCommit, m.intent, m.n)) {
    if (db_.in_transaction()) db_.query("ROLLBACK");  // nothing was written yet
    fail(m, false);
    return;
  }
  std::string receipt =
      "rcpt-" + Rng::derive_hex(setup_.seed,
                                "receipt/" + m.op_key + "/" + std::to_string(env_.now()), 10);
  // Two effects of one key in the same virtual ms (no dedup, or a race, and a retry with
  // no wait) still get receipts of their own: each is an effect, and its email is owed once.
  for (int n = 2; !db_.query("SELECT 1 FROM deliveries WHERE receipt = ?1", {SqlParam(receipt)}).empty(); ++n) {
    receipt = "rcpt-" + Rng::derive_hex(setup_.seed,
                                        "receipt/" + m.op_key + "/" + std::to_string(env_.now()) + "/" + std::to_string(n), 10);
  }
  const SqlParam row[] = {m.op_key, m.fingerprint, receipt, static_cast<long long>(env_.now())};
  auto write_key = [&] {
    // REPLACE: under dedup by fingerprint a key may come back with another payload.
    db_.query("INSERT OR REPLACE INTO idempotency_keys(op_key, fingerprint, receipt, created_at)"
              " VALUES (?1, ?2, ?3, ?4)", row, std::size(row));
    expire_later();
  };
  bool outbox = contract.notify == Notify::Outbox;
  // The notification's own idempotency key, one per effect.
  std::string email_key = "mail-" + Rng::derive_hex(setup_.seed, "email/" + receipt, 10);
  auto write_effect = [&] {
    // The outbox row shares the effect's transaction: a crash leaves both or neither.
    bool own_transaction = outbox && contract.ordering != Ordering::Atomic;
    if (own_transaction) db_.query("BEGIN IMMEDIATE");
    db_.query("INSERT INTO deliveries(op_key, fingerprint, receipt, created_at) VALUES (?1, ?2, ?3, ?4)", row,
              std::size(row));
    if (outbox) {
      db_.query("INSERT INTO outbox(email_key, op_key, receipt, status, attempts, created_at)"
                " VALUES (?1, ?2, ?3, 'pending', 0, ?4)",
                {SqlParam(email_key), SqlParam(m.op_key), SqlParam(receipt),
                 SqlParam(static_cast<long long>(env_.now()))});
    }
    if (own_transaction) db_.query("COMMIT");
  };
  LocalView local;
  local.op_key = m.op_key;
  local.receipt = receipt;
  LocalView effect_local = local;
  if (outbox) effect_local.email_key = email_key;
  if (contract.dedup == Dedup::None) effect_local.dedup = "none";
  if (m.named_by_service) effect_local.named_by_service = true;
  bind_key(m.op_key, m);
  if (contract.ordering == Ordering::Atomic) {
    write_key();
    if (env_.crash_service_here(ServicePoint::BetweenWrites, m.intent, m.n)) return;  // rolled back
    write_effect();
    db_.query("COMMIT");
    record(EventKind::Commit, m.intent, std::move(effect_local), m.id);
  } else {
    bool key_first = contract.ordering == Ordering::KeyFirst;
    local.ordering = effect_local.ordering = key_first ? "key_first" : "effect_first";
    key_first ? write_key() : write_effect();
    record(key_first ? EventKind::Register : EventKind::Commit, m.intent, LocalView(key_first ? local : effect_local), m.id);
    if (env_.crash_service_here(ServicePoint::BetweenWrites, m.intent, m.n)) return;
    key_first ? write_effect() : write_key();
    record(key_first ? EventKind::Commit : EventKind::Register, m.intent, std::move(key_first ? effect_local : local), m.id);
  }
  if (env_.crash_service_here(ServicePoint::AfterCommit, m.intent, m.n)) return;
  if (contract.notify == Notify::Direct && !notify_directly(m.intent, m.op_key, email_key, receipt)) return;
  if (env_.error_here(ErrorPoint::AfterCommit, m.intent, m.n)) {
    fail(m, true);  // the effect stays: only the answer is lost to an error
  } else {
    reply(m, MessageKind::Response, "ok", receipt, "", m.fingerprint);
  }
  if (outbox) {
    // The relay's own step, after this request's: it finds the row this commit wrote.
    int epoch = epoch_;
    schedule_self<Service>(env_, env_.now(), Side::Service, [epoch](Service& self) {
      if (epoch == self.epoch_) self.relay();
    });
  }
}

std::string Service::intent_of(const std::string& op_key) const {
  auto it = intent_of_key_.find(op_key);
  return it == intent_of_key_.end() ? "" : it->second;
}

int Service::send_email(const std::string& intent, const std::string& op_key, const std::string& email_key,
                        const std::string& receipt) {
  Message e;
  e.kind = MessageKind::Email;
  e.from = Side::Service;
  e.to = Side::Provider;
  e.intent = intent;
  e.n = env_.next_email(intent);
  e.op_key = op_key;
  e.email_key = email_key;
  e.receipt = receipt;
  return env_.send(e);
}

bool Service::notify_directly(const std::string& intent, const std::string& op_key, const std::string& email_key,
                              const std::string& receipt) {
  int id = send_email(intent, op_key, email_key, receipt);
  LocalView local;
  local.op_key = op_key;
  local.email_key = email_key;
  record(EventKind::Notify, intent, std::move(local), id);
  return !env_.crash_service_here(ServicePoint::AfterEmailSend, intent, env_.message(id).n);
}

void Service::relay() {
  if (!alive_) return;
  auto pending = db_.query("SELECT id, email_key, op_key, receipt, attempts FROM outbox"
                           " WHERE status = 'pending' ORDER BY id");
  for (const SqlRow& r : pending) {
    const std::string& email_key = r[1].text;
    bool waiting = std::any_of(relay_waiting_.begin(), relay_waiting_.end(),
                               [&](const RelayWait& w) { return w.email_key == email_key; });
    if (waiting || r[4].integer >= kRelayMaxAttempts) continue;
    // The try is counted in the row before the email leaves.
    db_.query("UPDATE outbox SET attempts = attempts + 1 WHERE id = ?1", {SqlParam(r[0].integer)});
    std::string intent = intent_of(r[2].text);
    int id = send_email(intent, r[2].text, email_key, r[3].text);
    int n = env_.message(id).n;
    std::int64_t deadline = env_.now() + setup_.relay_timeout_ms;
    relay_waiting_.push_back({email_key, intent, n, deadline});
    LocalView local;
    local.op_key = r[2].text;
    local.email_key = email_key;
    local.attempt = r[4].integer + 1;
    record(EventKind::Relay, intent, std::move(local), id);
    int epoch = epoch_;
    schedule_self<Service>(env_, deadline, Side::Service,
                           [email_key, n, epoch](Service& self) { self.relay_timeout(email_key, n, epoch); });
    if (env_.crash_service_here(ServicePoint::AfterEmailSend, intent, n)) return;
  }
}

void Service::relay_timeout(const std::string& email_key, int n, int epoch) {
  if (epoch != epoch_ || !alive_) return;
  auto it = std::find_if(relay_waiting_.begin(), relay_waiting_.end(),
                         [&](const RelayWait& w) { return w.email_key == email_key && w.n == n; });
  if (it == relay_waiting_.end()) return;
  std::string intent = it->intent;
  relay_waiting_.erase(it);
  // An indefinite outcome: the email may be in the inbox, only its ack missing.
  LocalView local;
  local.awaited = "email_ack";
  local.n = n;
  local.email_key = email_key;
  record(EventKind::Timeout, intent, std::move(local));
  relay();
}

void Service::on_email_ack(const Message& m) {
  LocalView local;
  local.message = to_string(m.kind);
  local.op_key = m.op_key;
  local.email_key = m.email_key;
  record(EventKind::Receive, m.intent, std::move(local), m.id);
  if (contract().notify != Notify::Outbox) return;  // a direct call waits for nothing
  relay_waiting_.erase(std::remove_if(relay_waiting_.begin(), relay_waiting_.end(),
                                      [&](const RelayWait& w) { return w.email_key == m.email_key; }),
                       relay_waiting_.end());
  long long before = db_.changes();
  db_.query("UPDATE outbox SET status = 'sent' WHERE email_key = ?1 AND status = 'pending'",
            {SqlParam(m.email_key)});
  if (db_.changes() == before) return;
  LocalView sent;
  sent.op_key = m.op_key;
  sent.email_key = m.email_key;
  record(EventKind::MarkSent, m.intent, std::move(sent));
}

void Service::lookup(const Message& m) {
  std::int64_t lag = contract().lookup_lag_ms;
  auto found = db_.query("SELECT receipt, created_at, fingerprint, status FROM idempotency_keys WHERE op_key = ?1",
                         {SqlParam(m.op_key)});
  const bool broken = contract().read_path == ReadPath::Broken;
  bool seen = !broken && !found.empty() && lookup_sees(found[0][1].integer, env_.now(), lag);
  LocalView local;
  local.op_key = m.op_key;
  if (seen && !found[0][0].text.empty()) local.receipt = found[0][0].text;
  if (broken) {
    local.why = reasons::kBrokenRead;
  } else if (!seen) {
    // Why the answer is not_found, as the service's own tables tell it (the reply says
    // only not_found: the client cannot tell these apart).
    if (!found.empty()) {
      local.why = kLaggingReplica;
      local.lag_ms = lag;
      local.age_ms = static_cast<long long>(env_.now()) - found[0][1].integer;
    } else {
      auto expired = db_.query("SELECT expired_at FROM expired_keys WHERE op_key = ?1", {SqlParam(m.op_key)});
      local.why = expired.empty() ? kNoRecord : kExpired;
      if (!expired.empty()) local.expired_at = expired[0][0].integer;
    }
  }
  bool refusal = seen && found[0][3].integer == kRefusedStatus;
  if (refusal) local.stored_status = kRefusedStatus;
  if (seen && found[0][3].integer == kErrorStatus && found[0][0].text.empty()) {
    // A saved 500 of a request that committed nothing: there is nothing to find.
    seen = false;
    local.why = kStoredError;
  }
  record(seen ? EventKind::Found : EventKind::NotFound, m.intent, std::move(local), m.id);
  if (refusal) {
    reply(m, MessageKind::LookupReply, "refused", "", kRefusedReason);
    return;
  }
  reply(m, MessageKind::LookupReply, seen ? "found" : "not_found", seen ? found[0][0].text : "", "",
        seen ? found[0][2].text : "");
}

void Service::expire_later() {
  const std::optional<std::int64_t>& retention = contract().retention_ms;
  // A record kept past the horizon never expires within the run: no event for it, or
  // every run with a day's retention would end at the horizon instead of settling.
  if (retention && *retention <= limits::kMaxVirtualMs - env_.now()) {
    // Down at that time: the restart forgets what came due meanwhile.
    schedule_self<Service>(env_, env_.now() + *retention, Side::Service, [](Service& self) { self.expire_due(); });
  }
}

void Service::expire_due() {
  const std::optional<std::int64_t>& retention = contract().retention_ms;
  if (!alive_ || !retention) return;
  auto due = db_.query("SELECT op_key FROM idempotency_keys WHERE created_at <= ?1 ORDER BY rowid",
                       {SqlParam(static_cast<long long>(env_.now() - *retention))});
  for (const SqlRow& r : due) {
    // The tombstone and the delete in one transaction: a crash keeps both or neither.
    db_.query("BEGIN IMMEDIATE");
    db_.query("DELETE FROM idempotency_keys WHERE op_key = ?1", {SqlParam(r[0].text)});
    db_.query("INSERT OR REPLACE INTO expired_keys(op_key, expired_at) VALUES (?1, ?2)",
              {SqlParam(r[0].text), SqlParam(static_cast<long long>(env_.now()))});
    db_.query("COMMIT");
    LocalView local;
    local.op_key = r[0].text;
    record(EventKind::Expire, intent_of(r[0].text), std::move(local));
  }
}

void Service::crash() {
  if (!alive_) return;
  bool open = db_.in_transaction();
  bool rolled_back = open && db_.changes() != begun_at_;  // the transaction had written
  if (open) db_.query("ROLLBACK");
  alive_ = false;
  ++epoch_;
  in_progress_.clear();
  relay_waiting_.clear();
  LocalView local;
  if (rolled_back) local.rolled_back = true;
  record(EventKind::Crash, "", std::move(local));
}

void Service::restart() {
  if (alive_) return;
  alive_ = true;
  record(EventKind::Restart, "", LocalView());
  expire_due();
  if (contract().notify == Notify::Outbox) relay();
}

int Service::http_status(MessageKind kind, const std::string& outcome, const std::string& reason, bool replayed) {
  if (outcome == "ok") return replayed ? 200 : 201;  // 201 Created; a replay repeats the result, 200
  if (outcome == "found") return 200;
  if (outcome == "not_found") return 404;
  if (outcome == "in_progress") return 409;  // the IETF draft's 409 Conflict
  if (outcome == "rejected" && reason == kMissingKey) return 400;  // the draft's 400 Bad Request
  if (outcome == "rejected") return reason == kAlreadyExists ? 409 : 422;  // the draft's 422
  if (outcome == "error") return reason == reasons::kBadGateway ? static_cast<int>(http::kBadGateway) : 500;
  if (outcome == "refused") return kind == MessageKind::LookupReply ? 200 : kRefusedStatus;  // a lookup found the stored 429
  return 0;
}

void Service::refuse(const Message& m) {
  LocalView local;
  local.op_key = m.op_key;
  // A record from an earlier attempt under this key: this refusal leaves it as it is.
  if (!db_.query("SELECT 1 FROM idempotency_keys WHERE op_key = ?1", {SqlParam(m.op_key)}).empty()) local.held = true;
  if (contract().stores_refusal) {
    // EC2's client token: the key is now bound to this call and its content, though it
    // did nothing. A key that already has a record keeps it.
    long long before = db_.changes();
    db_.query("INSERT OR IGNORE INTO idempotency_keys(op_key, fingerprint, receipt, created_at, status)"
              " VALUES (?1, ?2, '', ?3, ?4)",
              {SqlParam(m.op_key), SqlParam(m.fingerprint), SqlParam(static_cast<long long>(env_.now())),
               SqlParam(static_cast<long long>(kRefusedStatus))});
    if (db_.changes() != before) {
      bind_key(m.op_key, m);
      expire_later();
      local.stored = true;
    }
  }
  record(EventKind::Refuse, m.intent, std::move(local), m.id);
  reply(m, MessageKind::Response, "refused", "", kRefusedReason);
}

void Service::fail(const Message& m, bool committed) {
  LocalView local;
  local.op_key = m.op_key;
  local.committed = committed;
  if (contract().after_error == AfterError::ReplayError) {
    // Stripe API v1: the 500 is the key's saved result. After the commit it replaces the
    // effect's 201 (the receipt stays in the row, where a lookup still finds it); before,
    // it binds the free key to this content and no effect.
    if (committed) {
      db_.query("UPDATE idempotency_keys SET status = ?2 WHERE op_key = ?1",
                {SqlParam(m.op_key), SqlParam(kErrorStatus)});
    } else {
      db_.query("INSERT OR IGNORE INTO idempotency_keys(op_key, fingerprint, receipt, created_at, status)"
                " VALUES (?1, ?2, '', ?3, ?4)",
                {SqlParam(m.op_key), SqlParam(m.fingerprint), SqlParam(static_cast<long long>(env_.now())),
                 SqlParam(kErrorStatus)});
      bind_key(m.op_key, m);
      expire_later();
    }
    local.stored = true;
  }
  record(EventKind::Error, m.intent, std::move(local), m.id);
  reply(m, MessageKind::Response, "error", "", kInternalError);
}

void Service::reply(const Message& to, MessageKind kind, const std::string& outcome,
                    const std::string& receipt, const std::string& reason, const std::string& fingerprint,
                    bool replayed) {
  Message r;
  r.kind = kind;
  r.from = Side::Service;
  r.to = Side::Client;
  r.intent = to.intent;
  r.n = to.n;
  r.op_key = to.op_key;
  r.outcome = outcome;
  r.receipt = receipt;
  r.reason = reason;
  r.fingerprint = fingerprint;
  r.http = http_status(kind, outcome, reason, replayed);
  r.replayed = replayed;
  if (r.http == kRefusedStatus) r.retry_after_ms = contract().refusal_retry_after_ms;
  int id = env_.send(r);
  LocalView local;
  local.message = to_string(kind);
  local.op_key = to.op_key;
  local.outcome = outcome;
  local.http = r.http;
  if (replayed) local.replayed = true;
  if (r.retry_after_ms > 0) local.retry_after_ms = r.retry_after_ms;
  record(EventKind::Reply, to.intent, std::move(local), id);
}

}  // namespace idemlab
