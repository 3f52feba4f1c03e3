#include "engine/knowledge/facts.hpp"

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

}  // namespace

int effects_for(const Run& run, int step, const std::string& intent) {
  int n = 0;
  for (const DeliveryRow& d : run.steps.at(step).snap.deliveries) {
    auto owner = run.key_owner.find(d.op_key);
    if (owner != run.key_owner.end() && owner->second == intent) ++n;
  }
  return n;
}

const std::vector<FactInfo>& fact_vocabulary() {
  static const std::vector<FactInfo> facts = {
      {"effect_exists", true, false},
      {"effect_count", false, false},
      {"request_arrived", true, true},
      {"response_arrived", true, true},
      {"client_has_receipt", true, false},
      {"intent_durable", true, false},
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
  if (fact.name == "intent_durable") {
    for (const IntentRow& r : s.snap.intents) {
      if (r.intent == fact.intent) return true;
    }
    return false;
  }
  return nullptr;
}

L10n fact_label(const FactRef& fact) {
  std::string n = std::to_string(fact.attempt);
  if (fact.name == "effect_exists") return {"业务效果已发生", "effect exists"};
  if (fact.name == "effect_count") return {"业务效果条数", "number of effects"};
  if (fact.name == "request_arrived") return {"第 " + n + " 次请求已到达服务端", "request of attempt " + n + " arrived"};
  if (fact.name == "response_arrived") return {"第 " + n + " 次响应已到达客户端", "response to attempt " + n + " arrived"};
  if (fact.name == "client_has_receipt") return {"客户端持有回执", "client holds a receipt"};
  if (fact.name == "intent_durable") return {"客户端数据库里有这条意图", "the client's database holds the intent"};
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
  if (fact.name == "intent_durable") {
    return yes ? L10n{"客户端数据库里有这条意图的记录", "the client's database holds a row for the intent"}
               : L10n{"客户端数据库里没有这条意图的记录", "the client's database holds no row for the intent"};
  }
  return {fact.name, fact.name};
}

}  // namespace idemlab
