// The WASM face of the engine API (engine/api/API.md): two C functions, exported by the
// Emscripten build (-sEXPORTED_FUNCTIONS=_idemlab_call,_idemlab_free).
#include <cstdlib>
#include <cstring>
#include <string>

#include "engine/api/api.hpp"
#ifdef IDEMLAB_WITH_CODE
// The code module (idemlab-code.wasm): the same API, and a client that runs the learner's
// code (engine/code/, issue 34).
#include "engine/code/code_client.hpp"
#include "engine/nodes/nodes.hpp"
namespace {
const bool code_mode = (idemlab::set_code_client_factory(&idemlab::make_code_client), true);
}
#endif

#ifdef __EMSCRIPTEN__
#include <emscripten/emscripten.h>
#define IDEMLAB_EXPORT EMSCRIPTEN_KEEPALIVE
#else
#define IDEMLAB_EXPORT
#endif

#ifdef __EMSCRIPTEN__
// Forwards api progress (engine/api/api.hpp, set_progress_hook) to Module.onProgress, when
// the page (a Web Worker) has set one.
EM_JS(void, idemlab_js_progress, (int depth, int max_faults, int done, int total, int schedules), {
  if (typeof Module.onProgress === 'function') {
    Module.onProgress({depth : depth, max_faults : max_faults, done : done, total : total, schedules : schedules});
  }
});
namespace {
const bool progress_hooked = (idemlab::api::set_progress_hook(idemlab_js_progress), true);
}
#endif

extern "C" {

/// Runs api::call(method, input). Both arguments are NUL-terminated UTF-8; the result is
/// UTF-8 JSON in memory allocated with malloc, which the caller releases with
/// idemlab_free. Nothing is thrown to JavaScript: a failure inside is an {"error": ...}
/// answer, and the module stays usable. Returns NULL only when memory runs out.
IDEMLAB_EXPORT char* idemlab_call(const char* method, const char* input) {
  std::string out;
  try {
    out = idemlab::api::call(method ? method : "", input ? input : "");
  } catch (...) {  // api::call catches everything itself; copying the arguments may not fit
    out = R"({"error":{"file":"","path":"","reason":"out of memory"}})";
  }
  char* buf = static_cast<char*>(std::malloc(out.size() + 1));
  if (buf) std::memcpy(buf, out.c_str(), out.size() + 1);
  return buf;
}

/// Releases a result of idemlab_call. NULL is allowed.
IDEMLAB_EXPORT void idemlab_free(char* p) { std::free(p); }
}
