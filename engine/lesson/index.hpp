#pragma once
// The lesson index: what a lesson list shows of each lesson file without loading it
// (lessons/README.md; scripts/build writes it as dist/lessons/index.json, the page's
// list reads only it). Shape: engine/api/API.md, `index`.
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace idemlab {

/// One lesson file: its name as the list shows and fetches it, and its text (none: the
/// file could not be read).
struct IndexSource {
  std::string file;
  std::optional<std::string> text;
};

/// {"lessons": [entry, ...]}, one entry per source in the given order. A lesson that
/// validates as `check` validates it (structure and the simulation) gives
/// {"ok": true, "file", "id", "level", "title": L10n, "summary": L10n, "question_count": N,
///  "question_ids": [...], "compare": bool}; any other gives {"ok": false, "file",
/// "errors": [{"file", "path" (a JSON Pointer), "reason"}]}. A lesson id that an earlier
/// file already has is an error at /id with "kind": "duplicate", "id" and "other" (the
/// earlier file), as `check` refuses it.
nlohmann::json lesson_index(const std::vector<IndexSource>& sources);

}  // namespace idemlab
