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
#include "engine/store/database.hpp"

namespace idemlab::api {

std::string call(const std::string& method, const std::string& input) {
  try {
    return write_json(dispatch(method, input));
  } catch (const std::bad_alloc&) {
    Database::record_sql(nullptr);
    return error("", "", "out of memory: the input asks for more than the engine can hold").dump();
  } catch (const std::exception& e) {
    Database::record_sql(nullptr);
    return error("", "", "internal error: " + printable_utf8(e.what())).dump();
  } catch (...) {
    Database::record_sql(nullptr);
    return error("", "", "internal error").dump();
  }
}

}  // namespace idemlab::api
