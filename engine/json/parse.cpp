#include "engine/json/parse.hpp"

#include <cctype>
#include <cstdio>
#include <cstring>
#include <vector>

namespace idemlab {
namespace {

using nlohmann::json;

// The code point of the UTF-8 sequence at text[i] and its length in bytes; false when the
// bytes there are not well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates,
// nothing above U+10FFFF).
bool decode_utf8(const std::string& text, std::size_t i, std::uint32_t& cp, std::size_t& len) {
  auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  unsigned char b = byte(i);
  if (b < 0x80) {
    cp = b;
    len = 1;
    return true;
  }
  std::uint32_t min;
  if (b >= 0xC2 && b <= 0xDF) len = 2, cp = b & 0x1F, min = 0x80;
  else if (b >= 0xE0 && b <= 0xEF) len = 3, cp = b & 0x0F, min = 0x800;
  else if (b >= 0xF0 && b <= 0xF4) len = 4, cp = b & 0x07, min = 0x10000;
  else return false;
  if (i + len > text.size()) return false;
  for (std::size_t k = 1; k < len; ++k) {
    if ((byte(i + k) & 0xC0) != 0x80) return false;
    cp = (cp << 6) | (byte(i + k) & 0x3F);
  }
  return cp >= min && cp <= 0x10FFFF && !(cp >= 0xD800 && cp <= 0xDFFF);
}

// The offset of the first byte that is not part of well-formed UTF-8, or npos.
std::size_t first_invalid_utf8(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp;
    std::size_t len;
    if (!decode_utf8(text, i, cp, len)) return i;
    i += len;
  }
  return std::string::npos;
}

std::string hex(std::uint32_t v, int digits) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "%0*X", digits, static_cast<unsigned>(v));
  return buf;
}

// "character '，' (U+FF0C)", "character U+0001" (a control character is not quoted) or
// "byte 0xFF, which is not UTF-8".
std::string describe_char(const std::string& text, std::size_t offset) {
  std::uint32_t cp;
  std::size_t len;
  if (!decode_utf8(text, offset, cp, len)) return "byte 0x" + hex(static_cast<unsigned char>(text[offset]), 2) + ", which is not UTF-8";
  if (cp < 0x20 || cp == 0x7F) return "character U+" + hex(cp, 4);
  return "character '" + text.substr(offset, len) + "' (U+" + hex(cp, 4) + ")";
}

// The offset of the first '[' or '{' (outside strings) that opens level max_depth + 1.
std::size_t too_deep_at(const std::string& text, int max_depth) {
  int depth = 0;
  bool in_string = false, escaped = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (escaped) escaped = false;
      else if (c == '\\') escaped = true;
      else if (c == '"') in_string = false;
    } else if (c == '"') {
      in_string = true;
    } else if (c == '[' || c == '{') {
      if (++depth > max_depth) return i;
    } else if (c == ']' || c == '}') {
      --depth;
    }
  }
  return text.size();
}

std::string truncated(const std::string& s, std::size_t max) {
  std::string p = printable_utf8(s);
  if (p.size() <= max) return p;
  std::size_t cut = max;
  while (cut > 0 && (static_cast<unsigned char>(p[cut]) & 0xC0) == 0x80) --cut;
  return p.substr(0, cut) + "...";
}

// nlohmann's SAX events, forwarded to its own DOM builder, with the nesting bounded and
// the JSON Pointer of the value being read kept (for the problem). nlohmann's SAX parser
// is iterative; this stops it before a value deeper than max_depth is opened.
class BoundedBuilder {
 public:
  BoundedBuilder(json& root, int max_depth) : dom_(root, false), max_depth_(max_depth) {}

  bool null() { return done(dom_.null()); }
  bool boolean(bool v) { return done(dom_.boolean(v)); }
  bool number_integer(json::number_integer_t v) { return done(dom_.number_integer(v)); }
  bool number_unsigned(json::number_unsigned_t v) { return done(dom_.number_unsigned(v)); }
  bool number_float(json::number_float_t v, const json::string_t& s) { return done(dom_.number_float(v, s)); }
  bool string(json::string_t& v) { return done(dom_.string(v)); }
  bool binary(json::binary_t& v) { return done(dom_.binary(v)); }
  bool start_object(std::size_t n) { return open(false) && dom_.start_object(n); }
  bool key(json::string_t& k) {
    frames_.back().key = k;
    frames_.back().has_key = true;
    return dom_.key(k);
  }
  bool end_object() {
    frames_.pop_back();
    return done(dom_.end_object());
  }
  bool start_array(std::size_t n) { return open(true) && dom_.start_array(n); }
  bool end_array() {
    frames_.pop_back();
    return done(dom_.end_array());
  }
  bool parse_error(std::size_t position, const std::string& token, const nlohmann::detail::exception& e) {
    error_position = position;
    error_token = token;
    error_id = e.id;
    error_what = e.what();
    return false;
  }

  /// The JSON Pointer of the value being read.
  std::string path() const {
    std::string out;
    for (const Frame& f : frames_) {
      if (f.array) {
        out += "/" + std::to_string(f.index);
      } else if (f.has_key) {
        out += "/";
        for (char c : f.key) out += c == '~' ? std::string("~0") : c == '/' ? std::string("~1") : std::string(1, c);
      }
    }
    return out;
  }

  bool too_deep = false;
  std::string deep_path;
  std::size_t error_position = 0;
  std::string error_token, error_what;
  int error_id = 0;

 private:
  struct Frame {
    bool array = false;
    std::size_t index = 0;
    bool has_key = false;
    std::string key;
  };
  bool open(bool array) {
    if (static_cast<int>(frames_.size()) >= max_depth_) {
      too_deep = true;
      deep_path = path();
      return false;
    }
    frames_.push_back({array, 0, false, {}});
    return true;
  }
  bool done(bool ok) {
    if (!frames_.empty()) {
      if (frames_.back().array) ++frames_.back().index;
      else frames_.back().has_key = false;
    }
    return ok;
  }

  nlohmann::detail::json_sax_dom_parser<json> dom_;
  int max_depth_;
  std::vector<Frame> frames_;
};

bool run(const std::string& text, BoundedBuilder& b) {
  // Read through raw pointers: over the string's own iterators, the -Oz WebAssembly build
  // made a call of every step of the iterator, for every byte of a lesson.
  return json::sax_parse(text.data(), text.data() + text.size(), &b, json::input_format_t::json, true);
}

// Where the token that ends at `end` (one past its last byte) starts. nlohmann's token
// string (`token`) starts afresh only at a string or a number; after a bracket, a comma, a
// colon or a literal it holds everything read since (with whitespace and control
// characters written out as <U+000A>), so its length places a trailing comma's '}' at the
// value before it. Such a token is found in the text instead: one structural character,
// or the letters of a literal.
std::size_t token_start_at(const std::string& text, std::size_t end, const std::string& token) {
  if (end == 0 || end > text.size()) return end >= token.size() ? end - token.size() : 0;
  const char last = text[end - 1];
  if (std::strchr("{}[],:", last) != nullptr) return end - 1;
  if (std::isalpha(static_cast<unsigned char>(last))) {
    std::size_t start = end - 1;
    while (start > 0 && std::isalpha(static_cast<unsigned char>(text[start - 1]))) --start;
    return start;
  }
  return end >= token.size() ? end - token.size() : 0;  // a string or a number: its own token
}

// The reason and byte offset of a syntax error nlohmann reported.
void syntax_problem(const std::string& text, const BoundedBuilder& b, std::size_t& offset, std::string& reason) {
  const std::size_t token_start = token_start_at(text, b.error_position, b.error_token);
  if (b.error_id == 406) {  // out_of_range.406: number overflow
    offset = token_start;
    reason = "number out of range: " + truncated(b.error_token, 40) + " (numbers are at most about 1.8e308)";
    return;
  }
  // "[json.exception.parse_error.101] parse error at line L, column C: syntax error while
  // parsing <what> - <detail>; last read: '<token>'; expected <token kind>": the detail and
  // what was expected are kept; line and column are computed here in characters (nlohmann
  // counts bytes), and the token is quoted from the text itself.
  const std::string& what = b.error_what;
  std::size_t dash = what.find(" - ");
  std::string detail = dash == std::string::npos ? what : what.substr(dash + 3);
  std::size_t last = detail.find("; last read: ");
  if (last != std::string::npos) {
    std::size_t exp = detail.find("; expected ", last);
    detail.erase(last, exp == std::string::npos ? std::string::npos : exp - last);
  }
  std::string expected;
  std::size_t exp = detail.find("; expected ");
  if (exp != std::string::npos && detail.rfind("invalid ", 0) != 0) {
    expected = detail.substr(exp);
    detail = detail.substr(0, exp);
  }
  if (detail.rfind("unexpected end of input", 0) == 0) {
    offset = text.size();
    reason = "the text ends before the JSON value does" + expected;
    return;
  }
  // A lexer error ("invalid literal", "invalid string: ...") is at the last byte read; a
  // token in the wrong place ("unexpected '}'") at its start.
  bool lexer = detail.rfind("invalid ", 0) == 0;
  offset = lexer ? (b.error_position > 0 ? b.error_position - 1 : 0) : token_start;
  if (offset < text.size()) {
    unsigned char c = static_cast<unsigned char>(text[offset]);
    if (c >= 0x80 || (c < 0x20 && c != '\t' && c != '\n' && c != '\r' && !lexer)) {
      reason = "unexpected " + describe_char(text, offset);
      return;
    }
  }
  if (lexer && detail.rfind("invalid literal", 0) == 0) {
    // A word JSON does not know ("nope", "True", "undefined"): quoted whole, from its start.
    auto word = [&](std::size_t i) {
      char c = text[i];
      return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.' || c == '+';
    };
    if (offset > 0 && offset < text.size() && !word(offset) && word(offset - 1)) --offset;  // "tru}"
    while (offset > 0 && offset < text.size() && word(offset - 1) && word(offset)) --offset;
    std::size_t end = offset;
    while (end < text.size() && end - offset < 40 && word(end)) ++end;
    reason = "unexpected " + (end > offset ? "'" + text.substr(offset, end - offset) + "'" : describe_char(text, offset)) +
             " (a value is a string in double quotes, a number, true, false, null, an object or an array)";
    return;
  }
  reason = printable_utf8(detail) + printable_utf8(expected);
}

}  // namespace

void text_position(const std::string& text, std::size_t offset, int& line, int& column) {
  line = 1;
  column = 1;
  for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xC0) != 0x80) {  // not a continuation byte: one more character
      ++column;
    }
  }
}

std::string printable_utf8(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    std::uint32_t cp;
    std::size_t len;
    if (decode_utf8(text, i, cp, len)) {
      out.append(text, i, len);
      i += len;
    } else {
      out += '?';
      ++i;
    }
  }
  return out;
}

std::optional<json> parse_json(const std::string& text, int max_depth, JsonTextProblem& problem) {
  std::size_t offset = std::string::npos;
  std::string reason;
  std::size_t bad = first_invalid_utf8(text);
  if (bad != std::string::npos) {
    // The path of the value being read there: parse the text before it.
    json scratch;
    BoundedBuilder prefix(scratch, max_depth);
    run(text.substr(0, bad), prefix);
    problem.path = prefix.path();
    offset = bad;
    reason = "not valid UTF-8: byte 0x" + hex(static_cast<unsigned char>(text[bad]), 2) +
             " starts no character (save the file as UTF-8)";
  } else {
    json root;
    BoundedBuilder b(root, max_depth);
    if (run(text, b)) return root;
    if (b.too_deep) {
      problem.path = b.deep_path;
      offset = too_deep_at(text, max_depth);
      reason = "arrays and objects nest more than " + std::to_string(max_depth) + " levels deep";
    } else {
      problem.path = b.path();
      syntax_problem(text, b, offset, reason);
      reason = "not valid JSON: " + reason;
    }
  }
  text_position(text, offset, problem.line, problem.column);
  problem.reason = "line " + std::to_string(problem.line) + ", column " + std::to_string(problem.column) + ": " + reason;
  return std::nullopt;
}

}  // namespace idemlab
