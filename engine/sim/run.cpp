#include "engine/sim/run.hpp"

#include "engine/base/bytes.hpp"

namespace idemlab {
namespace {

std::size_t row_bytes(const IntentRow& r) {
  return bytes::of(r.intent) + bytes::of(r.op_key) + bytes::of(r.fingerprint) + bytes::of(r.payload) + bytes::of(r.status) +
         bytes::of(r.receipt);
}
std::size_t row_bytes(const EarlierVersionRow& r) {
  return bytes::of(r.intent) + bytes::of(r.op_key) + bytes::of(r.fingerprint) + bytes::of(r.payload) + bytes::of(r.status) +
         bytes::of(r.receipt);
}
std::size_t row_bytes(const KeyRow& r) { return bytes::of(r.op_key) + bytes::of(r.fingerprint) + bytes::of(r.receipt); }
std::size_t row_bytes(const DeliveryRow& r) { return bytes::of(r.op_key) + bytes::of(r.fingerprint) + bytes::of(r.receipt); }
std::size_t row_bytes(const OutboxRow& r) {
  return bytes::of(r.email_key) + bytes::of(r.op_key) + bytes::of(r.receipt) + bytes::of(r.status);
}
std::size_t row_bytes(const EmailRow& r) { return bytes::of(r.email_key) + bytes::of(r.op_key) + bytes::of(r.receipt); }
std::size_t row_bytes(const Waiting& w) { return bytes::of(w.intent); }
std::size_t row_bytes(const InProgress& p) { return bytes::of(p.op_key) + bytes::of(p.fingerprint); }
std::size_t row_bytes(const RelayWait& w) { return bytes::of(w.email_key) + bytes::of(w.intent); }
std::size_t row_bytes(int) { return 0; }

// A table's rows, when no snapshot counted before holds the same: the block make_shared
// made (the vector beside its reference counts) and the vector's storage with its rows.
template <typename Row>
std::size_t rows_bytes(const Rows<Row>& rows, std::set<const void*>& counted) {
  const std::vector<Row>* v = rows.storage();
  if (!v || !counted.insert(v).second) return 0;
  return bytes::block(sizeof(std::vector<Row>) + 2 * sizeof(long) + sizeof(void*)) +
         bytes::of(*v, [](const Row& r) { return row_bytes(r); });
}

std::size_t snapshot_bytes(const Snapshot& s, std::set<const void*>& counted) {
  std::size_t n = rows_bytes(s.intents, counted) + rows_bytes(s.earlier, counted) + rows_bytes(s.keys, counted) +
                  rows_bytes(s.deliveries, counted) + rows_bytes(s.outbox, counted) + rows_bytes(s.emails, counted) +
                  rows_bytes(s.in_flight, counted) + rows_bytes(s.delivered, counted) + rows_bytes(s.dropped, counted);
  return n + rows_bytes(s.waiting, counted) + rows_bytes(s.in_progress, counted) + rows_bytes(s.relay_waiting, counted);
}

std::size_t message_bytes(const Message& m) {
  return bytes::of(m.intent) + bytes::of(m.op_key) + bytes::of(m.email_key) + bytes::of(m.payload) +
         bytes::of(m.fingerprint) + bytes::of(m.outcome) + bytes::of(m.receipt) + bytes::of(m.reason);
}

std::size_t fault_bytes(const Fault& f) { return bytes::of(f.intent); }

}  // namespace

std::size_t Run::heap_bytes(std::set<const void*>& counted) const {
  std::size_t n = bytes::of(steps, [&](const Step& s) {
    return bytes::of(s.event.intent) + s.event.local.heap_bytes() + snapshot_bytes(s.snap, counted);
  });
  n += bytes::of(messages, message_bytes) + bytes::of(points, fault_bytes) + bytes::storage(point_where) +
       bytes::of(fired, fault_bytes);
  n += bytes::of(key_owner, [](const std::string& k, const std::string& v) { return bytes::of(k) + bytes::of(v); });
  return n;
}

}  // namespace idemlab
