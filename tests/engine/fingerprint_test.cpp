#include <doctest/doctest.h>

#include <string>

#include "engine/fingerprint/sha256.hpp"

// Vectors from NIST's "Examples with intermediate values" for SHA-256 (FIPS 180-4).
TEST_CASE("payload fingerprints are SHA-256 as the standard gives it") {
  CHECK(idemlab::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(idemlab::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(idemlab::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  CHECK(idemlab::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("a one-byte change gives another fingerprint, and padding edges hash") {
  CHECK(idemlab::sha256_hex("report-v1") != idemlab::sha256_hex("report-v2"));
  // 55, 56 and 64 bytes: the lengths where padding needs one or two blocks.
  CHECK(idemlab::sha256_hex(std::string(55, 'x')).size() == 64);
  CHECK(idemlab::sha256_hex(std::string(56, 'x')) != idemlab::sha256_hex(std::string(55, 'x')));
  CHECK(idemlab::sha256_hex(std::string(64, 'x')) != idemlab::sha256_hex(std::string(63, 'x')));
}
