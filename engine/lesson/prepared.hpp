#pragma once
// A lesson made ready to show: its worlds run, its moments resolved to steps, its
// knowledge computed. Problems that only the simulation can find (a planned fault the
// lesson's own run never fires, at /scenario/faults/<i>; a moment no step matches, a question whose computed answer is not among its options, a choose question
// without exactly one safe option) are reported as
// LessonError with the JSON Pointer of the entry at fault.
#include <map>
#include <memory>

#include "engine/knowledge/knowledge.hpp"
#include "engine/lesson/lesson.hpp"

namespace idemlab {

struct PreparedLesson {
  Lesson lesson;
  std::vector<World> worlds;             ///< worlds[0]: the lesson's own run
  std::unique_ptr<Knowledge> knowledge;  ///< over `worlds`
  std::map<std::string, int> moment_step;
  /// Per predict, choose and concept question id: the option id that is right (computed
  /// while the lesson is checked; for `check`'s warnings).
  std::map<std::string, std::string> right_option;

  const Run& run() const { return worlds[0].run; }
  /// An estimate of the heap bytes it holds (engine/base/bytes.hpp): its worlds' runs, the
  /// knowledge over them and its own tables. Not the lesson itself: what its parsed texts
  /// take follows the size of its file (the API's cache counts that: engine/api/api.cpp).
  std::size_t heap_bytes() const;
  /// The step a question's card stands at: its moment, or the last step.
  int question_step(const Question& q) const;
};

/// Runs and checks `lesson`. Throws LessonError (file, JSON Pointer, reason).
std::shared_ptr<const PreparedLesson> prepare_lesson(Lesson lesson);

/// prepare_lesson's work, which throws nothing on input: the prepared lesson, or nullptr
/// with every problem found in `problems`. prepare_lesson (engine/lesson/errors.cpp) throws
/// them; this code is compiled without unwinding in the WASM build (CMakeLists.txt).
std::shared_ptr<const PreparedLesson> prepare_checked(Lesson lesson, std::vector<LessonProblem>& problems);

/// `check`'s and `answers`' refusal of a lesson whose runs of its fault space (its worlds:
/// what knowledge and predictions are computed over) include one that stopped at a limit
/// (the virtual-time horizon or the step limit) before it settled: the invariants of its end
/// were never judged, so what the lesson computes on it would judge a run cut short. One
/// problem, at /scenario for the lesson's own run, else at /fault_space naming the first
/// such run's faults; none when every world settled. (Not part of prepare_checked: the
/// sandbox shows a run that stops at a limit, and says so.)
std::vector<LessonProblem> unsettled_world_problems(const PreparedLesson& lesson);
/// The faults of `faults` that never fire in `run` (Run::fired), or are listed twice, each a
/// problem at `path_of_faults`/<i> naming a few points of that kind the run does pass. A
/// fault fires once, at the first pass of its point; a planned fault that never fires
/// changes nothing, so a plan that names one describes a run that is not the one shown.
void unfired_faults(const std::string& file, const std::vector<Fault>& faults, const Run& run,
                    const std::string& path_of_faults, std::vector<LessonProblem>& problems);

/// The first step of `run` matching a moment's `at` object (see lessons/README.md),
/// or -1.
int find_moment_step(const Run& run, const nlohmann::json& match);

}  // namespace idemlab
