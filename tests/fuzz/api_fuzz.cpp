// libFuzzer target over the engine API (engine/api/API.md), built with AddressSanitizer and
// UndefinedBehaviorSanitizer by `cmake -DIDEMLAB_FUZZ=ON` (clang; scripts/fuzz, scripts/test).
// Each input is tried twice: as the API's raw input text (any bytes: not JSON, not UTF-8,
// nested deep), and as the text of a lesson file ({"file", "text"}) given to every lesson
// method. A finding is a crash, a sanitizer report, a leak, an answer that is not JSON,
// or an "internal error" (an exception the engine did not turn into a problem).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/api/api.hpp"

namespace {

using nlohmann::json;

bool internal(const json& problem) {
  if (!problem.is_object()) return false;
  auto reason = problem.find("reason");
  return reason != problem.end() && reason->is_string() && reason->get<std::string>().rfind("internal error", 0) == 0;
}

// The engine's own report of an exception it did not turn into a problem: an "error" or one
// of "errors" whose reason starts "internal error" (engine/api/call.cpp). Not a text the
// input itself carries back (a lesson's narration may well say "internal error").
bool failed_inside(const json& j) {
  if (j.contains("error") && internal(j["error"])) return true;
  if (j.contains("errors") && j["errors"].is_array()) {
    for (const json& e : j["errors"]) {
      if (internal(e)) return true;
    }
  }
  return false;
}

json answer(const char* method, const std::string& input) {
  std::string out = idemlab::api::call(method, input);
  json j = json::parse(out, nullptr, false);
  if (j.is_discarded() || !j.is_object()) {
    std::fprintf(stderr, "api::call(\"%s\") answered something that is not a JSON object: %.300s\n", method, out.c_str());
    std::abort();
  }
  if (failed_inside(j)) {
    std::fprintf(stderr, "api::call(\"%s\") failed inside: %.500s\n", method, out.c_str());
    std::abort();
  }
  return j;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  answer("check", text);
  // A lesson file's text can reach the API only as a JSON string, so as UTF-8: invalid
  // bytes become U+FFFD (the raw call above has them as they are).
  const std::string lesson =
      json{{"file", "fuzz.json"}, {"text", text}}.dump(-1, ' ', false, json::error_handler_t::replace);
  if (answer("check", lesson).value("ok", false) != true) return 0;
  for (const char* method : {"run", "answers", "compare", "scenario"}) answer(method, lesson);
  json in = json::parse(lesson);
  in["limit"] = 40;  // explore: a few schedules, enough to walk its code
  answer("explore", in.dump());
  return 0;
}
