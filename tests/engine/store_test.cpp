// The engine's SQLite (engine/store/sqlite_unit.c: built without ALTER TABLE, PRAGMA,
// ANALYZE, virtual tables, triggers, ATTACH, VACUUM, REINDEX, views, subqueries and floating point): what the engine's SQL
// does still works, and a left-out statement fails with an error that names it, leaving
// the connection usable.
#include <doctest/doctest.h>

#include <string>

#include "engine/store/database.hpp"

using idemlab::Database;
using idemlab::DatabaseError;
using idemlab::SqlValue;

namespace {
Database fresh() {
  return Database::with_schema("CREATE TABLE store_test_kv(k TEXT PRIMARY KEY, v INTEGER NOT NULL)",
                               "DELETE FROM store_test_kv");
}

std::string refusal(Database& db, const std::string& sql) {
  try {
    db.exec(sql);
  } catch (const DatabaseError& e) {
    return e.what();
  }
  return "";
}
}  // namespace

TEST_CASE("the engine's kind of SQL runs: replace by key, read back, roll a transaction back") {
  Database db = fresh();
  db.query("INSERT OR REPLACE INTO store_test_kv(k, v) VALUES (?1, ?2)", {SqlValue::of(std::string("a")), SqlValue::of(1)});
  db.query("INSERT OR REPLACE INTO store_test_kv(k, v) VALUES (?1, ?2)", {SqlValue::of(std::string("a")), SqlValue::of(2)});
  db.exec("BEGIN IMMEDIATE");
  db.query("UPDATE store_test_kv SET v = v + 40 WHERE k = ?1", {SqlValue::of(std::string("a"))});
  db.exec("ROLLBACK");
  auto rows = db.query("SELECT v FROM store_test_kv WHERE k = ?1", {SqlValue::of(std::string("a"))});
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0] == SqlValue::of(2));
}

TEST_CASE("a statement left out of the engine's SQLite is refused by name, and the connection still works") {
  Database db = fresh();
  const char* cases[][2] = {
      {"PRAGMA user_version = 3", "PRAGMA"},
      {"ALTER TABLE store_test_kv ADD COLUMN w INTEGER", "ALTER TABLE"},
      {"ATTACH ':memory:' AS other", "ATTACH"},
      {"VACUUM", "VACUUM"},
      {"CREATE TRIGGER t AFTER INSERT ON store_test_kv BEGIN DELETE FROM store_test_kv; END", "CREATE TRIGGER"},
      {"ANALYZE", "ANALYZE"},
      {"CREATE VIEW v AS SELECT k FROM store_test_kv", "CREATE VIEW"},
  };
  for (auto& c : cases) {
    CAPTURE(c[0]);
    CHECK(refusal(db, c[0]).find(c[1]) != std::string::npos);
  }
  db.query("INSERT INTO store_test_kv(k, v) VALUES ('b', 7)");
  auto rows = db.query("SELECT v FROM store_test_kv WHERE k = 'b'");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0] == SqlValue::of(7));
}


TEST_CASE("without floating point, a REAL literal is a syntax error, not a value stored as something else") {
  Database db = fresh();
  CHECK(refusal(db, "INSERT INTO store_test_kv(k, v) VALUES ('c', 1.5)").find("syntax error") != std::string::npos);
  CHECK(db.query("SELECT v FROM store_test_kv WHERE k = 'c'").empty());
  db.query("INSERT INTO store_test_kv(k, v) VALUES ('c', 15)");
  auto rows = db.query("SELECT v FROM store_test_kv WHERE k = 'c'");
  REQUIRE(rows.size() == 1);
  CHECK(rows[0][0] == SqlValue::of(15));
}
