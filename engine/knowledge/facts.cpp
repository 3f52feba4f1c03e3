#include "engine/knowledge/facts.hpp"

#include <algorithm>


namespace idemlab {
namespace {

bool arrived(const Run& run, int step, MessageKind kind, const std::string& intent, int n) {
  for (const Message& m : run.messages) {
    if (m.kind == kind && m.intent == intent && m.n == n && m.fate == Message::Fate::Delivered &&
        m.end_step >= 0 && m.end_step <= step) {
      return true;
    }
  }
  return false;
}

// The intent's current operation key at `step` (see facts.hpp); "" before it has one.
std::string current_key(const Run& run, int step, const std::string& intent) {
  for (const IntentRow& r : run.steps.at(step).snap.intents) {
    if (r.intent == intent) return r.op_key;
  }
  std::string key;
  for (int i = 0; i <= step; ++i) {
    const Event& e = run.steps[i].event;
    if (e.side == Side::Client && e.intent == intent && (e.type == EventKind::Decide || e.type == EventKind::Send)) {
      if (e.local.op_key) key = *e.local.op_key;
    }
  }
  return key;
}

const KeyRow* key_record(const Step& s, const std::string& op_key) {
  for (const KeyRow& k : s.snap.keys) {
    if (k.op_key == op_key) return &k;
  }
  return nullptr;
}

bool lookup_authoritative(const Run& run, int step, const std::string& intent) {
  if (!run.lookup_offered) return false;
  const Step& s = run.steps.at(step);
  std::string key = current_key(run, step, intent);
  const KeyRow* record = key_record(s, key);
  // A record with no receipt (a stored 429 or a saved 500 that committed nothing) says no
  // effect, as not_found does.
  bool found = record && !record->receipt.empty() && run.lookup_sees(record->created_at, s.t);
  bool effects = false;
  for (const DeliveryRow& d : s.snap.deliveries) {
    auto owner = run.key_owner.find(d.op_key);
    if (owner == run.key_owner.end() || owner->second != intent) continue;
    effects = true;
    if (d.op_key != key || !found) return false;  // an effect this lookup would miss
  }
  return found == effects;  // found with no effect: "done" for what never happened
}

bool retention_passed(const Run& run, int step, const std::string& intent) {
  for (int i = 0; i <= step; ++i) {
    const Event& e = run.steps[i].event;
    if (e.type == EventKind::Expire && e.intent == intent) return true;
  }
  return false;
}

// Rows (each naming an op_key) that belong to `intent`, by the observer's key mapping.
template <typename Row>
int owned_by(const Run& run, const Rows<Row>& rows, const std::string& intent) {
  return static_cast<int>(std::count_if(rows.begin(), rows.end(), [&](const Row& r) {
    auto owner = run.key_owner.find(r.op_key);
    return owner != run.key_owner.end() && owner->second == intent;
  }));
}

}  // namespace

int effects_for(const Run& run, int step, const std::string& intent) {
  return owned_by(run, run.steps.at(step).snap.deliveries, intent);
}

int emails_for(const Run& run, int step, const std::string& intent) {
  return owned_by(run, run.steps.at(step).snap.emails, intent);
}

const std::vector<FactInfo>& fact_vocabulary() {
  static const std::vector<FactInfo> facts = {
      {"effect_exists", true, false},
      {"effect_count", false, false},
      {"request_arrived", true, true},
      {"response_arrived", true, true},
      {"client_has_receipt", true, false},
      {"key_registered", true, false, false},
      {"lookup_authoritative", true, false, false},
      {"retention_passed", true, false, false},
      {"intent_durable", true, false, false},
      {"email_sent", true, false, false},
      {"email_count", false, false, false},
  };
  return facts;
}

const FactInfo* find_fact(const std::string& name) {
  for (const FactInfo& f : fact_vocabulary()) {
    if (f.name == name) return &f;
  }
  return nullptr;
}

nlohmann::json evaluate(const FactRef& fact, const Run& run, int step) {
  const Step& s = run.steps.at(step);
  if (fact.name == "effect_exists") return effects_for(run, step, fact.intent) > 0;
  if (fact.name == "effect_count") return effects_for(run, step, fact.intent);
  if (fact.name == "request_arrived") {
    return arrived(run, step, MessageKind::Request, fact.intent, fact.attempt);
  }
  if (fact.name == "response_arrived") {
    return arrived(run, step, MessageKind::Response, fact.intent, fact.attempt);
  }
  if (fact.name == "client_has_receipt") {
    for (const IntentRow& r : s.snap.intents) {
      if (r.intent == fact.intent) return r.receipt.has_value();
    }
    return false;
  }
  if (fact.name == "key_registered") return key_record(s, current_key(run, step, fact.intent)) != nullptr;
  if (fact.name == "lookup_authoritative") return lookup_authoritative(run, step, fact.intent);
  if (fact.name == "retention_passed") return retention_passed(run, step, fact.intent);
  if (fact.name == "intent_durable") {
    for (const IntentRow& r : s.snap.intents) {
      if (r.intent == fact.intent) return true;
    }
    return false;
  }
  if (fact.name == "email_sent") return emails_for(run, step, fact.intent) > 0;
  if (fact.name == "email_count") return emails_for(run, step, fact.intent);
  return nullptr;
}

L10n fact_label(const FactRef& fact) {
  std::string n = std::to_string(fact.attempt);
  if (fact.name == "effect_exists") return {"业务效果已发生", "effect exists"};
  if (fact.name == "effect_count") return {"业务效果条数", "number of effects"};
  if (fact.name == "request_arrived") return {"第 " + n + " 次请求已到达服务端", "request of attempt " + n + " arrived"};
  if (fact.name == "response_arrived") return {"第 " + n + " 次响应已到达客户端", "response to attempt " + n + " arrived"};
  if (fact.name == "client_has_receipt") return {"客户端持有回执", "client holds a receipt"};
  if (fact.name == "key_registered") return {"服务端登记了操作标识", "service holds the key's dedup record"};
  if (fact.name == "lookup_authoritative") return {"对账查询可信", "a lookup would tell the truth"};
  if (fact.name == "retention_passed") return {"去重保留期已过", "retention window passed"};
  if (fact.name == "intent_durable") return {"客户端数据库里有这条意图", "the client's database holds the intent"};
  if (fact.name == "email_sent") return {"通知邮件已送到邮件服务商", "notification email reached the provider"};
  if (fact.name == "email_count") return {"邮件服务商收下的通知邮件数", "emails the provider holds"};
  return {fact.name, fact.name};
}

L10n fact_statement(const FactRef& fact, const nlohmann::json& value) {
  std::string n = std::to_string(fact.attempt);
  bool yes = value.is_boolean() && value.get<bool>();
  if (fact.name == "effect_exists") {
    return yes ? L10n{"业务效果已经发生", "the effect exists"} : L10n{"业务效果没有发生", "no effect exists"};
  }
  if (fact.name == "effect_count") {
    std::string c = value.is_number() ? std::to_string(value.get<int>()) : "?";
    return {"服务端有 " + c + " 条业务效果", c + (c == "1" ? " effect exists" : " effects exist")};
  }
  if (fact.name == "request_arrived") {
    return yes ? L10n{"第 " + n + " 次请求到达了服务端", "the request of attempt " + n + " reached the service"}
               : L10n{"第 " + n + " 次请求没有到达服务端", "the request of attempt " + n + " has not reached the service"};
  }
  if (fact.name == "response_arrived") {
    return yes ? L10n{"第 " + n + " 次响应到达了客户端", "the response to attempt " + n + " reached the client"}
               : L10n{"第 " + n + " 次响应没有到达客户端", "the response to attempt " + n + " has not reached the client"};
  }
  if (fact.name == "client_has_receipt") {
    return yes ? L10n{"客户端持有回执", "the client holds a receipt"} : L10n{"客户端没有回执", "the client holds no receipt"};
  }
  if (fact.name == "key_registered") {
    return yes ? L10n{"服务端有这个意图当前操作标识的去重记录", "the service holds a dedup record for the intent's current key"}
               : L10n{"服务端没有这个意图当前操作标识的去重记录", "the service holds no dedup record for the intent's current key"};
  }
  if (fact.name == "lookup_authoritative") {
    return yes ? L10n{"此刻用当前操作标识对账，答案与事实相符", "a lookup by the current key would now match the truth"}
               : L10n{"此刻用当前操作标识对账会给出错误答案：漏掉已有的业务效果，或报告并不存在的效果",
                      "a lookup by the current key would now mislead: it would miss an effect, or report one that does not exist"};
  }
  if (fact.name == "retention_passed") {
    return yes ? L10n{"去重保留期已过，服务端已忘记这个意图的去重记录", "the retention window has passed: the service has forgotten the intent's dedup record"}
               : L10n{"服务端还没有忘记这个意图的去重记录", "the service has not forgotten the intent's dedup record"};
  }
  if (fact.name == "intent_durable") {
    return yes ? L10n{"客户端数据库里有这条意图的记录", "the client's database holds a row for the intent"}
               : L10n{"客户端数据库里没有这条意图的记录", "the client's database holds no row for the intent"};
  }
  if (fact.name == "email_sent") {
    return yes ? L10n{"邮件服务商已经收下了这次交付的通知邮件", "the mail provider holds the notification email of this delivery"}
               : L10n{"邮件服务商还没有收到这次交付的通知邮件", "the mail provider holds no notification email of this delivery"};
  }
  if (fact.name == "email_count") {
    std::string c = value.is_number() ? std::to_string(value.get<int>()) : "?";
    return {"邮件服务商收下了 " + c + " 封通知邮件", "the mail provider holds " + c + (c == "1" ? " notification email" : " notification emails")};
  }
  return {fact.name, fact.name};
}

}  // namespace idemlab
