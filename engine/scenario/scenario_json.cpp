#include "engine/scenario/scenario_json.hpp"

#include <algorithm>
#include <set>

#include "engine/scenario/knobs.hpp"
#include "engine/scenario/limits.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

std::vector<std::string> action_names() {
  std::vector<std::string> out;
  for (const ActionInfo& a : action_table()) out.push_back(a.name);
  return out;
}

// A name or payload longer than `max` bytes (limits.hpp, kMaxNameBytes and kMaxPayloadBytes:
// a run holds it on every step that notes it), reported at `path`.
void too_long(Reader& r, const std::string& path, const char* what, const std::string& text, std::size_t max) {
  if (text.size() <= max) return;
  r.problem(path, std::string(what) + " of " + std::to_string(text.size()) + " bytes; at most " + std::to_string(max) +
                      " are allowed (a run holds it on every step that notes it)");
}

// A knob's value at path/name, checked against its row of the table; `set` when valid.
void read_knob(Reader& r, const json& group, const std::string& path, const Knob& k, Scenario& sc) {
  const json* v = r.field(group, path, k.name, false);
  if (!v) return;
  std::string p = Reader::at(path, k.name);
  switch (k.type) {
    case KnobType::Choice: {
      std::vector<std::string> names;
      for (const KnobValue& kv : k.values) names.push_back(kv.name);
      std::string s = r.choice(group, path, k.name, names, true, "");
      if (!s.empty()) k.set(sc, s);
      return;
    }
    case KnobType::Boolean:
      if (!v->is_boolean()) {
        r.problem(p, "expected true or false");
        return;
      }
      k.set(sc, *v);
      return;
    case KnobType::Integer: {
      long long fallback = k.min - 1;
      long long n = r.integer(group, path, k.name, true, fallback, k.min, k.max);
      if (n != fallback) k.set(sc, n);
      return;
    }
    case KnobType::Layers: {
      const json* layers = r.array(group, path, k.name, false);
      if (!layers) return;
      if (layers->empty() || layers->size() > static_cast<std::size_t>(limits::kMaxRetryLayers)) {
        r.problem(p, "expected 1 to " + std::to_string(limits::kMaxRetryLayers) + " layers, innermost first");
      }
      std::set<std::string> names;
      json valid = json::array();
      for (std::size_t i = 0; i < layers->size(); ++i) {
        std::string lp = Reader::at(p, i);
        const json& l = (*layers)[i];
        if (!r.object(l, lp, {"layer", "attempts", "key", "retry_on", "timeout_ms"})) continue;
        std::string name = r.string(l, lp, "layer", true);
        too_long(r, Reader::at(lp, "layer"), "a layer's name", name, limits::kMaxNameBytes);
        long long attempts = r.integer(l, lp, "attempts", true, 1, 1, limits::kMaxAttempts);
        std::string key = r.choice(l, lp, "key", {"caller", "per_call"}, false, "caller");
        json retry_on = json::array();
        if (const json* kinds = r.array(l, lp, "retry_on", false)) {
          std::set<std::string> seen;
          for (std::size_t j = 0; j < kinds->size(); ++j) {
            const json& v = (*kinds)[j];
            bool known = v.is_string() && retry_on_bit(v.get<std::string>()) != 0;
            if (!known) {
              std::string names;
              for (const auto& [n, bit] : retry_on_names()) names += (names.empty() ? "\"" : ", \"") + n + "\"";
              r.problem(Reader::at(Reader::at(lp, "retry_on"), j), "expected one of " + names);
            } else if (!seen.insert(v.get<std::string>()).second) {
              r.problem(Reader::at(Reader::at(lp, "retry_on"), j), "\"" + v.get<std::string>() + "\" is named twice");
            } else {
              retry_on.push_back(v);
            }
          }
        }
        if (!name.empty() && !names.insert(name).second) {
          r.problem(Reader::at(lp, "layer"), "layer '" + name + "' is named twice");
        }
        json o = json::object();
        o["layer"] = name;
        o["attempts"] = attempts;
        if (key == "per_call") o["key"] = key;
        if (l.contains("retry_on")) o["retry_on"] = retry_on;
        if (l.contains("timeout_ms")) o["timeout_ms"] = r.integer(l, lp, "timeout_ms", false, 1, 1, limits::kMaxVirtualMs);
        valid.push_back(std::move(o));
      }
      k.set(sc, valid);
      if (group.contains("max_attempts")) {
        r.problem(Reader::at(path, "max_attempts"),
                  "retry_layers set the budget (the product of their attempts): give max_attempts or retry_layers, not both");
      }
      if (group.contains("retry_after_ms")) {
        r.problem(Reader::at(path, "retry_after_ms"),
                  "with retry_layers each timeout is retried by its layer: give retry_after_ms or retry_layers, not both");
      }
      return;
    }
  }
}

Fault read_fault(Reader& r, const json& f, const std::string& path, const std::string& default_intent) {
  Fault out;
  out.intent = default_intent;
  const std::vector<std::string> kinds = injection_point_fields();
  std::vector<std::string> allowed = kinds;
  allowed.insert(allowed.end(), {"intent", "attempt", "restart_after_ms"});
  if (!r.object(f, path, allowed)) return out;
  std::vector<std::string> fields;
  for (const std::string& field : kinds) {
    if (f.contains(field)) fields.push_back(field);
  }
  if (fields.size() != 1) {
    std::string forms;
    for (std::size_t i = 0; i < kinds.size(); ++i) {
      forms += std::string(i == 0 ? "" : i + 1 == kinds.size() ? " or " : ", ") + "{\"" + kinds[i] + "\": " +
               injection_point_names(kinds[i]).front() + "}";
    }
    r.problem(path, "a fault is one of " + forms);
    return out;
  }
  const std::string& field = fields.front();
  std::vector<std::string> names = injection_point_names(field);
  std::string value = r.choice(f, path, field, names, true, names.front());
  std::int64_t restart = 50;
  if (field == "crash_client" || field == "crash_service" || (field == "lose_row" && value == to_string(RowPoint::NotSaved))) {
    restart = r.integer(f, path, "restart_after_ms", false, 50, 1, limits::kMaxVirtualMs);
  }
  std::string intent = r.string(f, path, "intent", false, default_intent);
  int n = static_cast<int>(r.integer(f, path, "attempt", false, 1, 1, limits::kMaxAttemptNumber));
  for (const InjectionPointKind& k : injection_point_table()) {
    if (k.field == field && k.value == value) return k.make(intent, n, restart);
  }
  return out;
}

template <typename Point>
void read_points(Reader& r, const json& j, const std::string& path, const std::string& key, const std::string& field,
                 std::vector<Point>& out) {
  const json* points = r.array(j, path, key, false);
  if (!points) return;
  for (std::size_t i = 0; i < points->size(); ++i) {
    Point p;
    const json& v = (*points)[i];
    if (!v.is_string() || !parse(v.get<std::string>(), p)) {
      r.problem(Reader::at(Reader::at(path, key), i), "unknown injection point; known: " + join_names(injection_point_names(field)));
    } else {
      out.push_back(p);
    }
  }
}

}  // namespace

Action read_action(Reader& r, const json& a, const std::string& path, bool timed) {
  std::vector<std::string> allowed = {"do", "intent", "payload"};
  if (timed) allowed.push_back("at");
  Action out;
  if (!r.object(a, path, allowed)) return out;
  const ActionInfo* info = find_action(r.choice(a, path, "do", action_names(), true, "deliver"));
  out.kind = info->kind;
  if (timed) out.at = r.integer(a, path, "at", true, 0, 0, limits::kMaxVirtualMs);
  if (info->needs_intent) out.intent = r.string(a, path, "intent", info->intent_required);
  if (info->needs_payload) out.payload = r.string(a, path, "payload", true);
  too_long(r, Reader::at(path, "intent"), "an intent's name", out.intent, limits::kMaxNameBytes);
  too_long(r, Reader::at(path, "payload"), "a payload", out.payload, limits::kMaxPayloadBytes);
  return out;
}

namespace {

// The client's code (Scenario::code): text within limits::kMaxCodeBytes. With code, the
// client is the learner's (engine/code/): the script holds only what a user or an operator
// does to any client (deliver, crash, restart); the rest are the built-in client's own
// moves, which code makes itself.
void read_code(Reader& r, const json& j, const std::string& path, Scenario& sc) {
  const json* code = r.field(j, path, "code", false);
  if (!code) return;
  std::string cp = Reader::at(path, "code");
  if (!code->is_string()) {
    r.problem(cp, "must be a string: the client's code (Lua 5.4)");
    return;
  }
  sc.code = code->get<std::string>();
  if (sc.code.size() > limits::kMaxCodeBytes) {
    r.problem(cp, "the code is " + std::to_string(sc.code.size()) + " bytes; at most " +
                      std::to_string(limits::kMaxCodeBytes) + " are allowed");
  }
  if (sc.code.empty()) return;
  std::string sp = Reader::at(path, "script");
  for (std::size_t i = 0; i < sc.script.size(); ++i) {
    ActionKind k = sc.script[i].kind;
    if (!action_info(k).with_code) {
      std::string allowed;
      for (const ActionInfo& a : action_table()) {
        if (a.with_code) allowed += (allowed.empty() ? "" : ", ") + a.name;
      }
      r.problem(Reader::at(Reader::at(sp, i), "do"), std::string("'") + action_info(k).name +
                    "' is the built-in client's move; with code the script holds only " + allowed);
    }
  }
}

}  // namespace

void read_scenario(Reader& r, const json& j, const std::string& path, Scenario& sc, std::set<std::string>& intents) {
  if (!r.object(j, path, {"seed", "client", "service", "provider", "timing", "script", "faults", "fault_space", "code"})) return;
  sc.seed = static_cast<std::uint64_t>(r.integer(j, path, "seed", false, 1, 0, 1LL << 53));
  // Every knob starts at its default, its right setting (the table says which).
  for (const Knob& k : knob_table()) k.set(sc, k.default_value);
  for (const std::string group : {"client", "service", "provider", "timing"}) {
    const json* g = r.field(j, path, group, false);
    if (!g) continue;
    std::string gp = Reader::at(path, group);
    if (!r.object(*g, gp, knob_names(group))) continue;
    for (const Knob& k : knob_table()) {
      if (k.group == group) read_knob(r, *g, gp, k, sc);
    }
  }

  if (const json* script = r.bounded_array(j, path, "script", true, limits::kMaxScriptActions)) {
    std::string sp = Reader::at(path, "script");
    for (std::size_t i = 0; i < script->size(); ++i) {
      Action a = read_action(r, (*script)[i], Reader::at(sp, i), true);
      if (a.kind == ActionKind::Deliver && !a.intent.empty()) {
        if (!intents.insert(a.intent).second) r.problem(Reader::at(Reader::at(sp, i), "intent"), "intent '" + a.intent + "' is delivered twice");
      }
      sc.script.push_back(a);
    }
    if (intents.empty()) r.problem(sp, "the script delivers nothing: add {\"do\": \"deliver\", ...}");
    if (intents.size() > static_cast<std::size_t>(limits::kMaxIntents)) {
      r.problem(sp, "the script delivers " + std::to_string(intents.size()) + " intents; at most " +
                        std::to_string(limits::kMaxIntents) + " are allowed (the work of a run grows with their square)");
    }
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
                                                               join_names({intents.begin(), intents.end()}));
      }
    }
    intents = known;
  }
  std::string first = first_intent(sc);
  if (const json* faults = r.bounded_array(j, path, "faults", false, limits::kMaxPlannedFaults)) {
    std::string fp = Reader::at(path, "faults");
    for (std::size_t i = 0; i < faults->size(); ++i) {
      Fault f = read_fault(r, (*faults)[i], Reader::at(fp, i), first);
      if (!intents.empty() && !intents.count(f.intent)) r.problem(Reader::at(Reader::at(fp, i), "intent"), "unknown intent '" + f.intent + "'");
      sc.faults.faults.push_back(f);
    }
  }
  if (const json* space = r.field(j, path, "fault_space", false)) {
    std::string sp = Reader::at(path, "fault_space");
    if (r.object(*space, sp, {"lose_any_one_message", "client_crash_points", "service_crash_points", "service_error_points", "connect_errors",
                              "row_loss_points", "restart_after_ms"})) {
      sc.space.lose_any_one_message = r.boolean(*space, sp, "lose_any_one_message", true);
      sc.space.connect_errors = r.boolean(*space, sp, "connect_errors", false);
      sc.space.restart_after_ms = r.integer(*space, sp, "restart_after_ms", false, 50, 1, limits::kMaxVirtualMs);
      read_points(r, *space, sp, "client_crash_points", "crash_client", sc.space.client_crash_points);
      read_points(r, *space, sp, "service_crash_points", "crash_service", sc.space.service_crash_points);
      read_points(r, *space, sp, "service_error_points", "service_error", sc.space.service_error_points);
      read_points(r, *space, sp, "row_loss_points", "lose_row", sc.space.row_loss_points);
    }
  }
  read_code(r, j, path, sc);
}

json write_action(const Action& a) {
  const ActionInfo& info = action_info(a.kind);
  json o = json::object();
  o["at"] = a.at;
  o["do"] = info.name;
  if (info.needs_intent && !a.intent.empty()) o["intent"] = a.intent;
  if (info.needs_payload) o["payload"] = a.payload;
  return o;
}

json write_plan(const FaultPlan& plan) {
  json out = json::array();
  for (const Fault& f : plan.faults) out.push_back(write_fault(f));
  return out;
}

json write_fault(const Fault& f) {
  json o = json::object();
  const InjectionPointKind& k = injection_point_kind(f);
  o[k.field] = k.value;
  o["intent"] = f.intent;
  o["attempt"] = f.n;
  if (f.crashes()) o["restart_after_ms"] = f.restart_after_ms;
  return o;
}

json write_scenario(const Scenario& s) {
  json out = json::object();
  out["seed"] = s.seed;
  for (const Knob& k : knob_table()) {
    json v = k.get(s);
    if (!v.is_null()) out[k.group][k.name] = v;
    else if (!out.contains(k.group)) out[k.group] = json::object();
  }
  // retry_layers replaces max_attempts and retry_after_ms: write only what reads back.
  if (!s.client.retry_layers.empty()) {
    out["client"].erase("max_attempts");
    out["client"].erase("retry_after_ms");
  } else {
    out["client"].erase("retry_layers");
  }
  json script = json::array();
  for (const Action& a : s.script) script.push_back(write_action(a));
  out["script"] = std::move(script);
  out["faults"] = write_plan(s.faults);
  json space = json::object();
  space["lose_any_one_message"] = s.space.lose_any_one_message;
  json cp = json::array(), sp = json::array(), ep = json::array();
  for (ClientPoint p : s.space.client_crash_points) cp.push_back(to_string(p));
  for (ServicePoint p : s.space.service_crash_points) sp.push_back(to_string(p));
  for (ErrorPoint p : s.space.service_error_points) ep.push_back(to_string(p));
  space["client_crash_points"] = std::move(cp);
  space["service_crash_points"] = std::move(sp);
  if (!ep.empty()) space["service_error_points"] = std::move(ep);
  if (s.space.connect_errors) space["connect_errors"] = true;
  json rp = json::array();
  for (RowPoint p : s.space.row_loss_points) rp.push_back(to_string(p));
  if (!rp.empty()) space["row_loss_points"] = std::move(rp);
  space["restart_after_ms"] = s.space.restart_after_ms;
  out["fault_space"] = std::move(space);
  if (!s.code.empty()) out["code"] = s.code;
  return out;
}

json override_knobs(const json& base, const json& overrides, const std::string& path,
                    std::vector<std::string>& overridden) {
  json merged = base.is_object() ? base : json::object();
  if (!overrides.is_object()) return merged;
  for (const std::string group : {"client", "service", "provider", "timing"}) {
    auto o = overrides.find(group);
    if (o == overrides.end() || !o->is_object()) continue;
    json& target = merged[group];
    if (!target.is_object()) target = json::object();
    for (const auto& [key, value] : o->items()) {
      // null unsets the knob: the merged scenario reads as if it never named it (an
      // optional knob is then off, any other takes its default).
      if (value.is_null()) target.erase(key);
      else target[key] = value;
      overridden.push_back(Reader::at(Reader::at(path, group), key));
    }
  }
  // A script is replaced whole (a compare policy's own script: lessons/README.md).
  auto script = overrides.find("script");
  if (script != overrides.end() && script->is_array()) {
    merged["script"] = *script;
    overridden.push_back(Reader::at(path, "script"));
  }
  return merged;
}

}  // namespace idemlab
