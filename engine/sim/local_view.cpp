#include "engine/sim/local_view.hpp"

#include "engine/base/bytes.hpp"
#include "engine/json/fields.hpp"

namespace idemlab {

nlohmann::json layers_json(const std::vector<LayerAt>& layers) {
  nlohmann::json list = nlohmann::json::array();
  for (const LayerAt& l : layers) {
    nlohmann::json o = nlohmann::json::object();
    put(o, "layer", l.layer);
    put(o, "iteration", l.iteration);
    put(o, "attempts", l.attempts);
    list.push_back(std::move(o));
  }
  return list;
}

nlohmann::json LocalView::to_json() const {
  nlohmann::json out = nlohmann::json::object();
  auto field = [&](const char* key, const auto& v) {  // a member, if set
    if (v) put(out, key, *v);
  };
  field("action", action);
  field("for", awaited);
  field("cancels", cancels);
  field("checked", checked);
  field("dedup", dedup);
  field("email_key", email_key);
  field("error", error);
  field("error_kind", error_kind);
  field("fingerprint", fingerprint);
  field("key_source", key_source);
  field("layer", layer);
  field("matched_key", matched_key);
  field("message", message);
  field("op_key", op_key);
  field("ordering", ordering);
  field("outcome", outcome);
  field("reason", reason);
  field("receipt", receipt);
  field("retried_by", retried_by);
  field("scan", scan);
  field("status", status);
  field("stored_key", stored_key);
  field("why", why);
  field("age_ms", age_ms);
  field("attempt", attempt);
  field("backoff_ms", backoff_ms);
  field("budget", budget);
  field("deadline_at", deadline_at);
  field("expired_at", expired_at);
  field("http", http);
  field("lag_ms", lag_ms);
  field("lease_ms", lease_ms);
  field("n", n);
  field("redelivery", redelivery);
  field("retry_after_ms", retry_after_ms);
  field("retry_at", retry_at);
  field("running", running);
  field("send", send);
  field("status", stored_status);
  field("timeout_ms", timeout_ms);
  field("committed", committed);
  field("discarded", discarded);
  field("earlier", earlier);
  field("earlier_sent", earlier_sent);
  field("held", held);
  field("key_sent", key_sent);
  field("last", last);
  field("named_by_service", named_by_service);
  field("read_back", read_back);
  field("reapply", reapply);
  field("repeat", repeat);
  field("replayed", replayed);
  field("rolled_back", rolled_back);
  field("stored", stored);
  field("unchecked", unchecked);
  field("found", found);
  if (layers) put(out, "layers", layers_json(*layers));
  return out;
}

std::size_t LocalView::heap_bytes() const {
  std::size_t n = 0;
  for (const std::optional<std::string>* text :
       {&action, &awaited, &cancels, &checked, &dedup, &email_key, &error, &error_kind, &fingerprint, &key_source, &layer,
        &matched_key, &message, &op_key, &ordering, &outcome, &reason, &receipt, &retried_by, &scan, &status, &stored_key, &why}) {
    n += bytes::of(*text);
  }
  if (found) n += bytes::of(*found);
  if (layers) n += bytes::of(*layers, [](const LayerAt& l) { return bytes::of(l.layer); });
  return n;
}

}  // namespace idemlab
