#include "engine/json/fields.hpp"

namespace idemlab {

// Never inlined: one call per field is the point (fields.hpp).
[[gnu::noinline]] void put(nlohmann::json& object, const char* key, nlohmann::json value) {
  object[key] = std::move(value);
}

}  // namespace idemlab
