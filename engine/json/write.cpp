#include "engine/json/write.hpp"

#include <charconv>
#include <cstdint>

namespace idemlab {
namespace {

using nlohmann::json;

// The length of the well-formed UTF-8 sequence (RFC 3629, table 3-7 of the Unicode
// standard: no overlong form, no surrogate, nothing past U+10FFFF) that starts at p (p <
// end), or 0 when there is none there: exactly the bytes nlohmann's decoder accepts.
// (Raw pointers, not the string's accessors: in the -Oz WebAssembly build each accessor
// stays a call.)
std::size_t utf8_sequence(const unsigned char* p, const unsigned char* end) {
  std::size_t left = static_cast<std::size_t>(end - p);
  auto cont = [&](std::size_t k, unsigned lo = 0x80, unsigned hi = 0xBF) { return k < left && p[k] >= lo && p[k] <= hi; };
  unsigned b0 = p[0];
  if (b0 >= 0xC2 && b0 <= 0xDF) return cont(1) ? 2 : 0;
  if (b0 == 0xE0) return cont(1, 0xA0, 0xBF) && cont(2) ? 3 : 0;
  if ((b0 >= 0xE1 && b0 <= 0xEC) || b0 == 0xEE || b0 == 0xEF) return cont(1) && cont(2) ? 3 : 0;
  if (b0 == 0xED) return cont(1, 0x80, 0x9F) && cont(2) ? 3 : 0;
  if (b0 == 0xF0) return cont(1, 0x90, 0xBF) && cont(2) && cont(3) ? 4 : 0;
  if (b0 >= 0xF1 && b0 <= 0xF3) return cont(1) && cont(2) && cont(3) ? 4 : 0;
  if (b0 == 0xF4) return cont(1, 0x80, 0x8F) && cont(2) && cont(3) ? 4 : 0;
  return 0;
}

// Appends `s` quoted and escaped as nlohmann's serializer does with ensure_ascii off:
// \" \\ \b \f \n \r \t, any other byte below 0x20 as \u00xx (lowercase hex), every
// other code point as its own bytes. False (out partly written) if `s` is not UTF-8.
bool write_string(const std::string& s, std::string& out) {
  static const char* hex = "0123456789abcdef";
  const unsigned char* begin = reinterpret_cast<const unsigned char*>(s.data());
  const unsigned char* end = begin + s.size();
  const unsigned char* plain = begin;  // start of the bytes not yet appended
  const unsigned char* p = begin;
  out.push_back('"');
  while (p < end) {
    unsigned char c = *p;
    if (c >= 0x20 && c < 0x80 && c != '"' && c != '\\') {
      ++p;
      continue;
    }
    if (c >= 0x80) {
      std::size_t n = utf8_sequence(p, end);
      if (n == 0) return false;
      p += n;
      continue;
    }
    out.append(reinterpret_cast<const char*>(plain), static_cast<std::size_t>(p - plain));
    char esc[6] = {'\\', 0, 0, 0, 0, 0};
    std::size_t len = 2;
    switch (c) {
      case '"': esc[1] = '"'; break;
      case '\\': esc[1] = '\\'; break;
      case 0x08: esc[1] = 'b'; break;
      case 0x09: esc[1] = 't'; break;
      case 0x0A: esc[1] = 'n'; break;
      case 0x0C: esc[1] = 'f'; break;
      case 0x0D: esc[1] = 'r'; break;
      default:
        esc[1] = 'u';
        esc[2] = '0';
        esc[3] = '0';
        esc[4] = hex[c >> 4];
        esc[5] = hex[c & 0xF];
        len = 6;
    }
    out.append(esc, len);
    plain = ++p;
  }
  out.append(reinterpret_cast<const char*>(plain), static_cast<std::size_t>(end - plain));
  out.push_back('"');
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
