// The estimate of what a prepared lesson holds (PreparedLesson::heap_bytes, engine/base/
// bytes.hpp), which bounds the API's cache of prepared lessons (limits.hpp,
// kMaxPreparedCacheBytes): near what the allocator itself counts, so that a member added
// to a run, a step or a snapshot and not counted shows here.
#include <doctest/doctest.h>

#include <memory>

#include "engine/lesson/prepared.hpp"
#include "lesson_file.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

using namespace idemlab;
using nlohmann::json;

namespace {

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IDEMLAB_NO_MALLINFO  // AddressSanitizer's allocator is not glibc's: mallinfo2 sees none of it
#endif
#endif
#if defined(__SANITIZE_ADDRESS__) || !defined(__GLIBC__)
#define IDEMLAB_NO_MALLINFO
#endif

// Bytes glibc has handed out and not had back; 0 where it cannot tell.
std::size_t heap_in_use() {
#ifdef IDEMLAB_NO_MALLINFO
  return 0;
#else
  struct mallinfo2 m = mallinfo2();
  return m.uordblks + m.hblkhd;
#endif
}

// A lesson of 8 intents, each delivered and 24 reapplied, every message possibly lost: 65
// runs of 187 steps, near the work limit and limits::kMaxFaultSpaceBytes (18 MiB in WASM).
std::string big_lesson() {
  json lesson = json::parse(read_lesson_text("01-lost-receipt.json"));
  json& s = lesson["scenario"];
  s["script"] = json::array();
  for (int i = 0; i < 8; ++i) {
    s["script"].push_back({{"at", i}, {"do", "deliver"}, {"intent", "r" + std::to_string(i)}, {"payload", "v" + std::to_string(i)}});
  }
  for (int i = 0; i < 24; ++i) s["script"].push_back({{"at", 300 + 50 * i}, {"do", "reapply"}, {"intent", "r" + std::to_string(i % 8)}});
  s["fault_space"] = {{"lose_any_one_message", true}};
  lesson["moments"] = json::array();
  lesson["questions"] = json::array();
  lesson["self_check"] = json::array();
  lesson.erase("challenge");
  return lesson.dump();
}

}  // namespace

TEST_CASE("a prepared lesson's estimated bytes are within 10% of what the allocator counts for it") {
  if (heap_in_use() == 0) return;  // under the sanitizers: nothing to compare with
  prepared_lesson("01-lost-receipt.json");  // what the first lesson makes once (SQLite's pools)
  for (const std::string& name : {std::string("09-retry-layers.json"), std::string("incident-akash-topup.json"), std::string("big")}) {
    CAPTURE(name);
    Lesson lesson = name == "big" ? load_lesson("big.json", big_lesson()) : load_lesson("lessons/" + name, read_lesson_text(name));
    const std::size_t before = heap_in_use();
    std::shared_ptr<const PreparedLesson> p = prepare_lesson(std::move(lesson));
    // Counted: what preparing kept, less the lesson moved into it (about its text's size).
    const double counted = static_cast<double>(heap_in_use() - before);
    const double estimated = static_cast<double>(p->heap_bytes());
    CHECK(estimated > 0.9 * counted - 64 * 1024);
    CHECK(estimated < 1.1 * counted);
  }
}

TEST_CASE("the estimate follows the runs: a lesson of 8 intents near the work limit holds fifty times a shipped one") {
  std::shared_ptr<const PreparedLesson> small = prepared_lesson("01-lost-receipt.json");
  std::shared_ptr<const PreparedLesson> big = prepare_lesson(load_lesson("big.json", big_lesson()));
  CHECK(small->heap_bytes() > 100 * 1000);
  CHECK(big->heap_bytes() > 50 * small->heap_bytes());
  CHECK(big->heap_bytes() == prepare_lesson(load_lesson("big.json", big_lesson()))->heap_bytes());
}
