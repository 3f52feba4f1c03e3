#pragma once
// The client as the learner writes it (code mode, issue 34): a process with its own
// SQLite database whose decisions are the learner's Lua handlers (engine/code/lua_vm.hpp),
// behind the same process boundary as the built-in client (engine/sim/node.hpp). The
// built-in client is one policy; this one is code.
//
// Its database holds `intents(intent, op_key, payload, status, receipt, attempts)`, the
// table the invariants read (engine/invariants/), which the code reads and writes with
// SQL. What it knows is that database and the message in hand.
//
// The engine keeps what a process's runtime keeps and the code does not write: the timers
// (a request or a lookup unanswered after timeout_ms is a timeout, and a reply that comes
// later is discarded: the connection was closed), and the wire's numbering of sends.
// Handlers (a missing one does nothing): on_deliver(intent, payload) for the script's
// deliver; on_response(intent, reply) and on_lookup(intent, reply) for a reply it waited
// for; on_timeout(intent, call) with call "request" | "lookup"; on_connect_error(intent,
// attempt) when a request's connection is refused (it never left); on_restart() when the
// process is up again after a crash (its timers are gone, its database is not);
// on_timer(intent) when a timer the code set with after(ms, intent) is due (a wait before
// a retry or a reconcile: the built-in client's retry_after_ms and backoff_ms).
//
// Steps, from the event table (engine/sim/events.hpp), as the built-in client's: decide
// when on_deliver starts; persist for a new row of `intents` and record for a row whose
// status or receipt changed (after each statement the code runs); send, lookup, receive,
// timeout, connect_error, crash, restart, and recover when on_restart starts. Injection
// points as the built-in client's: crash after_persist (an intent's first row), after_send
// (each send), before_record (a reply received, before its handler), and connect_error.
// A crash unwinds the handler; what its statements wrote stays (each one commits).
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "engine/code/lua_vm.hpp"
#include "engine/scenario/scenario.hpp"
#include "engine/sim/node.hpp"
#include "engine/store/database.hpp"

namespace idemlab {

/// What the code client is built with: its code, and what the built-in client is built
/// with besides its policy (engine/client/client.hpp, ClientSetup).
struct CodeClientSetup {
  std::shared_ptr<LuaVm> vm;
  std::int64_t timeout_ms = 0;  ///< virtual ms (Timing::timeout_ms)
  std::uint64_t seed = 1;       ///< for new_key
  bool lookup_offered = false;  ///< ServiceContract::lookup: the API the code is written against
};

class CodeClient final : public Node, private CodeHost {
 public:
  CodeClient(Env& env, CodeClientSetup setup);
  /// A copy working in `env` (Simulation::fork); with `take`, from's database moves over.
  CodeClient(Env& env, CodeClient& from, bool take);

  bool alive() const override { return alive_; }
  void on_message(const Message& m) override;
  void act(const Action& a) override;
  void crash() override;
  void restart() override;
  void snapshot(Snapshot& into) override;
  std::unique_ptr<Node> fork(Env& env, bool take) override;

 private:
  // CodeHost: what the code may call.
  long long sql(const std::string& statement, const std::vector<SqlValue>& params, std::vector<SqlRow>& rows,
                std::vector<std::string>& names) override;
  long long send(const std::string& intent, const std::string& key, const std::string& payload) override;
  bool lookup(const std::string& intent, const std::string& key) override;
  std::string new_key(const std::string& intent) override;
  std::int64_t now() const override;
  void after(const std::string& intent, std::int64_t ms) override;

  /// Calls a handler; false if the client crashed during it.
  bool run(const std::string& handler, const std::vector<CodeValue>& args);
  Rows<IntentRow> rows();
  /// The steps a statement's changes to `intents` make (persist, record), and the
  /// after_persist crash point of an intent's first row: false if the client crashed there.
  bool emit_changes();
  void wait_for(const std::string& intent, MessageKind kind, int n);
  void on_timeout(const std::string& intent, MessageKind kind, int n, int epoch);

  Env& env_;
  CodeClientSetup setup_;
  Database db_;
  Rows<IntentRow> rows_;          // `intents` as the steps last showed it
  long long rows_read_at_ = -1;   // db_.changes() when rows_ was read
  bool alive_ = true;
  int epoch_ = 0;                 // a crash starts a new epoch: older timers are void
  std::vector<Waiting> waiting_;  // volatile: what it waits for, until when
  Rows<Waiting> waiting_seen_;
  std::map<std::string, int> sends_;  // the wire's numbering of each intent's requests
  std::map<std::string, int> persisted_;  // intents whose first row the crash point passed
  long long keys_drawn_ = 0;      // new_key's draws (a process's entropy: not reset by a crash)
};

/// The code client's factory (engine/nodes/nodes.hpp, CodeClientFactory): the scenario's
/// code loaded once per text (the last one kept), each run a client of its own.
std::unique_ptr<Node> make_code_client(const Scenario& scenario, Env& env);

/// Loads `code` as make_code_client will (throws CodeFault if it does not load).
std::shared_ptr<LuaVm> code_vm(const std::string& code);

}  // namespace idemlab
