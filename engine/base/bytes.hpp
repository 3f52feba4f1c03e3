#pragma once
// Estimates of the heap bytes a value holds, for what is bounded by bytes (the API's cache
// of prepared lessons: engine/scenario/limits.hpp, kMaxPreparedCacheBytes): what the
// allocator hands out for it, each block with the allocator's own overhead, on the platform
// it is compiled for (in WASM, where a pointer is 4 bytes, the same value takes less).
// An estimate counts what it is told to (each type says what it holds): a member it is not
// told about is not counted.
#include <cstddef>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace idemlab::bytes {

/// What the allocator keeps beside each block and rounds it up by: emmalloc (the page's)
/// a header of two words and blocks of whole words; glibc's the same, natively.
inline constexpr std::size_t kPerBlock = 2 * sizeof(void*);

/// A block of `n` bytes (nothing for none).
inline std::size_t block(std::size_t n) { return n ? n + kPerBlock : 0; }

/// The characters of `s`, when they are not held inside it (a short string's are).
inline std::size_t of(const std::string& s) {
  const char* chars = s.data();
  const char* inside = reinterpret_cast<const char*>(&s);
  std::less<const char*> before;
  bool short_string = !before(chars, inside) && before(chars, inside + sizeof s);
  return short_string ? 0 : block(s.capacity() + 1);
}
inline std::size_t of(const std::optional<std::string>& s) { return s ? of(*s) : 0; }
/// What `s` takes in the page's engine, the same on every platform (for limits that must
/// refuse the same inputs natively and in WASM): beyond the 10 characters a string holds
/// inside itself in wasm32's libc++, a block of its characters and a NUL, in whole words.
inline std::size_t in_wasm(const std::string& s) { return s.size() > 10 ? (s.size() + 1 + 3) / 4 * 4 + 8 : 0; }

/// A vector's own storage (its capacity, not its size), not what its elements hold.
template <typename T>
std::size_t storage(const std::vector<T>& v) {
  return block(v.capacity() * sizeof(T));
}
/// A vector's storage and what each element holds (`each(element)`).
template <typename T, typename Each>
std::size_t of(const std::vector<T>& v, Each each) {
  std::size_t n = storage(v);
  for (const T& x : v) n += each(x);
  return n;
}
inline std::size_t of(const std::vector<std::string>& v) {
  return of(v, [](const std::string& s) { return of(s); });
}

/// A deque's chunks (libc++'s, the page's: 4,096 bytes or 16 elements each, and the map
/// of pointers to them) and what each element holds (`each(element)`).
template <typename T, typename Each>
std::size_t of(const std::deque<T>& d, Each each) {
  std::size_t per_chunk = sizeof(T) < 256 ? 4096 / sizeof(T) : 16;
  std::size_t chunks = d.size() / per_chunk + 1;
  std::size_t n = chunks * block(per_chunk * sizeof(T)) + block(chunks * sizeof(void*));
  for (const T& x : d) n += each(x);
  return n;
}

/// A std::map's nodes (an entry beside three pointers and a colour) and what each entry
/// holds (`each(key, value)`).
template <typename K, typename V, typename Each>
std::size_t of(const std::map<K, V>& m, Each each) {
  std::size_t n = 0;
  for (const auto& [k, v] : m) n += block(4 * sizeof(void*) + sizeof(std::pair<const K, V>)) + each(k, v);
  return n;
}

}  // namespace idemlab::bytes
