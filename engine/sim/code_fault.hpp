#pragma once
// An error in the client's code (code mode, engine/code/): the learner's Lua did not load,
// raised an error, ran over its instruction or memory budget, or reached for what the
// client cannot know. It is thrown out of the run it happened in (a run whose client cannot
// go on has no honest end to judge) and caught by whoever ran the scenario: the grade
// (engine/code/grade.hpp) and the API's one catch (engine/api/call.cpp). Here, in the
// kernel's tier, so that both can name it without including engine/code.
#include <stdexcept>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/text/l10n.hpp"

namespace idemlab {

class CodeFault : public std::runtime_error {
 public:
  /// `kind`: "syntax" | "runtime" | "budget" | "memory" | "forbidden"; and, from the
  /// grade before any run, "too_long" | "unavailable" (and from the CLI, "encoding").
  /// `line`, `column`: 1-based in the code; 0 when unknown.
  CodeFault(std::string kind, int line, int column, L10n reason)
      : std::runtime_error(reason.en), kind(std::move(kind)), line(line), column(column), reason(std::move(reason)) {}
  std::string kind;
  int line = 0;
  int column = 0;
  L10n reason;
  /// {"kind", "line": N | null, "column": N | null, "reason": L10n}
  nlohmann::json to_json() const {
    nlohmann::json out = nlohmann::json::object();
    out["kind"] = kind;
    out["line"] = line > 0 ? nlohmann::json(line) : nlohmann::json(nullptr);
    out["column"] = column > 0 ? nlohmann::json(column) : nlohmann::json(nullptr);
    out["reason"] = reason.to_json();
    return out;
  }
};

}  // namespace idemlab
