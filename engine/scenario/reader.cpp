#include "engine/scenario/reader.hpp"

#include <algorithm>

#include "engine/json/parse.hpp"
#include "engine/scenario/limits.hpp"

namespace idemlab {

using nlohmann::json;

std::string join_names(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

void Reader::problem(const std::string& path, const std::string& reason) {
  if (problems_.size() < static_cast<std::size_t>(limits::kMaxProblems)) {
    problems_.push_back({file_, path, reason});
  } else if (problems_.size() == static_cast<std::size_t>(limits::kMaxProblems)) {
    problems_.push_back({file_, "", "more problems follow: fix these first"});
  }
}

std::optional<json> Reader::parse(const std::string& text, std::size_t max_bytes) {
  if (text.size() > max_bytes) {
    problem("", "the text is " + std::to_string(text.size()) + " bytes; at most " + std::to_string(max_bytes) +
                    " are allowed, so that every lesson loads in a browser within a second");
    return std::nullopt;
  }
  JsonTextProblem p;
  std::optional<json> out = parse_json(text, limits::kMaxJsonDepth, p);
  if (!out) problems_.push_back({file_, p.path, p.reason, p.line, p.column});
  return out;
}

std::string Reader::at(const std::string& path, const std::string& key) {
  std::string out = path + "/";
  for (char c : key) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

std::string Reader::at(const std::string& path, std::size_t i) { return path + "/" + std::to_string(i); }

bool Reader::object(const json& j, const std::string& path, const std::vector<std::string>& allowed) {
  if (!j.is_object()) {
    problem(path, "expected an object");
    return false;
  }
  for (const auto& [key, value] : j.items()) {
    (void)value;
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      problem(at(path, key), "unknown field '" + key + "'; allowed: " + join_names(allowed));
    }
  }
  return true;
}

const json* Reader::field(const json& j, const std::string& path, const std::string& key, bool required) {
  if (!j.is_object()) return nullptr;
  auto it = j.find(key);
  if (it == j.end()) {
    if (required) problem(at(path, key), "missing required field '" + key + "'");
    return nullptr;
  }
  return &*it;
}

std::string Reader::string(const json& j, const std::string& path, const std::string& key, bool required,
                           const std::string& fallback) {
  const json* v = field(j, path, key, required);
  if (!v) return fallback;
  if (!v->is_string() || v->get<std::string>().empty()) {
    problem(at(path, key), "expected a non-empty string");
    return fallback;
  }
  return v->get<std::string>();
}

std::string Reader::choice(const json& j, const std::string& path, const std::string& key,
                           const std::vector<std::string>& allowed, bool required, const std::string& fallback) {
  const json* v = field(j, path, key, required);
  if (!v) return fallback;
  std::string s = string(j, path, key, required, fallback);
  if (std::find(allowed.begin(), allowed.end(), s) == allowed.end()) {
    if (v->is_string() && !v->get<std::string>().empty()) {
      problem(at(path, key), "unknown value '" + s + "'; known: " + join_names(allowed));
    }
    return fallback;
  }
  return s;
}

long long Reader::integer(const json& j, const std::string& path, const std::string& key, bool required,
                          long long fallback, long long min, long long max) {
  const json* v = field(j, path, key, required);
  if (!v) return fallback;
  if (!v->is_number_integer() || v->get<long long>() < min || v->get<long long>() > max) {
    problem(at(path, key), "expected an integer from " + std::to_string(min) + " to " + std::to_string(max));
    return fallback;
  }
  return v->get<long long>();
}

bool Reader::boolean(const json& j, const std::string& path, const std::string& key, bool fallback) {
  const json* v = field(j, path, key, false);
  if (!v) return fallback;
  if (!v->is_boolean()) {
    problem(at(path, key), "expected true or false");
    return fallback;
  }
  return v->get<bool>();
}

L10n Reader::text(const json& j, const std::string& path, const std::string& key, bool required) {
  const json* v = field(j, path, key, required);
  if (!v) return {};
  return text_value(*v, at(path, key));
}

L10n Reader::text_value(const json& v, const std::string& path) {
  L10n out;
  if (!v.is_object()) {
    problem(path, "expected an object with \"zh-CN\" and \"en\" texts");
    return out;
  }
  for (const auto& [lang, value] : v.items()) {
    if (lang != "zh-CN" && lang != "en") problem(at(path, lang), "unknown language '" + lang + "'; known: zh-CN, en");
    else if (!value.is_string() || value.get<std::string>().empty()) problem(at(path, lang), "expected a non-empty string");
  }
  if (!v.contains("zh-CN")) problem(path, "missing language 'zh-CN'");
  if (!v.contains("en")) problem(path, "missing language 'en'");
  if (v.contains("zh-CN") && v["zh-CN"].is_string()) out.zh = v["zh-CN"].get<std::string>();
  if (v.contains("en") && v["en"].is_string()) out.en = v["en"].get<std::string>();
  return out;
}

const json* Reader::array(const json& j, const std::string& path, const std::string& key, bool required) {
  const json* v = field(j, path, key, required);
  if (v && !v->is_array()) {
    problem(at(path, key), "expected an array");
    return nullptr;
  }
  return v;
}

const json* Reader::bounded_array(const json& j, const std::string& path, const std::string& key, bool required, int max) {
  const json* v = array(j, path, key, required);
  if (v && v->size() > static_cast<std::size_t>(max)) {
    problem(at(path, key), std::to_string(v->size()) + " entries; at most " + std::to_string(max) +
                               " are allowed, so that every lesson loads in a browser within a second");
    return nullptr;
  }
  return v;
}

}  // namespace idemlab
