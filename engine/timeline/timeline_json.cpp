#include "engine/timeline/timeline_json.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/timeline/describe.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

json opt(const std::optional<std::string>& s) { return s ? json(*s) : json(nullptr); }

const char* fate_name(Message::Fate f) {
  switch (f) {
    case Message::Fate::InFlight: return "in_flight";
    case Message::Fate::Delivered: return "delivered";
    case Message::Fate::Dropped: return "dropped";
  }
  return "?";
}

json truth_json(const Run& run, const Step& s) {
  json effects = json::object(), by_intent = json::object();
  for (const IntentRow& r : s.snap.intents) by_intent[r.intent] = 0;
  for (const DeliveryRow& d : s.snap.deliveries) {
    effects[d.op_key] = effects.value(d.op_key, 0) + 1;
    auto owner = run.key_owner.find(d.op_key);
    std::string intent = owner == run.key_owner.end() ? "?" : owner->second;
    by_intent[intent] = by_intent.value(intent, 0) + 1;
  }
  json out = json::object();
  put(out, "effects", std::move(effects));
  put(out, "by_intent", std::move(by_intent));
  put(out, "total", s.snap.deliveries.size());
  return out;
}

// The provider's inbox as the observer sees it, by intent (notify != none only).
json emails_truth(const Run& run, const Step& s) {
  json by_intent = json::object();
  for (const IntentRow& r : s.snap.intents) by_intent[r.intent] = 0;
  for (const EmailRow& e : s.snap.emails) {
    auto owner = run.key_owner.find(e.op_key);
    std::string intent = owner == run.key_owner.end() ? "?" : owner->second;
    by_intent[intent] = by_intent.value(intent, 0) + 1;
  }
  return {{"by_intent", by_intent}, {"total", s.snap.emails.size()}};
}

// The invariants as of one step (engine/invariants/): a flag per invariant, true while
// it is broken there (end-invariants only at the last step of a settled run), and the
// violations behind the flags. The notification ones only where the service notifies,
// concurrent_execution only where it takes time to process a request.
json invariants_json(const Run& run, const RunVerdict& verdict, int index) {
  std::vector<Violation> broken = verdict.at_step(run, index);
  json out = json::object(), violations = json::array();
  for (const InvariantInfo& inv : invariant_table()) {
    bool notification = inv.id == Invariant::LostNotification || inv.id == Invariant::DuplicateNotification;
    if (notification && !run.mail) continue;
    if (inv.id == Invariant::ConcurrentExecution && !run.processing) continue;
    bool flag = std::any_of(broken.begin(), broken.end(), [&](const Violation& v) { return v.invariant == inv.id; });
    put(out, inv.name, flag);
  }
  for (const Violation& v : broken) violations.push_back(v.to_json());
  put(out, "violations", std::move(violations));
  return out;
}

// The fields a row of either service table (KeyRow, DeliveryRow) has.
template <typename Row>
json service_row(const Row& r, bool changed) {
  json o = json::object();
  put(o, "op_key", r.op_key);
  put(o, "fingerprint", r.fingerprint);
  put(o, "receipt", r.receipt);
  put(o, "created_at", r.created_at);
  put(o, "changed", changed);
  return o;
}

// A row is changed when the previous step had no row with its key, or a different one.
template <typename Row, typename SameKey>
bool changed_row(const Rows<Row>& before, const Row& row, SameKey same_key) {
  for (const Row& p : before) {
    if (same_key(p)) return !(p == row);
  }
  return true;
}

// The event's part of the client's record that a front end may draw on besides the
// text: the error kind of a record, the retry budget of a send, the key a cancel names.
json event_json(const Step& s, const Run& run) {
  const Event& e = s.event;
  json out = json::object();
  put(out, "kind", e.name());
  put(out, "side", to_string(e.side));
  put(out, "message", e.message >= 0 ? json(e.message) : json(nullptr));
  put(out, "intent", e.intent.empty() ? json(nullptr) : json(e.intent));
  put(out, "text", describe(s, run).to_json());
  if (json m = mark_json(event_row(e.type).glyph, run.credits); !m.empty()) put(out, "mark", std::move(m));
  if (e.side != Side::Client) return out;
  const LocalView& l = e.local;
  if (l.error) put(out, "error", *l.error);
  if (l.cancels) put(out, "cancels", *l.cancels);
  json retry = json::object();
  if (l.send) put(retry, "send", *l.send);
  if (l.budget) put(retry, "budget", *l.budget);
  if (l.layers) put(retry, "layers", layers_json(*l.layers));
  if (l.retried_by) put(retry, "retried_by", *l.retried_by);
  if (l.backoff_ms) put(retry, "backoff_ms", *l.backoff_ms);
  if (!retry.empty()) put(out, "retry", std::move(retry));
  return out;
}

// The client's side of a step: its durable rows (each marked changed when the previous
// step had no such row, or a different one), earlier versions, and what it waits for.
json client_json(const Step& s, const Step* prev) {
  json intents = json::array();
  json status = json::object();
  for (const IntentRow& r : s.snap.intents) {
    bool changed = !prev || changed_row(prev->snap.intents, r, [&](const IntentRow& p) { return p.intent == r.intent; });
    json o = json::object();
    put(o, "intent", r.intent);
    put(o, "op_key", r.op_key);
    put(o, "fingerprint", r.fingerprint);
    put(o, "status", r.status);
    put(o, "receipt", opt(r.receipt));
    put(o, "attempts", r.attempts);
    put(o, "changed", changed);
    intents.push_back(std::move(o));
    status[r.intent] = r.status;
  }
  json earlier = json::array();
  for (const EarlierVersionRow& r : s.snap.earlier) {
    bool changed = !prev || changed_row(prev->snap.earlier, r, [&](const EarlierVersionRow& p) {
      return p.intent == r.intent && p.version == r.version;
    });
    json o = json::object();
    put(o, "intent", r.intent);
    put(o, "version", r.version);
    put(o, "op_key", r.op_key);
    put(o, "fingerprint", r.fingerprint);
    put(o, "status", r.status);
    put(o, "receipt", opt(r.receipt));
    put(o, "changed", changed);
    earlier.push_back(std::move(o));
  }
  json waiting = json::array();
  for (const Waiting& w : s.snap.waiting) {
    json o = json::object();
    put(o, "intent", w.intent);
    put(o, "for", to_string(w.for_kind));
    put(o, "attempt", w.n);
    put(o, "deadline", w.deadline);
    waiting.push_back(std::move(o));
  }
  // Built field by field and moved in: a brace-initialised object would copy every
  // array above (nlohmann's initializer lists hold their values by copy).
  json client = json::object(), client_volatile = json::object();
  put(client_volatile, "waiting", std::move(waiting));
  put(client, "alive", s.snap.client_alive);
  put(client, "status", std::move(status));
  put(client, "intents", std::move(intents));
  if (!earlier.empty()) put(client, "earlier_versions", std::move(earlier));
  put(client, "volatile", std::move(client_volatile));
  return client;
}

// The service's side of a step: its dedup records, effects and requests in progress, and
// where it notifies through an outbox, the outbox and what its relay waits for.
json service_json(const Run& run, const Step& s, const Step* prev) {
  json keys = json::array();
  for (const KeyRow& k : s.snap.keys) {
    bool changed = !prev || changed_row(prev->snap.keys, k, [&](const KeyRow& p) { return p.op_key == k.op_key; });
    json o = service_row(k, changed);
    if (k.status != 201) put(o, "status", k.status);  // a stored refusal (stores_refusal)
    keys.push_back(std::move(o));
  }
  json deliveries = json::array();
  for (const DeliveryRow& d : s.snap.deliveries) {
    bool changed = !prev || changed_row(prev->snap.deliveries, d, [&](const DeliveryRow& p) { return p.id == d.id; });
    json o = service_row(d, changed);
    put(o, "id", d.id);
    deliveries.push_back(std::move(o));
  }
  json in_progress = json::array();
  for (const InProgress& p : s.snap.in_progress) {
    json o = json::object();
    put(o, "op_key", p.op_key);
    put(o, "fingerprint", p.fingerprint);
    put(o, "until", p.until);
    in_progress.push_back(std::move(o));
  }
  json service = json::object(), service_volatile = json::object();
  put(service_volatile, "in_progress", std::move(in_progress));
  put(service, "alive", s.snap.service_alive);
  put(service, "keys", std::move(keys));
  put(service, "deliveries", std::move(deliveries));
  put(service, "volatile", std::move(service_volatile));
  if (run.outbox) {
    json outbox = json::array();
    for (const OutboxRow& o : s.snap.outbox) {
      bool changed = !prev || changed_row(prev->snap.outbox, o, [&](const OutboxRow& p) { return p.id == o.id; });
      outbox.push_back({{"id", o.id}, {"email_key", o.email_key}, {"op_key", o.op_key}, {"receipt", o.receipt},
                        {"status", o.status}, {"attempts", o.attempts}, {"created_at", o.created_at},
                        {"changed", changed}});
    }
    json waiting = json::array();
    for (const RelayWait& w : s.snap.relay_waiting) {
      waiting.push_back({{"email_key", w.email_key}, {"intent", w.intent}, {"send", w.n}, {"deadline", w.deadline}});
    }
    service["outbox"] = std::move(outbox);
    service["volatile"]["relay_waiting"] = std::move(waiting);
  }
  return service;
}

json network_json(const Step& s) {
  json network = json::object();
  auto ids = [](const Rows<int>& list) {
    json out = json::array();
    for (int id : list) out.push_back(id);
    return out;
  };
  put(network, "in_flight", ids(s.snap.in_flight));
  put(network, "delivered", ids(s.snap.delivered));
  put(network, "dropped", ids(s.snap.dropped));
  return network;
}

// The provider's inbox at a step (where the service notifies).
json provider_json(const Run& run, const Step& s, const Step* prev) {
  json emails = json::array();
  for (const EmailRow& e : s.snap.emails) {
    bool changed = !prev || changed_row(prev->snap.emails, e, [&](const EmailRow& p) { return p.id == e.id; });
    emails.push_back({{"id", e.id}, {"email_key", e.email_key}, {"op_key", e.op_key}, {"receipt", e.receipt},
                      {"received_at", e.received_at}, {"changed", changed}});
  }
  // What the provider's rows count (provider.effect): the page words its lane by it.
  return {{"effect", run.credits ? "credit" : "email"}, {"emails", std::move(emails)}};
}

}  // namespace

// How the diagram draws the event (its row's glyph, engine/sim/events.hpp), empty for the
// plain dot the diagram draws by default: the shape, its classes and the label's words
// (for a credit, the credit's).
json mark_json(const EventGlyph& g, bool credits) {
  json out = json::object();
  if (std::string(g.shape) == "dot") return out;
  put(out, "shape", g.shape);
  if (*g.look) put(out, "look", g.look);
  if (*g.tone) put(out, "tone", g.tone);
  const L10n& word = credits && !g.credit_word.en.empty() ? g.credit_word : g.word;
  if (!word.en.empty()) put(out, "label", word.to_json());
  return out;
}

json step_json(const Run& run, int index, const RunVerdict& verdict) {
  const Step& s = run.steps.at(index);
  const Step* prev = index > 0 ? &run.steps[index - 1] : nullptr;
  json out = json::object();
  put(out, "i", s.i);
  put(out, "t", s.t);
  put(out, "event", event_json(s, run));
  put(out, "client", client_json(s, prev));
  put(out, "service", service_json(run, s, prev));
  put(out, "network", network_json(s));
  put(out, "truth", truth_json(run, s));
  put(out, "invariants", invariants_json(run, verdict, index));
  if (run.mail) {
    out["provider"] = provider_json(run, s, prev);
    out["truth"]["emails"] = emails_truth(run, s);
  }
  return out;
}

json messages_json(const Run& run) {
  // Why each dropped message was lost: the reason of the drop event that lost it.
  std::map<int, std::string> drop_reason;
  for (const Step& st : run.steps) {
    if (st.event.type == EventKind::Drop && st.event.local.reason) drop_reason[st.event.message] = *st.event.local.reason;
  }
  json messages = json::array();
  for (const Message& m : run.messages) {
    messages.push_back({{"id", m.id}, {"kind", to_string(m.kind)}, {"from", to_string(m.from)},
                        {"to", to_string(m.to)}, {"intent", m.intent}, {"attempt", m.n},
                        {"op_key", m.op_key}, {"sent_at", m.sent_at}, {"sent_step", m.sent_step},
                        {"fate", fate_name(m.fate)},
                        {"end_at", m.fate == Message::Fate::InFlight ? json(nullptr) : json(m.end_at)},
                        {"end_step", m.end_step >= 0 ? json(m.end_step) : json(nullptr)}});
    if (!m.email_key.empty()) messages.back()["email_key"] = m.email_key;
    auto why = drop_reason.find(m.id);
    if (m.fate == Message::Fate::Dropped && why != drop_reason.end()) messages.back()["drop_reason"] = why->second;
  }
  return messages;
}

json targets_json(const Run& run, const FaultPlan& plan, std::int64_t restart_after_ms) {
  // Each id once: the plan's faults (with their restart delays) and those that fired.
  std::map<std::string, std::int64_t> planned_restart;
  for (const Fault& g : plan.faults) planned_restart[g.id()] = g.restart_after_ms;
  std::set<std::string> fired_ids;
  for (const Fault& g : run.fired) fired_ids.insert(g.id());
  std::set<std::string> seen;
  json out = json::array();
  for (std::size_t i = 0; i < run.points.size(); ++i) {
    Fault f = run.points[i];
    const std::string id = f.id();
    if (!seen.insert(id).second) continue;
    const Run::PointWhere& where = run.point_where[i];
    auto in_plan = planned_restart.find(id);
    bool planned = in_plan != planned_restart.end();
    f.restart_after_ms = planned ? in_plan->second : restart_after_ms;
    bool fired = fired_ids.count(id) > 0;
    const char* side = f.kind == Fault::Kind::Drop ? "network"
                       : f.kind == Fault::Kind::CrashClient || f.kind == Fault::Kind::ConnectError || f.kind == Fault::Kind::LoseRow
                           ? "client"
                                                                                                    : "service";
    json o = json::object();
    put(o, "id", id);
    put(o, "fault", write_fault(f));
    put(o, "side", side);
    put(o, "step", where.step);
    put(o, "t", where.t);
    put(o, "message", where.message >= 0 ? json(where.message) : json(nullptr));
    put(o, "text", f.describe(run.credits).to_json());
    put(o, "planned", planned);
    put(o, "fired", fired);
    out.push_back(std::move(o));
  }
  return out;
}

}  // namespace idemlab
