#pragma once
// A small RAII wrapper over one SQLite connection, used by the client's intent store and
// the service's delivery store (each side owns its own database, as in the course: the
// two cannot commit together).
//
// Databases live in memory and stand for the file on disk: a process crash loses the
// process's memory, never its committed rows. A crash inside a transaction (the service's
// `between_writes` point under the atomic ordering) rolls it back, as SQLite's journal
// does when the process dies before COMMIT.
//
// Connections are pooled per schema and reused by later runs: a lesson runs every world
// of its fault space, and opening a connection, reading its schema and preparing its
// statements anew each time was most of a run's cost. The engine is single-threaded; so
// is the pool.
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace idemlab {

/// A value in a result row: NULL, an integer or text. The engine stores nothing else.
struct SqlValue {
  enum class Kind { Null, Integer, Text } kind = Kind::Null;
  long long integer = 0;
  std::string text;

  static SqlValue null() { return {}; }
  static SqlValue of(long long v) { return {Kind::Integer, v, {}}; }
  static SqlValue of(std::string v) { return {Kind::Text, 0, std::move(v)}; }
  bool operator==(const SqlValue& o) const {
    return kind == o.kind && integer == o.integer && text == o.text;
  }
};

using SqlRow = std::vector<SqlValue>;

/// Thrown with SQLite's own message and the statement that failed.
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Database {
 public:
  /// A database holding `schema` and no rows: a pooled connection emptied with `reset`
  /// (e.g. "DELETE FROM t; DELETE FROM u"), or a new one on which `schema` is executed. Throws
  /// DatabaseError if either statement fails. (The only way to get a Database: a member
  /// default-opened and then replaced would cost every run a throwaway connection.)
  static Database with_schema(const std::string& schema, const std::string& reset);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  /// Runs one or more statements with no parameters (schema, BEGIN, COMMIT).
  void exec(const std::string& sql);
  /// Runs one statement with positional parameters (?1, ?2, ...); returns every row.
  /// Statements are prepared once per connection and reused.
  std::vector<SqlRow> query(const std::string& sql, const std::vector<SqlValue>& params = {});
  /// Rows written so far on this connection (sqlite3_total_changes64): readers use it to
  /// know whether a cached read is still current.
  long long changes() const;
  /// Whether a transaction is open (BEGIN without COMMIT or ROLLBACK yet).
  bool in_transaction() const;

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  void close();

  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*> statements_;
  std::string pool_key_;  // the schema, for a pooled connection
};

}  // namespace idemlab
