#pragma once
// Learner-facing text in both languages the product ships (docs/design.md: zh-CN and en).
// Every string the engine hands to a front end is an L10n; front ends pick one.
#include <nlohmann/json.hpp>
#include <string>

#include "engine/json/fields.hpp"

namespace idemlab {

struct L10n {
  std::string zh;  ///< zh-CN
  std::string en;  ///< en

  /// {"zh-CN": zh, "en": en}
  nlohmann::json to_json() const {
    nlohmann::json out = nlohmann::json::object();
    put(out, "zh-CN", zh);
    put(out, "en", en);
    return out;
  }
  /// Joins two texts language by language: a + sep + b.
  static L10n join(const L10n& a, const L10n& b, const std::string& sep_zh = "",
                   const std::string& sep_en = " ") {
    return {a.zh + sep_zh + b.zh, a.en + sep_en + b.en};
  }
};

}  // namespace idemlab
