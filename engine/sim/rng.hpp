#pragma once
// The seeded generator behind operation keys and receipts. SplitMix64 (Steele, Lea and
// Flood, "Fast splittable pseudorandom number generators", OOPSLA 2014): plain integer
// arithmetic, so the same seed gives the same values natively and in WASM, byte for byte.
#include <cstdint>
#include <string>

namespace idemlab {

class Rng {
 public:
  explicit Rng(std::uint64_t seed) : state_(seed) {}
  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  /// `digits` lowercase hex characters drawn from a generator seeded by `seed` and `label`
  /// (FNV-1a of the label). Stateless on purpose: the key of intent "report", attempt 1 is
  /// the same in every run of a fault space, so runs can be compared.
  static std::string derive_hex(std::uint64_t seed, const std::string& label, int digits) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    for (unsigned char c : label) h = (h ^ c) * 0x100000001b3ULL;
    Rng rng(seed ^ h);
    static const char* hex = "0123456789abcdef";
    std::string out;
    std::uint64_t v = rng.next();
    for (int i = 0; i < digits; ++i) {
      if (i > 0 && i % 16 == 0) v = rng.next();
      out.push_back(hex[(v >> (60 - 4 * (i % 16))) & 0xf]);
    }
    return out;
  }

 private:
  std::uint64_t state_;
};

}  // namespace idemlab
