#include "engine/lesson/gating.hpp"

#include <algorithm>

#include "engine/json/fields.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

// {"from": first step, "to": last step | null (to the end)} written into `o`.
void put_range(json& o, const StepRange& r) {
  put(o, "from", r.from);
  put(o, "to", r.to ? json(*r.to) : json(nullptr));
}

// The step of the latest question card before `step`, or -1.
int previous_card_step(const PreparedLesson& p, int step) {
  int prev = -1;
  for (const Question& q : p.lesson.questions) {
    int s = p.question_step(q);
    if (s < step && s > prev) prev = s;
  }
  return prev;
}

}  // namespace

bool Hides::hides_cell(Side side, int step) const {
  return std::any_of(cells.begin(), cells.end(), [&](const SideRange& r) { return r.side == side && r.steps.contains(step); });
}

bool Hides::hides_truth(int step) const {
  return std::any_of(truth.begin(), truth.end(), [&](const StepRange& r) { return r.contains(step); });
}

bool Hides::hides_narration(int step) const {
  return std::find(narration.begin(), narration.end(), step) != narration.end();
}

json Hides::to_json() const {
  json c = json::array(), t = json::array(), n = json::array();
  for (const SideRange& r : cells) {
    json o = json::object();
    put(o, "side", to_string(r.side));
    put_range(o, r.steps);
    c.push_back(std::move(o));
  }
  for (const StepRange& r : truth) {
    json o = json::object();
    put_range(o, r);
    t.push_back(std::move(o));
  }
  for (int s : narration) n.push_back(s);
  json out = json::object();
  put(out, "cells", std::move(c));
  put(out, "truth", std::move(t));
  put(out, "narration", std::move(n));
  return out;
}

Hides hides_of(const PreparedLesson& p, const Question& q) {
  Hides h;
  const int step = p.question_step(q);
  const int from = previous_card_step(p, step) + 1;  // the first step on the way to the card
  if (q.kind == "knowledge") {
    h.cells.push_back({q.side, {0, step}});
    h.truth.push_back({step, step});
  } else if (q.kind == "table") {
    std::vector<int> moment_steps;
    for (const std::string& m : q.moments) {
      int s = p.moment_step.at(m);
      if (s > step && std::find(moment_steps.begin(), moment_steps.end(), s) == moment_steps.end()) {
        moment_steps.push_back(s);
      }
    }
    std::sort(moment_steps.begin(), moment_steps.end());
    for (Side side : q.sides) {
      // In step order: every step up to the card, then the moments after it.
      h.cells.push_back({side, {0, step}});
      for (int s : moment_steps) if (s > step) h.cells.push_back({side, {s, s}});
    }
    h.truth.push_back({step, step});
  } else if (q.kind == "predict" || q.kind == "choose") {
    h.truth.push_back({from, std::nullopt});
  }
  for (const Moment& m : p.lesson.moments) {
    if (p.moment_step.at(m.id) == step) {
      h.narration.push_back(step);
      break;
    }
  }
  return h;
}

}  // namespace idemlab
