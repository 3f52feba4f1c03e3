#pragma once
// Building the engine's JSON answers one field at a time, in little code.
//
// nlohmann's brace-initialised objects ({{"key", value}, ...}) copy every value and cost,
// per field, a pair of json_ref temporaries, each with its own clean-up on the exception
// path; in the WebAssembly engine that was most of the code of every function that builds
// an answer. put() is one call per field, and moves the value in. The JSON is the same:
// an object's keys are kept sorted whichever way they are set.
#include <nlohmann/json.hpp>

namespace idemlab {

/// Sets `object[key]` to `value` (moved in; a key already there is replaced). `object` is
/// a JSON object, or null, which becomes one (as nlohmann's operator[] does); anything
/// else throws nlohmann's type_error.
void put(nlohmann::json& object, const char* key, nlohmann::json value);

}  // namespace idemlab
