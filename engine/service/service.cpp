#include "engine/service/service.hpp"

#include "engine/net/network.hpp"
#include "engine/sim/rng.hpp"
#include "engine/sim/simulation.hpp"

namespace idemlab {

Service::Service(Simulation& sim) : sim_(sim), db_(Database::with_schema(
      "CREATE TABLE deliveries(op_key TEXT PRIMARY KEY, fingerprint TEXT NOT NULL,"
      " receipt TEXT NOT NULL, created_at INTEGER NOT NULL)",
      "DELETE FROM deliveries")) {}

Rows<DeliveryRow> Service::rows() {
  if (rows_read_at_ == db_.changes()) return rows_;
  std::vector<DeliveryRow> rows;
  for (const SqlRow& r :
       db_.query("SELECT op_key, fingerprint, receipt, created_at FROM deliveries ORDER BY rowid")) {
    rows.push_back({r[0].text, r[1].text, r[2].text, r[3].integer});
  }
  rows_ = Rows<DeliveryRow>(std::move(rows));
  rows_read_at_ = db_.changes();
  return rows_;
}

void Service::on_message(const Message& m) {
  Event ev;
  ev.kind = "receive";
  ev.side = Side::Service;
  ev.message = m.id;
  ev.intent = m.intent;
  ev.local = {{"message", to_string(m.kind)}, {"op_key", m.op_key}};
  if (m.kind == MessageKind::Request) ev.local["fingerprint"] = m.fingerprint;
  sim_.record(ev);
  if (m.kind == MessageKind::Request) submit(m);
  if (m.kind == MessageKind::Lookup) lookup(m);
}

void Service::submit(const Message& m) {
  Event ev;
  ev.side = Side::Service;
  ev.message = m.id;
  ev.intent = m.intent;
  db_.query("BEGIN IMMEDIATE");
  auto found = db_.query("SELECT fingerprint, receipt FROM deliveries WHERE op_key = ?1",
                         {SqlValue::of(m.op_key)});
  if (!found.empty()) {
    db_.query("COMMIT");
    const std::string& receipt = found[0][1].text;
    if (found[0][0].text == m.fingerprint) {
      ev.kind = "replay";
      ev.local = {{"op_key", m.op_key}, {"receipt", receipt}};
      sim_.record(ev);
      reply(m, MessageKind::Response, "ok", receipt, "");
    } else {
      ev.kind = "reject";
      ev.local = {{"op_key", m.op_key}, {"reason", kSameKeyDifferentPayload}};
      sim_.record(ev);
      reply(m, MessageKind::Response, "rejected", "", kSameKeyDifferentPayload);
    }
    return;
  }
  std::string receipt =
      "rcpt-" + Rng::derive_hex(sim_.scenario().seed,
                                "receipt/" + m.op_key + "/" + std::to_string(sim_.now()), 10);
  db_.query("INSERT INTO deliveries(op_key, fingerprint, receipt, created_at) VALUES (?1, ?2, ?3, ?4)",
            {SqlValue::of(m.op_key), SqlValue::of(m.fingerprint), SqlValue::of(receipt),
             SqlValue::of(static_cast<long long>(sim_.now()))});
  db_.query("COMMIT");
  sim_.own_key(m.op_key, m.intent);
  ev.kind = "commit";
  ev.local = {{"op_key", m.op_key}, {"receipt", receipt}};
  sim_.record(ev);
  reply(m, MessageKind::Response, "ok", receipt, "");
}

void Service::lookup(const Message& m) {
  auto found = db_.query("SELECT receipt FROM deliveries WHERE op_key = ?1", {SqlValue::of(m.op_key)});
  Event ev;
  ev.side = Side::Service;
  ev.message = m.id;
  ev.intent = m.intent;
  ev.kind = found.empty() ? "not_found" : "found";
  ev.local = {{"op_key", m.op_key}};
  if (!found.empty()) ev.local["receipt"] = found[0][0].text;
  sim_.record(ev);
  reply(m, MessageKind::LookupReply, found.empty() ? "not_found" : "found",
        found.empty() ? "" : found[0][0].text, "");
}

void Service::reply(const Message& to, MessageKind kind, const std::string& outcome,
                    const std::string& receipt, const std::string& reason) {
  Message r;
  r.kind = kind;
  r.from = Side::Service;
  r.to = Side::Client;
  r.intent = to.intent;
  r.n = to.n;
  r.op_key = to.op_key;
  r.outcome = outcome;
  r.receipt = receipt;
  r.reason = reason;
  int id = sim_.network().send(r);
  Event ev;
  ev.kind = "reply";
  ev.side = Side::Service;
  ev.message = id;
  ev.intent = to.intent;
  ev.local = {{"message", to_string(kind)}, {"op_key", to.op_key}, {"outcome", outcome}};
  sim_.record(ev);
}

}  // namespace idemlab
