#include "engine/sim/local_view.hpp"

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
  auto text = [&](const char* key, const std::optional<std::string>& v) {
    if (v) put(out, key, *v);
  };
  auto number = [&](const char* key, const std::optional<long long>& v) {
    if (v) put(out, key, *v);
  };
  auto yes_no = [&](const char* key, const std::optional<bool>& v) {
    if (v) put(out, key, *v);
  };
  text("action", action);
  text("for", awaited);
  text("cancels", cancels);
  text("checked", checked);
  text("dedup", dedup);
  text("email_key", email_key);
  text("error", error);
  text("error_kind", error_kind);
  text("fingerprint", fingerprint);
  text("key_source", key_source);
  text("layer", layer);
  text("matched_key", matched_key);
  text("message", message);
  text("op_key", op_key);
  text("ordering", ordering);
  text("outcome", outcome);
  text("reason", reason);
  text("receipt", receipt);
  text("retried_by", retried_by);
  text("scan", scan);
  text("status", status);
  text("stored_key", stored_key);
  text("why", why);
  number("age_ms", age_ms);
  number("attempt", attempt);
  number("backoff_ms", backoff_ms);
  number("budget", budget);
  number("deadline_at", deadline_at);
  number("expired_at", expired_at);
  number("http", http);
  number("lag_ms", lag_ms);
  number("lease_ms", lease_ms);
  number("n", n);
  number("redelivery", redelivery);
  number("retry_after_ms", retry_after_ms);
  number("retry_at", retry_at);
  number("running", running);
  number("send", send);
  number("status", stored_status);
  number("timeout_ms", timeout_ms);
  yes_no("committed", committed);
  yes_no("discarded", discarded);
  yes_no("earlier", earlier);
  yes_no("earlier_sent", earlier_sent);
  yes_no("held", held);
  yes_no("key_sent", key_sent);
  yes_no("last", last);
  yes_no("named_by_service", named_by_service);
  yes_no("read_back", read_back);
  yes_no("reapply", reapply);
  yes_no("repeat", repeat);
  yes_no("replayed", replayed);
  yes_no("rolled_back", rolled_back);
  yes_no("stored", stored);
  yes_no("unchecked", unchecked);
  if (found) put(out, "found", *found);
  if (layers) put(out, "layers", layers_json(*layers));
  return out;
}

}  // namespace idemlab
