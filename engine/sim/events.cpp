#include "engine/sim/events.hpp"


namespace idemlab {

const char* to_string(Side s) {
  switch (s) {
    case Side::None: return "none";
    case Side::Client: return "client";
    case Side::Service: return "service";
    case Side::Network: return "network";
    case Side::Provider: return "provider";
  }
  return "?";
}

const std::vector<EventRow>& event_table() {
  using K = EventKind;
  using S = Side;
#define IDEMLAB_EVENT_ROW(kind, ...) {K::kind, __VA_ARGS__},
  static const std::vector<EventRow> rows = {IDEMLAB_EVENTS(IDEMLAB_EVENT_ROW)};
#undef IDEMLAB_EVENT_ROW
  return rows;
}

const EventRow& event_row(EventKind kind) {
  // Made from the same list as EventKind (IDEMLAB_EVENTS): row i is kind i.
  return event_table()[static_cast<std::size_t>(kind)];
}

const EventRow* event_row(const std::string& name) {
  for (const EventRow& r : event_table()) {
    if (name == r.name) return &r;
  }
  return nullptr;
}

const std::vector<std::string>& event_kinds() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const EventRow& r : event_table()) out.push_back(r.name);
    return out;
  }();
  return names;
}

}  // namespace idemlab
