#include "engine/json/write.hpp"

#include <charconv>
#include <cstdint>

namespace idemlab {
namespace {

using nlohmann::json;

// The length of the well-formed UTF-8 sequence (RFC 3629, table 3-7 of the Unicode
// standard: no overlong form, no surrogate, nothing past U+10FFFF) that starts at s[i],
// or 0 when there is none there: exactly the bytes nlohmann's decoder accepts.
std::size_t utf8_sequence(const std::string& s, std::size_t i) {
  auto at = [&](std::size_t k) { return k < s.size() ? static_cast<unsigned char>(s[k]) : 0u; };
  unsigned b0 = at(i);
  auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) {
    unsigned b = at(k);
    return k < s.size() && b >= lo && b <= hi;
  };
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (b0 == 0xE0) return cont(i + 1, 0xA0, 0xBF) && cont(i + 2) ? 3 : 0;
  if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) return cont(i + 1) && cont(i + 2) ? 3 : 0;
  if (b0 == 0xED) return cont(i + 1, 0x80, 0x9F) && cont(i + 2) ? 3 : 0;
  if (b0 == 0xF0) return cont(i + 1, 0x90, 0xBF) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(i + 1) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  if (b0 == 0xF4) return cont(i + 1, 0x80, 0x8F) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  return 0;
}

// Appends `s` quoted and escaped as nlohmann's serializer does with ensure_ascii off:
// \" \\ \b \f \n \r \t, any other byte below 0x20 as \u00xx (lowercase hex), every
// other code point as its own bytes. False (out partly written) if `s` is not UTF-8.
bool write_string(const std::string& s, std::string& out) {
  static const char* hex = "0123456789abcdef";
  out += '"';
  std::size_t plain = 0;  // start of the bytes not yet appended
  std::size_t i = 0;
  while (i < s.size()) {
    unsigned char c = static_cast<unsigned char>(s[i]);
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++i;
      continue;
    }
    if (c >= 0x80) {
      std::size_t n = utf8_sequence(s, i);
      if (n == 0) return false;
      i += n;
      continue;
    }
    out.append(s, plain, i - plain);
    out += '\\';
    switch (c) {
      case '"': out += '"'; break;
      case '\\': out += '\\'; break;
      case 0x08: out += 'b'; break;
      case 0x09: out += 't'; break;
      case 0x0A: out += 'n'; break;
      case 0x0C: out += 'f'; break;
      case 0x0D: out += 'r'; break;
      default:
        out += "u00";
        out += hex[c >> 4];
        out += hex[c & 0xF];
    }
    plain = ++i;
  }
  out.append(s, plain, s.size() - plain);
  out += '"';
  return true;
}

template <typename Int>
void write_integer(Int v, std::string& out) {
  char buf[24];
  auto r = std::to_chars(buf, buf + sizeof buf, v);
  out.append(buf, r.ptr);
}

// False when `v` holds what this writer leaves to nlohmann (see write.hpp).
bool write(const json& v, std::string& out) {
  switch (v.type()) {
    case json::value_t::null: out += "null"; return true;
    case json::value_t::boolean: out += v.get_ref<const json::boolean_t&>() ? "true" : "false"; return true;
    case json::value_t::number_integer: write_integer(v.get_ref<const json::number_integer_t&>(), out); return true;
    case json::value_t::number_unsigned: write_integer(v.get_ref<const json::number_unsigned_t&>(), out); return true;
    case json::value_t::string: return write_string(v.get_ref<const json::string_t&>(), out);
    case json::value_t::array: {
      out += '[';
      bool first = true;
      for (const json& e : v.get_ref<const json::array_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write(e, out)) return false;
      }
      out += ']';
      return true;
    }
    case json::value_t::object: {
      out += '{';
      bool first = true;
      for (const auto& [key, e] : v.get_ref<const json::object_t&>()) {
        if (!first) out += ',';
        first = false;
        if (!write_string(key, out)) return false;
        out += ':';
        if (!write(e, out)) return false;
      }
      out += '}';
      return true;
    }
    default: return false;  // floating-point, binary, discarded
  }
}

}  // namespace

std::string write_json(const json& value) {
  std::string out;
  if (!write(value, out)) return value.dump();
  return out;
}

}  // namespace idemlab
