// A small driver of Lua as the build compiles it (CMakeLists.txt, idemlab_lua), shared by
// the native doctest (lua_test.cpp) and the WebAssembly test (tests/wasm/lua.test.mjs,
// through build/wasm/lua-probe.js): both run the same chunks and must get the same text.
#pragma once

#include <string>

namespace idemlab::test {

/// Runs `chunk` as a Lua chunk named "=submission" in a fresh state with the base, string,
/// table and math libraries, under a budget of `budget` Lua instructions, and returns
/// "ok:" followed by " " and each value it returned (as Lua's tostring), or "error: " and
/// the error's message. The chunk may call raise_from_cpp(), a C++ function that raises a
/// Lua error while a C++ object with a destructor is alive on its stack, and unwound(), the
/// number of such objects destroyed: with Lua compiled as C++ (errors thrown and caught as
/// C++ exceptions) each one is; with setjmp/longjmp none would be.
std::string lua_probe(const std::string& chunk, int budget);

}  // namespace idemlab::test
