#pragma once
// Reads a shipped lesson (tests run from the repository root; IDEMLAB_SOURCE_DIR is the
// fallback) and prepares it, as the API does.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/lesson/prepared.hpp"

inline std::string read_lesson_text(const std::string& name) {
  for (std::string dir : {std::string("lessons/"), std::string(IDEMLAB_SOURCE_DIR) + "/lessons/"}) {
    std::ifstream in(dir + name);
    if (in) {
      std::ostringstream ss;
      ss << in.rdbuf();
      return ss.str();
    }
  }
  throw std::runtime_error("cannot read lessons/" + name);
}

inline std::shared_ptr<const idemlab::PreparedLesson> prepared_lesson(const std::string& name) {
  return idemlab::prepare_lesson(idemlab::load_lesson("lessons/" + name, read_lesson_text(name)));
}

/// The shipped lessons' file names (lessons/*.json without the schema), sorted.
inline std::vector<std::string> shipped_lessons() {
  std::vector<std::string> out;
  for (const auto& e : std::filesystem::directory_iterator(std::string(IDEMLAB_SOURCE_DIR) + "/lessons")) {
    std::string name = e.path().filename().string();
    if (e.path().extension() == ".json" && name.find(".schema.") == std::string::npos) out.push_back(name);
  }
  std::sort(out.begin(), out.end());
  return out;
}
