#pragma once
// The fixed vocabulary of facts the knowledge grid and the questions can ask about
// (docs/design.md, "What each side knows"). Each is evaluated on the truth of one run at one
// step, as the observer sees it:
//   effect_exists        bool   an effect (a deliveries row) exists for the intent
//   effect_count         count  how many effects exist for the intent
//   request_arrived      bool   the request of attempt N reached the service
//   response_arrived     bool   the response to attempt N reached the client
//   client_has_receipt   bool   the client's intent row holds a receipt
//   key_registered       bool   the service holds a dedup record (an idempotency_keys
//                               row) for the intent's current operation key
//   lookup_authoritative bool   a lookup by the intent's current key now tells the truth:
//                               lookup is offered, it finds a record exactly when the
//                               intent has an effect, and every effect of the intent is
//                               under that key and visible to it (no lookup lag hides it,
//                               no retention window has removed its record)
//   retention_passed     bool   the service has forgotten a dedup record of the intent
//                               (an `expire` step): its retention window passed
//   email_sent           bool   the mail provider holds a notification email about an
//                               effect of the intent (ServiceContract::notify)
//   email_count          count  how many such emails the provider holds (two when it
//                               delivered a resend of the same email again)
// The intent's current key is its client row's op_key; before the row exists (or with
// none), the last key the client decided or sent for it.
//   intent_durable       bool   the client's database holds a row for the intent (it
//                               survives a crash; a client that sends before it persists
//                               can lose the intent while its effect exists)
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/sim/run.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

struct FactInfo {
  std::string name;
  bool boolean = true;       ///< false: a count
  bool uses_attempt = false; ///< takes "attempt" (from 1)
  bool in_default_grid = true;  ///< in the grid of a lesson that lists no facts
};

/// Every fact name, in the order above. The service-contract facts (key_registered,
/// lookup_authoritative, retention_passed) and the email facts are not in the default grid.
const std::vector<FactInfo>& fact_vocabulary();
/// nullptr when `name` is not in the vocabulary.
const FactInfo* find_fact(const std::string& name);

/// A fact as a lesson uses it: vocabulary name plus its parameters.
struct FactRef {
  std::string id;      ///< the lesson's name for it (unique in the lesson)
  std::string name;    ///< vocabulary name
  std::string intent;  ///< the intent it is about
  int attempt = 1;     ///< for request_arrived / response_arrived
};

/// How many effects (deliveries rows) the service holds for `intent` at `step` of `run`,
/// counting every operation key the intent used (the observer's mapping).
int effects_for(const Run& run, int step, const std::string& intent);
/// How many notification emails the mail provider holds about `intent`'s effects at `step`.
int emails_for(const Run& run, int step, const std::string& intent);

/// The fact's value at `step` of `run`: a JSON bool or integer.
nlohmann::json evaluate(const FactRef& fact, const Run& run, int step);
/// Its label in the grid: "effect exists" / "业务效果已发生".
L10n fact_label(const FactRef& fact);
/// A sentence saying the fact has `value`: "no effect exists" / "还没有业务效果".
L10n fact_statement(const FactRef& fact, const nlohmann::json& value);

}  // namespace idemlab
