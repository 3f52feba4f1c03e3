#include "engine/knowledge/knowledge.hpp"

#include <algorithm>
#include <map>

#include "engine/base/bytes.hpp"
#include "engine/json/fields.hpp"
#include "engine/json/write.hpp"

namespace idemlab {
namespace {

// What a restarted process reads back: its own durable rows. Its memory of everything
// before the crash is gone, so its view starts again from here.
std::string durable_rows(Side side, const Snapshot& snap) {
  nlohmann::json rows = nlohmann::json::array();
  if (side == Side::Client) {
    for (const IntentRow& r : snap.intents) {
      rows.push_back({r.intent, r.op_key, r.fingerprint, r.status, r.receipt.value_or(""), r.attempts});
    }
    for (const EarlierVersionRow& r : snap.earlier) {
      rows.push_back({r.intent, r.version, r.op_key, r.fingerprint, r.status, r.receipt.value_or("")});
    }
  } else {
    for (const KeyRow& r : snap.keys) rows.push_back({r.op_key, r.fingerprint, r.receipt, r.created_at, r.status});
    for (const DeliveryRow& r : snap.deliveries) rows.push_back({r.op_key, r.fingerprint, r.receipt, r.created_at});
    for (const OutboxRow& r : snap.outbox) rows.push_back({r.email_key, r.op_key, r.status, r.attempts, r.created_at});
  }
  return write_json(rows);
}

}  // namespace

std::size_t Knowledge::heap_bytes() const {
  auto view = [](const View& v) { return bytes::storage(v.node); };
  return bytes::of(client_, view) + bytes::of(service_, view);
}

std::string Cell::verdict() const {
  if (!known) return "cannot_know";
  if (value.is_boolean()) return value.get<bool>() ? "knows_true" : "knows_false";
  return "knows";
}

Knowledge::Knowledge(const std::vector<World>& worlds) : worlds_(worlds) {
  std::map<std::pair<int, std::string>, int> client_trie, service_trie;
  for (const World& w : worlds_) {
    for (Side side : {Side::Client, Side::Service}) {
      // Each distinct history since the last restart gets one node of a trie shared by
      // every world: two points look the same to the side exactly when their nodes match.
      std::map<std::pair<int, std::string>, int>& trie = side == Side::Client ? client_trie : service_trie;
      View v;
      int node = 0;  // the root: nothing seen yet
      for (const Step& s : w.run.steps) {
        if (s.event.side == side) {
          std::string sig = std::to_string(s.t) + "|" + s.event.name() + "|" + write_json(s.event.local.to_json());
          if (s.event.type == EventKind::Restart) {
            node = 0;  // memory is gone: what it reads back starts a new history
            sig += "|" + durable_rows(side, s.snap);
          }
          auto [it, added] = trie.emplace(std::make_pair(node, std::move(sig)), static_cast<int>(trie.size()) + 1);
          node = it->second;
        }
        v.node.push_back(node);
      }
      (side == Side::Client ? client_ : service_).push_back(std::move(v));
    }
  }
}


const Knowledge::View& Knowledge::view(int world, Side side) const {
  return side == Side::Client ? client_[world] : service_[world];
}

std::vector<std::pair<int, int>> Knowledge::possible(Side side, int step) const {
  std::vector<std::pair<int, int>> out = {{0, step}};  // the actual point comes first
  const Run& actual = worlds_[0].run;
  std::int64_t t = actual.steps.at(step).t;
  const View& here = view(0, side);
  for (std::size_t w = 0; w < worlds_.size(); ++w) {
    const Run& run = worlds_[w].run;
    const View& v = view(static_cast<int>(w), side);
    for (std::size_t j = 0; j < run.steps.size(); ++j) {
      if (run.steps[j].t > t) break;
      bool holds_at_t = j + 1 == run.steps.size() || run.steps[j + 1].t >= t;
      bool actual_point = w == 0 && static_cast<int>(j) == step;
      if (holds_at_t && !actual_point && here.node[step] == v.node[j]) {
        out.emplace_back(static_cast<int>(w), static_cast<int>(j));
      }
    }
  }
  return out;
}

Cell Knowledge::cell(Side side, int step, const FactRef& fact) const {
  return cell(possible(side, step), fact);
}

Cell Knowledge::cell(const std::vector<std::pair<int, int>>& points, const FactRef& fact) const {
  Cell c;
  c.value = evaluate(fact, worlds_[points.front().first].run, points.front().second);
  std::vector<nlohmann::json> values;
  std::vector<int> worlds_seen;
  for (auto [w, j] : points) {
    nlohmann::json v = evaluate(fact, worlds_[w].run, j);
    if (std::find(values.begin(), values.end(), v) == values.end()) values.push_back(v);
    if (std::find(worlds_seen.begin(), worlds_seen.end(), w) == worlds_seen.end()) worlds_seen.push_back(w);
    if (v != c.value && c.witness_world < 0) {
      c.witness_world = w;
      c.witness_step = j;
      c.witness_value = v;
    }
  }
  std::sort(values.begin(), values.end());
  c.values = values;
  c.known = values.size() == 1;
  c.worlds_considered = static_cast<int>(worlds_seen.size());
  return c;
}

nlohmann::json Knowledge::cell_json(const Cell& c, const FactRef& fact) const {
  nlohmann::json out = nlohmann::json::object();
  if (c.known) {
    put(out, "status", "knows");
    put(out, "value", c.value);
    return out;
  }
  const World& w = worlds_[c.witness_world];
  L10n name = run_name(w);
  L10n where = w.actual ? L10n{"在这次运行里稍早的同一时刻", "earlier at this same instant of this run"}
                        : L10n{"在" + name.zh + "里", "in " + name.en};
  L10n text = L10n::join(where, fact_statement(fact, c.witness_value), "，", ", ");
  nlohmann::json witness = nlohmann::json::object();
  put(witness, "world", c.witness_world);
  put(witness, "step", c.witness_step);
  put(witness, "value", c.witness_value);
  put(witness, "text", text.to_json());
  put(out, "status", "cannot_know");
  put(out, "values", c.values);
  put(out, "witness", std::move(witness));
  return out;
}

}  // namespace idemlab
