// The built-in client's policy as code (preset.hpp). Each function writes one part of the
// code with only the branches the scenario's knobs choose, so that the code shown is the
// decision made, not a table of switches. The comments are in both languages, as the
// exercises' skeletons are (lessons/exercises/).
#include "engine/client/preset.hpp"

#include <nlohmann/json.hpp>

#include "engine/scenario/scenario_json.hpp"

namespace idemlab {
namespace {

std::string num(long long v) { return std::to_string(v); }

// The settings the code reads, at its top.
std::string settings(const ClientPolicy& p) {
  std::string s =
      "-- The built-in client's policy, written as code (the sandbox's knobs fill it in).\n"
      "-- 内置客户端的策略，写成了代码（沙盒里的旋钮会填写它）。\n"
      "-- Table / 表: intents(intent, op_key, payload, status, receipt, attempts)\n"
      "-- attempts counts requests and lookups: the budget / attempts 数的是请求和查询：预算\n\n";
  s += "local MAX_SENDS = " + num(p.max_attempts) + "  -- client.max_attempts\n";
  if (p.retry_after_ms) s += "local RETRY_AFTER_MS = " + num(*p.retry_after_ms) + "  -- client.retry_after_ms\n";
  if (p.backoff_ms) s += "local BACKOFF_MS = " + num(*p.backoff_ms) + "  -- client.backoff_ms (doubling / 逐次翻倍)\n";
  return s + "\n";
}

std::string helpers(const ClientPolicy& p, bool lookup_offered) {
  std::string s =
      "local function row_of(intent)\n"
      "  return db.row(\"SELECT op_key, payload, status, attempts FROM intents WHERE intent = ?\", intent)\n"
      "end\n\n"
      "local function set_status(intent, status)\n"
      "  db.exec(\"UPDATE intents SET status = ? WHERE intent = ?\", status, intent)\n"
      "end\n\n"
      "-- Settled: nothing more to do / 已有结论：不再处理\n"
      "local function settled(r)\n"
      "  return r == nil or r.status == \"DELIVERED\" or r.status == \"CONFLICT\" or r.status == \"NEEDS_HUMAN\"\n"
      "end\n\n"
      "-- Whether the budget still allows a send; when not, a person decides.\n"
      "-- 预算还够不够再发一次；不够就交给人工。\n"
      "local function budget_left(intent)\n"
      "  if row_of(intent).attempts < MAX_SENDS then return true end\n"
      "  set_status(intent, \"NEEDS_HUMAN\")\n"
      "  return false\n"
      "end\n\n";
  if (p.backoff_ms) {
    s += "-- The wait before the next send: 0, then BACKOFF_MS, doubling.\n"
         "-- 下一次发送前等多久：第一次不等，之后 BACKOFF_MS，逐次翻倍。\n"
         "local function backoff(intent)\n"
         "  local next_send = row_of(intent).attempts + 1\n"
         "  if next_send < 2 then return 0 end\n"
         "  return math.min(BACKOFF_MS << (next_send - 2), 600000)\n"
         "end\n\n";
  }
  // The request, under the key the knobs choose.
  s += "-- Sends the intent's request (one more of its budget).\n"
       "-- 发出这个意图的请求（用掉一次预算）。\n"
       "local function send_request(intent)\n"
       "  if not budget_left(intent) then return end\n"
       "  local r = row_of(intent)\n"
       "  local key = r.op_key\n";
  if (p.key_scope == KeyScope::PerAttempt) {
    s += "  -- client.key_scope = attempt: a fresh key for every retry / 每次重试换一个新键\n"
         "  if r.attempts > 0 then key = new_key(intent) end\n";
  } else if (p.key_source == KeySource::PayloadHash) {
    s += "  key = derive_key(intent, r.payload)  -- client.key_source = payload_hash\n";
  } else if (p.key_source == KeySource::RequestHash) {
    s += "  -- client.key_source = request_hash: the request carries the time it is sent\n"
         "  -- 请求里带着发送时间，所以每次算出的键都不同\n"
         "  key = derive_key(intent, r.payload, tostring(now()))\n";
  }
  s += "  db.exec(\"UPDATE intents SET op_key = ?, attempts = attempts + 1, status = CASE status WHEN 'FAILED' THEN 'PENDING' ELSE status END WHERE intent = ?\", key, intent)\n"
       "  send(intent, key, r.payload)\n"
       "end\n\n";
  // Reconciling an unknown outcome.
  s += "-- The outcome is unknown: find it out. / 结果未知：去弄清楚。\n"
       "local function reconcile(intent)\n"
       "  local r = row_of(intent)\n"
       "  if r == nil or (r.status ~= \"UNKNOWN\" and r.status ~= \"PENDING\") then return end\n";
  if (p.recovery == Recovery::Lookup && lookup_offered) {
    s += "  if not budget_left(intent) then return end\n"
         "  db.exec(\"UPDATE intents SET attempts = attempts + 1 WHERE intent = ?\", intent)\n"
         "  lookup(intent, r.op_key)  -- client.recovery = lookup\n";
  } else {
    s += "  send_request(intent)  -- client.recovery = resend (the same key / 同一个键)\n";
  }
  s += "end\n\n";
  // What a timeout (or any indefinite error) leaves.
  s += "-- Recorded UNKNOWN: reconcile later, or wait for a restart.\n"
       "-- 记为 UNKNOWN：稍后对账，或等重启后的恢复扫描。\n"
       "local function unknown(intent)\n"
       "  set_status(intent, \"UNKNOWN\")\n"
       "  if not budget_left(intent) then return end\n";
  if (p.retry_after_ms) {
    s += std::string("  after(RETRY_AFTER_MS") + (p.backoff_ms ? " + backoff(intent)" : "") + ", intent)  -- on_timer\n";
  } else {
    s += "  -- client.retry_after_ms unset: nothing until a restart / 不设：等到重启\n";
  }
  s += "end\n\n";
  // A retry of the request after the backoff.
  s += "local function retry(intent)\n";
  if (p.backoff_ms) {
    s += "  local wait = backoff(intent)\n"
         "  if wait > 0 then after(wait, intent) return end\n";
  }
  s += "  send_request(intent)\n"
       "end\n\n";
  return s;
}

std::string on_deliver(const ClientPolicy& p) {
  std::string key = p.key_source == KeySource::PayloadHash ? "derive_key(intent, payload)"
                    : p.key_source == KeySource::RequestHash ? "derive_key(intent, payload, tostring(now()))"
                                                              : "new_key(intent)";
  std::string s =
      "-- The user decides an intent. / 用户决定了一个意图。\n"
      "function on_deliver(intent, payload)\n"
      "  if row_of(intent) then return end\n"
      "  local key = " + key + "\n";
  if (p.persist == PersistWhen::AfterSend) {
    s += "  -- client.persist = after_send: the request leaves before the row is stored\n"
         "  -- 先发送再存：中间崩溃，客户端就没有这个意图的记录\n"
         "  send(intent, key, payload)\n"
         "  db.exec(\"INSERT INTO intents(intent, op_key, payload, status, attempts) VALUES (?, ?, ?, 'PENDING', 1)\", intent, key, payload)\n";
  } else {
    s += "  -- client.persist = before_send: stored first / 先存再发\n"
         "  db.exec(\"INSERT INTO intents(intent, op_key, payload, status) VALUES (?, ?, ?, 'PENDING')\", intent, key, payload)\n"
         "  send_request(intent)\n";
  }
  return s + "end\n\n";
}

std::string on_timeout(const ClientPolicy& p) {
  std::string s =
      "-- No answer in time: the effect may or may not exist. / 超时：业务效果可能有，也可能没有。\n"
      "function on_timeout(intent, call)\n"
      "  local r = row_of(intent)\n"
      "  if settled(r) then return end\n";
  if (p.on_timeout == OnTimeout::MarkFailedAndResend) {
    s += "  if call == \"request\" then\n"
         "    -- client.on_timeout = mark_failed_and_resend / 记为 FAILED 再重发\n"
         "    set_status(intent, \"FAILED\")\n"
         "    if row_of(intent).attempts < MAX_SENDS then retry(intent) end\n"
         "    return\n"
         "  end\n";
  }
  return s + "  unknown(intent)  -- client.on_timeout = record_unknown\nend\n\n";
}

// One answer to a request or a lookup (`call`), as client.cpp's on_message reads both.
std::string answer(const ClientPolicy& p) {
  std::string s =
      "-- An answer to a request or to lookup(): call is \"request\" or \"lookup\".\n"
      "-- 请求或查询的回答：call 为 \"request\" 或 \"lookup\"。\n"
      "local function answer(intent, reply, call)\n"
      "  local r = row_of(intent)\n"
      "  if r == nil or r.status == \"DELIVERED\" or r.status == \"CONFLICT\" then return end\n"
      "  if reply.outcome == \"ok\" or reply.outcome == \"found\" then\n"
      "    db.exec(\"UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?\", reply.receipt, intent)\n"
      "  elseif reply.outcome == \"rejected\" and reply.reason == \"already_exists\" then\n";
  if (p.on_already_exists == OnAlreadyExists::Success) {
    s += "    set_status(intent, \"DELIVERED\")  -- client.on_already_exists = success\n";
  } else if (p.on_already_exists == OnAlreadyExists::Fail) {
    s += "    set_status(intent, \"FAILED\")  -- client.on_already_exists = fail\n";
  } else {
    s += "    reconcile_now(intent)  -- client.on_already_exists = reconcile\n";
  }
  if (p.on_server_error == OnServerError::Fail) {
    s += "  elseif reply.outcome == \"error\" then\n"
         "    set_status(intent, \"FAILED\")  -- client.on_server_error = fail\n";
  }
  s += "  elseif reply.outcome == \"refused\" and (call == \"lookup\" or reply.replayed or (reply.attempt == 1 and r.attempts == 1)) then\n"
       "    -- 429 and nothing sent before took effect: a definite error\n"
       "    -- 429，且之前没有别的请求生效：确定的错误\n";
  if (p.on_refused == OnRefused::Retry) {
    s += "    if call == \"lookup\" or reply.replayed or r.attempts >= MAX_SENDS then\n"
         "      set_status(intent, \"FAILED\")\n"
         "    else\n"
         "      set_status(intent, \"PENDING\")  -- client.on_refused = retry\n"
         "      after(reply.retry_after_ms or " + std::string(p.backoff_ms ? "backoff(intent)" : "0") + ", intent)\n"
         "    end\n";
  } else {
    s += "    set_status(intent, \"FAILED\")  -- client.on_refused = fail\n";
  }
  s += "  elseif reply.outcome == \"rejected\" then\n"
       "    set_status(intent, \"CONFLICT\")  -- refused before doing anything / 服务端什么都没做就拒绝了\n"
       "  elseif reply.outcome == \"not_found\" then\n";
  if (p.on_not_found == OnNotFound::RetryLookup) {
    s += "    unknown(intent)  -- client.on_not_found = retry_lookup: the lookup may lag / 查询可能滞后\n";
  } else {
    s += "    send_request(intent)  -- client.on_not_found = resend (the same key / 同一个键)\n";
  }
  return s +
         "  else\n"
         "    on_timeout(intent, call)  -- in_progress, 500, a later 429: the outcome is open / 结果未定\n"
         "  end\n"
         "end\n\n"
         "-- The answer to a request. / 请求的回答。\n"
         "function on_response(intent, reply) answer(intent, reply, \"request\") end\n\n"
         "-- The answer to lookup(). / 查询的回答。\n"
         "function on_lookup(intent, reply) answer(intent, reply, \"lookup\") end\n\n";
}

std::string on_others(const ClientPolicy& p) {
  std::string s =
      "-- The connection was refused: this request never left. / 连接被拒：这次请求没有发出去。\n"
      "function on_connect_error(intent, attempt)\n"
      "  local r = row_of(intent)\n"
      "  if settled(r) then return end\n"
      "  if r.attempts < MAX_SENDS then retry(intent)\n"
      "  elseif attempt == 1 then set_status(intent, \"FAILED\")  -- nothing ever left / 一次也没发出去\n"
      "  else set_status(intent, \"NEEDS_HUMAN\") end\n"
      "end\n\n"
      "-- A timer set with after(). / after() 设下的定时器到了。\n"
      "function on_timer(intent)\n"
      "  local r = row_of(intent)\n"
      "  if r == nil then return end\n"
      "  if r.status == \"UNKNOWN\" then reconcile(intent)\n"
      "  elseif r.status == \"PENDING\" or r.status == \"FAILED\" then send_request(intent) end\n"
      "end\n\n"
      "-- Up again after a crash: only the database is left. / 崩溃后重启：只剩数据库。\n"
      "function on_restart()\n";
  if (p.recovery_scan == RecoveryScan::UnknownOnly) {
    s += "  -- client.recovery_scan = unknown: PENDING rows are left alone / 不管 PENDING 的行\n"
         "  local open = db.rows(\"SELECT intent FROM intents WHERE status = 'UNKNOWN' ORDER BY rowid\")\n";
  } else {
    s += "  -- client.recovery_scan = unknown_and_pending / UNKNOWN 和遗留的 PENDING 都对账\n"
         "  local open = db.rows(\"SELECT intent FROM intents WHERE status = 'UNKNOWN' OR status = 'PENDING' ORDER BY rowid\")\n";
  }
  return s +
         "  for _, r in ipairs(open) do reconcile(r.intent) end\n"
         "end\n";
}

// on_already_exists = reconcile asks by lookup at once (no unknown status first).
std::string reconcile_now(const ClientPolicy& p, bool lookup_offered) {
  if (p.on_already_exists != OnAlreadyExists::Reconcile) return "";
  std::string s =
      "-- 409 already exists: whose content is it? Only a lookup says.\n"
      "-- 409 已存在：是不是自己这份内容？只有查询能回答。\n"
      "local function reconcile_now(intent)\n";
  if (!lookup_offered) return s + "  set_status(intent, \"NEEDS_HUMAN\")  -- no lookup offered / 服务端不提供查询\nend\n\n";
  return s +
         "  if not budget_left(intent) then return end\n"
         "  db.exec(\"UPDATE intents SET attempts = attempts + 1 WHERE intent = ?\", intent)\n"
         "  lookup(intent, row_of(intent).op_key)\n"
         "end\n\n";
}

// The knobs the code does not carry, and why (preset.hpp).
std::vector<UnexpressedKnob> unexpressed(const Scenario& sc) {
  const ClientPolicy& p = sc.client;
  nlohmann::json client = write_scenario(sc).value("client", nlohmann::json::object());
  std::vector<UnexpressedKnob> out;
  auto add = [&](const char* knob) {
    const nlohmann::json& v = client.contains(knob) ? client[knob] : nlohmann::json();
    out.push_back({std::string("client.") + knob, v.is_string() ? v.get<std::string>() : v.dump()});
  };
  if (!p.retry_layers.empty()) add("retry_layers");
  if (p.deadline_ms) add("deadline_ms");
  if (p.read_back != ReadBack::Off) add("read_back");
  // A reply after the timeout is never handed to code (its connection was closed).
  if (p.late_reply == LateReply::Record) add("late_reply");
  if (!p.sends_key) add("sends_key");  // code always sends the key it names
  return out;
}

}  // namespace

CodePreset code_preset(const Scenario& scenario) {
  const ClientPolicy& p = scenario.client;
  const bool lookup = scenario.service.lookup;
  CodePreset out;
  out.code = settings(p) + helpers(p, lookup) + reconcile_now(p, lookup) + on_deliver(p) + on_timeout(p) +
             answer(p) + on_others(p);
  out.unexpressed = unexpressed(scenario);
  return out;
}

}  // namespace idemlab
