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
/// `idemlab check` refuses it.
nlohmann::json lesson_index(const std::vector<IndexSource>& sources);

}  // namespace idemlab::cli
