// idemlab CLI: the native front end over the engine API (engine/api/API.md).
//
//   idemlab seed-lab                 the seed lab's four figures, as one JSON object
//   idemlab seed-experiment          the article's experiment table, as a JSON array
//   idemlab run LESSON [--json] [--lang en|zh-CN]
//                                    the lesson's timeline: one line per event, or the JSON
//   idemlab check LESSON...          validates lessons; exit 1 naming file, JSON path and
//                                    reason of the first problem of each bad file, and
//                                    any lesson id that two files share
//   idemlab answers LESSON...        every question's computed answer and explanation (and
//                                    a choose question's judgement of each option), as
//                                    JSON keyed by file: the golden file's content
//   idemlab index LESSON...          the lesson index the page's list reads (JSON, one line):
//                                    per file id, level, title, summary, question ids, or
//                                    its problems (also printed to stderr); exit 0 either way
//   idemlab compare LESSON           the lesson's side-by-side timelines (JSON)
//   idemlab bench [--runs N]         runs of the lost-response scenario per second, and the
//                                    same for the SQL a run executes, alone (JSON)
//   idemlab explore FILE [--faults K] [--limit N] [--max-ms MS] [--policy ID]
//                                    every fault schedule of up to K (1..3, default 2) faults
//                                    of a lesson or a bare scenario file (JSON with "script"
//                                    at its top, or the API's {"scenario": ...}), optionally as one of the lesson's compare
//                                    policies (--limit: schedules at most, default 20000;
//                                    --max-ms: a wall-clock budget, default none; a cut
//                                    search says so): outcome classes and shrunk counterexamples
//                                    (JSON); on stderr, what was searched in words ("no
//                                    violation in N schedules of up to K faults", never
//                                    "safe"; how many did not settle: inconclusive) and
//                                    retry layers no schedule got past, with the K that
//                                    does; exit 0, or 1 if the input is bad
//   idemlab challenge LESSON ATTEMPT
//                                    judges ATTEMPT (a scenario file: the learner's sandbox
//                                    scenario) against LESSON's challenge: solved or not,
//                                    allowed or not, and why (JSON); exit 0 when solved, 1
//                                    when not (or the input is bad)
//   idemlab grade EXERCISE DIR [--limit N]
//                                    grades every .lua file of DIR (a class's submissions: the
//                                    client's code, Lua) on EXERCISE (lessons/exercises/*.json)
//                                    as the page's Check does: one JSON line per file, sorted
//                                    by name, {"file": NAME, ...the API's `grade` answer};
//                                    DIR may be one file; exit 0, or 1 if the input is bad
//   idemlab fuzz --seed S --runs N [--out DIR]
//                                    random scenarios under random faults, the invariants on
//                                    every step (JSON report on stdout; schedules per second
//                                    on stderr); with --out, one scenario file per finding
//                                    and per caught wrong setting; exit 1 when the right
//                                    configuration breaks an invariant
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <optional>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/api/api.hpp"
#include "engine/cli/lesson_index.hpp"
#include "engine/json/parse.hpp"
#include "engine/explore/fuzz.hpp"
#include "engine/nodes/nodes.hpp"
#ifdef IDEMLAB_WITH_CODE
#include "engine/code/code_client.hpp"
#endif

namespace {

using nlohmann::json;

int usage() {
  std::cerr << "usage: idemlab seed-lab | seed-experiment | run LESSON [--json] [--lang en|zh-CN] |\n"
               "               check LESSON... | answers LESSON... | index LESSON... | compare LESSON |\n"
               "               bench [--runs N] | explore FILE [--faults K] [--limit N] [--max-ms MS] [--policy ID] |\n"
               "               challenge LESSON ATTEMPT | grade EXERCISE DIR [--limit N] |\n"
               "               fuzz --seed S --runs N [--out DIR]\n";
  return 2;
}

bool read_file(const std::string& path, std::string& out) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return false;
  std::ostringstream ss;
  ss << in.rdbuf();
  out = ss.str();
  return true;
}

// Calls the API's `method` on a lesson file (with the `extra` input fields, e.g. explore's
// "faults"); sets `bare` when the file is a bare scenario (file_paths). Returns the
// answer's text (when the text could not be given, the problem cli::file_input found).
std::string call_on_file(const std::string& method, const std::string& path, const std::string& text, bool& bare,
                         const json& extra = json::object()) {
  json refusal;
  json in = idemlab::cli::file_input(idemlab::printable_utf8(path), text, refusal, &bare);  // a file name need not be UTF-8
  if (in.is_null()) return refusal.dump();
  in.update(extra);
  return idemlab::api::call(method, in.dump());
}

// The API names a bare scenario's problems under /scenario (its place in the API's
// input); in a bare scenario file they are at the top (in a wrapped one, where it says).
void file_paths(json& out, bool bare) {
  if (!bare) return;
  auto fix = [](json& p) {
    std::string path = p.value("path", "");
    if (path.rfind("/scenario", 0) == 0) p["path"] = path.substr(9);
  };
  if (out.contains("error")) fix(out["error"]);
  if (out.contains("errors")) for (json& p : out["errors"]) fix(p);
}

void print_problem(const json& p) {
  std::cerr << p.value("file", "") << ": " << (p.value("path", "").empty() ? "/" : p.value("path", "")) << ": "
            << p.value("reason", "") << "\n";
}

// Prints the first problem of a failed call; returns true if there was one.
bool report_failure(const json& out) {
  if (out.contains("error")) {
    print_problem(out["error"]);
    return true;
  }
  if (out.contains("ok") && !out["ok"].get<bool>()) {
    print_problem(out["errors"][0]);
    return true;
  }
  return false;
}

// Reads `file` and calls the API's `method` on it: the answer, its paths made the file's
// own, or nothing after saying on stderr why not (the file cannot be read, or the first
// problem). `raw`, when given, gets the answer's text as the API wrote it.
std::optional<json> call_file(const std::string& method, const std::string& file, std::string* raw = nullptr) {
  std::string text;
  if (!read_file(file, text)) {
    std::cerr << file << ": /: cannot read the file\n";
    return std::nullopt;
  }
  bool bare = false;
  std::string answer = call_on_file(method, file, text, bare);
  json out = json::parse(answer);
  file_paths(out, bare);
  if (raw) *raw = std::move(answer);
  if (report_failure(out)) return std::nullopt;
  return out;
}

int cmd_check(const std::vector<std::string>& files) {
  if (files.empty()) return usage();
  int bad = 0;
  std::map<std::string, std::string> seen;  // lesson id -> the file that has it
  for (const std::string& f : files) {
    std::optional<json> out = call_file("check", f);
    if (!out) {
      ++bad;
      continue;
    }
    std::string id = (*out)["id"].get<std::string>();
    auto [it, fresh] = seen.emplace(id, f);
    if (!fresh) {
      std::cerr << f << ": /id: lesson id '" << id << "' is used twice (also in " << it->second << ")\n";
      ++bad;
      continue;
    }
    std::cout << f << ": ok (" << id << ")\n";
    // Warnings do not fail the check: a lesson that warns still runs.
    for (const json& w : out->value("warnings", json::array())) {
      std::cout << f << ": " << w.value("path", "") << ": warning: " << w.value("reason", "") << "\n";
    }
  }
  return bad ? 1 : 0;
}

int cmd_run(const std::vector<std::string>& args) {
  std::string file, lang = "en";
  bool as_json = false;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--json") as_json = true;
    else if (args[i] == "--lang" && i + 1 < args.size()) lang = args[++i];
    else if (file.empty()) file = args[i];
    else return usage();
  }
  if (lang != "en" && lang != "zh-CN") {
    std::cerr << "idemlab run: --lang is en or zh-CN, not '" << lang << "'\n";
    return 2;
  }
  if (file.empty()) return usage();
  std::string raw;
  std::optional<json> answer = call_file("run", file, &raw);
  if (!answer) return 1;
  const json& out = *answer;
  if (as_json) {
    std::cout << raw << "\n";
    return 0;
  }
  for (const json& s : out["steps"]) {
    std::string t = std::to_string(s["t"].get<long long>());
    std::cout << "t=" << std::string(t.size() < 6 ? 6 - t.size() : 0, ' ') << t << "ms  "
              << s["event"]["side"].get<std::string>() << std::string(9 - std::min<std::size_t>(8, s["event"]["side"].get<std::string>().size()), ' ')
              << s["event"]["text"][lang].get<std::string>() << "\n";
  }
  return 0;
}

// Every computed answer of every file, as the API's `answers` gives them, keyed by file
// (the golden file tests/golden/answers.json is this output; scripts/golden writes it).
// A file that fails is reported and left out; the others are still answered (exit 1).
int cmd_answers(const std::vector<std::string>& files) {
  if (files.empty()) return usage();
  json all = json::object();
  int bad = 0;
  for (const std::string& f : files) {
    std::optional<json> out = call_file("answers", f);
    if (!out) {
      ++bad;
      continue;
    }
    all[f] = std::move(*out);
  }
  std::cout << all.dump(2) << "\n";
  return bad ? 1 : 0;
}

int cmd_index(const std::vector<std::string>& files) {
  std::vector<idemlab::cli::IndexSource> sources;
  for (const std::string& f : files) {
    std::string text;
    sources.push_back({f, read_file(f, text) ? std::optional<std::string>(text) : std::nullopt});
  }
  json out = idemlab::cli::lesson_index(sources);
  for (const json& entry : out["lessons"]) {
    if (entry["ok"].get<bool>()) continue;
    for (const json& p : entry["errors"]) print_problem(p);
  }
  std::cout << out.dump() << "\n";
  return 0;
}

int cmd_compare(const std::string& file) {
  std::string raw;
  bool ok = call_file("compare", file, &raw).has_value();
  if (!raw.empty()) std::cout << raw << "\n";
  return ok ? 0 : 1;
}

// A number argument from..to, or -1 (after saying why) when it is not one.
long long number_arg(const std::string& cmd, const std::string& flag, const std::string& value, long long from,
                     long long to) {
  char* end = nullptr;
  long long n = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || n < from || n > to) {
    std::cerr << "idemlab " << cmd << ": " << flag << " is a whole number from " << from << " to " << to << ", not '"
              << value << "'\n";
    return -1;
  }
  return n;
}

int cmd_explore(const std::vector<std::string>& args) {
  std::string file;
  json in = json::object();
  for (std::size_t i = 0; i < args.size(); ++i) {
    bool has_value = i + 1 < args.size();
    if ((args[i] == "--faults" || args[i] == "--limit" || args[i] == "--max-ms") && has_value) {
      const std::string& flag = args[i];
      long long n = number_arg("explore", flag, args[i + 1], flag == "--max-ms" ? 0 : 1,
                               flag == "--faults" ? 3 : flag == "--limit" ? 200000 : 3600000);
      if (n < 0) return 2;
      in[flag == "--faults" ? "faults" : flag == "--limit" ? "limit" : "max_ms"] = n;
      ++i;
    } else if (args[i] == "--policy" && has_value) {
      in["policy"] = args[++i];
    } else if (file.empty() && args[i].rfind("--", 0) != 0) {
      file = args[i];
    } else {
      std::cerr << "idemlab explore: " << (args[i].rfind("--", 0) == 0 ? "unknown option or missing value: '" : "one file at a time, not also '")
                << args[i] << "'\n";
      return usage();
    }
  }
  if (file.empty()) {
    std::cerr << "idemlab explore: name a lesson or a scenario file\n";
    return usage();
  }
  std::string text;
  if (!read_file(file, text)) {
    std::cerr << file << ": /: cannot read the file\n";
    return 1;
  }
  bool bare = false;
  json out = json::parse(call_on_file("explore", file, text, bare, in));
  file_paths(out, bare);
  std::cout << out.dump() << "\n";
  if (report_failure(out)) return 1;
  // What was searched, in words (the JSON's "text"), and retry layers the search could not
  // reach past: on stderr, so stdout stays the one JSON answer.
  std::cerr << file << ": " << out["text"]["en"].get<std::string>() << "\n";
  if (out["layers_absorb"].is_object()) std::cerr << file << ": " << out["layers_absorb"]["text"]["en"].get<std::string>() << "\n";
  return 0;
}

int cmd_challenge(const std::string& lesson, const std::string& attempt) {
  std::string text, attempt_text;
  if (!read_file(lesson, text) || !read_file(attempt, attempt_text)) {
    std::cerr << (text.empty() ? lesson : attempt) << ": /: cannot read the file\n";
    return 1;
  }
  json scenario = json::parse(attempt_text, nullptr, false);
  if (scenario.is_discarded()) {
    std::cerr << attempt << ": /: not valid JSON\n";
    return 1;
  }
  // The API's bare-scenario input saved as a file: the scenario is inside it.
  if (idemlab::cli::is_scenario_wrapper(scenario)) scenario = json(scenario["scenario"]);
  json in = {{"file", lesson}, {"text", text}, {"attempt", scenario}};
  json out = json::parse(idemlab::api::call("challenge", in.dump()));
  std::cout << out.dump(2) << "\n";
  if (report_failure(out)) return 1;
  return out.value("solved", false) ? 0 : 1;
}

int cmd_fuzz(const std::vector<std::string>& args) {
  json in = json::object();
  std::string out_dir;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (i + 1 >= args.size()) return usage();
    if (args[i] == "--seed") {
      long long n = number_arg("fuzz", "--seed", args[i + 1], 0, 1LL << 53);
      if (n < 0) return 2;
      in["seed"] = n;
    } else if (args[i] == "--runs") {
      long long n = number_arg("fuzz", "--runs", args[i + 1], 1, 10000000);
      if (n < 0) return 2;
      in["runs"] = n;
    } else if (args[i] == "--out") {
      out_dir = args[i + 1];
    } else {
      std::cerr << "idemlab fuzz: unknown option '" << args[i] << "'\n";
      return usage();
    }
    ++i;
  }
  if (!in.contains("seed") || !in.contains("runs")) {
    std::cerr << "idemlab fuzz: give both --seed and --runs\n";
    return usage();
  }
  // Called directly, not through the API: the fuzzer is a developer's tool, and leaving it
  // out of the API keeps it out of the WebAssembly module the page loads.
  idemlab::FuzzOptions options;
  options.seed = in["seed"].get<std::uint64_t>();
  options.runs = in["runs"].get<int>();
  auto start = std::chrono::steady_clock::now();
  json out = idemlab::fuzz(options);
  double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::cout << out.dump(2) << "\n";
  long long schedules = out["schedules"].get<long long>();
  std::cerr << "fuzz: " << out["runs"] << " scenarios, " << schedules << " schedules in " << secs << " s ("
            << static_cast<long long>(schedules / (secs > 0 ? secs : 1e-9)) << " schedules/s); right configuration: "
            << out["right"]["violations"] << " violations, " << out["right"]["inconclusive"]
            << " inconclusive; wrong settings caught: " << out["caught"] << " of " << out["wrong_settings"].size() << "\n";
  for (const json& w : out["wrong_settings"]) {
    std::cerr << "  " << (w["caught"].get<int>() > 0 ? "caught     " : "NOT caught ") << w["knob"].get<std::string>()
              << " = " << w["value"].get<std::string>() << " (" << w["caught"] << " of " << w["runs"] << " runs";
    if (w["inconclusive"].get<int>() > 0) std::cerr << "; " << w["inconclusive"] << " inconclusive";
    std::cerr << ")\n";
  }
  // Runs that stopped at a limit before settling: never counted as clean.
  if (out["inconclusive"].get<int>() > 0) {
    std::cerr << "fuzz: " << out["inconclusive"] << " runs did not settle within the run's limits and broke nothing "
              << "before they stopped: inconclusive, not clean\n";
  }
  if (!out_dir.empty()) {
    int n = 0;
    std::error_code made;
    std::filesystem::create_directories(out_dir, made);
    auto write = [&](const std::string& name, const json& scenario) {
      std::string path = out_dir + "/" + name + ".json";
      std::ofstream f(path);
      f << scenario.dump(2) << "\n";
      if (!f) {
        std::cerr << path << ": cannot write the file" << (made ? " (" + made.message() + ")" : std::string()) << "\n";
        return;
      }
      ++n;
    };
    int k = 0;
    for (const json& f : out["right"]["findings"]) write("finding-" + std::to_string(++k) + "-" + f["invariant"].get<std::string>(), f["scenario"]);
    for (const json& w : out["wrong_settings"]) {
      if (!w["example"].is_null()) write("caught-" + w["knob"].get<std::string>() + "-" + w["value"].get<std::string>(), w["example"]["scenario"]);
    }
    std::cerr << "fuzz: wrote " << n << " scenario files to " << out_dir << "\n";
  }
  return out["right"]["violations"].get<int>() > 0 ? 1 : 0;
}

int cmd_bench(const std::vector<std::string>& args) {
  int runs = 2000;
  for (std::size_t i = 0; i + 1 < args.size(); ++i) {
    if (args[i] != "--runs") continue;
    char* end = nullptr;
    long n = std::strtol(args[i + 1].c_str(), &end, 10);
    if (*end != '\0' || n < 1 || n > 1000000) {
      std::cerr << "idemlab bench: --runs is a whole number from 1 to 1000000, not '" << args[i + 1] << "'\n";
      return 2;
    }
    runs = static_cast<int>(n);
  }
  // The whole runs, and the SQL they execute on its own (simulate's sql_only), timed in
  // turns (five rounds of a fifth each, the median round counts) so that the load of a
  // shared machine weighs on both alike.
  constexpr int kRounds = 5;
  int per_round = std::max(1, runs / kRounds);
  std::vector<double> whole, sql;
  json out;
  double secs = 0;
  for (int round = 0; round < kRounds; ++round) {
    for (bool sql_only : {false, true}) {
      auto start = std::chrono::steady_clock::now();
      json got = json::parse(idemlab::api::call("simulate", json{{"runs", per_round}, {"sql_only", sql_only}}.dump()));
      double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (report_failure(got)) return 1;
      (sql_only ? sql : whole).push_back(s / per_round);
      if (!sql_only) {
        out = got;
        secs += s;
      } else {
        out["statements_per_run"] = got["statements_per_run"];
      }
    }
  }
  std::sort(whole.begin(), whole.end());
  std::sort(sql.begin(), sql.end());
  out["runs"] = per_round * kRounds;
  out["seconds"] = secs;
  out["runs_per_s"] = 1 / whole[kRounds / 2];
  out["sql_runs_per_s"] = 1 / sql[kRounds / 2];
  // The whole run's time over its SQL's alone (1: the engine adds nothing to its SQL).
  out["run_over_sql"] = whole[kRounds / 2] / sql[kRounds / 2];
  std::cout << out.dump() << "\n";
  return 0;
}

// Whether `s` is UTF-8 (what JSON text, and so the API, carries): printable_utf8 changes
// nothing in it.
bool valid_utf8(const std::string& s) { return idemlab::printable_utf8(s) == s; }

// `grade EXERCISE DIR [--limit N]`: one JSON line per submission, the API's own answer.
int cmd_grade(const std::vector<std::string>& args) {
  if (args.size() != 2 && !(args.size() == 4 && args[2] == "--limit")) return usage();
  std::string text;
  if (!read_file(args[0], text)) {
    std::cerr << args[0] << ": cannot read the exercise\n";
    return 1;
  }
  json exercise = json::parse(text, nullptr, false);
  if (exercise.is_discarded()) {
    std::cerr << args[0] << ": not JSON\n";
    return 1;
  }
  std::vector<std::filesystem::path> files;
  std::error_code ec;
  if (std::filesystem::is_directory(args[1], ec)) {
    // A class's folder: its .lua files (a README or notes beside them are not submissions).
    for (const auto& entry : std::filesystem::directory_iterator(args[1], ec)) {
      if (entry.is_regular_file() && entry.path().extension() == ".lua") files.push_back(entry.path());
    }
  } else {
    files.push_back(args[1]);
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cerr << args[1] << ": no submission files\n";
    return 1;
  }
  for (const auto& f : files) {
    std::string code;
    json line = json::object();
    line["file"] = f.filename().string();
    // A file this submission's own problem keeps from grading gets its line, and the rest
    // of the class is graded all the same.
    auto refuse = [&](const char* kind, const std::string& zh, const std::string& en) {
      line["passed"] = false;
      line["error"] = {{"kind", kind}, {"line", nullptr}, {"column", nullptr}, {"reason", {{"zh-CN", zh}, {"en", en}}}};
      std::cout << line.dump() << "\n";
      std::cerr << f.filename().string() << ": not passed: " << kind << "\n";
    };
    if (!read_file(f.string(), code)) {
      refuse("unreadable", "读不了这个文件", "cannot read the file");
      continue;
    }
    if (!valid_utf8(code)) {
      refuse("encoding", "文件不是 UTF-8 文本（请用 UTF-8 保存）", "the file is not UTF-8 text (save it as UTF-8)");
      continue;
    }
    json in = {{"exercise", exercise}, {"code", code}};
    if (args.size() == 4) in["limit"] = std::atoll(args[3].c_str());
    json out = json::parse(idemlab::api::call("grade", in.dump()));
    // A refused exercise is the teacher's problem, not the learner's: say it once and stop.
    if (out.contains("ok") && out["ok"] == false) {
      std::cerr << args[0] << ": " << out.dump() << "\n";
      return 1;
    }
    for (auto it = out.begin(); it != out.end(); ++it) line[it.key()] = it.value();
    std::cout << line.dump() << "\n";
    // On stderr, a line a teacher reads at a glance (stdout stays one JSON line per file).
    std::string verdict = line.value("passed", false) ? "passed" : "not passed";
    if (line.contains("error") && line["error"].is_object()) {
      verdict += ": " + line["error"].value("kind", std::string("error"));
      if (line["error"]["line"].is_number()) verdict += " at line " + std::to_string(line["error"]["line"].get<int>());
    } else if (line.contains("counterexample") && line["counterexample"].is_object()) {
      const json& c = line["counterexample"];
      verdict += ": " + (c["invariant"].is_string() ? c["invariant"].get<std::string>() : c.value("requirement", std::string("")));
    }
    std::cerr << f.filename().string() << ": " << verdict << "\n";
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
#ifdef IDEMLAB_WITH_CODE
  idemlab::set_code_client_factory(&idemlab::make_code_client);
#endif
  if (argc < 2) return usage();
  std::string cmd = argv[1];
  std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (cmd == "seed-lab" && args.empty()) {
      std::cout << idemlab::api::call("seed_lab", "{}") << "\n";
      return 0;
    }
    if (cmd == "seed-experiment" && args.empty()) {
      std::cout << idemlab::api::call("seed_experiment", "{}") << "\n";
      return 0;
    }
    if (cmd == "run") return cmd_run(args);
    if (cmd == "check") return cmd_check(args);
    if (cmd == "answers") return cmd_answers(args);
    if (cmd == "index") return cmd_index(args);
    if (cmd == "compare" && args.size() == 1) return cmd_compare(args[0]);
    if (cmd == "bench") return cmd_bench(args);
    if (cmd == "explore") return cmd_explore(args);
    if (cmd == "fuzz") return cmd_fuzz(args);
    if (cmd == "grade") return cmd_grade(args);
    if (cmd == "challenge" && args.size() == 2) return cmd_challenge(args[0], args[1]);
  } catch (const std::exception& e) {
    std::cerr << "idemlab: " << e.what() << "\n";
    return 1;
  }
  return usage();
}
