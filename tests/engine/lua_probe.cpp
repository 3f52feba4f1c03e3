#include "tests/engine/lua_probe.hpp"

// Lua's headers as they are, not in extern "C" (not lua.hpp): Lua is compiled as C++.
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

namespace idemlab::test {
namespace {

int destroyed = 0;

struct Witness {
  Witness() = default;
  Witness(const Witness&) = delete;
  Witness& operator=(const Witness&) = delete;
  ~Witness() { ++destroyed; }
};

int raise_from_cpp(lua_State* L) {
  Witness witness;
  lua_pushliteral(L, "raised from C++");
  return lua_error(L);
}

int unwound(lua_State* L) {
  lua_pushinteger(L, destroyed);
  return 1;
}

// The instruction budget: a count hook that fires once the chunk has run `budget`
// instructions, and raises an error naming the line it was on.
void over_budget(lua_State* L, lua_Debug* ar) {
  lua_getinfo(L, "Sl", ar);
  lua_pushfstring(L, "%s:%d: over the instruction budget", ar->short_src, ar->currentline);
  lua_error(L);
}

}  // namespace

std::string lua_probe(const std::string& chunk, int budget) {
  destroyed = 0;
  lua_State* L = luaL_newstate();
  if (!L) return "error: no memory for a Lua state";
  const luaL_Reg libs[] = {{LUA_GNAME, luaopen_base},
                           {LUA_STRLIBNAME, luaopen_string},
                           {LUA_TABLIBNAME, luaopen_table},
                           {LUA_MATHLIBNAME, luaopen_math}};
  for (const luaL_Reg& lib : libs) {
    luaL_requiref(L, lib.name, lib.func, 1);
    lua_pop(L, 1);
  }
  lua_register(L, "raise_from_cpp", raise_from_cpp);
  lua_register(L, "unwound", unwound);
  lua_sethook(L, over_budget, LUA_MASKCOUNT, budget);
  int status = luaL_loadbufferx(L, chunk.data(), chunk.size(), "=submission", "t");
  if (status == LUA_OK) status = lua_pcall(L, 0, LUA_MULTRET, 0);
  std::string out;
  if (status != LUA_OK) {
    const char* message = lua_tostring(L, -1);
    out = std::string("error: ") + (message ? message : "(not a string)");
  } else {
    out = "ok:";
    const int results = lua_gettop(L);
    for (int i = 1; i <= results; ++i) {
      size_t length = 0;
      const char* text = luaL_tolstring(L, i, &length);
      out += ' ';
      out.append(text, length);
      lua_pop(L, 1);
    }
  }
  lua_close(L);
  return out;
}

}  // namespace idemlab::test

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>

#include <cstdlib>
#include <cstring>

/// The probe for tests/wasm/lua.test.mjs: the result in memory from malloc (the caller frees it).
extern "C" EMSCRIPTEN_KEEPALIVE char* idemlab_lua_probe(const char* chunk, int budget) {
  const std::string out = idemlab::test::lua_probe(chunk ? chunk : "", budget);
  char* buf = static_cast<char*>(std::malloc(out.size() + 1));
  if (buf) std::memcpy(buf, out.c_str(), out.size() + 1);
  return buf;
}
#endif
