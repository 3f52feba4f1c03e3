#include "engine/sim/run.hpp"

#include <type_traits>

#include "engine/base/bytes.hpp"

namespace idemlab {
namespace {

// The texts of a row, each measured by `text` (bytes::of: on this platform; bytes::in_wasm:
// as the page's engine holds it, the same everywhere).
template <typename Text>
std::size_t row_texts(const IntentRow& r, Text text) {
  return text(r.intent) + text(r.op_key) + text(r.fingerprint) + text(r.payload) + text(r.status) + (r.receipt ? text(*r.receipt) : 0);
}
template <typename Text>
std::size_t row_texts(const EarlierVersionRow& r, Text text) {
  return text(r.intent) + text(r.op_key) + text(r.fingerprint) + text(r.payload) + text(r.status) + (r.receipt ? text(*r.receipt) : 0);
}
template <typename Text>
std::size_t row_texts(const KeyRow& r, Text text) {
  return text(r.op_key) + text(r.fingerprint) + text(r.receipt);
}
template <typename Text>
std::size_t row_texts(const DeliveryRow& r, Text text) {
  return text(r.op_key) + text(r.fingerprint) + text(r.receipt);
}
template <typename Text>
std::size_t row_texts(const OutboxRow& r, Text text) {
  return text(r.email_key) + text(r.op_key) + text(r.receipt) + text(r.status);
}
template <typename Text>
std::size_t row_texts(const EmailRow& r, Text text) {
  return text(r.email_key) + text(r.op_key) + text(r.receipt);
}
template <typename Text>
std::size_t row_texts(const Waiting& w, Text text) {
  return text(w.intent);
}
template <typename Text>
std::size_t row_texts(const InProgress& p, Text text) {
  return text(p.op_key) + text(p.fingerprint);
}
template <typename Text>
std::size_t row_texts(const RelayWait& w, Text text) {
  return text(w.email_key) + text(w.intent);
}
template <typename Text>
std::size_t row_texts(int, Text) {
  return 0;
}

std::size_t here(const std::string& s) { return bytes::of(s); }

// A table's rows, when no snapshot counted before holds the same: the block make_shared
// made (the vector beside its reference counts) and the vector's storage with its rows.
template <typename Row>
std::size_t rows_bytes(const Rows<Row>& rows, std::set<const void*>& counted) {
  const std::vector<Row>* v = rows.storage();
  if (!v || !counted.insert(v).second) return 0;
  return bytes::block(sizeof(std::vector<Row>) + 2 * sizeof(long) + sizeof(void*)) +
         bytes::of(*v, [](const Row& r) { return row_texts(r, here); });
}

// Calls `f` with each list a snapshot holds: its tables, the message ids by fate, and what
// each side waits for (the one list of them both estimates below walk).
template <typename F>
void each_list(const Snapshot& s, F f) {
  f(s.intents);
  f(s.earlier);
  f(s.keys);
  f(s.deliveries);
  f(s.outbox);
  f(s.emails);
  f(s.in_flight);
  f(s.delivered);
  f(s.dropped);
  f(s.waiting);
  f(s.in_progress);
  f(s.relay_waiting);
}

std::size_t snapshot_bytes(const Snapshot& s, std::set<const void*>& counted) {
  std::size_t n = 0;
  each_list(s, [&](const auto& rows) { n += rows_bytes(rows, counted); });
  return n;
}

std::size_t message_bytes(const Message& m) {
  return bytes::of(m.intent) + bytes::of(m.op_key) + bytes::of(m.email_key) + bytes::of(m.payload) +
         bytes::of(m.fingerprint) + bytes::of(m.outcome) + bytes::of(m.receipt) + bytes::of(m.reason);
}

std::size_t fault_bytes(const Fault& f) { return bytes::of(f.intent); }

// footprint's sizes, those of the page's engine (Emscripten 3.1.6, wasm32): a step with its
// event (a LocalView is 704 of its 856 bytes) and the event's texts (60 to 70 bytes on
// average in the shipped lessons and large scenarios), and the knowledge's two node ids; a
// message with its texts; an injection point passed (a Fault and where it was passed); a
// table's storage (make_shared's block and the vector's, with their headers); a row's
// struct, at most 88 bytes, its texts apart; a message id; an entry of what a side waits for
// with its texts. Measured against heap_bytes in WASM (within 1% of what emmalloc counts):
// 1.06 to 1.4 times this, for shipped lessons, scenarios of 8 intents near the work limit
// and runs of 400 steps.
constexpr long long kStepFootprint = 856 + 8 + 72, kMessageFootprint = 168 + 8 + 160, kPointFootprint = 48 + 24,
                    kTableFootprint = 40, kRowFootprint = 88, kIdFootprint = 4, kWaitFootprint = 40;

// A row's struct: a message id, an entry of what a side waits for, or a table's row.
template <typename Row>
constexpr long long row_footprint() {
  if constexpr (std::is_same<Row, int>::value) return kIdFootprint;
  if constexpr (std::is_same<Row, Waiting>::value || std::is_same<Row, InProgress>::value ||
                std::is_same<Row, RelayWait>::value)
    return kWaitFootprint;
  return kRowFootprint;
}

template <typename Row>
long long rows_footprint(const Rows<Row>& rows, std::set<const void*>& counted) {
  const std::vector<Row>* v = rows.storage();
  if (!v || !counted.insert(v).second) return 0;
  long long n = kTableFootprint;
  for (const Row& r : *v) n += row_footprint<Row>() + row_texts(r, bytes::in_wasm);
  return n;
}

}  // namespace

long long Run::footprint(std::set<const void*>& counted) const {
  long long n = kStepFootprint * static_cast<long long>(steps.size()) + kMessageFootprint * static_cast<long long>(messages.size()) +
                kPointFootprint * static_cast<long long>(points.size());
  for (const Step& st : steps) each_list(st.snap, [&](const auto& rows) { n += rows_footprint(rows, counted); });
  return n;
}

long long Run::shown_rows() const {
  long long n = 0;
  for (const Step& st : steps) {
    const Snapshot& s = st.snap;
    n += static_cast<long long>(s.intents.size() + s.earlier.size() + s.keys.size() + s.deliveries.size() + s.outbox.size() +
                                s.emails.size());
  }
  return n;
}

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
