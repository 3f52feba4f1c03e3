#pragma once
// The lesson index (`idemlab index`): what the page's lesson list shows of each lesson file
// without loading it. scripts/build writes it as dist/lessons/index.json. It is a build-time
// summary made of the engine API's own answers (`run`, `compare`), so the WASM engine the
// page loads does not carry it.
//
//   {"lessons": [
//     {"ok": true, "file": "lessons/01-lost-receipt.json", "id": "lost-receipt",
//      "level": "intro" | "advanced", "title": L10n, "summary": L10n,
//      "question_count": 6, "question_ids": ["q1", ...], "compare": false},
//     {"ok": false, "file": "lessons/broken.json",
//      "errors": [{"file": F, "path": "/title", "reason": "missing language 'en'"}]}
//   ]}
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace idemlab::cli {

/// A lesson file as the API's lesson input (engine/api/API.md): {"file", "text"}, or
/// {"file", "scenario"} when the file is a bare scenario (a JSON object with none of a
/// lesson's fields; `*bare` is then set true: the API names its problems at /scenario/...,
/// which in the file are at the top) or the API's own bare-scenario input saved as a file,
/// {"scenario": {...}} and nothing else (the API unwraps it as it unwraps any such input;
/// its problems' paths are the file's own). When the text is not JSON the engine reads (longer than
/// limits::kMaxLessonBytes, not UTF-8, a syntax error, nested too deep), returns null and
/// sets `refusal` to the API's answer for it, {"ok": false, "errors": [problem]}: the
/// same problem, from the same reader (engine/scenario/reader.hpp), that the API names
/// (a text that is not UTF-8 cannot even be put in the API's JSON input).
nlohmann::json file_input(const std::string& file, const std::string& text, nlohmann::json& refusal, bool* bare = nullptr);

/// Whether `parsed` is the API's bare-scenario input {"scenario": {...}} with no other field:
/// a scenario in its wrapper, not a lesson (a lesson has an id, a title, ...).
bool is_scenario_wrapper(const nlohmann::json& parsed);

/// One lesson file: its name as the page fetches it, and its text (none: it could not be read).
struct IndexSource {
  std::string file;
  std::optional<std::string> text;
};

/// One entry per source, in the given order. A lesson is listed when `run` accepts it (it
/// validates as `check` does: structure and simulation); its entry holds `run`'s id, level,
/// title, summary and question ids, and "compare": whether `compare` answers it (a
/// side-by-side view). Any other file gets its problems as `run` names them (file, JSON
/// Pointer, reason), or "cannot read the file". A lesson id an earlier file already has is
/// an error at /id with "kind": "duplicate", "id" and "other" (the earlier file), as
/// `idemlab check` refuses it. Never throws: a broken file is an entry, not a failed index.
nlohmann::json lesson_index(const std::vector<IndexSource>& sources);

}  // namespace idemlab::cli
