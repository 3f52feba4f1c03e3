#include "engine/lesson/prepared.hpp"

#include <algorithm>
#include <set>

#include "engine/base/bytes.hpp"
#include "engine/invariants/invariants.hpp"
#include "engine/lesson/answers.hpp"
#include "engine/lesson/choose.hpp"
#include "engine/lesson/secrecy.hpp"
#include "engine/scenario/limits.hpp"

namespace idemlab {

int PreparedLesson::question_step(const Question& q) const {
  auto it = moment_step.find(q.moment);
  if (it != moment_step.end()) return it->second;
  return static_cast<int>(run().steps.size()) - 1;
}

std::size_t PreparedLesson::heap_bytes() const {
  std::set<const void*> counted;  // rows shared by worlds forked from one run: counted once
  auto fault = [](const Fault& f) { return bytes::of(f.intent); };
  std::size_t n = bytes::of(worlds, [&](const World& w) { return bytes::of(w.plan.faults, fault) + w.run.heap_bytes(counted); });
  if (knowledge) n += bytes::block(sizeof(Knowledge)) + knowledge->heap_bytes();
  n += bytes::of(moment_step, [](const std::string& id, int) { return bytes::of(id); });
  n += bytes::of(right_option, [](const std::string& id, const std::string& option) { return bytes::of(id) + bytes::of(option); });
  return n;
}

namespace {

// Whether a moment's "status" matches the status an event noted (a client's intent status,
// or the HTTP status of a service's stored result); an event that noted none matches none.
bool same_status(const nlohmann::json& want, const LocalView& local) {
  if (local.status) return want == nlohmann::json(*local.status);
  if (local.stored_status) return want == nlohmann::json(*local.stored_status);
  return false;
}

}  // namespace

std::vector<LessonProblem> unsettled_world_problems(const PreparedLesson& p) {
  for (const World& w : p.worlds) {
    if (w.run.stop == StopReason::Settled) continue;
    const std::string reason = describe(w.run.stop).en;
    const std::string fix = ". Make every run settle within the limits (an earlier script action, shorter timeouts or fewer attempts)";
    if (w.actual) return {{p.lesson.file, "/scenario", "the lesson's own run does not settle, so its end is inconclusive: " + reason + fix}};
    const std::string when = w.plan.faults.empty() ? std::string("with no fault") : "when " + w.plan.describe().en;
    return {{p.lesson.file, "/fault_space",
             "a run of the fault space (" + when + ") does not settle, so its end is inconclusive: " + reason +
                 ". What the lesson knows and predicts over its fault space would be computed on that run cut short" + fix}};
  }
  return {};
}

int find_moment_step(const Run& run, const nlohmann::json& match) {
  int nth = match.value("nth", 1);
  for (const Step& s : run.steps) {
    const Event& e = s.event;
    const Message* m = e.message >= 0 ? &run.messages[e.message] : nullptr;
    if (match.contains("event") && match["event"] != e.name()) continue;
    if (match.contains("side") && match["side"] != to_string(e.side)) continue;
    if (match.contains("intent") && match["intent"] != e.intent) continue;
    if (match.contains("message") && (!m || match["message"] != to_string(m->kind))) continue;
    if (match.contains("attempt") && (!m || match["attempt"] != m->n)) continue;
    if (match.contains("status") && !same_status(match["status"], e.local)) continue;
    if (--nth == 0) return s.i;
  }
  return -1;
}

void unfired_faults(const std::string& file, const std::vector<Fault>& faults, const Run& run,
                    const std::string& path_of_faults, std::vector<LessonProblem>& problems) {
  for (std::size_t i = 0; i < faults.size(); ++i) {
    std::string id = faults[i].id();
    std::string path = path_of_faults + "/" + std::to_string(i);
    bool fired = std::any_of(run.fired.begin(), run.fired.end(), [&](const Fault& f) { return f.id() == id; });
    if (fired) {
      auto first = std::find_if(faults.begin(), faults.begin() + static_cast<std::ptrdiff_t>(i),
                                [&](const Fault& f) { return f.id() == id; });
      if (first != faults.begin() + static_cast<std::ptrdiff_t>(i)) {
        problems.push_back({file, path,
                            "fault '" + id + "' is " + path_of_faults + "/" +
                                std::to_string(first - faults.begin()) + " again: an injection point fires once"});
      }
      continue;
    }
    // A few points of the same kind the run does pass, in the order it passes them.
    std::vector<std::string> passed;
    for (const Fault& p : run.points) {
      std::string pid = p.id();
      if (!p.same_kind(faults[i]) || std::find(passed.begin(), passed.end(), pid) != passed.end()) continue;
      passed.push_back(pid);
    }
    std::string reason = "fault '" + id + "' never fires: the run never passes that injection point";
    if (passed.empty()) {
      reason += " (it passes no point of that kind)";
    } else {
      reason += "; points of that kind it passes: ";
      for (std::size_t k = 0; k < passed.size() && k < 4; ++k) reason += (k ? ", " : "") + passed[k];
      if (passed.size() > 4) reason += ", ...";
    }
    problems.push_back({file, path, reason});
  }
}

namespace {

const char* const kWithinBudget = " are allowed, so that every lesson loads in a browser within a second";

// The work of checking `p` (limits::kMaxCheckWork), estimated before any question is
// answered: its worlds' runs, and for each choose option (or predict question's `if`) a
// run from the question's moment in every world the client cannot tell apart there,
// about as long as that world's own run (engine/lesson/forks.cpp); each run counts
// limits::kRunWork steps more.
long long check_work(const PreparedLesson& p) {
  long long steps = 0;
  for (const World& w : p.worlds) steps += static_cast<long long>(w.run.steps.size()) + limits::kRunWork;
  for (const Question& q : p.lesson.questions) {
    long long forks = 0;
    if (q.kind == "choose") {
      for (const Option& o : q.options) forks += o.action ? 1 : 0;
    } else if (q.kind == "predict" && q.fork) {
      forks = 1;
    }
    if (!forks) continue;
    std::set<int> seen;
    for (auto [w, j] : p.knowledge->possible(Side::Client, p.question_step(q))) {
      (void)j;
      if (seen.insert(w).second) steps += forks * (static_cast<long long>(p.worlds[w].run.steps.size()) + limits::kRunWork);
    }
  }
  return steps;
}

// "12.3 MiB"
std::string mib(long long bytes) {
  long long tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024);
  return std::to_string(tenths / 10) + "." + std::to_string(tenths % 10) + " MiB";
}

// The memory of the fault space's runs in the page's engine (Run::footprint), over `max`:
// its problem, or "".
std::string footprint_problem(long long bytes, long long max, int runs, int steps) {
  if (bytes <= max) return "";
  return "the fault space holds " + std::to_string(runs) + " runs of about " + std::to_string(steps) + " steps, about " + mib(bytes) +
         " of memory in the page's engine; at most " + mib(static_cast<long long>(limits::kMaxFaultSpaceBytes)) +
         " are allowed, so that every lesson loads in a browser: consider fewer intents, fewer crash points, not losing "
         "every message, or a shorter script";
}

}  // namespace

std::shared_ptr<const PreparedLesson> prepare_checked(Lesson lesson, std::vector<LessonProblem>& problems) {
  // The fault space, before it is built: its runs, each about as long as the run with no
  // fault and holding about as much.
  FaultSpaceSize space = fault_space_size(lesson.scenario);
  long long work = static_cast<long long>(space.plans) * (space.fault_free_steps + limits::kRunWork);
  if (space.plans > limits::kMaxWorlds || work > limits::kMaxCheckWork) {
    problems.push_back({lesson.file, "/scenario/fault_space",
                        "the fault space holds " + std::to_string(space.plans) + " runs of about " +
                            std::to_string(space.fault_free_steps) + " steps; at most " + std::to_string(limits::kMaxWorlds) +
                            " runs and " + std::to_string(limits::kMaxCheckWork) + " steps in all" + kWithinBudget +
                            ": consider fewer crash points, not losing every message, or a shorter script"});
    return nullptr;
  }
  // Every run counted whole as the one with no fault, where the runs built share the rows
  // of their common beginning: 1.1 to 1.3 times what they hold, so only a space far over the
  // limit is refused before it is built.
  const long long max_bytes = static_cast<long long>(limits::kMaxFaultSpaceBytes);
  std::set<const void*> counted;
  std::string too_much = footprint_problem(space.plans * space.fault_free->footprint(counted), max_bytes * 3 / 2, space.plans,
                                           space.fault_free_steps);
  if (!too_much.empty()) {
    problems.push_back({lesson.file, "/scenario/fault_space", too_much});
    return nullptr;
  }
  auto out = std::make_shared<PreparedLesson>();
  out->worlds = build_worlds(lesson.scenario, {}, &space);
  // The same, counted on the runs built (the estimate takes every run for the one with no
  // fault); and what the lesson's own run shows, which `run` writes out step by step.
  counted.clear();
  long long bytes = 0;
  for (const World& w : out->worlds) bytes += w.run.footprint(counted);
  too_much = footprint_problem(bytes, max_bytes, static_cast<int>(out->worlds.size()), space.fault_free_steps);
  if (!too_much.empty()) {
    problems.push_back({lesson.file, "/scenario/fault_space", too_much});
    return nullptr;
  }
  const long long shown = out->run().shown_rows();
  if (shown > limits::kMaxShownRows) {
    problems.push_back({lesson.file, "/scenario/script",
                        "the lesson's run shows " + std::to_string(shown) + " table rows over its " +
                            std::to_string(out->run().steps.size()) + " steps (each step's tables whole); at most " +
                            std::to_string(limits::kMaxShownRows) + kWithinBudget +
                            ": consider fewer intents, fewer resends or a shorter script"});
    return nullptr;
  }
  out->knowledge = std::make_unique<Knowledge>(out->worlds);
  // Shown as part of "this run itself", a fault that never fires would describe to the
  // learner a run that is not the one they watch.
  unfired_faults(lesson.file, lesson.scenario.faults.faults, out->run(), "/scenario/faults", problems);
  for (std::size_t i = 0; i < lesson.moments.size(); ++i) {
    int step = find_moment_step(out->run(), lesson.moments[i].match);
    if (step < 0) {
      problems.push_back({lesson.file, "/moments/" + std::to_string(i) + "/at",
                          "no step of the lesson's run matches " + lesson.moments[i].match.dump()});
    } else {
      out->moment_step[lesson.moments[i].id] = step;
    }
  }
  out->lesson = std::move(lesson);
  if (!problems.empty()) return nullptr;
  const Lesson& l = out->lesson;
  work = check_work(*out);
  if (work > limits::kMaxCheckWork) {
    problems.push_back({l.file, "/questions",
                        "checking the lesson would simulate about " + std::to_string(work) + " steps; at most " +
                            std::to_string(limits::kMaxCheckWork) + kWithinBudget +
                            ": a choose option (or a predict question's \"if\") is one run in every run of the fault space "
                            "the client cannot tell apart at its moment, so consider fewer options, fewer such questions or a "
                            "smaller fault space"});
    return nullptr;
  }
  const std::string cannot = "the engine cannot compute an answer: ";
  for (std::size_t i = 0; i < l.questions.size(); ++i) {
    const Question& q = l.questions[i];
    std::string path = "/questions/" + std::to_string(i);
    if (q.kind == "choose") {
      std::string unsettled;
      std::vector<OptionJudgement> judged = judge_options(*out, q, unsettled);
      if (!unsettled.empty()) {
        problems.push_back({l.file, path, cannot + unsettled});
        continue;
      }
      std::string problem = safe_count_problem(judged);
      if (!problem.empty()) problems.push_back({l.file, path + "/options", problem});
      for (const OptionJudgement& j : judged) {
        if (j.safe) out->right_option[q.id] = j.id;
      }
      continue;
    }
    Expected e = expected_answer(*out, q);
    if (!e.problem.empty()) {
      problems.push_back({l.file, path, cannot + e.problem});
      continue;
    }
    if (q.kind == "predict" || q.kind == "concept") out->right_option[q.id] = e.answer.get<std::string>();
    if (q.kind == "predict") {
      bool listed = false;
      for (const Option& o : q.options) listed = listed || o.id == e.answer.get<std::string>();
      if (!listed) {
        problems.push_back({l.file, path + "/options",
                            "the engine computes '" + e.answer.get<std::string>() +
                                "', which is not among the options"});
      }
    }
  }
  if (!problems.empty()) return nullptr;
  // A question the page would answer for the learner is no question (engine/lesson/secrecy.hpp).
  problems = secrecy_problems(*out);
  if (!problems.empty()) return nullptr;
  return out;
}

}  // namespace idemlab
