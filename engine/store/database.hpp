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
#include <functional>
#include <initializer_list>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
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

/// A parameter of a statement as its caller holds it: NULL, an integer or text. The text is
/// viewed, not copied (SQLite copies it as it binds), so it must outlive the query call: a
/// temporary in the call's own argument list does.
struct SqlParam {
  SqlValue::Kind kind = SqlValue::Kind::Null;
  long long integer = 0;
  std::string_view text;

  SqlParam() = default;  ///< NULL
  SqlParam(long long v) : kind(SqlValue::Kind::Integer), integer(v) {}
  SqlParam(int v) : SqlParam(static_cast<long long>(v)) {}
  SqlParam(const std::string& v) : kind(SqlValue::Kind::Text), text(v) {}
  SqlParam(const char* v) : kind(SqlValue::Kind::Text), text(v) {}
  SqlParam(const SqlValue& v) : kind(v.kind), integer(v.integer), text(v.text) {}
  SqlParam(bool) = delete;  // say 1 or 0
};

/// Thrown with SQLite's own message and the statement that failed.
class DatabaseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// One thing a Database did, as SqlLog records it: opened (with_schema), or ran a
/// statement (exec, or query with its parameters). `connection` numbers the databases in
/// the order they were opened while recording (0, 1, ...).
struct SqlCall {
  enum class Kind { Open, Exec, Query } kind = Kind::Query;
  int connection = 0;
  std::string sql;    ///< the statement; Open: the schema
  std::string reset;  ///< Open only: what empties a pooled connection
  std::vector<SqlValue> params;
};

class Database {
 public:
  /// While `log` is set (not null), every Database opened records what it does into it;
  /// set it to null to stop. For scripts/bench: a run's SQL alone, beside the whole run.
  static void record_sql(std::vector<SqlCall>* log);
  /// Does what `log` recorded again, on databases of its own (pooled as usual), and
  /// throws away the rows read: the cost of the SQL alone.
  static void replay_sql(const std::vector<SqlCall>& log);

  /// A database holding `schema` and no rows: a pooled connection emptied with `reset`
  /// (e.g. "DELETE FROM t; DELETE FROM u": statements split at each ';', so none inside a
  /// string), or a new one on which `schema` is executed. Throws
  /// DatabaseError if either statement fails. (The only way to get a Database: a member
  /// default-opened and then replaced would cost every run a throwaway connection.)
  static Database with_schema(const std::string& schema, const std::string& reset);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  /// A database with the same schema and the same rows (rowids included), on a
  /// connection of its own: a simulation's fork (Simulation::fork). No transaction may be
  /// open (throws DatabaseError). changes() starts afresh on the copy.
  Database copy();

  /// Runs one or more statements with no parameters (schema, BEGIN, COMMIT).
  void exec(const std::string& sql);
  /// Runs one statement with positional parameters (?1, ?2, ...); returns every row.
  /// Statements are prepared once per connection and reused (looked up by the text
  /// itself: no string is built per call).
  std::vector<SqlRow> query(std::string_view sql, std::initializer_list<SqlParam> params = {}) {
    return query(sql, params.begin(), params.size());
  }
  std::vector<SqlRow> query(std::string_view sql, const SqlParam* params, std::size_t count);
  /// Rows written so far on this connection (sqlite3_total_changes64): readers use it to
  /// know whether a cached read is still current.
  long long changes() const;
  /// The column names of `sql`, a statement query() has run on this connection (its
  /// prepared statement is cached); empty for one it has not. For the client's code
  /// (engine/code/: db.rows gives each row as a table by column name).
  std::vector<std::string> column_names(std::string_view sql) const;
  /// Whether a transaction is open (BEGIN without COMMIT or ROLLBACK yet).
  bool in_transaction() const;

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  void close();

  sqlite3* db_ = nullptr;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements_;
  std::string pool_key_;  // the schema, for a pooled connection
  std::string reset_;     // what empties it
  int logged_ = -1;       // its number in the SqlLog being recorded, if any
};

}  // namespace idemlab
