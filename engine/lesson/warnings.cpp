#include "engine/lesson/warnings.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "engine/lesson/secrecy.hpp"

namespace idemlab {
namespace {

// Characters (code points) of UTF-8 text: what a learner sees as its length, in either script.
std::size_t characters(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) {
    if ((c & 0xC0) != 0x80) ++n;
  }
  return n;
}

// "1.43": two decimals, so that a ratio just over the line does not read as on it.
std::string ratio_text(double r) {
  int hundredths = static_cast<int>(r * 100 + 0.5);
  std::string frac = std::to_string(hundredths % 100);
  return std::to_string(hundredths / 100) + "." + (frac.size() < 2 ? "0" : "") + frac;
}

void give_away(const PreparedLesson& p, std::size_t index, std::vector<LessonProblem>& out) {
  const Question& q = p.lesson.questions[index];
  auto right = p.right_option.find(q.id);
  if (right == p.right_option.end() || q.options.size() < 2) return;
  std::size_t k = 0;
  while (k < q.options.size() && q.options[k].id != right->second) ++k;
  if (k == q.options.size()) return;
  using Language = std::pair<const char*, std::string L10n::*>;
  const Language languages[] = {{"en", &L10n::en}, {"zh-CN", &L10n::zh}};
  for (const auto& [lang, pick] : languages) {
    std::size_t mine = characters(q.options[k].label.*pick), longest = 0;
    for (std::size_t i = 0; i < q.options.size(); ++i) {
      if (i != k) longest = std::max(longest, characters(q.options[i].label.*pick));
    }
    if (longest == 0 || static_cast<double>(mine) <= kGiveAwayRatio * static_cast<double>(longest) ||
        mine < longest + kGiveAwayMargin) {
      continue;
    }
    out.push_back({p.lesson.file, "/questions/" + std::to_string(index) + "/options/" + std::to_string(k),
                   "the right option's label (" + std::string(lang) + ") is " + std::to_string(mine) +
                       " characters, " + ratio_text(static_cast<double>(mine) / static_cast<double>(longest)) +
                       " times the longest other option's " + std::to_string(longest) + " (more than " +
                       ratio_text(kGiveAwayRatio) + " times and " + std::to_string(kGiveAwayMargin) +
                       " characters longer): learners learn to pick the longest label; shorten it or give the others as much to say"});
    return;  // one warning per option, for the first language that gives it away
  }
}

}  // namespace

std::vector<LessonProblem> lesson_warnings(const PreparedLesson& p) {
  std::vector<LessonProblem> out;
  const Lesson& l = p.lesson;
  for (std::size_t i = 0; i < l.questions.size(); ++i) {
    const std::string& kind = l.questions[i].kind;
    if (kind == "predict" || kind == "choose" || kind == "concept") give_away(p, i, out);
  }
  std::map<int, std::vector<std::size_t>> at_step;
  for (std::size_t i = 0; i < l.questions.size(); ++i) at_step[p.question_step(l.questions[i])].push_back(i);
  for (const auto& [step, indices] : at_step) {
    if (static_cast<int>(indices.size()) <= kMaxQuestionsPerStep) continue;
    std::string ids;
    for (std::size_t i : indices) ids += (ids.empty() ? "" : ", ") + l.questions[i].id;
    out.push_back({l.file, "/questions/" + std::to_string(indices[kMaxQuestionsPerStep]),
                   std::to_string(indices.size()) + " questions stand at step " + std::to_string(step) + " (" + ids +
                       "); more than " + std::to_string(kMaxQuestionsPerStep) +
                       " on one step make the learner answer a pile before the run moves on: spread them over "
                       "the moments that lead up to it"});
  }
  for (LessonProblem& w : secrecy_warnings(p)) out.push_back(std::move(w));
  return out;
}

}  // namespace idemlab
