// Structure checks for lesson files: every problem names the JSON Pointer and the reason.
#include <algorithm>
#include <set>

#include "engine/lesson/lesson.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

std::string join(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

// JSON Pointer escaping (RFC 6901).
std::string escape(const std::string& key) {
  std::string out;
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  void problem(const std::string& path, const std::string& reason) {
    problems_.push_back({file_, path, reason});
  }
  std::vector<LessonProblem>& problems() { return problems_; }

  static std::string at(const std::string& path, const std::string& key) { return path + "/" + escape(key); }
  static std::string at(const std::string& path, std::size_t i) { return path + "/" + std::to_string(i); }

  bool object(const json& j, const std::string& path, const std::vector<std::string>& allowed) {
    if (!j.is_object()) {
      problem(path, "expected an object");
      return false;
    }
    for (const auto& [key, value] : j.items()) {
      (void)value;
      if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
        problem(at(path, key), "unknown field '" + key + "'; allowed: " + join(allowed));
      }
    }
    return true;
  }

  const json* field(const json& j, const std::string& path, const std::string& key, bool required) {
    if (!j.is_object()) return nullptr;
    auto it = j.find(key);
    if (it == j.end()) {
      if (required) problem(at(path, key), "missing required field '" + key + "'");
      return nullptr;
    }
    return &*it;
  }

  std::string string(const json& j, const std::string& path, const std::string& key, bool required,
                     const std::string& fallback = "") {
    const json* v = field(j, path, key, required);
    if (!v) return fallback;
    if (!v->is_string() || v->get<std::string>().empty()) {
      problem(at(path, key), "expected a non-empty string");
      return fallback;
    }
    return v->get<std::string>();
  }

  std::string choice(const json& j, const std::string& path, const std::string& key,
                     const std::vector<std::string>& allowed, bool required, const std::string& fallback) {
    std::string v = string(j, path, key, required, fallback);
    if (std::find(allowed.begin(), allowed.end(), v) == allowed.end()) {
      problem(at(path, key), "unknown value '" + v + "'; known: " + join(allowed));
      return fallback;
    }
    return v;
  }

  long long integer(const json& j, const std::string& path, const std::string& key, bool required,
                    long long fallback, long long min, long long max) {
    const json* v = field(j, path, key, required);
    if (!v) return fallback;
    if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > max) {
      problem(at(path, key), "expected an integer from " + std::to_string(min) + " to " + std::to_string(max));
      return fallback;
    }
    return v->get<long long>();
  }

  bool boolean(const json& j, const std::string& path, const std::string& key, bool fallback) {
    const json* v = field(j, path, key, false);
    if (!v) return fallback;
    if (!v->is_boolean()) {
      problem(at(path, key), "expected true or false");
      return fallback;
    }
    return v->get<bool>();
  }

  L10n text(const json& j, const std::string& path, const std::string& key, bool required) {
    const json* v = field(j, path, key, required);
    if (!v) return {};
    return text_value(*v, at(path, key));
  }

  L10n text_value(const json& v, const std::string& path) {
    L10n out;
    if (!v.is_object()) {
      problem(path, "expected an object with \"zh-CN\" and \"en\" texts");
      return out;
    }
    for (const auto& [lang, value] : v.items()) {
      if (lang != "zh-CN" && lang != "en") problem(at(path, lang), "unknown language '" + lang + "'; known: zh-CN, en");
      else if (!value.is_string() || value.get<std::string>().empty()) problem(at(path, lang), "expected a non-empty string");
    }
    if (!v.contains("zh-CN")) problem(path, "missing language 'zh-CN'");
    if (!v.contains("en")) problem(path, "missing language 'en'");
    if (v.contains("zh-CN") && v["zh-CN"].is_string()) out.zh = v["zh-CN"].get<std::string>();
    if (v.contains("en") && v["en"].is_string()) out.en = v["en"].get<std::string>();
    return out;
  }

  const json* array(const json& j, const std::string& path, const std::string& key, bool required) {
    const json* v = field(j, path, key, required);
    if (v && !v->is_array()) {
      problem(at(path, key), "expected an array");
      return nullptr;
    }
    return v;
  }

 private:
  std::string file_;
  std::vector<LessonProblem> problems_;
};

constexpr long long kMaxTimeMs = 600000;

const std::vector<std::string> kActions = {"deliver", "crash_client", "restart_client", "reconcile",
                                           "resend_new_key", "resend_changed_payload", "resend_same_key",
                                           "mark_failed", "cancel"};

// What a choose question's option may do next: every script action but `deliver` (the
// intent is already delivered), and `wait` (do nothing: the intent keeps its status).
std::vector<std::string> choice_actions() {
  std::vector<std::string> out;
  for (const std::string& a : kActions) {
    if (a != "deliver") out.push_back(a);
  }
  out.push_back("wait");
  return out;
}

ActionKind action_kind(const std::string& s) {
  if (s == "crash_client") return ActionKind::CrashClient;
  if (s == "restart_client") return ActionKind::RestartClient;
  if (s == "reconcile") return ActionKind::Reconcile;
  if (s == "resend_new_key") return ActionKind::ResendNewKey;
  if (s == "resend_changed_payload") return ActionKind::ResendChangedPayload;
  if (s == "resend_same_key") return ActionKind::ResendSameKey;
  if (s == "mark_failed") return ActionKind::MarkFailed;
  if (s == "cancel") return ActionKind::Cancel;
  return ActionKind::Deliver;
}

const std::vector<std::string> kClientPoints = {"after_persist", "after_send", "before_record"};
const std::vector<std::string> kServicePoints = {"before_commit", "between_writes", "after_commit", "after_email_send"};
const std::vector<std::string> kMessages = {"request", "response", "lookup", "lookup_reply", "email", "email_ack"};

// A list of crash point names at path/key, each parsed into `out`.
template <typename Point>
void read_points(Reader& r, const json& j, const std::string& path, const std::string& key,
                 const std::vector<std::string>& names, std::vector<Point>& out) {
  const json* points = r.array(j, path, key, false);
  if (!points) return;
  for (std::size_t i = 0; i < points->size(); ++i) {
    Point p;
    const json& v = (*points)[i];
    if (!v.is_string() || !parse(v.get<std::string>(), p)) {
      r.problem(Reader::at(Reader::at(path, key), i), "unknown injection point; known: " + join(names));
    } else {
      out.push_back(p);
    }
  }
}

bool needs_intent(ActionKind k) { return k != ActionKind::CrashClient && k != ActionKind::RestartClient; }
bool needs_payload(ActionKind k) { return k == ActionKind::Deliver || k == ActionKind::ResendChangedPayload; }

Action read_action(Reader& r, const json& a, const std::string& path, bool timed) {
  std::vector<std::string> allowed = {"do", "intent", "payload"};
  if (timed) allowed.push_back("at");
  Action out;
  if (!r.object(a, path, allowed)) return out;
  out.kind = action_kind(r.choice(a, path, "do", kActions, true, "deliver"));
  if (timed) out.at = r.integer(a, path, "at", true, 0, 0, kMaxTimeMs);
  bool intent_required = out.kind == ActionKind::Deliver || out.kind == ActionKind::Cancel;
  if (needs_intent(out.kind)) out.intent = r.string(a, path, "intent", intent_required);
  if (needs_payload(out.kind)) out.payload = r.string(a, path, "payload", true);
  return out;
}

Fault read_fault(Reader& r, const json& f, const std::string& path, const std::string& default_intent) {
  Fault out;
  out.intent = default_intent;
  if (!r.object(f, path, {"drop", "crash_client", "crash_service", "intent", "attempt", "restart_after_ms"})) return out;
  bool drop = f.contains("drop"), crash = f.contains("crash_client"), crash_service = f.contains("crash_service");
  if (drop + crash + crash_service != 1) {
    r.problem(path, "a fault is one of {\"drop\": message}, {\"crash_client\": point} or {\"crash_service\": point}");
    return out;
  }
  if (drop) {
    out.kind = Fault::Kind::Drop;
    std::string m = r.choice(f, path, "drop", kMessages, true, "request");
    parse(m, out.message);
  } else if (crash) {
    out.kind = Fault::Kind::CrashClient;
    std::string p = r.choice(f, path, "crash_client", kClientPoints, true, "after_send");
    parse(p, out.point);
  } else {
    out.kind = Fault::Kind::CrashService;
    std::string p = r.choice(f, path, "crash_service", kServicePoints, true, "after_commit");
    parse(p, out.service_point);
  }
  if (!drop) out.restart_after_ms = r.integer(f, path, "restart_after_ms", false, 50, 1, kMaxTimeMs);
  out.intent = r.string(f, path, "intent", false, default_intent);
  out.n = static_cast<int>(r.integer(f, path, "attempt", false, 1, 1, 100));
  return out;
}

// `retry_layers` (innermost first): they set the budget, so max_attempts and
// retry_after_ms are refused beside them.
void read_retry_layers(Reader& r, const json& c, const std::string& path, ClientPolicy& policy) {
  const json* layers = r.array(c, path, "retry_layers", false);
  if (!layers) return;
  std::string lp = Reader::at(path, "retry_layers");
  if (layers->empty() || layers->size() > 5) r.problem(lp, "expected 1 to 5 layers, innermost first");
  std::set<std::string> names;
  for (std::size_t i = 0; i < layers->size(); ++i) {
    std::string p = Reader::at(lp, i);
    const json& l = (*layers)[i];
    if (!r.object(l, p, {"layer", "attempts"})) continue;
    RetryLayer layer;
    layer.layer = r.string(l, p, "layer", true);
    layer.attempts = static_cast<int>(r.integer(l, p, "attempts", true, 1, 1, 20));
    if (!layer.layer.empty() && !names.insert(layer.layer).second) {
      r.problem(Reader::at(p, "layer"), "layer '" + layer.layer + "' is named twice");
    }
    policy.retry_layers.push_back(layer);
  }
  if (c.contains("max_attempts")) {
    r.problem(Reader::at(path, "max_attempts"),
              "retry_layers set the budget (the product of their attempts): give max_attempts or retry_layers, not both");
  }
  if (c.contains("retry_after_ms")) {
    r.problem(Reader::at(path, "retry_after_ms"),
              "with retry_layers each timeout is retried by its layer: give retry_after_ms or retry_layers, not both");
  }
}

void read_scenario(Reader& r, const json& j, const std::string& path, Lesson& lesson,
                   std::set<std::string>& intents) {
  Scenario& sc = lesson.scenario;
  if (!r.object(j, path, {"seed", "client", "service", "provider", "timing", "script", "faults", "fault_space"})) return;
  sc.seed = static_cast<std::uint64_t>(r.integer(j, path, "seed", false, 1, 0, 1LL << 53));

  if (const json* c = r.field(j, path, "client", false)) {
    std::string cp = Reader::at(path, "client");
    if (r.object(*c, cp, {"key_scope", "on_timeout", "recovery", "persist", "recovery_scan", "max_attempts",
                          "retry_after_ms", "on_not_found", "deadline_ms", "backoff_ms", "retry_layers"})) {
      sc.client.persist = r.choice(*c, cp, "persist", {"before_send", "after_send"}, false, "before_send") == "after_send"
                              ? PersistWhen::AfterSend : PersistWhen::BeforeSend;
      sc.client.recovery_scan = r.choice(*c, cp, "recovery_scan", {"unknown", "unknown_and_pending"}, false,
                                         "unknown") == "unknown_and_pending"
                                    ? RecoveryScan::UnknownAndStalePending : RecoveryScan::UnknownOnly;
      sc.client.key_scope = r.choice(*c, cp, "key_scope", {"intent", "attempt"}, false, "intent") == "attempt"
                                ? KeyScope::PerAttempt : KeyScope::PerIntent;
      sc.client.on_timeout = r.choice(*c, cp, "on_timeout", {"record_unknown", "mark_failed_and_resend"}, false,
                                      "record_unknown") == "mark_failed_and_resend"
                                 ? OnTimeout::MarkFailedAndResend : OnTimeout::RecordUnknown;
      sc.client.recovery = r.choice(*c, cp, "recovery", {"lookup", "resend"}, false, "lookup") == "resend"
                               ? Recovery::Resend : Recovery::Lookup;
      sc.client.max_attempts = static_cast<int>(r.integer(*c, cp, "max_attempts", false, 3, 1, 20));
      if (c->contains("retry_after_ms")) sc.client.retry_after_ms = r.integer(*c, cp, "retry_after_ms", true, 100, 1, kMaxTimeMs);
      sc.client.on_not_found = r.choice(*c, cp, "on_not_found", {"resend", "retry_lookup"}, false, "resend") == "retry_lookup"
                                   ? OnNotFound::RetryLookup : OnNotFound::Resend;
      if (c->contains("deadline_ms")) sc.client.deadline_ms = r.integer(*c, cp, "deadline_ms", true, 1000, 1, kMaxTimeMs);
      if (c->contains("backoff_ms")) sc.client.backoff_ms = r.integer(*c, cp, "backoff_ms", true, 100, 1, kMaxTimeMs);
      read_retry_layers(r, *c, cp, sc.client);
    }
  }
  if (const json* s = r.field(j, path, "service", false)) {
    std::string sp = Reader::at(path, "service");
    if (r.object(*s, sp, {"lookup", "ordering", "dedup", "lookup_lag_ms", "retention_ms", "processing_ms", "notify"})) {
      ServiceContract& svc = sc.service;
      svc.lookup = r.boolean(*s, sp, "lookup", true);
      std::string ordering = r.choice(*s, sp, "ordering", {"atomic", "key_first", "effect_first"}, false, "atomic");
      svc.ordering = ordering == "key_first" ? Ordering::KeyFirst
                     : ordering == "effect_first" ? Ordering::EffectFirst : Ordering::Atomic;
      svc.dedup = r.choice(*s, sp, "dedup", {"key", "fingerprint"}, false, "key") == "fingerprint"
                      ? Dedup::Fingerprint : Dedup::Key;
      svc.lookup_lag_ms = r.integer(*s, sp, "lookup_lag_ms", false, 0, 0, kMaxTimeMs);
      if (s->contains("retention_ms")) svc.retention_ms = r.integer(*s, sp, "retention_ms", true, 1, 1, kMaxTimeMs);
      svc.processing_ms = r.integer(*s, sp, "processing_ms", false, 0, 0, kMaxTimeMs);
      std::string notify = r.choice(*s, sp, "notify", {"none", "direct", "outbox"}, false, "none");
      svc.notify = notify == "direct" ? Notify::Direct : notify == "outbox" ? Notify::Outbox : Notify::None;
    }
  }
  if (const json* p = r.field(j, path, "provider", false)) {
    std::string pp = Reader::at(path, "provider");
    if (r.object(*p, pp, {"dedup"})) {
      sc.provider.dedup_by_key = r.choice(*p, pp, "dedup", {"key", "none"}, false, "key") == "key";
    }
  }
  if (const json* t = r.field(j, path, "timing", false)) {
    std::string tp = Reader::at(path, "timing");
    if (r.object(*t, tp, {"latency_ms", "timeout_ms"})) {
      sc.timing.latency_ms = r.integer(*t, tp, "latency_ms", false, 10, 2, 60000);
      sc.timing.timeout_ms = r.integer(*t, tp, "timeout_ms", false, 100, 1, kMaxTimeMs);
    }
  }
  if (const json* script = r.array(j, path, "script", true)) {
    std::string sp = Reader::at(path, "script");
    for (std::size_t i = 0; i < script->size(); ++i) {
      Action a = read_action(r, (*script)[i], Reader::at(sp, i), true);
      if (a.kind == ActionKind::Deliver && !a.intent.empty()) {
        if (!intents.insert(a.intent).second) r.problem(Reader::at(Reader::at(sp, i), "intent"), "intent '" + a.intent + "' is delivered twice");
      }
      sc.script.push_back(a);
    }
    if (intents.empty()) r.problem(sp, "the script delivers nothing: add {\"do\": \"deliver\", ...}");
    // A cancel of a delivered intent makes the intent `<intent>-cancel`, which the other
    // actions, faults and facts may name.
    std::set<std::string> known = intents;
    for (std::size_t i = 0; i < sc.script.size(); ++i) {
      const Action& a = sc.script[i];
      if (a.kind != ActionKind::Cancel || !intents.count(a.intent)) continue;
      std::string name = a.intent + "-cancel";
      if (intents.count(name)) {
        r.problem(Reader::at(Reader::at(sp, i), "intent"), "the cancel of '" + a.intent + "' is the intent '" + name +
                                                               "', which the script also delivers; rename that one");
      }
      known.insert(name);
    }
    for (std::size_t i = 0; i < sc.script.size(); ++i) {
      const Action& a = sc.script[i];
      const std::set<std::string>& names = a.kind == ActionKind::Cancel ? intents : known;
      if (!a.intent.empty() && !names.count(a.intent)) {
        r.problem(Reader::at(Reader::at(sp, i), "intent"), "unknown intent '" + a.intent + "'; delivered: " +
                                                               join({intents.begin(), intents.end()}));
      }
    }
    intents = known;
  }
  std::string first = first_intent(sc);
  if (const json* faults = r.array(j, path, "faults", false)) {
    std::string fp = Reader::at(path, "faults");
    for (std::size_t i = 0; i < faults->size(); ++i) {
      Fault f = read_fault(r, (*faults)[i], Reader::at(fp, i), first);
      if (!intents.empty() && !intents.count(f.intent)) r.problem(Reader::at(Reader::at(fp, i), "intent"), "unknown intent '" + f.intent + "'");
      sc.faults.faults.push_back(f);
    }
  }
  if (const json* space = r.field(j, path, "fault_space", false)) {
    std::string sp = Reader::at(path, "fault_space");
    if (r.object(*space, sp, {"lose_any_one_message", "client_crash_points", "service_crash_points",
                              "restart_after_ms"})) {
      sc.space.lose_any_one_message = r.boolean(*space, sp, "lose_any_one_message", true);
      sc.space.restart_after_ms = r.integer(*space, sp, "restart_after_ms", false, 50, 1, kMaxTimeMs);
      read_points(r, *space, sp, "client_crash_points", kClientPoints, sc.space.client_crash_points);
      read_points(r, *space, sp, "service_crash_points", kServicePoints, sc.space.service_crash_points);
    }
  }
}

Side read_side(Reader& r, const json& j, const std::string& path, const std::string& key) {
  return r.choice(j, path, key, {"client", "service"}, true, "client") == "service" ? Side::Service : Side::Client;
}

// Options of a predict or concept question ({id, label}), or of a choose question
// ({id, label, do, payload?}: the action runs on `intent` right after the moment).
std::vector<Option> read_options(Reader& r, const json& q, const std::string& path,
                                 const std::string* choose_intent = nullptr) {
  std::vector<Option> out;
  const json* opts = r.array(q, path, "options", true);
  if (!opts) return out;
  std::string op = Reader::at(path, "options");
  if (opts->size() < 2) r.problem(op, "a question needs at least two options");
  std::set<std::string> ids;
  for (std::size_t i = 0; i < opts->size(); ++i) {
    std::string p = Reader::at(op, i);
    const json& o = (*opts)[i];
    Option opt;
    std::vector<std::string> fields = {"id", "label"};
    if (choose_intent) fields.insert(fields.end(), {"do", "payload"});
    if (r.object(o, p, fields)) {
      opt.id = r.string(o, p, "id", true);
      opt.label = r.text(o, p, "label", true);
      if (choose_intent) {
        opt.does = r.choice(o, p, "do", choice_actions(), true, "wait");
        if (opt.does != "wait") {
          Action a;
          a.kind = action_kind(opt.does);
          if (needs_intent(a.kind)) a.intent = *choose_intent;
          if (needs_payload(a.kind)) a.payload = r.string(o, p, "payload", true);
          opt.action = a;
        }
      }
      if (!ids.insert(opt.id).second) r.problem(Reader::at(p, "id"), "option id '" + opt.id + "' is used twice");
    }
    out.push_back(opt);
  }
  return out;
}

// Whether the script delivers `intent`.
bool delivers(const Scenario& sc, const std::string& intent) {
  for (const Action& a : sc.script) {
    if (a.kind == ActionKind::Deliver && a.intent == intent) return true;
  }
  return false;
}

template <typename T, typename F>
void check_ref(Reader& r, const std::string& path, const std::string& what, const std::string& id,
               const std::vector<T>& items, F name_of) {
  std::vector<std::string> names;
  for (const T& t : items) {
    if (name_of(t) == id) return;
    names.push_back(name_of(t));
  }
  r.problem(path, "unknown " + what + " '" + id + "'; known: " + join(names));
}

Question read_question(Reader& r, const json& q, const std::string& path, const Lesson& lesson) {
  Question out;
  if (!q.is_object()) {
    r.problem(path, "expected an object");
    return out;
  }
  out.kind = r.choice(q, path, "kind", {"knowledge", "predict", "choose", "table", "concept"}, true, "concept");
  std::vector<std::string> allowed = {"id", "kind", "moment", "prompt"};
  if (out.kind == "knowledge") allowed.insert(allowed.end(), {"side", "fact"});
  if (out.kind == "predict") allowed.insert(allowed.end(), {"if", "ask", "options"});
  if (out.kind == "choose") allowed.insert(allowed.end(), {"intent", "options"});
  if (out.kind == "concept") allowed.insert(allowed.end(), {"options", "answer", "explanation"});
  if (out.kind == "table") allowed.insert(allowed.end(), {"moments", "sides", "facts"});
  r.object(q, path, allowed);
  out.id = r.string(q, path, "id", true);
  out.prompt = r.text(q, path, "prompt", true);
  bool needs_moment = out.kind == "knowledge" || out.kind == "predict" || out.kind == "choose";
  out.moment = r.string(q, path, "moment", needs_moment);
  auto moment_name = [](const Moment& m) { return m.id; };
  auto fact_name = [](const FactRef& f) { return f.id; };
  if (!out.moment.empty()) check_ref(r, Reader::at(path, "moment"), "moment", out.moment, lesson.moments, moment_name);
  if (out.kind == "knowledge") {
    out.side = read_side(r, q, path, "side");
    out.fact = r.string(q, path, "fact", true);
    if (!out.fact.empty()) {
      check_ref(r, Reader::at(path, "fact"), "fact", out.fact, lesson.facts, fact_name);
      const FactRef* f = lesson.fact(out.fact);
      if (f && find_fact(f->name) && !find_fact(f->name)->boolean) {
        r.problem(Reader::at(path, "fact"), "fact '" + out.fact + "' is a count; a knowledge question needs a true/false fact");
      }
    }
  } else if (out.kind == "predict") {
    if (const json* fork = r.field(q, path, "if", false)) {
      Action a = read_action(r, *fork, Reader::at(path, "if"), false);
      if (!a.intent.empty() && !lesson.scenario.script.empty() && !delivers(lesson.scenario, a.intent)) {
        r.problem(Reader::at(Reader::at(path, "if"), "intent"), "unknown intent '" + a.intent + "'");
      }
      out.fork = a;
    }
    out.ask = r.choice(q, path, "ask", {"effects", "deliveries", "final_status", "next_status", "keys_used", "requests", "emails"}, true, "effects");
    out.options = read_options(r, q, path);
  } else if (out.kind == "choose") {
    out.intent = r.string(q, path, "intent", false, first_intent(lesson.scenario));
    if (q.contains("intent") && !out.intent.empty() && !delivers(lesson.scenario, out.intent)) {
      r.problem(Reader::at(path, "intent"), "unknown intent '" + out.intent + "'");
    }
    out.options = read_options(r, q, path, &out.intent);
  } else if (out.kind == "concept") {
    out.options = read_options(r, q, path);
    out.answer = r.string(q, path, "answer", true);
    out.explanation = r.text(q, path, "explanation", true);
    if (!out.answer.empty()) check_ref(r, Reader::at(path, "answer"), "option", out.answer, out.options, [](const Option& o) { return o.id; });
  } else if (out.kind == "table") {
    auto list = [&](const std::string& key) {
      std::vector<std::string> v;
      const json* a = r.array(q, path, key, true);
      if (!a) return v;
      if (a->empty()) r.problem(Reader::at(path, key), "expected at least one entry");
      for (std::size_t i = 0; i < a->size(); ++i) {
        if (!(*a)[i].is_string()) r.problem(Reader::at(Reader::at(path, key), i), "expected a string");
        else v.push_back((*a)[i].get<std::string>());
      }
      return v;
    };
    out.moments = list("moments");
    for (std::size_t i = 0; i < out.moments.size(); ++i) {
      check_ref(r, Reader::at(Reader::at(path, "moments"), i), "moment", out.moments[i], lesson.moments, moment_name);
    }
    for (const std::string& s : list("sides")) {
      if (s != "client" && s != "service") r.problem(Reader::at(path, "sides"), "unknown side '" + s + "'; known: client, service");
      out.sides.push_back(s == "service" ? Side::Service : Side::Client);
    }
    out.facts = list("facts");
    for (std::size_t i = 0; i < out.facts.size(); ++i) {
      std::string fp = Reader::at(Reader::at(path, "facts"), i);
      check_ref(r, fp, "fact", out.facts[i], lesson.facts, fact_name);
      const FactRef* f = lesson.fact(out.facts[i]);
      if (f && find_fact(f->name) && !find_fact(f->name)->boolean) r.problem(fp, "fact '" + out.facts[i] + "' is a count; table cells need true/false facts");
    }
  }
  return out;
}

// The `compare` block (lessons/README.md, "Side by side"): two policies, each the
// lesson's scenario with some knobs of `client` and `service` replaced. A policy's
// scenario is read by read_scenario itself, from the lesson's `scenario` with the
// overrides written over it, so an override takes exactly the values the scenario's own
// knobs take. Only problems of the overrides are reported, at the override's path; the
// others are the scenario's own, already reported under /scenario.
void read_compare(Reader& r, const json& c, const json* scenario, Lesson& lesson) {
  const std::string path = "/compare";
  Comparison out;
  if (!r.object(c, path, {"policies", "narration", "intent"})) return;
  if (c.contains("narration")) out.narration = r.text(c, path, "narration", true);
  if (c.contains("intent")) {
    out.intent = r.string(c, path, "intent", true);
    bool delivered = false;
    for (const Action& a : lesson.scenario.script) delivered = delivered || (a.kind == ActionKind::Deliver && a.intent == out.intent);
    if (!out.intent.empty() && !delivered) {
      r.problem(Reader::at(path, "intent"), "unknown intent '" + out.intent + "': the counter counts an intent the script delivers");
    }
  }
  const json* policies = r.array(c, path, "policies", true);
  std::string pp = Reader::at(path, "policies");
  if (policies && policies->size() != 2) {
    r.problem(pp, "side by side needs exactly two policies, not " + std::to_string(policies->size()));
  }
  std::set<std::string> ids;
  std::vector<std::string> effective;  // per policy: the client and service it runs, as JSON text
  for (std::size_t i = 0; policies && i < policies->size(); ++i) {
    std::string p = Reader::at(pp, i);
    const json& v = (*policies)[i];
    ComparePolicy policy;
    if (!r.object(v, p, {"id", "label", "client", "service"})) continue;
    policy.id = r.string(v, p, "id", true);
    if (!policy.id.empty() && !ids.insert(policy.id).second) r.problem(Reader::at(p, "id"), "policy id '" + policy.id + "' is used twice");
    policy.label = r.text(v, p, "label", true);
    if (!v.contains("client") && !v.contains("service")) {
      r.problem(p, "a policy replaces at least one knob of \"client\" or \"service\"");
    }
    json merged = scenario && scenario->is_object() ? *scenario : json::object();
    std::vector<std::string> overridden;  // JSON Pointers of the knobs this policy sets
    for (const std::string part : {"client", "service"}) {
      const json* o = r.field(v, p, part, false);
      if (!o) continue;
      if (!o->is_object()) {
        r.problem(Reader::at(p, part), "expected an object");
        continue;
      }
      json& target = merged[part];
      if (!target.is_object()) target = json::object();
      for (const auto& [key, value] : o->items()) {
        target[key] = value;
        overridden.push_back(Reader::at(Reader::at(p, part), key));
      }
      (part == "client" ? policy.client : policy.service) = *o;
    }
    Reader sub(lesson.file);
    Lesson run_as;
    std::set<std::string> intents;
    read_scenario(sub, merged, p, run_as, intents);
    for (const LessonProblem& q : sub.problems()) {
      for (const std::string& o : overridden) {
        if (q.path == o || q.path.rfind(o + "/", 0) == 0) {
          r.problem(q.path, q.reason);
          break;
        }
      }
    }
    policy.scenario = std::move(run_as.scenario);
    effective.push_back(merged["client"].dump() + merged["service"].dump());
    out.policies.push_back(std::move(policy));
  }
  if (effective.size() == 2 && effective[0] == effective[1]) {
    r.problem(Reader::at(pp, 1), "policy '" + out.policies[1].id + "' runs the same client and service as policy '" +
                                     out.policies[0].id + "': replace a knob in one of them");
  }
  lesson.compare = std::move(out);
}

}  // namespace

const FactRef* Lesson::fact(const std::string& id) const {
  for (const FactRef& f : facts) if (f.id == id) return &f;
  return nullptr;
}
const Moment* Lesson::moment(const std::string& id) const {
  for (const Moment& m : moments) if (m.id == id) return &m;
  return nullptr;
}
const Question* Lesson::question(const std::string& id) const {
  for (const Question& q : questions) if (q.id == id) return &q;
  return nullptr;
}

Lesson load_lesson(const std::string& file, const std::string& text) {
  Reader r(file);
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw LessonError({{file, "", std::string("not valid JSON: ") + e.what()}});
  }
  Lesson lesson;
  lesson.file = file;
  if (!r.object(j, "", {"$schema", "id", "level", "title", "summary", "scenario", "facts", "moments", "questions", "self_check",
                        "compare"})) {
    throw LessonError(r.problems());
  }
  lesson.id = r.string(j, "", "id", true);
  if (!lesson.id.empty() && lesson.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
    r.problem("/id", "an id uses only a-z, 0-9 and '-' (it appears in URLs)");
  }
  lesson.level = r.choice(j, "", "level", {"intro", "advanced"}, true, "intro");
  lesson.title = r.text(j, "", "title", true);
  lesson.summary = r.text(j, "", "summary", true);
  std::set<std::string> intents;
  if (const json* sc = r.field(j, "", "scenario", true)) read_scenario(r, *sc, "/scenario", lesson, intents);
  std::string first = first_intent(lesson.scenario);

  if (const json* facts = r.array(j, "", "facts", false)) {
    std::set<std::string> ids;
    for (std::size_t i = 0; i < facts->size(); ++i) {
      std::string p = Reader::at("/facts", i);
      const json& f = (*facts)[i];
      FactRef ref;
      if (!r.object(f, p, {"id", "fact", "intent", "attempt"})) continue;
      ref.name = r.string(f, p, "fact", true);
      const FactInfo* info = find_fact(ref.name);
      if (!ref.name.empty() && !info) {
        std::vector<std::string> names;
        for (const FactInfo& k : fact_vocabulary()) names.push_back(k.name);
        r.problem(Reader::at(p, "fact"), "unknown fact '" + ref.name + "'; known: " + join(names));
      }
      ref.id = r.string(f, p, "id", false, ref.name);
      ref.intent = r.string(f, p, "intent", false, first);
      if (!intents.empty() && !intents.count(ref.intent)) r.problem(Reader::at(p, "intent"), "unknown intent '" + ref.intent + "'");
      ref.attempt = static_cast<int>(r.integer(f, p, "attempt", false, 1, 1, 100));
      if (f.contains("attempt") && info && !info->uses_attempt) r.problem(Reader::at(p, "attempt"), "fact '" + ref.name + "' takes no attempt");
      if (!ids.insert(ref.id).second) r.problem(Reader::at(p, "id"), "fact id '" + ref.id + "' is used twice");
      lesson.facts.push_back(ref);
    }
  } else {
    for (const FactInfo& info : fact_vocabulary()) {
      if (info.in_default_grid) lesson.facts.push_back({info.name, info.name, first, 1});
    }
  }

  std::set<std::string> moment_ids;
  if (const json* moments = r.array(j, "", "moments", true)) {
    for (std::size_t i = 0; i < moments->size(); ++i) {
      std::string p = Reader::at("/moments", i);
      const json& m = (*moments)[i];
      Moment moment;
      if (!r.object(m, p, {"id", "at", "label", "narration"})) continue;
      moment.id = r.string(m, p, "id", true);
      if (!moment.id.empty() && !moment_ids.insert(moment.id).second) r.problem(Reader::at(p, "id"), "moment id '" + moment.id + "' is used twice");
      moment.label = r.text(m, p, "label", true);
      moment.narration = r.text(m, p, "narration", true);
      if (const json* at = r.field(m, p, "at", true)) {
        std::string ap = Reader::at(p, "at");
        if (r.object(*at, ap, {"event", "side", "message", "attempt", "status", "intent", "nth"})) {
          r.choice(*at, ap, "event", event_kinds(), true, "start");
          if (at->contains("side")) r.choice(*at, ap, "side", {"client", "service", "network", "provider"}, true, "client");
          if (at->contains("message")) r.choice(*at, ap, "message", kMessages, true, "request");
          if (at->contains("status")) r.choice(*at, ap, "status", {"PENDING", "UNKNOWN", "DELIVERED", "FAILED", "CONFLICT", "NEEDS_HUMAN"}, true, "PENDING");
          if (at->contains("attempt")) r.integer(*at, ap, "attempt", true, 1, 1, 100);
          if (at->contains("nth")) r.integer(*at, ap, "nth", true, 1, 1, 100);
          if (at->contains("intent")) r.string(*at, ap, "intent", true);
          moment.match = *at;
        }
      }
      lesson.moments.push_back(moment);
    }
  }

  std::set<std::string> question_ids;
  if (const json* questions = r.array(j, "", "questions", true)) {
    for (std::size_t i = 0; i < questions->size(); ++i) {
      std::string p = Reader::at("/questions", i);
      Question q = read_question(r, (*questions)[i], p, lesson);
      if (!q.id.empty() && !question_ids.insert(q.id).second) r.problem(Reader::at(p, "id"), "question id '" + q.id + "' is used twice");
      lesson.questions.push_back(q);
    }
  }
  if (const json* checks = r.array(j, "", "self_check", false)) {
    for (std::size_t i = 0; i < checks->size(); ++i) lesson.self_check.push_back(r.text_value((*checks)[i], Reader::at("/self_check", i)));
  }
  if (const json* c = r.field(j, "", "compare", false)) read_compare(r, *c, r.field(j, "", "scenario", false), lesson);
  if (!r.problems().empty()) throw LessonError(r.problems());
  return lesson;
}

}  // namespace idemlab
