#pragma once
// Reading JSON text that nobody checked: a lesson file, the API's input. Every input the
// engine parses goes through parse_json, which never throws, never recurses on the input
// and never builds a value nested deeper than it allows, so that nothing recursive that
// runs later on the value (nlohmann's copy, comparison, dump) can overflow the stack,
// natively or in WebAssembly. What it refuses is named with a position a person can find
// in an editor: line and column (in characters), the JSON Pointer of the value being
// read, and the reason in words.
#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace idemlab {

/// Why a text is not JSON the engine reads, and where.
struct JsonTextProblem {
  std::string path;  ///< JSON Pointer of the value being read when it failed ("" for the top)
  int line = 0;      ///< 1-based
  int column = 0;    ///< 1-based, in characters (Unicode code points), not bytes
  /// "line 3, column 14: not valid JSON: unexpected character '，' (U+FF0C)"; also
  /// "line L, column C: not valid UTF-8: ...", "...: arrays and objects nest more than N
  /// levels deep", "...: not valid JSON: number out of range: 1e400 ...".
  std::string reason;
};

/// Parses `text` as one JSON value whose arrays and objects nest at most `max_depth`
/// levels (the top value is level 1). Returns the value, or nothing with `problem` set:
/// a syntax error, a character JSON does not allow there (a full-width comma outside a
/// string), invalid UTF-8, a number out of the range of a double (1e400), text after the
/// value, or nesting deeper than `max_depth`. Runs in time linear in the text; the
/// parse itself keeps its own stack (no recursion), and a value is built only up to
/// `max_depth` levels.
std::optional<nlohmann::json> parse_json(const std::string& text, int max_depth, JsonTextProblem& problem);

/// The 1-based line and column (in code points) of byte `offset` of `text`.
void text_position(const std::string& text, std::size_t offset, int& line, int& column);

/// `text` with every byte that is not part of well-formed UTF-8 replaced by '?': for
/// quoting input in a reason (nlohmann refuses to write invalid UTF-8).
std::string printable_utf8(const std::string& text);

}  // namespace idemlab
