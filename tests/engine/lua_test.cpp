// Lua as the build compiles it (CMakeLists.txt, idemlab_lua): errors caught as C++
// exceptions, the instruction budget, and one iteration order for string keys. The same
// chunks run in WebAssembly in tests/wasm/lua.test.mjs and must give the same text.
#include <doctest/doctest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "engine/fingerprint/sha256.hpp"
#include "tests/engine/lua_probe.hpp"

namespace {

nlohmann::json probe_cases() {
  std::ifstream in(std::string(IDEMLAB_SOURCE_DIR) + "/tests/engine/lua_probe_cases.json");
  std::stringstream text;
  text << in.rdbuf();
  return nlohmann::json::parse(text.str()).at("cases");
}

}  // namespace

TEST_CASE("Lua runs each probe chunk to the answer native and WebAssembly builds share") {
  const nlohmann::json cases = probe_cases();
  REQUIRE(cases.size() >= 7);
  for (const nlohmann::json& c : cases) {
    CAPTURE(c.at("name").get<std::string>());
    const std::string out = idemlab::test::lua_probe(c.at("chunk").get<std::string>(), c.at("budget").get<int>());
    if (c.contains("expect")) {
      CHECK(out == c.at("expect").get<std::string>());
    } else {
      CAPTURE(out);
      CHECK(idemlab::sha256_hex(out) == c.at("expect_sha256").get<std::string>());
    }
  }
}

TEST_CASE("pairs over string keys gives the same text in every fresh Lua state") {
  std::string chunk;
  for (const nlohmann::json& c : probe_cases()) {
    if (c.contains("expect_sha256")) chunk = c.at("chunk").get<std::string>();
  }
  REQUIRE(chunk.find("pairs(t)") != std::string::npos);
  const std::string first = idemlab::test::lua_probe(chunk, 100000);
  REQUIRE(first.rfind("ok: key", 0) == 0);
  for (int i = 0; i < 5; ++i) CHECK(idemlab::test::lua_probe(chunk, 100000) == first);
}
