#pragma once
// What `check` warns about in a lesson that it accepts (lessons/README.md, "Warnings"):
// habits that make a lesson worse to learn from, not wrong to run.
//  - a give-away option: in a predict, choose or concept question, the right option's label
//    is more than kGiveAwayRatio times as long as the longest other option's and at least
//    kGiveAwayMargin characters longer, in either language (learners learn to pick the
//    longest label; the margin spares short labels such as "No row at all" beside
//    "DELIVERED");
//  - a crowded step: more than kMaxQuestionsPerStep question cards stand at one step (the
//    learner answers a pile of questions before the run moves on);
//  - a text on screen while a question is open that may give its answer away
//    (engine/lesson/secrecy.hpp), unless the lesson's `reviewed` block lists it.
#include <vector>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// How much longer (in characters) than every other option a right option's label may be.
inline constexpr double kGiveAwayRatio = 1.4;
/// ... and by how many characters at least before it gives the answer away.
inline constexpr int kGiveAwayMargin = 6;
/// Question cards one step may hold before `check` warns.
inline constexpr int kMaxQuestionsPerStep = 3;

/// The warnings, each {file, path, reason}: a give-away option at
/// /questions/N/options/K (the right option), a crowded step at /questions/N (the first
/// question past kMaxQuestionsPerStep at that step). Empty when there is nothing to say.
std::vector<LessonProblem> lesson_warnings(const PreparedLesson& lesson);

}  // namespace idemlab
