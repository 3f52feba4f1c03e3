#pragma once
// Reading JSON input with every problem named: the file, a JSON Pointer (RFC 6901) into
// it, and the reason. Used by the scenario reader (engine/scenario/scenario_json.hpp) and
// the lesson reader (engine/lesson/parse.cpp); no input is ever trusted to be well formed.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/json/fields.hpp"
#include "engine/text/l10n.hpp"

namespace idemlab {

/// A problem in an input file: the file, a JSON Pointer into it, and why.
struct InputProblem {
  std::string file;
  std::string path;
  std::string reason;
  /// Where in the text, for a file that is not JSON (engine/json/parse.hpp): 1-based line
  /// and column in characters; 0 when the problem is about a value (path says which).
  int line = 0, column = 0;
  /// {"file", "path", "reason"}, and "line", "column" when known.
  nlohmann::json to_json() const {
    nlohmann::json out = nlohmann::json::object();
    put(out, "file", file);
    put(out, "path", path);
    put(out, "reason", reason);
    if (line > 0) {
      put(out, "line", line);
      put(out, "column", column);
    }
    return out;
  }
};

/// "a, b, c"
std::string join_names(const std::vector<std::string>& names);

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  const std::string& file() const { return file_; }
  /// Reports a problem; after limits::kMaxProblems, one more saying that more follow.
  void problem(const std::string& path, const std::string& reason);
  std::vector<InputProblem>& problems() { return problems_; }

  /// Parses an input's text (engine/json/parse.hpp) at most `max_bytes` long and nested at
  /// most limits::kMaxJsonDepth deep; nothing, with the problem reported (path, line,
  /// column, reason), when it is not such JSON.
  std::optional<nlohmann::json> parse(const std::string& text, std::size_t max_bytes);

  /// path + "/" + key, the key escaped as RFC 6901 says.
  static std::string at(const std::string& path, const std::string& key);
  static std::string at(const std::string& path, std::size_t i);

  /// Whether j is an object; reports every key not in `allowed`.
  bool object(const nlohmann::json& j, const std::string& path, const std::vector<std::string>& allowed);
  /// The field, or nullptr (reported as missing when required).
  const nlohmann::json* field(const nlohmann::json& j, const std::string& path, const std::string& key,
                              bool required);
  std::string string(const nlohmann::json& j, const std::string& path, const std::string& key, bool required,
                     const std::string& fallback = "");
  std::string choice(const nlohmann::json& j, const std::string& path, const std::string& key,
                     const std::vector<std::string>& allowed, bool required, const std::string& fallback);
  long long integer(const nlohmann::json& j, const std::string& path, const std::string& key, bool required,
                    long long fallback, long long min, long long max);
  bool boolean(const nlohmann::json& j, const std::string& path, const std::string& key, bool fallback);
  L10n text(const nlohmann::json& j, const std::string& path, const std::string& key, bool required);
  L10n text_value(const nlohmann::json& v, const std::string& path);
  const nlohmann::json* array(const nlohmann::json& j, const std::string& path, const std::string& key,
                              bool required);
  /// The same, refused (reported, nullptr) when it holds more than `max` entries: a limit
  /// of engine/scenario/limits.hpp, so that the entries are never read one by one.
  const nlohmann::json* bounded_array(const nlohmann::json& j, const std::string& path, const std::string& key,
                                      bool required, int max);

 private:
  std::string file_;
  std::vector<InputProblem> problems_;
};

}  // namespace idemlab
