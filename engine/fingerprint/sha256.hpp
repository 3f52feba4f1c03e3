#pragma once
// Payload fingerprints: SHA-256 (FIPS 180-4) of the payload bytes, as lowercase hex.
//
// The service compares fingerprints to tell a retry (same key, same payload) from a
// changed intent (same key, different payload); the client stores the fingerprint with
// the intent. Written here rather than linked because the same code must run natively
// and in WASM with no dependency; checked against the NIST example vectors in
// tests/engine/fingerprint_test.cpp.
#include <string>
#include <string_view>

namespace idemlab {

/// SHA-256 of `bytes`, as 64 lowercase hex characters. Never fails.
std::string sha256_hex(std::string_view bytes);

}  // namespace idemlab
