#pragma once
// Inside the api part: api::call (engine/api/call.cpp) is the one function that catches;
// dispatch (engine/api/api.cpp) answers a call and is compiled without unwinding in the
// WASM build (CMakeLists.txt, IDEMLAB_UNWIND_FILES). Public API: engine/api/api.hpp.
#include <string>

#include <nlohmann/json.hpp>

namespace idemlab::api {

/// The answer to `method` on `input` (JSON text), as JSON: an input it refuses is an
/// {"error"} or {"ok": false} answer, not a throw. It throws only on an engine bug or when
/// memory runs out.
nlohmann::json dispatch(const std::string& method, const std::string& input);

/// Frees the prepared lesson the last call answered from when the cache of prepared lessons
/// does not keep it (limits::kMaxPreparedCacheBytes); with `all`, every cached one too (after
/// memory ran out: what the cache held is given back, whatever the failed call kept).
void release_prepared(bool all);

/// {"error": {"file", "path", "reason"}}
nlohmann::json error(const std::string& file, const std::string& path, const std::string& reason);

}  // namespace idemlab::api
