#pragma once
// What each side knows, computed and never authored (docs/design.md). Possible-worlds
// semantics (Halpern and Moses, "Knowledge and common knowledge in a distributed
// environment", JACM 1990): a side knows a fact at a point when the fact holds at every
// point of every world that the side cannot tell apart from it.
//
// A side's local view at a point is the sequence of its own events (kind, virtual time,
// and what it observed: keys, fingerprints, receipts, statuses, its crashes and
// restarts) plus the current virtual time (each side reads its own clock). A crash loses
// a process's memory: after a restart its view is the durable rows it reads back plus
// what it does from then on, so it cannot tell apart two worlds that left the same rows
// behind (docs/design.md, "The model"). A point of
// another world is a step j whose state holds at that time: time(j) <= t and the next
// step, if any, is at time >= t.
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/knowledge/facts.hpp"
#include "engine/knowledge/worlds.hpp"

namespace idemlab {

/// One cell of the knowledge grid.
struct Cell {
  bool known = false;
  nlohmann::json value;   ///< the actual value (the known one when known)
  nlohmann::json values;  ///< every value seen in the possible worlds, sorted
  int witness_world = -1; ///< a point where the value differs (when not known)
  int witness_step = -1;
  nlohmann::json witness_value;
  int worlds_considered = 0;  ///< distinct worlds among the possible points

  /// "knows_true" | "knows_false" | "knows" (counts) | "cannot_know"
  std::string verdict() const;
};

class Knowledge {
 public:
  /// `worlds[0]` must be the actual world. Keeps a reference: worlds must outlive this.
  explicit Knowledge(const std::vector<World>& worlds);

  /// The points (world, step) that `side` (Client or Service) cannot tell apart from
  /// step `step` of the actual world; (0, step) comes first.
  std::vector<std::pair<int, int>> possible(Side side, int step) const;
  Cell cell(Side side, int step, const FactRef& fact) const;
  /// The same over points already computed by `possible` (first must be the actual one).
  Cell cell(const std::vector<std::pair<int, int>>& points, const FactRef& fact) const;
  /// Cell as API.md's `Cell` JSON, with the witness described in both languages.
  nlohmann::json cell_json(const Cell& cell, const FactRef& fact) const;
  const std::vector<World>& worlds() const { return worlds_; }
  /// An estimate of the heap bytes it holds besides the worlds (engine/base/bytes.hpp).
  std::size_t heap_bytes() const;

 private:
  struct View {
    /// Per step: the side's history so far (since its last restart, if any) as a node id;
    /// equal ids mean equal histories, in any world.
    std::vector<int> node;
  };
  const View& view(int world, Side side) const;

  const std::vector<World>& worlds_;
  std::vector<View> client_, service_;
};

}  // namespace idemlab
