#pragma once
// Writing the engine's JSON answers as text: the same bytes as nlohmann's dump() (no
// indent, UTF-8 written as it is, keys in the object's own sorted order), in about a third
// of its time. nlohmann's serializer runs every byte of every string through a UTF-8
// decoder one byte at a time; a `run` answer is ~150 KB of text, and writing it was a
// tenth of the call. Here a run of plain bytes is appended at once, and UTF-8 is checked
// a code point at a time.
#include <string>

#include <nlohmann/json.hpp>

namespace idemlab {

/// `value` as JSON text, byte for byte what value.dump() returns. Where dump() throws
/// (a string that is not valid UTF-8) this throws the same nlohmann::json::type_error, as it
/// hands such a value to dump() itself; so are floating-point numbers and binary values,
/// which the engine's answers do not hold.
std::string write_json(const nlohmann::json& value);

}  // namespace idemlab
