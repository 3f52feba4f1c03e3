#include "engine/lesson/secrecy.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "engine/invariants/invariants.hpp"
#include "engine/lesson/gating.hpp"

namespace idemlab {
namespace {

// What the grid shows in a cell, as the learner reads it: the verdict, and a known count.
std::string shown(const Cell& c) {
  std::string v = c.verdict();
  if (c.known && !c.value.is_boolean()) v += " " + c.value.dump();
  return v;
}

// The grid of one prepared lesson, cell by cell, each computed once.
class Grid {
 public:
  explicit Grid(const PreparedLesson& p) : p_(p), steps_(p.run().steps.size()), cache_(2 * p.lesson.facts.size() * steps_) {}
  const std::string& at(Side side, const std::string& fact, int step) {
    std::size_t f = 0;
    while (f < p_.lesson.facts.size() && p_.lesson.facts[f].id != fact) ++f;
    std::string& cell = cache_[((side == Side::Service ? 1 : 0) * p_.lesson.facts.size() + f) * steps_ + static_cast<std::size_t>(step)];
    if (cell.empty()) cell = shown(p_.knowledge->cell(side, step, p_.lesson.facts[f]));
    return cell;
  }
  /// Whether `side`'s cell for `fact` shows the same at every step from `a` to `b`.
  bool unchanged(Side side, const std::string& fact, int a, int b) {
    const std::string want = at(side, fact, b);
    for (int s = std::min(a, b); s <= std::max(a, b); ++s) {
      if (at(side, fact, s) != want) return false;
    }
    return true;
  }

 private:
  const PreparedLesson& p_;
  std::size_t steps_;
  std::vector<std::string> cache_;  ///< by side, fact and step; "" until computed
};

std::string cell_name(const AskedCell& a) {
  std::string where = a.moment.empty() ? "at its card" : "at moment '" + a.moment + "'";
  return "the " + std::string(to_string(a.side)) + "'s cell for '" + a.fact + "' " + where + " (step " +
         std::to_string(a.step) + ", " + a.shown + ")";
}

std::string question_name(const PreparedLesson& p, const Question& q) {
  for (std::size_t k = 0; k < p.lesson.questions.size(); ++k) {
    if (&p.lesson.questions[k] == &q) return "question " + std::to_string(k + 1) + " ('" + q.id + "')";
  }
  return "question '" + q.id + "'";
}

// ---- the text heuristic ----

// The text is read as UTF-8 bytes: every word and unit it looks for is ASCII or a whole
// UTF-8 sequence, and UTF-8 never starts a character inside another, so a byte match is a
// character match.

// Bytes in the UTF-8 character that starts with `lead`.
std::size_t char_length(unsigned char lead) {
  return lead < 0x80 ? 1 : (lead >> 5) == 6 ? 2 : (lead >> 4) == 14 ? 3 : (lead >> 3) == 30 ? 4 : 1;
}

// Characters (not bytes) in UTF-8 text.
std::size_t characters(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80;
  return n;
}

bool word_char(unsigned char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '\'' || c == '-';
}

std::string lower(std::string s) {
  for (char& c : s) if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return s;
}

// The text's words (ASCII letters, digits, '_', '\'' and '-'), in order, with an empty
// word where a sentence or clause ends (a count is never read across one): at any other
// character but a space or a quotation mark.
std::vector<std::string> words_of(const std::string& text) {
  std::vector<std::string> out;
  std::string cur;
  for (std::size_t i = 0; i < text.size();) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    std::size_t n = char_length(c);
    if (word_char(c)) {
      cur += static_cast<char>(c);
      ++i;
      continue;
    }
    if (!cur.empty()) out.push_back(cur);
    cur.clear();
    std::string ch = text.substr(i, n);
    if (ch != " " && ch != "\"" && ch != "“" && ch != "”") out.push_back("");
    i += n;
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// Collapses runs of white space and trims: labels are compared as a learner reads them.
std::string squeeze(const std::string& s) {
  std::string out;
  bool space = false;
  for (char c : s) {
    bool ws = c == ' ' || c == '\n' || c == '\t' || c == '\r';
    if (ws) {
      space = !out.empty();
    } else {
      if (space) out += ' ';
      space = false;
      out += c;
    }
  }
  return out;
}

// How the count a question asks is said: English nouns after the number (within a few
// words: "2 different operation keys"), Chinese classifiers after it with the nouns that
// must follow within a few characters ("两条业务效果", "2 个不同的操作标识"); a classifier
// with no nouns stands alone ("两封", "两遍"). Single words that carry a number of times.
struct Classifier {
  const char* word;
  std::vector<const char*> nouns;  ///< none: the classifier alone says it
};
struct CountWords {
  std::vector<const char*> en;
  std::vector<Classifier> zh;
  bool times = false;  ///< "twice", "three times" count it too
};

const CountWords& count_words(const std::string& ask) {
  static const CountWords keys = {{"key", "keys"}, {{"个", {"标识", "键", "key"}}, {"种", {"标识", "键"}}}, false};
  static const CountWords requests = {{"request", "requests", "send", "sends", "attempt", "attempts"},
                                      {{"个", {"请求", "尝试"}}, {"次", {"请求", "发送", "尝试"}}},
                                      true};
  static const CountWords emails = {{"email", "emails", "notification", "notifications", "mail", "mails"}, {{"封", {}}}, false};
  static const CountWords effects = {{"effect", "effects", "delivery", "deliveries", "copies", "charges"},
                                     {{"条", {"业务效果", "效果", "报告", "记录", "deliveries"}},
                                      {"份", {"业务效果", "效果", "报告"}},
                                      {"遍", {}}},
                                     true};
  if (ask == "keys_used") return keys;
  if (ask == "requests") return requests;
  if (ask == "emails") return emails;
  return effects;  // effects, deliveries
}

// The ways a small number is written besides its digits, in English and in Chinese.
constexpr int kNamedNumbers = 6;
const std::vector<const char*>& en_numerals(int n) {
  static const std::vector<const char*> words[kNamedNumbers] = {{"zero", "no"}, {"one", "single"}, {"two", "both"},
                                                                {"three"}, {"four"}, {"five"}};
  static const std::vector<const char*> none;
  return n >= 0 && n < kNamedNumbers ? words[n] : none;
}
const std::vector<const char*>& zh_numerals(int n) {
  static const std::vector<const char*> words[kNamedNumbers] = {{"零"}, {"一"}, {"两", "二"}, {"三"}, {"四"}, {"五"}};
  static const std::vector<const char*> none;
  return n >= 0 && n < kNamedNumbers ? words[n] : none;
}

bool listed(const std::vector<const char*>& list, const std::string& word) {
  return std::any_of(list.begin(), list.end(), [&](const char* w) { return word == w; });
}

// Whether `text` holds `word` at byte `at`.
bool at_pos(const std::string& text, std::size_t at, const std::string& word) { return text.compare(at, word.size(), word) == 0; }

bool digit(char c) { return c >= '0' && c <= '9'; }

// "2 effects" / "twice" / "两条业务效果" in `text`, for the number `n` of a count `ask`.
std::string count_in(const std::string& text, int n, const std::string& ask) {
  const CountWords& w = count_words(ask);
  const std::string digits = std::to_string(n);
  // English: a number word, then one of the nouns within the next three words.
  std::vector<std::string> words = words_of(text);
  const std::vector<const char*>& numerals = en_numerals(n);
  for (std::size_t i = 0; i < words.size(); ++i) {
    std::string word = lower(words[i]);
    // ("once" is left out: it is as often "as soon as")
    if (w.times && ((n == 2 && word == "twice") || (n == 3 && word == "thrice"))) return words[i];
    bool number = word == digits || listed(numerals, word);
    if (!number) continue;
    for (std::size_t j = i + 1; j < words.size() && j <= i + 3; ++j) {
      std::string noun = lower(words[j]);
      if (noun.empty() || noun.find_first_not_of("0123456789") == std::string::npos) break;  // a clause ends, another number
      if (listed(w.en, noun) || (w.times && noun == "times")) {
        std::string found;
        for (std::size_t k = i; k <= j; ++k) found += (k > i ? " " : "") + words[k];
        return found;
      }
    }
  }
  // Chinese: the number (digits or a numeral), spaces, a classifier, then its noun within a
  // few characters. "一" is also the indefinite article ("一封邮件": an email), so a one is
  // only read as digits.
  constexpr std::size_t kNounWithin = 6;  // characters
  const std::vector<const char*>& zh = zh_numerals(n == 1 ? -1 : n);
  const std::string ordinal = "第";  // "第二条" is the second one
  for (std::size_t i = 0; i < text.size(); i += char_length(static_cast<unsigned char>(text[i]))) {
    if (i >= ordinal.size() && at_pos(text, i - ordinal.size(), ordinal)) continue;
    std::size_t after = std::string::npos;
    for (const char* z : zh) {
      if (at_pos(text, i, z)) after = i + std::string(z).size();
    }
    if (after == std::string::npos && digit(text[i]) && (i == 0 || !digit(text[i - 1]))) {
      std::size_t e = i;
      while (e < text.size() && digit(text[e])) ++e;
      if (text.compare(i, e - i, digits) == 0 && e - i == digits.size()) after = e;
    }
    if (after == std::string::npos) continue;
    while (after < text.size() && text[after] == ' ') ++after;
    for (const Classifier& c : w.zh) {
      const std::string classifier = c.word;
      if (!at_pos(text, after, classifier)) continue;
      std::size_t k = after + classifier.size();
      if (c.nouns.empty()) return text.substr(i, k - i);
      for (std::size_t m = 0; m <= kNounWithin && k < text.size(); ++m, k += char_length(static_cast<unsigned char>(text[k]))) {
        for (const char* noun : c.nouns) {
          if (at_pos(text, k, noun)) return text.substr(i, k + std::string(noun).size() - i);
        }
      }
    }
  }
  return "";
}

// `word` in `text` as a whole word (ASCII word boundaries), or "".
std::string whole_word(const std::string& text, const std::string& word) {
  for (const std::string& w : words_of(text)) {
    if (w == word) return w;
  }
  return "";
}

// The parts of a label worth looking for: the label, and for "UNKNOWN（结果未知）" each of
// its two halves (a gloss in brackets is the same answer in other words).
std::vector<std::string> label_parts(const std::string& label) {
  std::vector<std::string> out = {squeeze(label)};
  static const char* const brackets[][2] = {{"（", "）"}, {"(", ")"}};
  for (const auto& b : brackets) {
    const std::string open = b[0];
    std::size_t i = label.find(open);
    if (i == std::string::npos) continue;
    std::size_t j = label.find(b[1], i + open.size());
    out.push_back(squeeze(label.substr(0, i)));
    out.push_back(squeeze(label.substr(i + open.size(), j == std::string::npos ? std::string::npos : j - i - open.size())));
    break;
  }
  out.erase(std::remove_if(out.begin(), out.end(), [](const std::string& s) { return characters(s) < 2; }), out.end());
  return out;
}

// `needle` in `haystack`, case-insensitive for ASCII, white space squeezed.
bool contains_text(const std::string& haystack, const std::string& needle) {
  if (needle.empty()) return false;
  return lower(squeeze(haystack)).find(lower(needle)) != std::string::npos;
}

bool is_count(const std::string& ask) {
  return ask == "effects" || ask == "deliveries" || ask == "keys_used" || ask == "requests" || ask == "emails";
}

// ---- the texts on screen ----

struct ShownText {
  std::string path;
  const L10n* text;
};

// The texts on screen at some step the learner can reach while `y` (card at `step`) is
// open (see the header).
std::vector<ShownText> texts_while_open(const PreparedLesson& p, const Question& y, int step,
                                        std::vector<L10n>& made) {
  const Lesson& l = p.lesson;
  std::vector<ShownText> out;
  out.push_back({"/title", &l.title});
  out.push_back({"/summary", &l.summary});
  if (l.incident) {
    out.push_back({"/incident/expected", &l.incident->expected});
    out.push_back({"/incident/seen", &l.incident->seen});
    out.push_back({"/incident/fix", &l.incident->fix});
    // The outcome the replay reproduces, as the report panel says it (web/src/views/incident.js).
    made.reserve(3);  // `out` points into it
    const Incident& in = *l.incident;
    if (in.effects) {
      std::string n = std::to_string(*in.effects);
      made.push_back({n + " 条业务效果", n + (*in.effects == 1 ? " effect" : " effects")});
    }
    if (in.status) made.push_back({*in.status, *in.status});
    if (in.violation) made.push_back(info(*in.violation).title);
    for (const L10n& m : made) out.push_back({"/incident/reported", &m});
  }
  for (std::size_t i = 0; i < l.self_check.size(); ++i) out.push_back({"/self_check/" + std::to_string(i), &l.self_check[i]});
  // The sandbox's first experiments: on screen with the lesson's sandbox, which a link opens
  // before the questions are settled (lessons/README.md, "Sandbox start").
  for (std::size_t i = 0; l.sandbox && i < l.sandbox->experiments.size(); ++i) {
    out.push_back({"/sandbox/experiments/" + std::to_string(i) + "/goal", &l.sandbox->experiments[i].goal});
  }
  for (std::size_t i = 0; i < l.moments.size(); ++i) {
    auto at = p.moment_step.find(l.moments[i].id);
    if (at == p.moment_step.end() || at->second > step) continue;
    std::string path = "/moments/" + std::to_string(i);
    out.push_back({path + "/label", &l.moments[i].label});
    if (at->second < step) out.push_back({path + "/narration", &l.moments[i].narration});
  }
  for (std::size_t i = 0; i < l.questions.size(); ++i) {
    const Question& o = l.questions[i];
    if (p.question_step(o) > step) continue;
    std::string path = "/questions/" + std::to_string(i);
    out.push_back({path + "/prompt", &o.prompt});
    if (o.hint) out.push_back({path + "/hint", &*o.hint});
    if (&o == &y) continue;  // its own options are all on its card; its answer is what is kept
    for (std::size_t k = 0; k < o.options.size(); ++k) {
      out.push_back({path + "/options/" + std::to_string(k) + "/label", &o.options[k].label});
    }
    if (o.kind == "concept") out.push_back({path + "/explanation", &o.explanation});
  }
  return out;
}

}  // namespace

std::vector<AskedCell> asked_cells(const PreparedLesson& p, const Question& q) {
  std::vector<AskedCell> out;
  auto add = [&](Side side, const std::string& fact, const std::string& moment, int step) {
    AskedCell a;
    a.side = side;
    a.fact = fact;
    a.moment = moment;
    a.step = step;
    a.shown = shown(p.knowledge->cell(side, step, *p.lesson.fact(fact)));
    out.push_back(std::move(a));
  };
  if (q.kind == "knowledge") {
    add(q.side, q.fact, "", p.question_step(q));
  } else if (q.kind == "table") {
    for (const std::string& m : q.moments) {
      for (Side side : q.sides) {
        for (const std::string& f : q.facts) add(side, f, m, p.moment_step.at(m));
      }
    }
  }
  return out;
}

std::vector<LessonProblem> secrecy_problems(const PreparedLesson& p) {
  std::vector<LessonProblem> out;
  Grid grid(p);
  const std::vector<Question>& qs = p.lesson.questions;
  std::vector<std::vector<AskedCell>> asked_by(qs.size());
  for (std::size_t i = 0; i < qs.size(); ++i) asked_by[i] = asked_cells(p, qs[i]);
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const Question& q = qs[i];
    const std::vector<AskedCell>& asked = asked_by[i];
    if (asked.empty()) continue;
    const int step = p.question_step(q);
    const Hides hides = hides_of(p, q);
    const std::string path = "/questions/" + std::to_string(i);
    for (const AskedCell& a : asked) {
      std::string where;
      // The grid, at a step the learner can reach while q is open.
      for (int s = 0; s <= step && where.empty(); ++s) {
        if (!hides.hides_cell(a.side, s) && grid.unchanged(a.side, a.fact, s, a.step)) {
          where = "in the knowledge grid at step " + std::to_string(s) + ", unchanged from there to step " +
                  std::to_string(a.step);
        }
      }
      // The answer of a question that can be settled while q is open: before it, or at its step.
      for (std::size_t k = 0; k < qs.size() && where.empty(); ++k) {
        if (k == i || p.question_step(qs[k]) > step) continue;
        for (const AskedCell& b : asked_by[k]) {
          if (b.side != a.side || b.fact != a.fact || !grid.unchanged(a.side, a.fact, b.step, a.step)) continue;
          where = "in the answer of " + question_name(p, qs[k]) + ", which can be settled first: " + cell_name(b) +
                  (b.step == a.step ? " is the same cell" : ", and the cell does not change in between");
          break;
        }
      }
      if (where.empty()) continue;
      out.push_back({p.lesson.file, path,
                     cell_name(a) + " can be read before " + question_name(p, q) + " is answered: " + where +
                         ". Ask about a step where the cell differs, ask another side or fact, or drop one of the two "
                         "questions (lessons/README.md, \"Secrecy\")"});
    }
  }
  return out;
}

std::string gives_away(const PreparedLesson& p, const Question& y, const std::string& text, const std::string& lang) {
  auto right = p.right_option.find(y.id);
  if (right == p.right_option.end() || text.empty()) return "";
  const std::string& answer = right->second;
  if (y.kind == "predict" && is_count(y.ask)) {
    int n = -1;
    if (!answer.empty() && answer.size() < 4 && answer.find_first_not_of("0123456789") == std::string::npos) n = std::stoi(answer);
    return n < 0 ? "" : count_in(text, n, y.ask);
  }
  const Option* option = nullptr;
  for (const Option& o : y.options) {
    if (o.id == answer) option = &o;
  }
  const bool status = y.kind == "predict" && (y.ask == "next_status" || y.ask == "final_status");
  if (status) {
    // A status is a word in capitals ("the outcome is unknown" is not "UNKNOWN").
    std::string word = whole_word(text, answer);
    if (!word.empty()) return word;
  }
  if (!option) return "";
  for (const std::string& part : label_parts(lang == "en" ? option->label.en : option->label.zh)) {
    if (status && part.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZ_ ") == std::string::npos) continue;
    if (contains_text(text, part)) return part;
  }
  return "";
}

std::vector<LessonProblem> secrecy_warnings(const PreparedLesson& p) {
  std::vector<LessonProblem> out;
  std::vector<bool> matched(p.lesson.reviewed.size(), false);
  const std::vector<Question>& qs = p.lesson.questions;
  for (std::size_t i = 0; i < qs.size(); ++i) {
    const Question& y = qs[i];
    if (y.kind != "predict" && y.kind != "choose" && y.kind != "concept") continue;
    const int step = p.question_step(y);
    std::vector<L10n> made;
    for (const ShownText& t : texts_while_open(p, y, step, made)) {
      std::string found = gives_away(p, y, t.text->en, "en");
      std::string lang = "en";
      if (found.empty()) {
        found = gives_away(p, y, t.text->zh, "zh-CN");
        lang = "zh-CN";
      }
      if (found.empty()) continue;
      bool reviewed = false;
      for (std::size_t r = 0; r < p.lesson.reviewed.size(); ++r) {
        const ReviewedWarning& w = p.lesson.reviewed[r];
        if (w.path == t.path && w.question == y.id) reviewed = matched[r] = true;
      }
      if (reviewed) continue;
      out.push_back({p.lesson.file, t.path,
                     "the " + lang + " text says \"" + found + "\", which may give away the answer of " +
                         question_name(p, y) + ": it is on screen before that question is answered (the question's card is at step " +
                         std::to_string(step) + "). Reword it, or list it under \"reviewed\" with the question and why it "
                         "does not give the answer away (lessons/README.md, \"Secrecy\")"});
    }
  }
  for (std::size_t r = 0; r < p.lesson.reviewed.size(); ++r) {
    if (matched[r]) continue;
    const ReviewedWarning& w = p.lesson.reviewed[r];
    out.push_back({p.lesson.file, "/reviewed/" + std::to_string(r),
                   "no text at " + w.path + " gives away question '" + w.question +
                       "' any longer (as check reads it): take this entry out"});
  }
  return out;
}

}  // namespace idemlab
