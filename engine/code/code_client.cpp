#include "engine/code/code_client.hpp"

#include <algorithm>
#include <cctype>

#include "engine/fingerprint/sha256.hpp"
#include "engine/faults/fault.hpp"
#include "engine/sim/rng.hpp"

namespace idemlab {
namespace {

// The statuses a client records (engine/sim/run.hpp): the invariants and the timeline read
// no other.
bool known_status(const std::string& s) {
  return s == status::kPending || s == status::kUnknown || s == status::kDelivered || s == status::kFailed ||
         s == status::kConflict || s == status::kNeedsHuman;
}

// The statement's first word, upper-cased.
std::string verb_of(const std::string& sql) {
  std::size_t i = 0;
  while (i < sql.size() && std::isspace(static_cast<unsigned char>(sql[i]))) ++i;
  std::string verb;
  while (i < sql.size() && std::isalpha(static_cast<unsigned char>(sql[i]))) verb += static_cast<char>(std::toupper(sql[i++]));
  return verb;
}

// Whether `sql` holds more than one statement (text after a ';' outside quotes).
bool several_statements(const std::string& sql) {
  char quote = 0;
  for (std::size_t i = 0; i < sql.size(); ++i) {
    char c = sql[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '\'' || c == '"') {
      quote = c;
    } else if (c == ';') {
      return sql.find_first_not_of(" \t\r\n;", i) != std::string::npos;
    }
  }
  return false;
}

// The service's tables and the provider's: a statement naming one reads where the client
// cannot.
const char* others_table(const std::string& sql) {
  std::string lower;
  for (char c : sql) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  for (const char* t : {"deliveries", "keys", "outbox", "emails", "in_progress", "effects"}) {
    std::size_t at = lower.find(t);
    while (at != std::string::npos) {
      bool before = at == 0 || !(std::isalnum(static_cast<unsigned char>(lower[at - 1])) || lower[at - 1] == '_');
      std::size_t end = at + std::string(t).size();
      bool after = end >= lower.size() || !(std::isalnum(static_cast<unsigned char>(lower[end])) || lower[end] == '_');
      if (before && after) return t;
      at = lower.find(t, at + 1);
    }
  }
  return nullptr;
}

// What the engine's SQLite leaves out (CMakeLists.txt: subqueries, compound SELECTs, CAST,
// upsert), which a statement might still parse with and then not do as written (an
// `x IN (...)` matches nothing): refused by name, with what to write instead.
const L10n* left_out(const std::string& sql) {
  static const L10n in_list{"IN (...)：请写成 a = 'x' OR a = 'y'", "IN (...): write a = 'x' OR a = 'y'"};
  static const L10n subquery{"子查询（语句里的 SELECT）：请分两条语句执行", "a subquery (SELECT inside a statement): run two statements"};
  static const L10n exists{"EXISTS：执行那条 SELECT，看它返回什么", "EXISTS: run the SELECT and look at what it returns"};
  static const L10n compound{"UNION / INTERSECT / EXCEPT：把几条 SELECT 分别执行", "UNION / INTERSECT / EXCEPT: run the SELECTs one by one"};
  static const L10n cast{"CAST：值本来就是整数或文本", "CAST: the values are integers and text already"};
  static const L10n upsert{"ON CONFLICT：请用 INSERT OR REPLACE，或先用 SELECT 查一下", "ON CONFLICT: use INSERT OR REPLACE, or check with a SELECT first"};
  std::string upper;
  char quote = 0;
  for (char c : sql) {
    if (quote) {
      if (c == quote) quote = 0;
      upper += ' ';
    } else if (c == '\'' || c == '"') {
      quote = c;
      upper += ' ';
    } else {
      upper += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    }
  }
  std::vector<std::string> words;
  std::string word;
  for (char c : upper + " ") {
    if (std::isalnum(static_cast<unsigned char>(c)) || c == '_') {
      word += c;
    } else {
      if (!word.empty()) words.push_back(word);
      word.clear();
      if (c == '(') words.push_back("(");
    }
  }
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string& w = words[i];
    if (w == "IN") return &in_list;
    if (w == "SELECT" && i > 0 && words[i - 1] == "(") return &subquery;
    if (w == "EXISTS") return &exists;
    if (w == "UNION" || w == "INTERSECT" || w == "EXCEPT") return &compound;
    if (w == "CAST") return &cast;
    if (w == "CONFLICT") return &upsert;
  }
  return nullptr;
}

CodeValue reply_of(const Message& m) {
  CodeValue r = CodeValue::table();
  r.set("outcome", CodeValue::of(m.outcome));
  r.set("op_key", CodeValue::of(m.op_key));
  if (!m.receipt.empty()) r.set("receipt", CodeValue::of(m.receipt));
  if (!m.reason.empty()) r.set("reason", CodeValue::of(m.reason));
  if (m.http) r.set("http", CodeValue::of(static_cast<long long>(m.http)));
  r.set("replayed", CodeValue::flag(m.replayed));
  r.set("attempt", CodeValue::of(static_cast<long long>(m.n)));
  // A 429's Retry-After (virtual ms), when the service gives one.
  if (m.retry_after_ms > 0) r.set("retry_after_ms", CodeValue::of(static_cast<long long>(m.retry_after_ms)));
  return r;
}

}  // namespace

CodeClient::CodeClient(Env& env, CodeClientSetup setup)
    : env_(env),
      setup_(std::move(setup)),
      db_(Database::with_schema("CREATE TABLE intents(intent TEXT PRIMARY KEY, op_key TEXT, payload TEXT NOT NULL,"
                                " status TEXT NOT NULL, receipt TEXT, attempts INTEGER NOT NULL DEFAULT 0)",
                                "DELETE FROM intents")) {}

CodeClient::CodeClient(Env& env, CodeClient& from, bool take)
    : env_(env),
      setup_(from.setup_),
      db_(take ? std::move(from.db_) : from.db_.copy()),
      rows_(from.rows_),
      rows_read_at_(take ? from.rows_read_at_ : -1),
      alive_(from.alive_),
      epoch_(from.epoch_),
      waiting_(from.waiting_),
      waiting_seen_(from.waiting_seen_),
      sends_(from.sends_),
      persisted_(from.persisted_),
      keys_drawn_(from.keys_drawn_) {}

std::unique_ptr<Node> CodeClient::fork(Env& env, bool take) { return std::make_unique<CodeClient>(env, *this, take); }

Rows<IntentRow> CodeClient::rows() {
  if (!alive_ || rows_read_at_ == db_.changes()) return rows_;
  std::vector<IntentRow> rows;
  for (SqlRow& r : db_.query("SELECT intent, op_key, payload, status, receipt, attempts FROM intents ORDER BY rowid")) {
    IntentRow row;
    row.intent = r[0].text;
    row.op_key = r[1].text;
    row.payload = r[2].text;
    // The fingerprint of the row's content, as the service computes it: what the
    // invariants compare an effect with.
    row.fingerprint = sha256_hex(row.payload);
    row.status = r[3].text;
    if (r[4].kind == SqlValue::Kind::Text) row.receipt = r[4].text;
    row.attempts = r[5].integer;
    rows.push_back(std::move(row));
  }
  rows_ = Rows<IntentRow>(std::move(rows));
  rows_read_at_ = db_.changes();
  return rows_;
}

void CodeClient::snapshot(Snapshot& into) {
  into.client_alive = alive_;
  into.intents = rows_;
  into.waiting = waiting_seen_.follow(waiting_);
}

bool CodeClient::run(const std::string& handler, const std::vector<CodeValue>& args) {
  return setup_.vm->call(*this, handler, args);
}

bool CodeClient::emit_changes() {
  Rows<IntentRow> before = rows_;
  if (rows_read_at_ == db_.changes()) return true;
  Rows<IntentRow> after = rows();
  std::vector<std::string> first_rows;
  for (const IntentRow& r : after) {
    if (!known_status(r.status)) {
      throw HostRefusal{"runtime", {"状态“" + r.status + "”不是客户端记录的状态：PENDING、UNKNOWN、DELIVERED、FAILED、CONFLICT、NEEDS_HUMAN",
                                    "status '" + r.status + "' is not one a client records: PENDING, UNKNOWN, DELIVERED, FAILED, CONFLICT, NEEDS_HUMAN"}};
    }
    const IntentRow* old = nullptr;
    for (const IntentRow& b : before) {
      if (b.intent == r.intent) old = &b;
    }
    LocalView local;
    if (!r.op_key.empty()) local.op_key = r.op_key;
    local.status = r.status;
    if (!old) {
      env_.emit(EventKind::Persist, Side::Client, r.intent, -1, std::move(local));
      if (!persisted_.count(r.intent)) first_rows.push_back(r.intent);
    } else if (old->status != r.status || old->receipt != r.receipt) {
      if (r.receipt) local.receipt = *r.receipt;
      env_.emit(EventKind::Record, Side::Client, r.intent, -1, std::move(local));
    }
  }
  for (const std::string& intent : first_rows) {
    persisted_[intent] = 1;
    if (env_.crash_here(ClientPoint::AfterPersist, intent, 1)) return false;
  }
  return true;
}

long long CodeClient::sql(const std::string& statement, const std::vector<SqlValue>& params, std::vector<SqlRow>& out,
                          std::vector<std::string>& names) {
  std::string verb = verb_of(statement);
  if (verb != "SELECT" && verb != "INSERT" && verb != "UPDATE" && verb != "DELETE" && verb != "REPLACE") {
    throw HostRefusal{"runtime", {"只能执行 SELECT、INSERT、UPDATE、DELETE 或 REPLACE：客户端的表已经建好（intents），每条语句各自提交",
                                  "only SELECT, INSERT, UPDATE, DELETE or REPLACE: the client's table is given (intents), and each statement commits on its own"}};
  }
  if (several_statements(statement)) {
    throw HostRefusal{"runtime", {"一次只能执行一条语句", "one statement at a time"}};
  }
  if (const L10n* missing = left_out(statement)) {
    throw HostRefusal{"runtime", {"这个 SQLite 不支持 " + missing->zh, "this SQLite has no " + missing->en}};
  }
  if (const char* t = others_table(statement)) {
    throw HostRefusal{"forbidden", {std::string("“") + t + "”是服务端的表：客户端读不到它，只能通过消息知道服务端的事",
                                    std::string("'") + t + "' is the service's table: the client cannot read it, it learns of the service only from messages"}};
  }
  long long before = db_.changes();
  std::vector<SqlParam> bound(params.begin(), params.end());
  try {
    out = db_.query(statement, bound.data(), bound.size());
  } catch (const DatabaseError& e) {
    std::string what = e.what();
    throw HostRefusal{"runtime", {"SQL 出错：" + what, "SQL error: " + what}};
  }
  names = db_.column_names(statement);
  long long changed = db_.changes() - before;
  if (changed > 0 && !emit_changes()) {
    // The client crashed at after_persist: the handler stops (send and lookup report a
    // crash by returning; a statement does so through the same path).
    throw HostRefusal{"crash", {}};
  }
  return changed;
}

long long CodeClient::send(const std::string& intent, const std::string& key, const std::string& payload) {
  int n = ++sends_[intent];
  std::string fp = sha256_hex(payload);
  if (env_.connect_error_here(intent, n)) {
    LocalView local;
    local.op_key = key;
    local.fingerprint = fp;
    local.attempt = n;
    env_.emit(EventKind::ConnectError, Side::Client, intent, -1, std::move(local));
    int epoch = epoch_;
    schedule_self<CodeClient>(env_, env_.now(), Side::Client, [intent, n, epoch](CodeClient& c) {
      if (c.alive_ && epoch == c.epoch_) c.run("on_connect_error", {CodeValue::of(intent), CodeValue::of(static_cast<long long>(n))});
    });
    return n;
  }
  Message m;
  m.kind = MessageKind::Request;
  m.from = Side::Client;
  m.to = Side::Service;
  m.intent = intent;
  m.n = n;
  m.op_key = key;
  m.payload = payload;
  m.fingerprint = fp;
  m.key_sent = true;
  env_.own_key(key, intent);
  int id = env_.send(m);
  LocalView local;
  local.op_key = key;
  local.fingerprint = fp;
  local.attempt = n;
  env_.emit(EventKind::Send, Side::Client, intent, id, std::move(local));
  wait_for(intent, MessageKind::Response, n);
  if (env_.crash_here(ClientPoint::AfterSend, intent, n)) return 0;
  return n;
}

bool CodeClient::lookup(const std::string& intent, const std::string& key) {
  if (!setup_.lookup_offered) {
    throw HostRefusal{"runtime", {"这个服务的 API 不提供按键查询（lookup）", "this service's API offers no lookup by key"}};
  }
  Message m;
  m.kind = MessageKind::Lookup;
  m.from = Side::Client;
  m.to = Side::Service;
  m.intent = intent;
  m.n = env_.next_lookup(intent);
  m.op_key = key;
  int id = env_.send(m);
  LocalView local;
  local.op_key = key;
  env_.emit(EventKind::Lookup, Side::Client, intent, id, std::move(local));
  wait_for(intent, MessageKind::LookupReply, m.n);
  return true;
}

void CodeClient::after(const std::string& intent, std::int64_t ms) {
  int epoch = epoch_;
  schedule_self<CodeClient>(env_, env_.now() + ms, Side::Client, [intent, epoch](CodeClient& c) {
    if (c.alive_ && epoch == c.epoch_) c.run("on_timer", {CodeValue::of(intent)});
  });
}

std::string CodeClient::new_key(const std::string& intent) {
  return "op-" + Rng::derive_hex(setup_.seed, "code-key/" + intent + "/" + std::to_string(++keys_drawn_), 12);
}

std::int64_t CodeClient::now() const { return env_.now(); }

void CodeClient::wait_for(const std::string& intent, MessageKind kind, int n) {
  std::int64_t deadline = env_.now() + setup_.timeout_ms;
  waiting_.push_back({intent, kind, n, deadline});
  int epoch = epoch_;
  schedule_self<CodeClient>(env_, deadline, Side::Client,
                            [intent, kind, n, epoch](CodeClient& c) { c.on_timeout(intent, kind, n, epoch); });
}

void CodeClient::on_timeout(const std::string& intent, MessageKind kind, int n, int epoch) {
  if (!alive_ || epoch != epoch_) return;
  auto it = std::find_if(waiting_.begin(), waiting_.end(),
                         [&](const Waiting& w) { return w.intent == intent && w.for_kind == kind && w.n == n; });
  if (it == waiting_.end()) return;
  waiting_.erase(it);
  LocalView local;
  local.awaited = to_string(kind);
  local.n = n;
  env_.emit(EventKind::Timeout, Side::Client, intent, -1, std::move(local));
  run("on_timeout", {CodeValue::of(intent), CodeValue::of(std::string(kind == MessageKind::Response ? "request" : "lookup"))});
}

void CodeClient::on_message(const Message& m) {
  const MessageKind awaited = m.kind == MessageKind::LookupReply ? MessageKind::LookupReply : MessageKind::Response;
  auto answers = [&](const Waiting& w) { return w.intent == m.intent && w.n == m.n && w.for_kind == awaited; };
  const bool waited = std::any_of(waiting_.begin(), waiting_.end(), answers);
  LocalView local;
  local.message = to_string(m.kind);
  local.op_key = m.op_key;
  local.outcome = m.outcome;
  if (m.http) local.http = m.http;
  if (m.replayed) local.replayed = true;
  if (!m.receipt.empty()) local.receipt = m.receipt;
  if (!m.reason.empty()) local.reason = m.reason;
  // Its timeout fired first: the connection was closed and the reply is never read.
  if (!waited) local.discarded = true;
  waiting_.erase(std::remove_if(waiting_.begin(), waiting_.end(), answers), waiting_.end());
  env_.emit(EventKind::Receive, Side::Client, m.intent, m.id, std::move(local));
  if (!waited) return;
  if (env_.crash_here(ClientPoint::BeforeRecord, m.intent, m.n)) return;
  run(m.kind == MessageKind::LookupReply ? "on_lookup" : "on_response", {CodeValue::of(m.intent), reply_of(m)});
}

void CodeClient::act(const Action& a) {
  switch (a.kind) {
    case ActionKind::Deliver: {
      if (!alive_) return;
      env_.emit(EventKind::Decide, Side::Client, a.intent, -1, LocalView());
      run("on_deliver", {CodeValue::of(a.intent), CodeValue::of(a.payload)});
      break;
    }
    case ActionKind::CrashClient: crash(); break;
    case ActionKind::RestartClient: restart(); break;
    default: break;  // refused with code by the scenario reader
  }
}

void CodeClient::crash() {
  if (!alive_) return;
  rows();  // the rows as the database holds them, shown while the client is down
  alive_ = false;
  ++epoch_;
  waiting_.clear();
  env_.emit(EventKind::Crash, Side::Client, "", -1, LocalView());
}

void CodeClient::restart() {
  if (alive_) return;
  alive_ = true;
  env_.emit(EventKind::Restart, Side::Client, "", -1, LocalView());
  LocalView local;
  local.scan = "code";
  env_.emit(EventKind::Recover, Side::Client, "", -1, std::move(local));
  run("on_restart", {});
}

std::shared_ptr<LuaVm> code_vm(const std::string& code) {
  // The last code loaded: a grade or an explore runs one code over thousands of schedules.
  static std::shared_ptr<LuaVm> last;
  static std::string last_code;
  if (!last || last_code != code) {
    last.reset();
    last = std::make_shared<LuaVm>(code);
    last_code = code;
  }
  return last;
}

std::unique_ptr<Node> make_code_client(const Scenario& scenario, Env& env) {
  return std::make_unique<CodeClient>(
      env, CodeClientSetup{code_vm(scenario.code), scenario.timing.timeout_ms, scenario.seed, scenario.service.lookup});
}

}  // namespace idemlab
