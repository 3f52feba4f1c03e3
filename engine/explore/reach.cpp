#include "engine/explore/reach.hpp"

#include <set>

#include "engine/json/fields.hpp"
#include "engine/scenario/reader.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

bool same_rows(const Snapshot& a, const Snapshot& b) {
  return a.client_alive == b.client_alive && a.service_alive == b.service_alive && a.intents == b.intents &&
         a.earlier == b.earlier && a.keys == b.keys && a.deliveries == b.deliveries && a.outbox == b.outbox &&
         a.emails == b.emails && a.in_progress == b.in_progress && a.in_flight == b.in_flight &&
         a.delivered == b.delivered && a.dropped == b.dropped;
}

bool same_step(const Step& a, const Step& b) {
  const Event& x = a.event;
  const Event& y = b.event;
  return a.t == b.t && x.type == y.type && x.side == y.side && x.intent == y.intent && x.message == y.message &&
         x.local.op_key == y.local.op_key && x.local.status == y.local.status && same_rows(a.snap, b.snap);
}

bool same_message(const Message& a, const Message& b) {
  return a.kind == b.kind && a.from == b.from && a.to == b.to && a.intent == b.intent && a.n == b.n &&
         a.op_key == b.op_key && a.key_sent == b.key_sent && a.outcome == b.outcome && a.fate == b.fate &&
         a.sent_step == b.sent_step && a.end_step == b.end_step;
}

// `scenario` with `knob` moved to its right setting, read back as a file would be; false
// when it does not read (the knob's right value clashes with another field).
bool moved_to_right(const Scenario& scenario, const Knob& knob, Scenario& out) {
  json overrides = json::object();
  // Its default is written by leaving the knob out (null), as a file would: the reader
  // refuses some defaults written out (retry_layers: []).
  json right = knob.right_value();
  overrides[knob.group][knob.name] = right == knob.default_value ? json(nullptr) : right;
  std::vector<std::string> overridden;
  json moved = override_knobs(write_scenario(scenario), overrides, "", overridden);
  Reader r("scenario");
  std::set<std::string> intents;
  read_scenario(r, moved, "", out, intents);
  return r.problems().empty();
}

}  // namespace

bool same_course(const Run& a, const Run& b) {
  if (a.stop != b.stop || a.steps.size() != b.steps.size() || a.messages.size() != b.messages.size()) return false;
  for (std::size_t i = 0; i < a.steps.size(); ++i) {
    if (!same_step(a.steps[i], b.steps[i])) return false;
  }
  for (std::size_t i = 0; i < a.messages.size(); ++i) {
    if (!same_message(a.messages[i], b.messages[i])) return false;
  }
  return true;
}

std::vector<WrongAlone> wrong_alone(const Scenario& scenario, const Run& run) {
  std::vector<WrongAlone> out;
  for (const Knob& k : knob_table()) {
    json value = k.get(scenario);
    if (k.setting_of(value, &scenario) != Setting::Wrong) continue;
    WrongAlone w;
    w.knob = &k;
    w.value = value;
    Scenario right;
    if (moved_to_right(scenario, k, right)) w.reached = !same_course(run, simulate(right, right.faults));
    if (const L10n* c = k.composes_in(value, scenario)) w.composes = *c;
    out.push_back(std::move(w));
  }
  return out;
}

json WrongAlone::to_json() const {
  json out = json::object();
  put(out, "knob", knob->path());
  put(out, "value", value);
  put(out, "reached", reached);
  put(out, "composes", composes ? composes->to_json() : json(nullptr));
  return out;
}

}  // namespace idemlab
