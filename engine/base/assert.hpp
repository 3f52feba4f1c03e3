#pragma once
// IDEMLAB_ASSERT(condition, reason): an invariant of the engine's own code (not of the
// model: safety is engine/invariants/), checked where it must hold, each with the reason
// it must. Modelled on TigerBeetle's asserts (docs/TIGER_STYLE.md: assert what must be
// true, so a bug stops the run where it happens instead of bending a timeline later).
//
// On where IDEMLAB_ASSERTIONS is defined: the sanitized doctests and the fuzzer
// (CMakeLists.txt: IDEMLAB_SANITIZE / IDEMLAB_FUZZ), and any build configured with
// -DIDEMLAB_ASSERTIONS=ON. Off in the page's WASM and the release CLI, where the checks
// would cost time on every step and a learner could do nothing with the message.
// A failed assertion prints file, line, the condition and its reason to stderr and
// aborts (the fuzzer and the sanitizers report an abort with its stack).
#include <cstdio>
#include <cstdlib>

namespace idemlab::detail {
[[noreturn]] inline void assertion_failed(const char* file, int line, const char* condition, const char* reason) {
  std::fprintf(stderr, "%s:%d: IDEMLAB_ASSERT(%s) failed: %s\n", file, line, condition, reason);
  std::abort();
}
}  // namespace idemlab::detail

#ifdef IDEMLAB_ASSERTIONS
#define IDEMLAB_ASSERT(condition, reason) \
  ((condition) ? static_cast<void>(0) : ::idemlab::detail::assertion_failed(__FILE__, __LINE__, #condition, reason))
#else
#define IDEMLAB_ASSERT(condition, reason) static_cast<void>(0)
#endif
