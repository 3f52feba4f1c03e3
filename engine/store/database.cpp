#include "engine/store/database.hpp"

#include <sqlite3.h>

#include <cstring>

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
  std::map<std::string, sqlite3_stmt*> statements;
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

Database Database::with_schema(const std::string& schema, const std::string& reset) {
  std::vector<Idle>& idle = pool()[schema];
  Database out(nullptr);
  if (!idle.empty()) {
    out.db_ = idle.back().db;
    out.statements_ = std::move(idle.back().statements);
    idle.pop_back();
    out.exec(reset);
  } else {
    out.db_ = open_memory();
    out.exec(schema);
  }
  out.pool_key_ = schema;
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
    : db_(other.db_), statements_(std::move(other.statements_)), pool_key_(std::move(other.pool_key_)) {
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
    other.db_ = nullptr;
    other.statements_.clear();
    other.pool_key_.clear();
  }
  return *this;
}

void Database::exec(const std::string& sql) {
  char* err = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
    std::string msg = err ? err : "unknown error";
    sqlite3_free(err);
    throw DatabaseError(sql + ": " + msg);
  }
}

std::vector<SqlRow> Database::query(const std::string& sql, const std::vector<SqlValue>& params) {
  sqlite3_stmt*& stmt = statements_[sql];
  if (!stmt && sqlite3_prepare_v2(db_, sql.c_str(), -1, &stmt, nullptr) != SQLITE_OK) {
    statements_.erase(sql);
    fail(db_, sql);
  }
  sqlite3_reset(stmt);
  sqlite3_clear_bindings(stmt);
  for (std::size_t i = 0; i < params.size(); ++i) {
    const SqlValue& p = params[i];
    int idx = static_cast<int>(i) + 1;
    int rc = p.kind == SqlValue::Kind::Null      ? sqlite3_bind_null(stmt, idx)
             : p.kind == SqlValue::Kind::Integer ? sqlite3_bind_int64(stmt, idx, p.integer)
                                                 : sqlite3_bind_text(stmt, idx, p.text.c_str(),
                                                                     -1, SQLITE_TRANSIENT);
    if (rc != SQLITE_OK) fail(db_, sql);
  }
  std::vector<SqlRow> rows;
  for (;;) {
    int rc = sqlite3_step(stmt);
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) {
      sqlite3_reset(stmt);
      fail(db_, sql);
    }
    SqlRow row;
    int n = sqlite3_column_count(stmt);
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

bool Database::in_transaction() const { return db_ && !sqlite3_get_autocommit(db_); }

}  // namespace idemlab
