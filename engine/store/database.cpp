#include "engine/store/database.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <cstring>
#include <iterator>

namespace idemlab {
namespace {

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  throw DatabaseError(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

sqlite3* open_memory() {
  sqlite3* db = nullptr;
  if (sqlite3_open(":memory:", &db) != SQLITE_OK) {
    std::string msg = db ? sqlite3_errmsg(db) : "out of memory";
    sqlite3_close(db);
    throw DatabaseError("cannot open an in-memory database: " + msg);
  }
  return db;
}

}  // namespace

namespace {

// Idle connections by schema: (connection, its prepared statements).
struct Idle {
  sqlite3* db;
  std::map<std::string, sqlite3_stmt*, std::less<>> statements;
};
// The pool closes its idle connections when the program ends, so that nothing of SQLite's
// is left allocated (a leak checker would report every pooled connection).
struct Pool {
  std::map<std::string, std::vector<Idle>> idle;
  ~Pool() {
    for (auto& [schema, connections] : idle) {
      for (Idle& c : connections) {
        for (auto& [sql, stmt] : c.statements) sqlite3_finalize(stmt);
        sqlite3_close(c.db);
      }
    }
  }
};
std::map<std::string, std::vector<Idle>>& pool() {
  static Pool pool;
  return pool.idle;
}
constexpr std::size_t kPoolPerSchema = 8;

}  // namespace

namespace {

// The statements of `sql` ("DELETE FROM t; DELETE FROM u"), each without its ';', as
// SQLite splits them; computed once per text.
const std::vector<std::string>& split_statements(const std::string& sql) {
  static std::map<std::string, std::vector<std::string>> split;
  auto it = split.find(sql);
  if (it != split.end()) return it->second;
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start < sql.size()) {
    std::size_t end = start;
    // The engine's resets hold no ';' inside a string: a plain split is SQLite's.
    end = sql.find(';', start);
    if (end == std::string::npos) end = sql.size();
    std::string statement = sql.substr(start, end - start);
    if (statement.find_first_not_of(" \t\n") != std::string::npos) out.push_back(statement);
    start = end + 1;
  }
  return split.emplace(sql, std::move(out)).first->second;
}

std::vector<SqlCall>* sql_log = nullptr;
int sql_log_connections = 0;
}  // namespace

void Database::record_sql(std::vector<SqlCall>* log) {
  sql_log = log;
  sql_log_connections = 0;
}

void Database::replay_sql(const std::vector<SqlCall>& log) {
  std::vector<Database> open;
  for (const SqlCall& c : log) {
    switch (c.kind) {
      case SqlCall::Kind::Open: open.push_back(with_schema(c.sql, c.reset)); break;
      case SqlCall::Kind::Exec: open.at(c.connection).exec(c.sql); break;
      case SqlCall::Kind::Query: {
        // As the engine passes them: views, on the stack (the engine's statements take at
        // most 7), so the replay times the SQL and not a copy of its parameters.
        SqlParam params[8];
        std::vector<SqlParam> more;
        SqlParam* p = params;
        if (c.params.size() > std::size(params)) p = (more = std::vector<SqlParam>(c.params.size())).data();
        std::copy(c.params.begin(), c.params.end(), p);
        open.at(c.connection).query(c.sql, p, c.params.size());
        break;
      }
    }
  }
}

Database Database::with_schema(const std::string& schema, const std::string& reset) {
  std::vector<Idle>& idle = pool()[schema];
  Database out(nullptr);
  if (!idle.empty()) {
    out.db_ = idle.back().db;
    out.statements_ = std::move(idle.back().statements);
    idle.pop_back();
    // Statement by statement, each prepared once per connection (query keeps it): parsing
    // the reset anew was a good part of what a run cost in SQL.
    for (const std::string& statement : split_statements(reset)) out.query(statement);
  } else {
    out.db_ = open_memory();
    out.exec(schema);
  }
  out.pool_key_ = schema;
  out.reset_ = reset;
  if (sql_log) {
    out.logged_ = sql_log_connections++;
    sql_log->push_back({SqlCall::Kind::Open, out.logged_, schema, reset, {}});
  }
  return out;
}

namespace {

// Per schema, how to copy its tables: per table, the statement that reads every row with
// its rowid and the one that writes such a row back.
struct TableCopy {
  std::string read, write;
};
std::map<std::string, std::vector<TableCopy>>& table_copies() {
  static std::map<std::string, std::vector<TableCopy>> copies;
  return copies;
}

}  // namespace

Database Database::copy() {
  if (in_transaction()) throw DatabaseError("cannot copy a database while a transaction is open");
  std::vector<TableCopy>& tables = table_copies()[pool_key_];
  if (tables.empty()) {
    for (const SqlRow& t : query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")) {
      TableCopy c;
      c.read = "SELECT rowid, * FROM \"" + t[0].text + "\"";
      query(c.read);
      sqlite3_stmt* stmt = statements_[c.read];
      int n = sqlite3_column_count(stmt);
      std::string columns = "rowid", values = "?1";
      for (int i = 1; i < n; ++i) {
        columns += std::string(", \"") + sqlite3_column_name(stmt, i) + "\"";
        values += ", ?" + std::to_string(i + 1);
      }
      c.write = "INSERT INTO \"" + t[0].text + "\"(" + columns + ") VALUES (" + values + ")";
      tables.push_back(std::move(c));
    }
  }
  Database out = with_schema(pool_key_, reset_);
  for (const TableCopy& t : tables) {
    for (const SqlRow& row : query(t.read)) {
      std::vector<SqlParam> params(row.begin(), row.end());
      out.query(t.write, params.data(), params.size());
    }
  }
  return out;
}

Database::~Database() { close(); }

void Database::close() {
  if (db_ && !pool_key_.empty() && pool()[pool_key_].size() < kPoolPerSchema &&
      sqlite3_get_autocommit(db_)) {
    pool()[pool_key_].push_back({db_, std::move(statements_)});
    statements_.clear();
    db_ = nullptr;
    return;
  }
  for (auto& [sql, stmt] : statements_) sqlite3_finalize(stmt);
  statements_.clear();
  sqlite3_close(db_);
  db_ = nullptr;
}

Database::Database(Database&& other) noexcept
    : db_(other.db_),
      statements_(std::move(other.statements_)),
      pool_key_(std::move(other.pool_key_)),
      reset_(std::move(other.reset_)),
      logged_(other.logged_) {
  other.db_ = nullptr;
  other.statements_.clear();
  other.pool_key_.clear();
}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    close();
    db_ = other.db_;
    statements_ = std::move(other.statements_);
    pool_key_ = std::move(other.pool_key_);
    reset_ = std::move(other.reset_);
    logged_ = other.logged_;
    other.db_ = nullptr;
    other.statements_.clear();
    other.pool_key_.clear();
  }
  return *this;
}

void Database::exec(const std::string& sql) {
  if (sql_log && logged_ >= 0) sql_log->push_back({SqlCall::Kind::Exec, logged_, sql, "", {}});
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw DatabaseError(sql + ": " + msg);
  }
}

std::vector<SqlRow> Database::query(std::string_view sql, const SqlParam* params, std::size_t count) {
  if (sql_log && logged_ >= 0) {
    std::vector<SqlValue> values;
    for (std::size_t i = 0; i < count; ++i) {
      const SqlParam& p = params[i];
      values.push_back(p.kind == SqlValue::Kind::Null      ? SqlValue::null()
                       : p.kind == SqlValue::Kind::Integer ? SqlValue::of(p.integer)
                                                           : SqlValue::of(std::string(p.text)));
    }
    sql_log->push_back({SqlCall::Kind::Query, logged_, std::string(sql), "", std::move(values)});
  }
  auto found = statements_.find(sql);
  if (found == statements_.end()) {
    std::string text(sql);
    sqlite3_stmt* prepared = nullptr;
    if (sqlite3_prepare_v2(db_, text.c_str(), -1, &prepared, nullptr) != SQLITE_OK) fail(db_, text);
    found = statements_.emplace(std::move(text), prepared).first;
  }
  sqlite3_stmt* stmt = found->second;
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  for (std::size_t i = 0; i < count; ++i) {
    const SqlParam& p = params[i];
    int idx = static_cast<int>(i) + 1;
    int rc = p.kind == SqlValue::Kind::Null      ? sqlite3_bind_null(stmt, idx)
             : p.kind == SqlValue::Kind::Integer ? sqlite3_bind_int64(stmt, idx, p.integer)
                                                 : sqlite3_bind_text(stmt, idx, p.text.data(),
                                                                     static_cast<int>(p.text.size()), SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail(db_, std::string(sql));
  }
  std::vector<SqlRow> rows;
  for (;;) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      sqlite3_reset(stmt);
      fail(db_, std::string(sql));
    }
    SqlRow row;
    int n = sqlite3_column_count(stmt);
    row.reserve(static_cast<std::size_t>(n));
    for (int c = 0; c < n; ++c) {
      switch (sqlite3_column_type(stmt, c)) {
        case SQLITE_NULL: row.push_back(SqlValue::null()); break;
        case SQLITE_INTEGER: row.push_back(SqlValue::of(sqlite3_column_int64(stmt, c))); break;
        default:
          row.push_back(SqlValue::of(
              std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt, c)))));
      }
    }
    rows.push_back(std::move(row));
  }
  sqlite3_reset(stmt);
  return rows;
}

long long Database::changes() const { return sqlite3_total_changes64(db_); }

std::vector<std::string> Database::column_names(std::string_view sql) const {
  std::vector<std::string> names;
  auto found = statements_.find(sql);
  if (found == statements_.end()) return names;
  int n = sqlite3_column_count(found->second);
  for (int c = 0; c < n; ++c) {
    const char* name = sqlite3_column_name(found->second, c);
    names.emplace_back(name ? name : "");
  }
  return names;
}

bool Database::in_transaction() const { return db_ && !sqlite3_get_autocommit(db_); }

}  // namespace idemlab
