#pragma once
// Secrecy (docs/design.md, "Feedback and gating"): a checked question is only worth its
// answer if nothing the page shows while it is open gives the answer away, at any step the
// learner can reach then. While question Q (card at step S) is open the learner can reach
// steps 0..S and no later one; the questions before Q, and those at S, may already be
// settled (answered right, or their answer shown), and their answers are on screen.
//
// Two audits, both run by `check`:
//  - cells (refused, exact): a cell of the knowledge grid that an open knowledge or table
//    question asks must not be readable at a reachable step: shown in the grid (not hidden
//    by the question's own `hides`, engine/lesson/gating.hpp) with the asked value and
//    unchanged from the asked step to there, or given by the answer of a question that can
//    be settled while it is open (the same side and fact, the same value, unchanged
//    between the two steps);
//  - texts (warned, a heuristic the author reviews): a text on screen while a predict,
//    choose or concept question is open must not contain its answer: the right option's
//    label, a status it answers as a word ("UNKNOWN"), or the number it answers beside what
//    it counts ("2 effects", "两条", "twice"). The texts: the title, the summary, the
//    incident's report and replayed outcome, the self-check list (shown from the start as
//    the lesson's goals), the labels of the moments at steps 0..S and the narration of
//    those before S (the narration at S waits for the card), and the prompts, option
//    labels, hints and concept explanations of the questions at steps 0..S.
// A warning the author has reviewed is listed in the lesson's `reviewed` block (path,
// question, why) and not printed again; a `reviewed` entry that no warning matches is
// itself a warning (the text changed).
//
// The same heuristic (`gives_away`) keeps the engine's own feedback honest: a question's
// feedback never names what a question still open asks (engine/lesson/feedback.hpp).
#include <string>
#include <vector>

#include "engine/lesson/prepared.hpp"

namespace idemlab {

/// A cell of the knowledge grid a question asks: `side`'s cell for `fact` at `step` (the
/// step of `moment`), and what the grid shows there (Cell::verdict, with the value when
/// known: "knows_true", "cannot_know", "knows 2").
struct AskedCell {
  Side side = Side::Client;
  std::string fact;
  std::string moment;  ///< "" for a knowledge question (its card's own step)
  int step = 0;
  std::string shown;
};

/// The cells a knowledge question (one) or a table question (moments x sides x facts)
/// asks; none for the other kinds.
std::vector<AskedCell> asked_cells(const PreparedLesson& lesson, const Question& q);

/// The cell audit: one problem per open question whose asked cell can be read at a
/// reachable step, at /questions/N, naming the cell and where it can be read. `check`
/// refuses a lesson with any.
std::vector<LessonProblem> secrecy_problems(const PreparedLesson& lesson);

/// Whether `text` (in `lang`: "zh-CN" or "en") gives away the answer of question `y` (a
/// predict, choose or concept question of the prepared lesson): the words it found
/// ("UNKNOWN", "2 effects"), or "" when none. A heuristic: it looks for the right option's
/// label, a status answer as a word, a number answer beside the noun of what it counts.
std::string gives_away(const PreparedLesson& lesson, const Question& y, const std::string& text,
                       const std::string& lang);

/// The text audit's warnings ({file, path of the text, reason naming the question and the
/// words}), the `reviewed` ones left out; a `reviewed` entry no warning matches is one too.
std::vector<LessonProblem> secrecy_warnings(const PreparedLesson& lesson);

}  // namespace idemlab
