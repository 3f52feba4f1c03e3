// Structure checks for lesson files: every problem names the JSON Pointer and the reason.
#include <algorithm>
#include <set>

#include "engine/lesson/lesson.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario_json.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

// What a choose question's option may do next: every script action but `deliver` (the
// intent is already delivered), and `wait` (do nothing: the intent keeps its status).
std::vector<std::string> choice_actions() {
  std::vector<std::string> out;
  for (const ActionInfo& a : action_table()) {
    if (a.kind != ActionKind::Deliver) out.push_back(a.name);
  }
  out.push_back("wait");
  return out;
}

Side read_side(Reader& r, const json& j, const std::string& path, const std::string& key) {
  return r.choice(j, path, key, {"client", "service"}, true, "client") == "service" ? Side::Service : Side::Client;
}

// Options of a predict or concept question ({id, label}), or of a choose question
// ({id, label, do, payload?}: the action runs on `intent` right after the moment).
std::vector<Option> read_options(Reader& r, const json& q, const std::string& path,
                                 const std::string* choose_intent = nullptr) {
  std::vector<Option> out;
  const json* opts = r.bounded_array(q, path, "options", true, limits::kMaxOptions);
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
          const ActionInfo* info = find_action(opt.does);
          a.kind = info->kind;
          if (info->needs_intent) a.intent = *choose_intent;
          if (info->needs_payload) a.payload = r.string(o, p, "payload", true);
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

// The lesson's own lists (moments, facts) that were there but could not be read, or were
// missing where one is required: their error is said once, at the list, and not again at
// each question that names one of their entries (a learner-facing list of errors that
// starts with the cause). An empty list is read: a reference into it is still refused.
struct UnreadLists {
  bool moments = false;
  bool facts = false;
};

template <typename T, typename F>
void check_ref(Reader& r, const std::string& path, const std::string& what, const std::string& id,
               const std::vector<T>& items, F name_of, bool list_unread = false) {
  if (list_unread) return;
  std::vector<std::string> names;
  for (const T& t : items) {
    if (name_of(t) == id) return;
    names.push_back(name_of(t));
  }
  // A lesson whose list is missing or empty has its own error there: this one says so
  // rather than "known: " and nothing.
  r.problem(path, "unknown " + what + " '" + id + "'" +
                      (names.empty() ? "; there is no " + what + " to refer to (none is defined)"
                                     : "; known: " + join_names(names)));
}

Question read_question(Reader& r, const json& q, const std::string& path, const Lesson& lesson, const UnreadLists& unread) {
  Question out;
  if (!q.is_object()) {
    r.problem(path, "expected an object");
    return out;
  }
  out.kind = r.choice(q, path, "kind", {"knowledge", "predict", "choose", "table", "concept"}, true, "concept");
  std::vector<std::string> allowed = {"id", "kind", "moment", "prompt", "hint"};
  if (out.kind == "knowledge") allowed.insert(allowed.end(), {"side", "fact"});
  if (out.kind == "predict") allowed.insert(allowed.end(), {"if", "ask", "options"});
  if (out.kind == "choose") allowed.insert(allowed.end(), {"intent", "options"});
  if (out.kind == "concept") allowed.insert(allowed.end(), {"options", "answer", "explanation"});
  if (out.kind == "table") allowed.insert(allowed.end(), {"moments", "sides", "facts"});
  r.object(q, path, allowed);
  out.id = r.string(q, path, "id", true);
  out.prompt = r.text(q, path, "prompt", true);
  if (q.contains("hint")) out.hint = r.text(q, path, "hint", true);
  bool needs_moment = out.kind == "knowledge" || out.kind == "predict" || out.kind == "choose";
  out.moment = r.string(q, path, "moment", needs_moment);
  auto moment_name = [](const Moment& m) { return m.id; };
  auto fact_name = [](const FactRef& f) { return f.id; };
  if (!out.moment.empty()) check_ref(r, Reader::at(path, "moment"), "moment", out.moment, lesson.moments, moment_name, unread.moments);
  if (out.kind == "knowledge") {
    out.side = read_side(r, q, path, "side");
    out.fact = r.string(q, path, "fact", true);
    if (!out.fact.empty()) {
      check_ref(r, Reader::at(path, "fact"), "fact", out.fact, lesson.facts, fact_name, unread.facts);
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
      const json* a = r.bounded_array(q, path, key, true, key == "facts" ? limits::kMaxFacts : limits::kMaxMoments);
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
      check_ref(r, Reader::at(Reader::at(path, "moments"), i), "moment", out.moments[i], lesson.moments, moment_name, unread.moments);
    }
    for (const std::string& s : list("sides")) {
      if (s != "client" && s != "service") r.problem(Reader::at(path, "sides"), "unknown side '" + s + "'; known: client, service");
      out.sides.push_back(s == "service" ? Side::Service : Side::Client);
    }
    out.facts = list("facts");
    for (std::size_t i = 0; i < out.facts.size(); ++i) {
      std::string fp = Reader::at(Reader::at(path, "facts"), i);
      check_ref(r, fp, "fact", out.facts[i], lesson.facts, fact_name, unread.facts);
      const FactRef* f = lesson.fact(out.facts[i]);
      if (f && find_fact(f->name) && !find_fact(f->name)->boolean) r.problem(fp, "fact '" + out.facts[i] + "' is a count; table cells need true/false facts");
    }
  }
  return out;
}

// The lesson's scenario (`scenario`, its JSON; may be null) with the knobs of `overrides`
// ({"client": {...}, "service": {...}, ...}) written over it, read by read_scenario itself,
// so an override takes exactly the values the scenario's own knobs take. Only problems of
// the overrides are reported, at the override's path under `path`; the others are the
// scenario's own, already reported under /scenario. `merged` receives the JSON read.
Scenario read_policy(Reader& r, const json* scenario, const json& overrides, const std::string& path, json& merged) {
  std::vector<std::string> overridden;  // JSON Pointers of the knobs the policy sets
  merged = override_knobs(scenario ? *scenario : json::object(), overrides, path, overridden);
  Reader sub(r.file());
  Scenario out;
  std::set<std::string> intents;
  read_scenario(sub, merged, path, out, intents);
  for (const LessonProblem& q : sub.problems()) {
    for (const std::string& o : overridden) {
      if (q.path == o || q.path.rfind(o + "/", 0) == 0) {
        r.problem(q.path, q.reason);
        break;
      }
    }
  }
  return out;
}

// The `compare` block (lessons/README.md, "Side by side"): two policies, each the
// lesson's scenario with some knobs of `client`, `service`, `provider` and `timing`, or its
// whole `script`, replaced (read_policy).
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
    if (!r.object(v, p, {"id", "label", "client", "service", "provider", "timing", "script"})) continue;
    policy.id = r.string(v, p, "id", true);
    if (!policy.id.empty() && !ids.insert(policy.id).second) r.problem(Reader::at(p, "id"), "policy id '" + policy.id + "' is used twice");
    policy.label = r.text(v, p, "label", true);
    // A policy that names no knob runs the lesson's scenario as written (often the mistake
    // the lesson tells, beside a fix that changes it).
    for (const std::string part : {"client", "service", "provider", "timing"}) {
      const json* o = r.field(v, p, part, false);
      if (!o) continue;
      if (!o->is_object()) r.problem(Reader::at(p, part), "expected an object");
      else policy.overrides[part] = *o;
    }
    // A script replaces the lesson's whole script: what the user or the application does
    // differs between the two sides (a user who resubmits; a new intent for new content).
    if (const json* o = r.field(v, p, "script", false)) {
      if (!o->is_array()) r.problem(Reader::at(p, "script"), "expected an array (the whole script of this side)");
      else policy.overrides["script"] = *o;
    }
    json merged;
    policy.scenario = read_policy(r, scenario, policy.overrides, p, merged);
    effective.push_back(merged["client"].dump() + merged["service"].dump() + merged["provider"].dump() +
                        merged["timing"].dump() + merged["script"].dump());
    out.policies.push_back(std::move(policy));
  }
  if (effective.size() == 2 && effective[0] == effective[1]) {
    r.problem(Reader::at(pp, 1), "policy '" + out.policies[1].id + "' runs the same scenario as policy '" +
                                     out.policies[0].id + "': replace a knob or the script in one of them");
  }
  lesson.compare = std::move(out);
}

// The `challenge` block (lessons/README.md, "Challenges"). Its starting scenario is the
// lesson's with `policy` written over it: a compare policy's id, or knob overrides read as
// read_policy reads them. Whether the challenge can be solved (and is not solved already)
// needs the explorer: engine/lesson/challenge.hpp checks that.
void read_challenge(Reader& r, const json& c, const json* scenario, Lesson& lesson) {
  const std::string path = "/challenge";
  Challenge out;
  if (!r.object(c, path, {"kind", "prompt", "goal", "policy", "max_faults", "max_changes", "faults", "knobs", "hint"})) return;
  out.kind = r.choice(c, path, "kind", {"break", "fix"}, true, "break");
  bool breaks = out.kind == "break";
  out.prompt = r.text(c, path, "prompt", true);
  if (c.contains("hint")) out.hint = r.text(c, path, "hint", true);
  for (const char* key : {"goal", "max_faults"}) {
    if (!breaks && c.contains(key)) r.problem(Reader::at(path, key), std::string("\"") + key + "\" belongs to a break challenge");
  }
  for (const char* key : {"max_changes", "faults", "knobs"}) {
    if (breaks && c.contains(key)) r.problem(Reader::at(path, key), std::string("\"") + key + "\" belongs to a fix challenge");
  }
  if (breaks) {
    std::vector<std::string> names;
    for (const InvariantInfo& i : invariant_table()) names.push_back(i.name);
    std::string goal = r.choice(c, path, "goal", names, true, "");
    for (const InvariantInfo& i : invariant_table()) {
      if (goal == i.name) out.goal = i.id;
    }
    out.max_faults = static_cast<int>(r.integer(c, path, "max_faults", false, 1, 1, limits::kMaxChallengeFaults));
  } else {
    out.max_changes = static_cast<int>(r.integer(c, path, "max_changes", false, 1, 1, limits::kMaxChallengeChanges));
    out.faults = static_cast<int>(r.integer(c, path, "faults", false, 2, 1, limits::kMaxChallengeFaults));
    if (const json* knobs = r.array(c, path, "knobs", false)) {
      std::string kp = Reader::at(path, "knobs");
      if (knobs->empty()) r.problem(kp, "name at least one knob, or leave \"knobs\" out (every knob may change)");
      std::set<std::string> named;
      for (std::size_t i = 0; i < knobs->size(); ++i) {
        const json& k = (*knobs)[i];
        std::string name = k.is_string() ? k.get<std::string>() : "";
        std::size_t dot = name.find('.');
        if (name.empty() || dot == std::string::npos || !find_knob(name.substr(0, dot), name.substr(dot + 1))) {
          std::vector<std::string> all;
          for (const Knob& kn : knob_table()) all.push_back(kn.path());
          r.problem(Reader::at(kp, i), "unknown knob " + k.dump() + "; known: " + join_names(all));
        } else if (!named.insert(name).second) {
          r.problem(Reader::at(kp, i), "knob '" + name + "' is named twice");
        }
      }
      for (const Knob& kn : knob_table()) {
        if (named.count(kn.path())) out.knobs.push_back(kn.path());
      }
    } else {
      for (const Knob& kn : knob_table()) out.knobs.push_back(kn.path());
    }
  }
  out.start = lesson.scenario;
  if (const json* policy = r.field(c, path, "policy", false)) {
    std::string pp = Reader::at(path, "policy");
    if (policy->is_string()) {
      std::vector<std::string> ids;
      bool found = false;
      for (const ComparePolicy& p : lesson.compare ? lesson.compare->policies : std::vector<ComparePolicy>{}) {
        ids.push_back(p.id);
        if (p.id == policy->get<std::string>()) {
          out.start = p.scenario;
          found = true;
        }
      }
      if (!found) {
        r.problem(pp, "unknown policy '" + policy->get<std::string>() + "'; " +
                          (ids.empty() ? std::string("the lesson has no compare block") : "the lesson's policies: " + join_names(ids)));
      }
    } else if (r.object(*policy, pp, {"client", "service", "provider", "timing"})) {
      json merged;
      out.start = read_policy(r, scenario, *policy, pp, merged);
    }
  }
  if (breaks) out.start.faults.faults.clear();
  lesson.challenge = std::move(out);
}

// The `incident` block (lessons/README.md, "Incidents"). Whether the reported run shows the
// reported outcome needs the simulation: engine/lesson/incident.hpp checks that.
void read_incident(Reader& r, const json& c, bool has_compare, Lesson& lesson) {
  const std::string path = "/incident";
  if (!r.object(c, path, {"source", "url", "title", "expected", "seen", "fix", "reported"})) return;
  Incident out;
  out.source = r.string(c, path, "source", true);
  out.url = r.string(c, path, "url", true);
  if (c.contains("url") && out.url.rfind("https://", 0) != 0) {
    r.problem(Reader::at(path, "url"), "the report's address must start with https:// (the page links to it)");
  }
  out.title = r.string(c, path, "title", true);
  const std::pair<const char*, const std::string*> lines[] = {{"source", &out.source}, {"url", &out.url}, {"title", &out.title}};
  for (const auto& [key, line] : lines) {
    if (line->size() > limits::kMaxIncidentLineBytes || line->find('\n') != std::string::npos) {
      r.problem(Reader::at(path, key), "one line of at most " + std::to_string(limits::kMaxIncidentLineBytes) + " bytes");
    }
  }
  out.expected = r.text(c, path, "expected", true);
  out.seen = r.text(c, path, "seen", true);
  out.fix = r.text(c, path, "fix", true);
  if (const json* rep = r.field(c, path, "reported", true)) {
    const std::string rp = Reader::at(path, "reported");
    if (r.object(*rep, rp, {"effects", "violation", "status"})) {
      if (rep->contains("status")) {
        out.status = r.choice(*rep, rp, "status", {status::kPending, status::kUnknown, status::kDelivered, status::kFailed,
                                                   status::kConflict, status::kNeedsHuman}, true, "");
      }
      if (rep->contains("effects")) out.effects = static_cast<int>(r.integer(*rep, rp, "effects", true, 0, 0, 100));
      if (rep->contains("violation")) {
        std::vector<std::string> names;
        for (const InvariantInfo& i : invariant_table()) names.push_back(i.name);
        std::string name = r.choice(*rep, rp, "violation", names, true, "");
        for (const InvariantInfo& i : invariant_table()) {
          if (name == i.name) out.violation = i.id;
        }
      }
      if (!rep->contains("effects") && !rep->contains("violation") && !rep->contains("status")) {
        r.problem(rp, "say what the report saw: \"effects\" (a count), \"violation\" (an invariant), \"status\" (the client's final status), or more than one");
      }
    }
  }
  if (!has_compare) {
    r.problem(path, "an incident needs a \"compare\" block: the reported behaviour first, the fix second");
  }
  lesson.incident = std::move(out);
}

}  // namespace

// The `sandbox` block (lessons/README.md, "Sandbox start"): the knobs that decide the
// lesson, by their table path, and up to three first experiments, each with an example
// written over the lesson's scenario as read_policy writes a policy, and a fault plan that
// replaces the lesson's when it names one. Whether an example reaches its goal, and whether
// the right design is safe, needs the simulation: engine/lesson/start.hpp checks that.
void read_sandbox(Reader& r, const json& c, const json* scenario, Lesson& lesson) {
  const std::string path = "/sandbox";
  SandboxStart out;
  if (!r.object(c, path, {"focus", "experiments"})) return;
  std::vector<std::string> all;
  for (const Knob& kn : knob_table()) all.push_back(kn.path());
  if (const json* focus = r.array(c, path, "focus", true)) {
    std::string fp = Reader::at(path, "focus");
    if (focus->empty() || focus->size() > limits::kMaxSandboxFocus) {
      r.problem(fp, "name 1 to " + std::to_string(limits::kMaxSandboxFocus) + " knobs (the few that decide the lesson), not " +
                        std::to_string(focus->size()));
    }
    std::set<std::string> named;
    for (std::size_t i = 0; i < focus->size(); ++i) {
      const json& k = (*focus)[i];
      std::string name = k.is_string() ? k.get<std::string>() : "";
      std::size_t dot = name.find('.');
      if (name.empty() || dot == std::string::npos || !find_knob(name.substr(0, dot), name.substr(dot + 1))) {
        r.problem(Reader::at(fp, i), "unknown knob " + k.dump() + "; known: " + join_names(all));
      } else if (!named.insert(name).second) {
        r.problem(Reader::at(fp, i), "knob '" + name + "' is named twice");
      }
    }
    for (const Knob& kn : knob_table()) {
      if (named.count(kn.path())) out.focus.push_back(kn.path());
    }
  }
  if (const json* list = r.bounded_array(c, path, "experiments", false, limits::kMaxSandboxExperiments)) {
    std::vector<std::string> reaches = {"safe", "survive"};
    for (const InvariantInfo& i : invariant_table()) reaches.push_back(i.name);
    for (std::size_t i = 0; i < list->size(); ++i) {
      std::string p = Reader::at(Reader::at(path, "experiments"), i);
      const json& e = (*list)[i];
      Experiment x;
      if (!r.object(e, p, {"goal", "reach", "example"})) continue;
      x.goal = r.text(e, p, "goal", true);
      x.reach = r.choice(e, p, "reach", reaches, true, "safe");
      if (const json* ex = r.field(e, p, "example", true)) {
        std::string ep = Reader::at(p, "example");
        if (r.object(*ex, ep, {"client", "service", "provider", "timing", "faults"})) {
          x.example = *ex;
          json knobs = json::object();
          for (const char* part : {"client", "service", "provider", "timing"}) {
            if (ex->contains(part)) knobs[part] = (*ex)[part];
          }
          std::vector<std::string> overridden;
          json merged = override_knobs(scenario ? *scenario : json::object(), knobs, ep, overridden);
          if (ex->contains("faults")) {
            if (!(*ex)["faults"].is_array()) r.problem(Reader::at(ep, "faults"), "expected an array (the whole fault plan of the example)");
            merged["faults"] = (*ex)["faults"];
            overridden.push_back(Reader::at(ep, "faults"));
          }
          if (knobs.empty() && !ex->contains("faults")) r.problem(ep, "an example changes at least one knob or the fault plan");
          Reader sub(r.file());
          std::set<std::string> intents;
          read_scenario(sub, merged, ep, x.scenario, intents);
          for (const LessonProblem& q : sub.problems()) {
            for (const std::string& o : overridden) {
              if (q.path == o || q.path.rfind(o + "/", 0) == 0) {
                r.problem(q.path, q.reason);
                break;
              }
            }
          }
        }
      }
      out.experiments.push_back(std::move(x));
    }
  }
  lesson.sandbox = std::move(out);
}

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

bool read_lesson(Reader& r, const std::string& text, Lesson& lesson) {
  std::optional<json> parsed = r.parse(text, limits::kMaxLessonBytes);
  if (!parsed) return false;
  const json& j = *parsed;
  lesson.file = r.file();
  if (!r.object(j, "", {"$schema", "id", "level", "title", "summary", "scenario", "facts", "moments", "questions", "self_check",
                        "compare", "challenge", "incident", "sandbox", "reviewed"})) {
    return false;
  }
  lesson.id = r.string(j, "", "id", true);
  if (!lesson.id.empty() && lesson.id.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos) {
    r.problem("/id", "an id uses only a-z, 0-9 and '-' (it appears in URLs)");
  }
  lesson.level = r.choice(j, "", "level", {"intro", "advanced"}, true, "intro");
  lesson.title = r.text(j, "", "title", true);
  lesson.summary = r.text(j, "", "summary", true);
  std::set<std::string> intents;
  if (const json* sc = r.field(j, "", "scenario", true)) read_scenario(r, *sc, "/scenario", lesson.scenario, intents);
  std::string first = first_intent(lesson.scenario);

  UnreadLists unread;
  const json* facts = r.bounded_array(j, "", "facts", false, limits::kMaxFacts);
  unread.facts = j.contains("facts") && !facts;
  if (facts) {
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
        r.problem(Reader::at(p, "fact"), "unknown fact '" + ref.name + "'; known: " + join_names(names));
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
  const json* moments = r.bounded_array(j, "", "moments", true, limits::kMaxMoments);
  unread.moments = !moments;
  if (moments) {
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
          if (at->contains("message")) r.choice(*at, ap, "message", injection_point_names("drop"), true, "request");
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
  if (const json* questions = r.bounded_array(j, "", "questions", true, limits::kMaxQuestions)) {
    for (std::size_t i = 0; i < questions->size(); ++i) {
      std::string p = Reader::at("/questions", i);
      Question q = read_question(r, (*questions)[i], p, lesson, unread);
      if (!q.id.empty() && !question_ids.insert(q.id).second) r.problem(Reader::at(p, "id"), "question id '" + q.id + "' is used twice");
      lesson.questions.push_back(q);
    }
  }
  if (const json* checks = r.bounded_array(j, "", "self_check", false, limits::kMaxQuestions)) {
    for (std::size_t i = 0; i < checks->size(); ++i) lesson.self_check.push_back(r.text_value((*checks)[i], Reader::at("/self_check", i)));
  }
  if (const json* c = r.field(j, "", "compare", false)) read_compare(r, *c, r.field(j, "", "scenario", false), lesson);
  if (const json* c = r.field(j, "", "challenge", false)) read_challenge(r, *c, r.field(j, "", "scenario", false), lesson);
  if (const json* c = r.field(j, "", "incident", false)) read_incident(r, *c, j.contains("compare"), lesson);
  if (const json* c = r.field(j, "", "sandbox", false)) read_sandbox(r, *c, r.field(j, "", "scenario", false), lesson);
  if (const json* list = r.bounded_array(j, "", "reviewed", false, limits::kMaxQuestions)) {
    for (std::size_t i = 0; i < list->size(); ++i) {
      std::string p = Reader::at("/reviewed", i);
      const json& e = (*list)[i];
      if (!r.object(e, p, {"path", "question", "why"})) continue;
      ReviewedWarning w;
      w.path = r.string(e, p, "path", true);
      w.question = r.string(e, p, "question", true);
      w.why = r.string(e, p, "why", true);
      if (!w.question.empty() && !question_ids.count(w.question)) {
        r.problem(Reader::at(p, "question"), "unknown question '" + w.question + "'");
      }
      if (w.why.empty()) r.problem(Reader::at(p, "why"), "say why these words do not give the answer away");
      lesson.reviewed.push_back(std::move(w));
    }
  }
  return r.problems().empty();
}

}  // namespace idemlab
