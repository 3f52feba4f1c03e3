#pragma once
// THE table of every knob of a scenario, every injection point kind and every script
// action (docs/design.md, "The scenario and its knob table"). The scenario reader and
// writer (scenario_json.hpp), the lesson reader's action and message names, the API's
// `vocabulary` (which the sandbox's controls are to be built from), and the fuzzer come
// from here; the lesson schema (lessons/schema/lesson.schema.json) is tested equal to it
// by tests/wasm/schema.test.mjs. Adding a knob is a row below plus its behaviour in the
// part that has it, plus its entry in the schema (the test names what is missing).
//
// Every knob has a default, and the default is its right setting: a knob a lesson leaves
// out never carries a latent mistake; a lesson that teaches a mistake names the wrong
// setting explicitly. Where no setting is wrong by itself (timing, budgets), the knob is
// neutral.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/faults/fault.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// How a setting of a knob is judged (docs/design.md: each policy knob has a right and a
/// wrong setting).
enum class Setting { Right, Wrong, Neutral };
const char* to_string(Setting s);

enum class KnobType {
  Choice,   ///< one of `values` (JSON string)
  Boolean,  ///< true / false (values "true", "false")
  Integer,  ///< min..max (JSON integer); virtual ms where the name ends in _ms
  Layers,   ///< retry_layers: [{"layer": name, "attempts": 1..20}], 0 to 5, innermost first
};
const char* to_string(KnobType t);

struct KnobValue {
  std::string name;  ///< as written in JSON ("intent"; "true" for a Boolean)
  Setting setting = Setting::Neutral;
  L10n meaning;      ///< one line, for the learner
};

struct Knob {
  std::string group;  ///< "client" | "service" | "provider" | "timing": the JSON object it sits in
  std::string name;   ///< its key there
  KnobType type = KnobType::Choice;
  std::vector<KnobValue> values;  ///< Choice, Boolean
  long long min = 0, max = 0;     ///< Integer: the range a file may give
  long long typical_min = 0, typical_max = 0;  ///< Integer: the range a control or the fuzzer offers
  /// Integer only: may be left out, meaning "not set" (no deadline, no retention, ...).
  bool optional = false;
  /// The default, which is the right (or a neutral) setting: a JSON value, or null for an
  /// optional Integer left unset.
  nlohmann::json default_value;
  L10n meaning;  ///< one line: what the knob decides
  /// How the knob reaches into a Scenario: plain functions (no captures), so that the
  /// table is data. Choice knobs read and write the enum as an int (`indexes[i]` is the
  /// enum value of `values[i]`); the other kinds read and write JSON values.
  std::vector<int> indexes;
  int (*get_index)(const Scenario&) = nullptr;
  void (*set_index)(Scenario&, int) = nullptr;
  nlohmann::json (*get_value)(const Scenario&) = nullptr;
  void (*set_value)(Scenario&, const nlohmann::json&) = nullptr;
  /// Integer and Layers: how a value is judged (null = unset); nullptr: neutral. `in`:
  /// the scenario the value is set in, when there is one (a value judged against another
  /// knob, as a lease against the processing time); nullptr: judged on its own.
  Setting (*judge)(const nlohmann::json& value, const Scenario* in) = nullptr;
  /// Where a wrong value is known to compose safely under a condition a scenario can meet
  /// (retry layers that all resend under the intent's one key: docs/design.md, "Fuzz"):
  /// whether `in` meets it for `value`, and the condition with its reason in both
  /// languages. nullptr: the table knows no such condition for this knob. The table's
  /// judgement stays "wrong" (wrong alone); only a search says the composition is safe.
  bool (*composes)(const nlohmann::json& value, const Scenario& in) = nullptr;
  L10n composes_text;

  /// The knob's value in `s` (null when an optional Integer is unset).
  nlohmann::json get(const Scenario& s) const;
  /// Writes a value that was checked (a value name for Choice, true/false, an integer or
  /// null, the layers array).
  void set(Scenario& s, const nlohmann::json& value) const;
  /// "client.key_scope"
  std::string path() const { return group + "." + name; }
  /// How `value` is judged: the value's own setting for Choice and Boolean, `judge` else;
  /// within scenario `in` when given (see judge).
  Setting setting_of(const nlohmann::json& value, const Scenario* in = nullptr) const;
  /// The condition under which `value`, judged wrong alone, composes safely, when `in`
  /// meets it (see composes); nullptr otherwise (a value not wrong, no such condition
  /// known, or not met here).
  const L10n* composes_in(const nlohmann::json& value, const Scenario& in) const;
  /// The value a wrong one is moved to when asked "would the run go otherwise if this were
  /// right?" (engine/explore/reach.hpp): the first right value of a Choice or Boolean
  /// knob, else the default (an unset optional Integer: null).
  nlohmann::json right_value() const;
  /// {"group", "name", "type", "meaning", "default", "values"?: [{"name", "setting",
  ///  "meaning"}], "min"?, "max"?, "typical"?: [lo, hi], "optional"?, "unit"?: "ms",
  ///  "composes"?: L10n (composes_text, where the table knows a condition)}
  nlohmann::json to_json() const;
};

/// Every knob, grouped by `group` in the order client, service, provider, timing.
const std::vector<Knob>& knob_table();
/// The knob at "group.name", or nullptr.
const Knob* find_knob(const std::string& group, const std::string& name);
/// The names of the knobs of one group, in table order.
std::vector<std::string> knob_names(const std::string& group);

/// One kind of injection point (engine/faults/fault.hpp): where a fault can be placed.
struct InjectionPointKind {
  Fault::Kind kind = Fault::Kind::Drop;
  std::string field;   ///< its JSON form: "drop" | "crash_client" | "crash_service" | "service_error" | "connect_error" | "lose_row"
  std::string value;   ///< the message or point name: "response", "after_send", ...
  std::string counts;  ///< what its N counts: "attempt" | "lookup" | "email send"
  L10n meaning;
  /// A fault of this kind for `intent`, n (restart_after_ms as given, for crashes).
  Fault make(const std::string& intent, int n, std::int64_t restart_after_ms) const;
  /// "drop:response", "crash:client:after_send", ...: the fault id's prefix
  std::string id() const;
  nlohmann::json to_json() const;
};
const std::vector<InjectionPointKind>& injection_point_table();
/// The names of one field's kinds: the messages a drop may name, the client's crash
/// points, the service's crash points, the service's error points.
std::vector<std::string> injection_point_names(const std::string& field);
/// The distinct JSON fields of the table, in its order: "drop", "crash_client", ...
std::vector<std::string> injection_point_fields();
/// The table's row for `f`'s kind of injection point (its field and value).
const InjectionPointKind& injection_point_kind(const Fault& f);

/// One script action (engine/scenario/scenario.hpp ActionKind).
struct ActionInfo {
  ActionKind kind;
  std::string name;      ///< "deliver", ...
  bool needs_intent;     ///< takes "intent"
  bool intent_required;  ///< and must name it (deliver, cancel)
  bool needs_payload;    ///< takes "payload" (required)
  /// Safe as a learner's next step after an indefinite error under the right settings
  /// (the fuzzer's right configuration scripts only these).
  bool safe;
  L10n meaning;
  /// A move of the user or the operator, not of the client's policy: a scenario whose
  /// client is code (Scenario::code, issue 34) may script it; the others are the built-in
  /// client's own moves, which code makes itself.
  bool with_code = false;
  nlohmann::json to_json() const;
};
const std::vector<ActionInfo>& action_table();
const ActionInfo* find_action(const std::string& name);
const ActionInfo& action_info(ActionKind k);

}  // namespace idemlab
