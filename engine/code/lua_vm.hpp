#pragma once
// The interpreter the client's code runs in (code mode, issue 34): Lua 5.4 compiled into
// the engine (docs/design.md, "Code mode": chosen by measurement), with nothing of Lua's
// I/O. The code sees what CodeHost hands it: the client's own database and the wire, never
// the observer's truth or another side.
//
// Every handler call starts from the code as written: the chunk runs again in a fresh
// global table before the handler is called, so nothing the code keeps in a variable
// survives from one call to the next (a crash, a fork of the run or another schedule
// cannot see it). The client's memory across calls is its database, as in the seed
// course's lab. A global assigned inside a handler is refused with that said.
//
// Bounded (engine/scenario/limits.hpp): kMaxCodeInstructions per call (a count hook stops
// an endless loop with the line it was on), kMaxCodeMemoryBytes for the whole state (its
// allocator counts), kMaxCodeStatements SQL statements per call. Deterministic: the same
// calls give the same results natively and in WASM (Lua's string-hash seed is a constant,
// build/third_party/lua as scripts/install-deps extracts it; no clock, no random).
// Errors are CodeFault (engine/sim/code_fault.hpp), with the line, and the column where the
// parser names a token.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/sim/code_fault.hpp"
#include "engine/store/database.hpp"

struct lua_State;

namespace idemlab {

/// A value handed to the code: nil, an integer, text, a boolean or a table of named fields.
struct CodeValue {
  enum class Kind { Nil, Integer, Text, Boolean, Table } kind = Kind::Nil;
  long long integer = 0;
  std::string text;
  bool boolean = false;
  std::vector<std::pair<std::string, CodeValue>> fields;  ///< Table: in this order

  static CodeValue of(long long v) { CodeValue c; c.kind = Kind::Integer; c.integer = v; return c; }
  static CodeValue of(std::string v) { CodeValue c; c.kind = Kind::Text; c.text = std::move(v); return c; }
  static CodeValue flag(bool v) { CodeValue c; c.kind = Kind::Boolean; c.boolean = v; return c; }
  static CodeValue table() { CodeValue c; c.kind = Kind::Table; return c; }
  CodeValue& set(std::string name, CodeValue v) { fields.emplace_back(std::move(name), std::move(v)); return *this; }
};

/// What the code may do, as the client node provides it (engine/code/code_client.hpp).
/// A method refuses with HostRefusal; the interpreter turns it into the code's error at
/// the line that called.
class CodeHost {
 public:
  virtual ~CodeHost() = default;
  /// Runs one SQL statement with positional parameters on the client's database: its rows
  /// and column names; returns the rows it changed.
  virtual long long sql(const std::string& statement, const std::vector<SqlValue>& params,
                        std::vector<SqlRow>& rows, std::vector<std::string>& names) = 0;
  /// Sends the request of `intent` under `key` with `payload`: its attempt number, or 0 if
  /// the client crashed right there (the handler then stops).
  virtual long long send(const std::string& intent, const std::string& key, const std::string& payload) = 0;
  /// Asks the service what it holds under `key`: false if the client crashed there.
  virtual bool lookup(const std::string& intent, const std::string& key) = 0;
  /// A fresh operation key for `intent` (a new one each call; deterministic).
  virtual std::string new_key(const std::string& intent) = 0;
  /// Virtual ms.
  virtual std::int64_t now() const = 0;
  /// Calls on_timer(intent) `ms` virtual ms from now, unless the client crashes first.
  virtual void after(const std::string& intent, std::int64_t ms) = 0;
};

/// A refusal by the host: the code's error, at the line of the call that made it.
struct HostRefusal {
  HostRefusal(std::string kind, L10n reason, std::string token = "")
      : kind(std::move(kind)), reason(std::move(reason)), token(std::move(token)) {}
  std::string kind;  ///< "runtime" | "forbidden"
  L10n reason;
  /// The name the column is found by on the line ("" : the function the code called).
  std::string token;
};

class LuaVm {
 public:
  /// Loads `code` (chunk name "submission"): throws CodeFault "syntax" if it does not load,
  /// "runtime" / "budget" / "memory" / "forbidden" if running it once fails.
  explicit LuaVm(const std::string& code);
  ~LuaVm();
  LuaVm(const LuaVm&) = delete;
  LuaVm& operator=(const LuaVm&) = delete;

  /// Whether the code defines `handler` (a global function).
  bool defines(const std::string& handler) const;
  /// Calls `handler` with `args` acting through `host`: false if the client crashed during
  /// it (the call unwound; what the database already holds stays). A handler the code does
  /// not define does nothing. Throws CodeFault on the code's error.
  bool call(CodeHost& host, const std::string& handler, const std::vector<CodeValue>& args);

  // For the interpreter's own C functions (lua_vm.cpp).
  struct State;
  State& state() { return *state_; }

 private:
  std::unique_ptr<State> state_;
  std::vector<std::string> handlers_;  ///< the handlers the code defines
  std::string code_;
};

}  // namespace idemlab
