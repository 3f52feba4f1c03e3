#include "engine/explore/fuzz.hpp"

#include <algorithm>
#include <map>
#include <set>

#include "engine/invariants/invariants.hpp"
#include "engine/json/fields.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/sim/rng.hpp"
#include "engine/sim/schedules.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

class Draw {
 public:
  explicit Draw(std::uint64_t seed) : rng_(seed) {}
  /// lo..hi inclusive
  long long between(long long lo, long long hi) {
    return lo + static_cast<long long>(rng_.next() % static_cast<std::uint64_t>(hi - lo + 1));
  }
  bool chance(int percent) { return between(1, 100) <= percent; }
  template <typename T>
  const T& pick(const std::vector<T>& v) { return v[static_cast<std::size_t>(between(0, static_cast<long long>(v.size()) - 1))]; }

 private:
  Rng rng_;
};

/// A wrong setting of one knob, as the fuzzer sets it.
struct WrongSetting {
  const Knob* knob;
  std::string value;  ///< its name in the report ("attempt", "set", "two layers retrying")
  std::function<json(Draw&)> draw;
  int runs = 0, caught = 0;
  int inconclusive = 0;  ///< runs that stopped at a limit before settling, breaking nothing
  std::set<std::string> invariants;
  std::vector<json> examples;
  /// Wrong only where the client may lose its own row (lose_row) and a re-run starts it
  /// over: its runs are such scenarios (may_lose_rows).
  bool loses_row = false;
};

std::vector<WrongSetting> wrong_settings() {
  std::vector<WrongSetting> out;
  for (const Knob& k : knob_table()) {
    switch (k.type) {
      case KnobType::Choice:
      case KnobType::Boolean:
        for (const KnobValue& v : k.values) {
          if (v.setting != Setting::Wrong) continue;
          json value = k.type == KnobType::Boolean ? json(v.name == "true") : json(v.name);
          out.push_back({&k, v.name, [value](Draw&) { return value; }});
        }
        break;
      case KnobType::Integer:
        // Some value in the typical range is wrong (retention set), or none is.
        if (k.setting_of(json(k.typical_min)) == Setting::Wrong) {
          out.push_back({&k, "set", [&k](Draw& d) { return json(d.between(k.typical_min, k.typical_max)); }});
        }
        break;
      case KnobType::Layers:
        out.push_back({&k, "two layers retrying", [](Draw& d) {
                         return json::array({{{"layer", "sdk"}, {"attempts", d.between(2, 3)}},
                                             {{"layer", "app"}, {"attempts", d.between(2, 3)}}});
                       }});
        // The SDK makes its own key per call and the application retries the call.
        out.push_back({&k, "an outer retry under a new key", [](Draw& d) {
                         return json::array({{{"layer", "sdk"}, {"attempts", 1}, {"key", "per_call"}},
                                             {{"layer", "app"}, {"attempts", d.between(2, 3)}}});
                       }});
        break;
    }
  }
  // Not wrong alone (the table says neutral), but wrong for a client that may lose its row:
  // the re-run draws a stored key anew, so a new operation (docs/design.md, "Fuzz").
  WrongSetting stored{find_knob("client", "key_source"), "stored, where the client may lose its row",
                      [](Draw&) { return json("stored"); }};
  stored.loses_row = true;
  out.push_back(std::move(stored));
  return out;
}

// A re-run of every delivered intent, later than anything else the run does (a few seconds
// of virtual time at most: budgets, backoffs, deadlines and restarts are bounded), so that
// the client is up for it and a row lost at any point is answered.
constexpr std::int64_t kRerunFrom = 20000;
void add_reruns(Draw& d, Scenario& sc) {
  std::vector<std::string> names;
  for (const Action& a : sc.script) {
    if (a.kind == ActionKind::Deliver) names.push_back(a.intent);
  }
  for (const std::string& name : names) sc.script.push_back({ActionKind::Reapply, d.between(kRerunFrom, kRerunFrom + 1000), -1, name, ""});
}

// Every knob at a right or neutral setting, drawn at random.
void draw_right(Draw& d, Scenario& sc) {
  for (const Knob& k : knob_table()) {
    switch (k.type) {
      case KnobType::Choice:
      case KnobType::Boolean: {
        std::vector<const KnobValue*> ok;
        for (const KnobValue& v : k.values) {
          if (v.setting != Setting::Wrong) ok.push_back(&v);
        }
        const KnobValue* v = d.pick(ok);
        k.set(sc, k.type == KnobType::Boolean ? json(v->name == "true") : json(v->name));
        break;
      }
      case KnobType::Integer: {
        json value = k.default_value;
        bool neutral = k.setting_of(json(k.typical_min)) != Setting::Wrong &&
                       k.setting_of(json(k.typical_max)) != Setting::Wrong;
        if (neutral && (!k.optional || d.chance(50))) value = d.between(k.typical_min, k.typical_max);
        k.set(sc, value);
        break;
      }
      case KnobType::Layers:
        if (d.chance(50)) {
          k.set(sc, json::array());
        } else {
          // One retrying layer, retrying all errors or some of them (any subset is safe:
          // what it leaves reaches the client as unknown).
          json layer = {{"layer", "sdk"}, {"attempts", d.between(1, 3)}};
          if (d.chance(30)) {
            json kinds = json::array();
            for (const auto& [name, bit] : retry_on_names()) {
              if (d.chance(50)) kinds.push_back(name);
            }
            layer["retry_on"] = std::move(kinds);
          }
          k.set(sc, json::array({std::move(layer)}));
        }
        break;
    }
  }
}

// 1-3 intents, payloads from a small set (so two intents may carry the same content), and
// only the actions the table marks safe; every crash is followed by a restart.
void draw_script(Draw& d, Scenario& sc) {
  static const std::vector<std::string> payloads = {"report 2026-w48", "invoice 17"};
  int intents = static_cast<int>(d.between(1, 3));
  std::vector<std::string> names;
  for (int i = 1; i <= intents; ++i) {
    std::string name = "intent-" + std::to_string(i);
    names.push_back(name);
    sc.script.push_back({ActionKind::Deliver, d.between(0, 150), -1, name, d.pick(payloads)});
  }
  if (d.chance(30)) {
    std::int64_t at = d.between(0, 400);
    sc.script.push_back({ActionKind::CrashClient, at, -1, "", ""});
    sc.script.push_back({ActionKind::RestartClient, at + d.between(10, 200), -1, "", ""});
  }
  for (const ActionInfo& a : action_table()) {
    if (!a.safe || !a.needs_intent || a.kind == ActionKind::Deliver || !d.chance(20)) continue;
    sc.script.push_back({a.kind, d.between(50, 600), -1, d.pick(names), ""});
  }
  // Changed content under the intent's stored key: not a safe next step (the service
  // refuses it), but the right settings keep it harmless, and what the service compares
  // shows only with it. Not drawn where a neutral setting is neutral only for unchanged
  // content: a key derived from the content (changed content is a new operation) and
  // "409 already exists" taken as success (the table says: while the content is unchanged).
  bool unchanged_only = sc.client.key_source != KeySource::Stored || sc.client.on_already_exists == OnAlreadyExists::Success;
  if (!unchanged_only && d.chance(40)) sc.script.push_back({ActionKind::ResendChangedPayload, d.between(50, 600), -1, d.pick(names), "invoice 18"});
}

// A kind of injection point first (a message lost, a crash at one point, an error at one
// point), then one point of that kind: the kinds a run passes once or twice (a crash
// between two writes) are drawn as often as those it passes at every message.
const Fault& pick_fault(Draw& d, const std::vector<Fault>& next) {
  std::vector<const Fault*> kinds;
  for (const Fault& f : next) {
    if (std::none_of(kinds.begin(), kinds.end(), [&](const Fault* k) { return k->same_kind(f); })) kinds.push_back(&f);
  }
  const Fault* kind = kinds[static_cast<std::size_t>(d.between(0, static_cast<long long>(kinds.size()) - 1))];
  std::vector<const Fault*> of_kind;
  for (const Fault& f : next) {
    if (f.same_kind(*kind)) of_kind.push_back(&f);
  }
  return *of_kind[static_cast<std::size_t>(d.between(0, static_cast<long long>(of_kind.size()) - 1))];
}

json finding(const Violation& v, const Scenario& sc) {
  json o = v.to_json();
  put(o, "scenario", write_scenario(sc));
  return o;
}

}  // namespace

// A fault's kind and point without its intent and attempt: its id up to the last two
// parts ("error:service:gateway" of "error:service:gateway:r:2"; an intent's own ':' is
// escaped in an id).
static std::string fault_kind(const Fault& f) {
  std::string id = f.id();
  id.erase(id.rfind(':'));
  id.erase(id.rfind(':'));
  return id;
}

json fuzz(const FuzzOptions& options) {
  Draw d(options.seed);
  std::vector<WrongSetting> wrong = wrong_settings();
  long long schedules = 0;
  int right_runs = 0, right_violations = 0, right_inconclusive = 0;
  std::vector<json> findings;
  std::set<std::string> finding_kinds;
  std::map<std::string, int> fired;  // faults that fired, by kind (fault_kind)
  const int runs = std::clamp(options.runs, 0, FuzzOptions::kMaxRuns);
  for (int i = 0; i < runs; ++i) {
    // Even runs: the right configuration; odd runs: one wrong setting, each in turn.
    WrongSetting* w = i % 2 == 1 && !wrong.empty() ? &wrong[static_cast<std::size_t>(i / 2) % wrong.size()] : nullptr;
    Scenario sc;
    sc.seed = static_cast<std::uint64_t>(d.between(1, 1000));
    draw_right(d, sc);
    if (w) w->knob->set(sc, w->draw(d));
    // A client that may lose its own row (lose_row), re-run later: a quarter of the right
    // runs, with a key derived from the intent and its content (the design that survives
    // it), and the runs of the wrong setting that does not (a stored key).
    const bool loses_row = w ? w->loses_row : d.chance(25);
    if (loses_row && !w) sc.client.key_source = KeySource::PayloadHash;
    draw_script(d, sc);
    if (loses_row) add_reruns(d, sc);
    FaultSpace space = every_fault(d.between(10, 200));
    // And a gateway's 502, answered in front of the dedup layer (to any request, even a
    // retry of a key already committed). The explorer leaves it out of every_fault: it
    // changes no verdict of a shipped lesson and costs their searches a fifth more
    // schedules (09-retry-layers at K = 2: 2,443 -> 3,288).
    space.service_error_points.push_back(ErrorPoint::Gateway);
    if (loses_row) space.row_loss_points = {RowPoint::RolledBack, RowPoint::NotSaved};
    sc.space.restart_after_ms = space.restart_after_ms;
    int faults = static_cast<int>(d.between(loses_row ? std::min(1, options.max_faults) : 0, options.max_faults));
    FaultPlan plan;
    Run run = simulate(sc, plan);
    ++schedules;
    for (int f = 0; f < faults; ++f) {
      std::vector<Fault> next = next_searched_faults(run, plan, space, sc.script);
      // The first fault of such a run is a lost row, where the run passes one.
      if (loses_row && f == 0 && std::any_of(next.begin(), next.end(), [](const Fault& x) { return x.kind == Fault::Kind::LoseRow; })) {
        next.erase(std::remove_if(next.begin(), next.end(), [](const Fault& x) { return x.kind != Fault::Kind::LoseRow; }), next.end());
      }
      if (next.empty()) break;
      plan.faults.push_back(pick_fault(d, next));
      run = simulate(sc, plan);
      ++schedules;
      if (!losses_answered(run)) {
        // This fault moved a lost row past the last re-run: without it, and no more.
        plan.faults.pop_back();
        run = simulate(sc, plan);
        break;
      }
    }
    sc.faults.faults = run.fired;
    for (const Fault& f : run.fired) ++fired[fault_kind(f)];
    RunVerdict verdict = check_invariants(run);
    // Stopped at a limit before it settled, breaking nothing on the way: its end was never
    // judged, so it is inconclusive, counted apart and never as a clean run.
    const bool inconclusive = verdict.safe() && run.stop != StopReason::Settled;
    if (!w) {
      ++right_runs;
      right_inconclusive += inconclusive;
      if (verdict.safe()) continue;
      ++right_violations;
      for (const Violation& v : verdict.violations) {
        std::string kind = to_string(v.invariant);
        if (finding_kinds.insert(kind).second || static_cast<int>(findings.size()) < options.keep_examples * 6) {
          findings.push_back(finding(v, sc));
        }
      }
      continue;
    }
    ++w->runs;
    w->inconclusive += inconclusive;
    if (verdict.safe()) continue;
    ++w->caught;
    for (const Violation& v : verdict.violations) w->invariants.insert(to_string(v.invariant));
    if (static_cast<int>(w->examples.size()) < options.keep_examples) w->examples.push_back(finding(verdict.violations.front(), sc));
  }

  json wrong_json = json::array(), not_caught = json::array();
  int caught = 0, inconclusive = right_inconclusive;
  for (const WrongSetting& w : wrong) {
    json o = json::object();
    put(o, "knob", w.knob->path());
    put(o, "value", w.value);
    put(o, "runs", w.runs);
    put(o, "caught", w.caught);
    put(o, "inconclusive", w.inconclusive);
    inconclusive += w.inconclusive;
    put(o, "invariants", json(std::vector<std::string>(w.invariants.begin(), w.invariants.end())));
    put(o, "example", w.examples.empty() ? json(nullptr) : w.examples.front());
    wrong_json.push_back(std::move(o));
    if (w.caught > 0) ++caught;
    else not_caught.push_back(w.knob->path() + "=" + w.value);
  }
  json right = json::object();
  put(right, "runs", right_runs);
  put(right, "violations", right_violations);
  put(right, "inconclusive", right_inconclusive);
  put(right, "findings", json(findings));
  json out = json::object();
  put(out, "seed", options.seed);
  put(out, "runs", runs);
  put(out, "schedules", schedules);
  put(out, "right", std::move(right));
  put(out, "wrong_settings", std::move(wrong_json));
  put(out, "caught", caught);
  put(out, "not_caught", std::move(not_caught));
  put(out, "faults_fired", json(fired));
  put(out, "inconclusive", inconclusive);
  return out;
}

}  // namespace idemlab
