#include "engine/lesson/challenge.hpp"

#include <algorithm>
#include <set>

#include "engine/explore/explore.hpp"
#include "engine/lesson/prepared.hpp"
#include "engine/scenario/knobs.hpp"
#include "engine/scenario/limits.hpp"
#include "engine/scenario/scenario_json.hpp"
#include "engine/nodes/nodes.hpp"

namespace idemlab {
namespace {

using nlohmann::json;

static_assert(limits::kMaxChallengeFaults <= ExploreLimits::kMaxFaults,
              "a challenge's faults are searched by the explorer");

// 1134 -> "1,134": the counts a learner reads.
std::string number(long long n) {
  std::string digits = std::to_string(n < 0 ? -n : n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return (n < 0 ? "-" : "") + out;
}

std::string plural(long long n, const std::string& one, const std::string& many) {
  return number(n) + " " + (n == 1 ? one : many);
}

// "a, b and c" / "a、b 和 c"
L10n list_text(const std::vector<L10n>& items) {
  L10n out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    bool last = i + 1 == items.size() && i > 0;
    out.zh += (i == 0 ? "" : last ? " 和 " : "、") + items[i].zh;
    out.en += (i == 0 ? "" : last ? " and " : ", ") + items[i].en;
  }
  return out;
}

// The same, for names that read the same in both languages (knob paths).
L10n list_text(const std::vector<std::string>& names) {
  std::vector<L10n> items;
  for (const std::string& n : names) items.push_back({n, n});
  return list_text(items);
}

// A part of a scenario other than its knobs and faults, as a learner reads it.
L10n part_name(const std::string& field) {
  if (field == "script") return {"脚本", "the script"};
  if (field == "seed") return {"随机种子", "the seed"};
  if (field == "fault_space") return {"故障空间", "the fault space"};
  return {field, field};
}

// Knob paths ("client.key_scope") as they are, and other parts by their names.
L10n changed_text(const std::vector<std::string>& knobs, const std::vector<std::string>& other) {
  std::vector<L10n> all;
  for (const std::string& k : knobs) all.push_back({k, k});
  for (const std::string& f : other) all.push_back(part_name(f));
  return list_text(all);
}

// One knob whose value differs between two scenarios.
struct Change {
  const Knob* knob;
  json from, to;
};

// The knobs whose values differ from `start` to `s`, in knob table order.
std::vector<Change> knob_changes(const Scenario& start, const Scenario& s) {
  std::vector<Change> out;
  for (const Knob& k : knob_table()) {
    json from = k.get(start), to = k.get(s);
    if (from != to) out.push_back({&k, std::move(from), std::move(to)});
  }
  return out;
}

json changes_json(const std::vector<Change>& changes) {
  json out = json::array();
  for (const Change& c : changes) {
    json o = json::object();
    put(o, "knob", c.knob->path());
    put(o, "from", c.from);
    put(o, "to", c.to);
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<std::string> knob_paths(const std::vector<Change>& changes) {
  std::vector<std::string> out;
  for (const Change& c : changes) out.push_back(c.knob->path());
  return out;
}

// What differs from `start` to `s` besides knobs and faults: "seed", "script", "fault_space"
// (the names of their fields in a scenario).
std::vector<std::string> other_differences(const Scenario& start, const Scenario& s) {
  json a = write_scenario(start), b = write_scenario(s);
  std::vector<std::string> out;
  for (const char* field : {"seed", "script", "fault_space"}) {
    if (a[field] != b[field]) out.push_back(field);
  }
  return out;
}

const Violation* violation_of(const std::vector<Violation>& vs, Invariant goal) {
  for (const Violation& v : vs) {
    if (v.invariant == goal) return &v;
  }
  return nullptr;
}

// "up to 2 faults" / "最多 2 个故障"
L10n up_to(int k) { return {"最多 " + std::to_string(k) + " 个故障", "up to " + plural(k, "fault", "faults")}; }

// "no violation in 1,134 schedules of up to 2 faults" (the search as searched, never "safe")
L10n searched(const ExploreResult& r) {
  L10n k = up_to(r.max_faults);
  return {"在" + k.zh + "的 " + number(r.schedules) + " 种故障组合里", plural(r.schedules, "schedule", "schedules") + " of " + k.en};
}

// The explorer at K, stopped at the first violation (a yes/no question: does any schedule
// break an invariant?).
ExploreResult explore_until_violation(const Scenario& s, int k) {
  ExploreLimits limits;
  limits.max_faults = k;
  for (const InvariantInfo& i : invariant_table()) limits.stop_on.push_back(i.id);
  return explore(s, limits);
}

// A fix passes a search that is complete and clean: no schedule broke an invariant, and
// every one settled (one stopped at a limit is inconclusive, never "no violation").
bool passes(const ExploreResult& r) { return r.clean(); }

// `check`'s refusal of a challenge whose search (`what`: "the search from the starting
// point") had schedules that stopped at a limit before they settled: its verdict on them is
// none, and a challenge is checked on verdicts.
LessonProblem inconclusive_problem(const Lesson& lesson, const ExploreResult& r, const std::string& what) {
  std::string reason = what + " is inconclusive: " + r.inconclusive_text().en;
  if (r.inconclusive_example) {
    const FaultPlan& plan = r.inconclusive_example->plan;
    reason += " (the first: " + (plan.faults.empty() ? std::string("with no fault") : "when " + plan.describe().en) + ")";
  }
  return {lesson.file, "/challenge",
          reason + "; make every run settle within the limits (an earlier script action, shorter timeouts or fewer attempts)"};
}

// The values `check` tries for one knob, likeliest fix first: its right setting(s), then
// its default, then the other values (integers: the ends of the typical range), each
// different from the start's value.
std::vector<json> candidate_values(const Knob& k, const json& current) {
  std::vector<json> out;
  auto add = [&](const json& v) {
    if (v != current && std::find(out.begin(), out.end(), v) == out.end()) out.push_back(v);
  };
  auto value = [&](const KnobValue& v) { return k.type == KnobType::Boolean ? json(v.name == "true") : json(v.name); };
  for (const KnobValue& v : k.values) {
    if (v.setting == Setting::Right) add(value(v));
  }
  add(k.default_value);
  for (const KnobValue& v : k.values) add(value(v));
  if (k.type == KnobType::Integer) {
    add(k.typical_min);
    add(k.typical_max);
  }
  return out;
}

struct Move {
  const Knob* knob;
  json value;
};

// The start with `moves` applied, when it is a scenario a learner could write (it reads
// back with exactly these knobs changed: e.g. max_attempts beside retry_layers does not).
bool apply(const Scenario& start, const std::vector<const Move*>& moves, Scenario& out) {
  out = start;
  for (const Move* m : moves) m->knob->set(out, m->value);
  Reader r("candidate");
  Scenario back;
  std::set<std::string> intents;
  read_scenario(r, write_scenario(out), "", back, intents);
  if (!r.problems().empty()) return false;
  std::vector<Change> changes = knob_changes(start, back);
  if (changes.size() != moves.size()) return false;
  for (const Move* m : moves) {
    if (m->knob->get(back) != m->value) return false;
  }
  out = back;
  return true;
}

bool solve_break(const Lesson& lesson, const Challenge& c, ChallengeSolution& out, LessonProblem& why) {
  const std::string name = to_string(*c.goal);
  Run start = simulate(c.start, c.start.faults);
  if (violation_of(check_invariants(start).violations, *c.goal)) {
    why = {lesson.file, "/challenge",
           "the starting point already breaks " + name +
               " with no fault: nothing is left for the learner to break (change \"policy\" or \"goal\")"};
    return false;
  }
  ExploreLimits limits;
  limits.max_faults = c.max_faults;
  limits.stop_on = {*c.goal};
  ExploreResult r = explore(c.start, limits);
  if (r.inconclusive > 0) {
    why = inconclusive_problem(lesson, r, "the search for a plan of at most " + plural(c.max_faults, "fault", "faults") + " that breaks " + name);
    return false;
  }
  for (const Counterexample& x : r.counterexamples) {
    if (x.violation.invariant != *c.goal) continue;
    out.scenario = c.start;
    out.scenario.faults = x.plan;
    return true;
  }
  std::string reason = "no plan of at most " + plural(c.max_faults, "fault", "faults") + " breaks " + name +
                       " from the starting point: the explorer searched " +
                       plural(r.schedules, "schedule", "schedules") + " of up to " + std::to_string(c.max_faults);
  if (!r.complete) reason += " (" + r.cut_text.en + ")";
  why = {lesson.file, c.max_faults < limits::kMaxChallengeFaults ? "/challenge/max_faults" : "/challenge/goal",
         reason + "; allow more faults or change \"policy\" or \"goal\""};
  return false;
}

bool solve_fix(const Lesson& lesson, const Challenge& c, ChallengeSolution& out, LessonProblem& why) {
  ExploreResult at_start = explore_until_violation(c.start, c.faults);
  if (at_start.inconclusive > 0) {
    why = inconclusive_problem(lesson, at_start, "the search from the starting point (up to " + plural(c.faults, "fault", "faults") + ")");
    return false;
  }
  if (at_start.violating == 0) {
    why = {lesson.file, "/challenge",
           "the starting point already passes: no violation in " + searched(at_start).en +
               (at_start.complete ? "" : " (" + at_start.cut_text.en + ")") +
               "; a fix challenge starts from a policy that fails (set \"policy\")"};
    return false;
  }
  // Every single change, likeliest first: a knob moved to its right setting, then each
  // knob's first other candidate, then its second, and so on; then pairs and triples of
  // those moves.
  std::vector<Move> moves;
  std::vector<std::vector<json>> values;
  std::vector<const Knob*> knobs;
  for (const std::string& path : c.knobs) {
    std::size_t dot = path.find('.');
    const Knob* k = find_knob(path.substr(0, dot), path.substr(dot + 1));
    knobs.push_back(k);
    values.push_back(candidate_values(*k, k->get(c.start)));
  }
  for (std::size_t rank = 0, more = 1; more; ++rank) {
    more = 0;
    for (std::size_t i = 0; i < knobs.size(); ++i) {
      if (rank < values[i].size()) {
        moves.push_back({knobs[i], values[i][rank]});
        more = 1;
      }
    }
  }
  // A knob moved to its right setting before any other move.
  std::stable_partition(moves.begin(), moves.end(),
                        [](const Move& m) { return m.knob->setting_of(m.value) == Setting::Right; });
  int tried = 0, unsettled = 0;  // unsettled: candidates clean but for inconclusive schedules
  bool capped = false;
  // Tries the moves of `chosen` plus every further move after `from`, up to `size` moves.
  std::vector<const Move*> chosen;
  auto search = [&](auto& self, std::size_t from, std::size_t size) -> bool {
    if (chosen.size() == size) {
      Scenario candidate;
      if (!apply(c.start, chosen, candidate)) return false;
      if (tried >= limits::kMaxFixCandidates) {
        capped = true;
        return false;
      }
      ++tried;
      ExploreResult r = explore_until_violation(candidate, c.faults);
      if (r.complete && r.violating == 0 && r.inconclusive > 0) ++unsettled;
      if (!passes(r)) return false;
      out.scenario = candidate;
      out.changes = changes_json(knob_changes(c.start, candidate));
      return true;
    }
    for (std::size_t i = from; i < moves.size() && !capped; ++i) {
      bool same_knob = false;
      for (const Move* m : chosen) same_knob = same_knob || m->knob == moves[i].knob;
      if (same_knob) continue;
      chosen.push_back(&moves[i]);
      bool found = self(self, i + 1, size);
      chosen.pop_back();
      if (found) return true;
    }
    return false;
  };
  for (int size = 1; size <= c.max_changes && !capped; ++size) {
    if (search(search, 0, static_cast<std::size_t>(size))) {
      out.scenario.faults = c.start.faults;
      return true;
    }
  }
  std::string reason = "no change of at most " + plural(c.max_changes, "knob", "knobs") + " (of " +
                       join_names(c.knobs) + ") leaves the explorer without a violation in every schedule of up to " +
                       plural(c.faults, "fault", "faults") + ": " + plural(tried, "candidate", "candidates") + " searched";
  if (unsettled > 0) {
    reason += " (" + plural(unsettled, "candidate", "candidates") + " broke no invariant but had schedules that did not settle within the run's limits: " +
              "their end was not checked, so they are no solution)";
  }
  if (capped) reason += ", and the search stops at " + std::to_string(limits::kMaxFixCandidates) + " (limits::kMaxFixCandidates), so a rarer one may exist";
  why = {lesson.file, "/challenge", reason + "; allow more changes or other knobs, or change \"policy\""};
  return false;
}

json verdict_json(const std::vector<Violation>& vs) {
  json out = json::array();
  for (const Violation& v : vs) out.push_back(v.to_json());
  return out;
}

json judged(bool solved, bool allowed, const L10n& text, const std::vector<Change>& changes, std::size_t faults) {
  json out = json::object();
  put(out, "solved", solved && allowed);
  put(out, "allowed", allowed);
  put(out, "text", text.to_json());
  put(out, "changes", changes_json(changes));
  put(out, "faults", faults);
  return out;
}

json judge_break(const Lesson& lesson, const Challenge& c, const Scenario& a) {
  std::vector<Change> changes = knob_changes(c.start, a);
  std::vector<std::string> other = other_differences(c.start, a);
  std::size_t n = a.faults.faults.size();
  const L10n goal = info(*c.goal).title;
  if (!changes.empty() || !other.empty()) {
    L10n what = changed_text(knob_paths(changes), other);
    json out = judged(false, false,
                      {"你改动了 " + what.zh + "；这个挑战只让你放置故障，其余都要和起点一样。",
                       "You changed " + what.en + "; in this challenge only the faults change, everything else stays as it starts."},
                      changes, n);
    put(out, "violations", json::array());
    return out;
  }
  if (static_cast<int>(n) > c.max_faults) {
    json out = judged(false, false,
                      {"你放了 " + number(static_cast<long long>(n)) + " 个故障；这个挑战最多允许 " + std::to_string(c.max_faults) + " 个。",
                       "You placed " + plural(static_cast<long long>(n), "fault", "faults") + "; this challenge allows " +
                           std::to_string(c.max_faults) + "."},
                      changes, n);
    put(out, "violations", json::array());
    return out;
  }
  Run run = simulate(a, a.faults);
  std::vector<LessonProblem> problems;
  unfired_faults(lesson.file, a.faults.faults, run, "/attempt/faults", problems);
  if (!problems.empty()) {
    std::size_t i = std::stoul(problems[0].path.substr(problems[0].path.rfind('/') + 1));
    L10n fault = a.faults.faults[i].describe();
    bool twice = problems[0].reason.find(" again: ") != std::string::npos;
    json out = judged(false, false,
                      twice ? L10n{"同一个故障（" + fault.zh + "）放了两次：一个注入点只会触发一次。",
                                   "The same fault (" + fault.en + ") is placed twice: " + problems[0].reason + "."}
                            : L10n{"计划中的故障（" + fault.zh + "）不会触发：这次运行从未经过那个注入点。",
                                   "The planned fault (" + fault.en + ") does not fire: " + problems[0].reason + "."},
                      changes, n);
    json ps = json::array();
    for (const LessonProblem& p : problems) ps.push_back(p.to_json());
    put(out, "problems", std::move(ps));
    put(out, "violations", json::array());
    return out;
  }
  RunVerdict verdict = check_invariants(run);
  const Violation* hit = violation_of(verdict.violations, *c.goal);
  L10n text;
  std::string with = plural(static_cast<long long>(n), "fault", "faults");
  if (hit) {
    text = {"做到了：用 " + number(static_cast<long long>(n)) + " 个故障，这次运行出现了" + goal.zh + "。" + hit->reason.zh,
            "Solved: with " + with + ", the run shows a " + goal.en + ". " + hit->reason.en};
  } else if (verdict.violations.empty() && verdict.stop != StopReason::Settled) {
    // Stopped at a limit: the invariants of its end were never judged ("breaks no
    // invariant" would claim what was not checked).
    L10n stop = describe(verdict.stop);
    text = {"这次运行没有结束就停下了：" + stop.zh + "。结束时的不变量没有检查，目标是让它出现" + goal.zh + "。",
            "The run did not settle: " + stop.en + ". Its end was not checked; the goal is a " + goal.en + "."};
  } else if (verdict.violations.empty() && n == 0) {
    text = {"还没有放故障：这次运行没有违反任何不变量；目标是让它出现" + goal.zh + "。",
            "No fault placed yet: the run breaks no invariant; the goal is a " + goal.en + "."};
  } else if (verdict.violations.empty()) {
    text = {"放了 " + number(static_cast<long long>(n)) + " 个故障，这次运行仍然没有违反任何不变量；目标是让它出现" + goal.zh + "。",
            "With " + with + ", the run breaks no invariant; the goal is a " + goal.en + "."};
  } else {
    std::vector<L10n> names;
    std::vector<Invariant> seen;
    for (const Violation& v : verdict.violations) {
      if (std::find(seen.begin(), seen.end(), v.invariant) != seen.end()) continue;
      seen.push_back(v.invariant);
      names.push_back(info(v.invariant).title);
    }
    L10n broke = list_text(names);
    text = {"这次运行出现的是" + broke.zh + "，不是" + goal.zh + "。", "The run shows " + broke.en + ", not a " + goal.en + "."};
    if (verdict.stop != StopReason::Settled) {
      text = L10n::join(text, {"不过它没有结束就停下了，结束时的不变量没有检查。", "It did not settle, though: its end was not checked."});
    }
  }
  json out = judged(hit != nullptr, true, text, changes, n);
  put(out, "violations", verdict_json(verdict.violations));
  put(out, "stop", to_string(verdict.stop));
  return out;
}

json judge_fix(const Challenge& c, const Scenario& a) {
  std::vector<Change> changes = knob_changes(c.start, a);
  std::vector<std::string> other = other_differences(c.start, a);
  std::size_t n = a.faults.faults.size();
  std::vector<std::string> outside;
  for (const Change& ch : changes) {
    if (std::find(c.knobs.begin(), c.knobs.end(), ch.knob->path()) == c.knobs.end()) outside.push_back(ch.knob->path());
  }
  auto refuse = [&](const L10n& text) {
    json out = judged(false, false, text, changes, n);
    put(out, "explore", nullptr);
    return out;
  };
  if (!other.empty()) {
    L10n what = changed_text({}, other);
    return refuse({"你改动了 " + what.zh + "；这个挑战只让你改策略的开关，场景的其余部分要和起点一样。",
                   "You changed " + what.en + "; in this challenge only knobs change, the rest of the scenario stays as it starts."});
  }
  if (!outside.empty()) {
    L10n what = list_text(outside), allowed = list_text(c.knobs);
    return refuse({"这个挑战不让你改 " + what.zh + "；可以改的是：" + allowed.zh + "。",
                   "This challenge does not let you change " + what.en + "; you may change " + allowed.en + "."});
  }
  if (static_cast<int>(changes.size()) > c.max_changes) {
    return refuse({"你改了 " + number(static_cast<long long>(changes.size())) + " 个开关（" + list_text(knob_paths(changes)).zh +
                       "）；这个挑战最多允许改 " + std::to_string(c.max_changes) + " 个。",
                   "You changed " + plural(static_cast<long long>(changes.size()), "knob", "knobs") + " (" +
                       list_text(knob_paths(changes)).en + "); this challenge allows " + std::to_string(c.max_changes) + "."});
  }
  ExploreLimits limits;
  limits.max_faults = c.faults;
  ExploreResult r = explore(a, limits);
  L10n where = searched(r);
  L10n text;
  if (passes(r)) {
    text = {where.zh + "都没有违反不变量：修好了。", "Solved: no violation in " + where.en + "."};
  } else if (r.violating > 0) {
    const Counterexample& x = r.counterexamples.front();
    L10n plan = x.plan.describe();
    L10n example = x.plan.faults.empty() ? L10n{"即使没有任何故障：", "Even with no fault: "}
                                         : L10n{"比如" + plan.zh + "时：", "For example, when " + plan.en + ": "};
    text = {where.zh + "，有 " + number(r.violating) + " 种违反了不变量。" + example.zh + x.violation.reason.zh,
            number(r.violating) + " of " + where.en + " break an invariant. " + example.en + x.violation.reason.en};
  } else if (r.inconclusive > 0) {
    L10n why = r.inconclusive_text();
    text = {where.zh + "没有发现违反，但这还不算修好：" + why.zh + "。",
            "No violation found in " + where.en + ", but that is not a fix yet: " + why.en + "."};
  } else {
    text = {where.zh + "没有违反，但搜索没有做完：" + r.cut_text.zh + "。",
            "No violation in " + where.en + ", but not every schedule was searched: " + r.cut_text.en + "."};
  }
  if (changes.empty()) {
    text = L10n::join({"还没有改任何开关。", "No knob changed yet."}, text, "", " ");
  }
  json e = json::object();
  put(e, "schedules", r.schedules);
  put(e, "violating", r.violating);
  put(e, "complete", r.complete);
  put(e, "inconclusive", r.inconclusive);
  put(e, "max_faults", r.max_faults);
  put(e, "counterexample", r.counterexamples.empty() ? json(nullptr) : r.counterexamples.front().to_json(a));
  json out = judged(passes(r), true, text, changes, n);
  put(out, "explore", std::move(e));
  return out;
}

}  // namespace

json ChallengeSolution::to_json() const {
  json out = json::object();
  put(out, "solution", write_scenario(scenario));
  if (changes.empty()) put(out, "faults", write_plan(scenario.faults));
  else put(out, "changes", changes);
  return out;
}

bool find_challenge_solution(const Lesson& lesson, ChallengeSolution& out, LessonProblem& why) {
  const Challenge& c = *lesson.challenge;
  return c.kind == "break" ? solve_break(lesson, c, out, why) : solve_fix(lesson, c, out, why);
}

json challenge_view(const Challenge& c) {
  json out = json::object();
  bool breaks = c.kind == "break";
  put(out, "kind", c.kind);
  put(out, "prompt", c.prompt.to_json());
  put(out, "goal", c.goal ? json(to_string(*c.goal)) : json(nullptr));
  put(out, "goal_text", c.goal ? info(*c.goal).meaning.to_json() : json(nullptr));
  put(out, "goal_title", c.goal ? info(*c.goal).title.to_json() : json(nullptr));
  put(out, "hint", c.hint ? c.hint->to_json() : json(nullptr));
  if (breaks) {
    put(out, "max_faults", c.max_faults);
  } else {
    put(out, "max_changes", c.max_changes);
    put(out, "faults", c.faults);
    put(out, "knobs", c.knobs);
  }
  put(out, "scenario", write_scenario(c.start));
  return out;
}

bool read_attempt(Reader& r, const json& attempt, Scenario& a) {
  std::set<std::string> intents;
  read_scenario(r, attempt, "/attempt", a, intents);
  return r.problems().empty();
}

json judge_read_attempt(const Lesson& lesson, const Scenario& a) {
  const Challenge& c = *lesson.challenge;
  return c.kind == "break" ? judge_break(lesson, c, a) : judge_fix(c, a);
}

}  // namespace idemlab
