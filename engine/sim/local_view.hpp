#pragma once
// What a side itself observed at one event (Event::local): a plain struct, one member per
// thing any event notes, each unset unless that event sets it. Built on every step of
// every run, so it holds no JSON: to_json() writes it as a JSON object where an answer
// shows it (the knowledge of a side, the timeline). Times are virtual ms.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace idemlab {

/// One retry layer's place in a send (LocalView::layers): JSON
/// {"attempts": n, "iteration": n, "layer": "sdk"}.
struct LayerAt {
  std::string layer;       ///< the layer's name (RetryLayer::layer)
  long long iteration = 1; ///< which of its calls this is, from 1
  long long attempts = 1;  ///< its attempts per call (RetryLayer::attempts)
  bool operator==(const LayerAt& o) const {
    return layer == o.layer && iteration == o.iteration && attempts == o.attempts;
  }
};

/// `layers` as JSON: an array of {"attempts", "iteration", "layer"} objects.
nlohmann::json layers_json(const std::vector<LayerAt>& layers);

/// Each member is named as its key in to_json(), except `awaited` ("for") and
/// `stored_status` (a number under "status", where `status` is the client's text).
struct LocalView {
  // Texts.
  std::optional<std::string> action;       ///< an ignored script action's name
  std::optional<std::string> awaited;      ///< "for": a timeout's awaited reply (a MessageKind name, "layer", "email_ack")
  std::optional<std::string> cancels;      ///< the operation key a cancel intent names
  std::optional<std::string> checked;      ///< the service's dedup check: "no_record" | "never"
  std::optional<std::string> dedup;        ///< "none": the service never deduplicates
  std::optional<std::string> email_key;    ///< the notification email's key
  std::optional<std::string> error;        ///< a record's error kind: error_kind::kDefinite | kIndefinite
  std::optional<std::string> error_kind;   ///< the retry_on name of the error no layer retried
  std::optional<std::string> fingerprint;  ///< a payload fingerprint (SHA-256, hex)
  std::optional<std::string> key_source;   ///< "payload_hash" | "request_hash" (a derived key)
  std::optional<std::string> layer;        ///< a retry layer whose timeout fired
  std::optional<std::string> matched_key;  ///< the stored key a fingerprint dedup matched
  std::optional<std::string> message;      ///< the kind of the message received or replied (MessageKind name)
  std::optional<std::string> op_key;       ///< the operation key
  std::optional<std::string> ordering;     ///< "key_first" | "effect_first" (a broken ordering)
  std::optional<std::string> outcome;      ///< a reply's outcome (Message::outcome)
  std::optional<std::string> reason;       ///< why (a rejection, a NEEDS_HUMAN, a drop, ...)
  std::optional<std::string> receipt;      ///< a receipt
  std::optional<std::string> retried_by;   ///< the retry layer that retried this send
  std::optional<std::string> scan;         ///< a recovery's scan: "unknown" | "unknown_and_pending"
  std::optional<std::string> status;       ///< the intent status a client record writes
  std::optional<std::string> stored_key;   ///< the client's stored key, when another is on the wire
  std::optional<std::string> why;          ///< why a lookup found nothing (Service::kNoRecord, ...)
  // Numbers.
  std::optional<long long> age_ms;          ///< a lagging record's age (virtual ms)
  std::optional<long long> attempt;         ///< the attempt (a client send) or the relay's try of an email
  std::optional<long long> backoff_ms;      ///< the backoff waited before a send (virtual ms)
  std::optional<long long> budget;          ///< the sends per intent the retry budget allows
  std::optional<long long> deadline_at;     ///< the retry deadline passed (virtual ms)
  std::optional<long long> expired_at;      ///< when a record was forgotten (virtual ms)
  std::optional<long long> http;            ///< a reply's HTTP status
  std::optional<long long> lag_ms;          ///< the lookup's lag (virtual ms)
  std::optional<long long> lease_ms;        ///< the lease a redelivery follows (virtual ms)
  std::optional<long long> n;               ///< a timeout's attempt, lookup or email send count
  std::optional<long long> redelivery;      ///< which redelivery, from 1
  std::optional<long long> retry_after_ms;  ///< a 429's Retry-After (virtual ms)
  std::optional<long long> retry_at;        ///< when a refused send is retried (virtual ms)
  std::optional<long long> running;         ///< copies of the work running at once
  std::optional<long long> send;            ///< the send's number in the retry budget, from 1
  std::optional<long long> stored_status;   ///< "status": the HTTP status of a stored result (429, 500)
  std::optional<long long> timeout_ms;      ///< a retry layer's timeout (virtual ms)
  // Yes or no.
  std::optional<bool> committed, discarded, earlier, earlier_sent, held, key_sent, last, named_by_service,
      read_back, reapply, repeat, replayed, rolled_back, stored, unchecked;
  // Lists.
  std::optional<std::vector<std::string>> found;  ///< the intents a recovery scan found
  std::optional<std::vector<LayerAt>> layers;     ///< each retry layer's place in a send, innermost first

  /// The members set, as one JSON object (keys sorted; texts as strings, numbers as
  /// integers, yes or no as booleans, `found` an array of strings, `layers` an array of
  /// LayerAt objects). {} when none is set.
  nlohmann::json to_json() const;
  /// The heap bytes its texts and lists hold (engine/base/bytes.hpp), not the struct itself.
  std::size_t heap_bytes() const;
};

}  // namespace idemlab
