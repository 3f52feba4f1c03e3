// api::call: the engine API's one catch. Whatever dispatch (engine/api/api.cpp) throws, an
// engine bug or exhausted memory, becomes an {"error"} answer. In the WASM build dispatch
// and most of the engine are compiled without unwinding (CMakeLists.txt): such a throw
// does not free what the code it crossed held, and it may leave the SQL recording of
// `simulate` pointing at a frame that is gone, so it is switched off here.
#include <new>
#include <stdexcept>

#include "engine/api/api.hpp"
#include "engine/api/dispatch.hpp"
#include "engine/json/parse.hpp"
#include "engine/json/write.hpp"
#include "engine/sim/code_fault.hpp"
#include "engine/store/database.hpp"

namespace idemlab::api {

std::string call(const std::string& method, const std::string& input) {
  try {
    nlohmann::json out = dispatch(method, input);
    release_prepared(false);  // before the answer is written: the lesson is no longer needed
    return write_json(out);
  } catch (const CodeFault& fault) {
    // The client's code failed in a run (code mode): where and why, as grade says it.
    Database::record_sql(nullptr);
    release_prepared(false);
    nlohmann::json out = error("", "/scenario/code", fault.reason.en);
    nlohmann::json detail = fault.to_json();
    for (auto it = detail.begin(); it != detail.end(); ++it) out["error"][it.key()] = it.value();
    out["error"]["text"] = out["error"]["reason"];
    out["error"]["reason"] = fault.reason.en;
    return write_json(out);
  } catch (const std::bad_alloc&) {
    // Memory ran out (in WASM at the module's maximum, CMakeLists.txt): the cache of prepared
    // lessons is given back too, so that the next call has room.
    Database::record_sql(nullptr);
    release_prepared(true);
    return error("", "", "out of memory: the input asks for more than the engine can hold").dump();
  } catch (const std::exception& e) {
    Database::record_sql(nullptr);
    release_prepared(false);
    return error("", "", "internal error: " + printable_utf8(e.what())).dump();
  } catch (...) {
    Database::record_sql(nullptr);
    release_prepared(false);
    return error("", "", "internal error").dump();
  }
}

}  // namespace idemlab::api
