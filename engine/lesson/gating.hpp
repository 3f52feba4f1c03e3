#pragma once
// "Predict before you reveal": what stays hidden on the page while a question is
// unanswered, because it would give the answer away. The engine decides it (the page only
// applies it): `run` returns it with every question (engine/api/API.md, QuestionView
// "hides"); a front end hides the union over the questions not yet answered.
//
// The rule, for a question whose card stands at step S. While it is open the learner can
// reach every step 0..S and no later one (the timeline stops at the first open card), so
// what would give its answer away is hidden over all of 0..S:
// - knowledge about side X: X's column of the knowledge grid at 0..S (the asked cell, the
//   same cell at a step where it has not changed yet, and the side's other cells, which
//   tell the answer as well as the asked one does), and the truth at S;
// - table: each of its sides' columns at 0..S and at each of its moments' steps, and the
//   truth at S;
// - predict and choose: the truth from P+1 to the end, with P the step of the previous
//   question card (the answer is about what happens next; the truth before P+1 is the past
//   the earlier cards already stood on);
// - concept: no cell and no truth (no state is involved);
// - every kind, concept included: the narration of the moments at S, the step where the
//   card appears (it often says what happens, or what would be wrong, in so many words).
// Texts that could give an answer away (titles, labels, narration of earlier moments,
// self-check lines, other questions' answers) are audited by engine/lesson/secrecy.hpp.
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// Steps `from`..`to`, both included; no `to`: to the run's last step and past it.
struct StepRange {
  int from = 0;
  std::optional<int> to;
  bool contains(int step) const { return step >= from && (!to || step <= *to); }
};

/// One side's column of the knowledge grid over a range of steps.
struct SideRange {
  Side side = Side::Client;
  StepRange steps;
};

struct Hides {
  std::vector<SideRange> cells;  ///< knowledge grid columns, per side, in ranges
  std::vector<StepRange> truth;  ///< the observer's truth (effects, the true column)
  std::vector<int> narration;    ///< steps whose moments' narration waits, ascending

  /// Whether `side`'s column (Client or Service) is hidden at `step`.
  bool hides_cell(Side side, int step) const;
  bool hides_truth(int step) const;
  bool hides_narration(int step) const;

  /// {"cells": [{"side": "client", "from": 3, "to": 9}], "truth": [{"from": 9, "to": 9 | null}],
  ///  "narration": [9]} (`to` null: to the end).
  nlohmann::json to_json() const;
};

/// What stays hidden while question `q` of `p` is unanswered (the rule above).
Hides hides_of(const PreparedLesson& p, const Question& q);

}  // namespace idemlab
