// Code mode (issue 34): the client's decisions as the learner's Lua, graded by the explorer.
// What a learner sees: a wrong design fails with a counterexample, a right one passes, and
// every way code can go wrong (it does not load, it raises, it loops, it reaches for what
// the client cannot know) gets its own refusal, with the line.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "engine/api/api.hpp"
#include "engine/code/code_client.hpp"
#include "engine/grade/grade.hpp"
#include "engine/nodes/nodes.hpp"
#include "engine/scenario/scenario_json.hpp"

using namespace idemlab;
using nlohmann::json;

namespace {

const bool registered = (set_code_client_factory(&make_code_client), true);

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// One intent, a service with lookup, every fault of up to two: the lost-response lesson.
json lost_response_exercise() {
  return json::parse(R"({"id": "t", "title": {"zh-CN": "t", "en": "t"}, "task": {"zh-CN": "t", "en": "t"},
    "scenario": {"seed": 7, "service": {"lookup": true}, "timing": {"latency_ms": 10, "timeout_ms": 100},
      "script": [{"at": 0, "do": "deliver", "intent": "weekly-report", "payload": "Weekly report, version 1"}]},
    "faults": 2, "skeleton": "-- write the client here", "hints": []})");
}

json grade_code(const json& exercise, const std::string& code) {
  REQUIRE(registered);
  return json::parse(api::call("grade", json{{"exercise", exercise}, {"code", code}}.dump()));
}

// Sends under one key stored before the request, and on any doubt asks by that key.
const char* kStoreThenLookup = R"LUA(
function on_deliver(intent, payload)
  local key = new_key(intent)
  db.exec("INSERT INTO intents(intent, op_key, payload, status, attempts) VALUES (?, ?, ?, 'PENDING', 1)", intent, key, payload)
  send(intent, key, payload)
end
local function settle(intent, reply)
  if reply.outcome == "ok" or reply.outcome == "found" then
    db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?", reply.receipt, intent)
    return true
  end
  return false
end
local function ask(intent)
  local r = db.row("SELECT op_key, status FROM intents WHERE intent = ?", intent)
  if r.status ~= "UNKNOWN" then db.exec("UPDATE intents SET status = 'UNKNOWN' WHERE intent = ?", intent) end
  lookup(intent, r.op_key)
end
function on_response(intent, reply)
  if not settle(intent, reply) then ask(intent) end
end
function on_lookup(intent, reply)
  if settle(intent, reply) then return end
  local r = db.row("SELECT * FROM intents WHERE intent = ?", intent)
  if reply.outcome == "not_found" and r.attempts < 5 then
    db.exec("UPDATE intents SET attempts = attempts + 1 WHERE intent = ?", intent)
    send(intent, r.op_key, r.payload)
  elseif reply.outcome ~= "not_found" then
    lookup(intent, r.op_key)
  else
    db.exec("UPDATE intents SET status = 'NEEDS_HUMAN' WHERE intent = ?", intent)
  end
end
function on_timeout(intent, call) ask(intent) end
function on_connect_error(intent, attempt)
  local r = db.row("SELECT * FROM intents WHERE intent = ?", intent)
  db.exec("UPDATE intents SET attempts = attempts + 1 WHERE intent = ?", intent)
  send(intent, r.op_key, r.payload)
end
function on_restart()
  for _, r in ipairs(db.rows("SELECT intent FROM intents WHERE status = 'PENDING' OR status = 'UNKNOWN'")) do
    ask(r.intent)
  end
end
)LUA";

}  // namespace

TEST_CASE("a key drawn anew for each attempt fails with a counterexample; one stored key passes") {
  const std::string per_attempt = R"LUA(
function on_deliver(intent, payload)
  local key = new_key(intent)
  db.exec("INSERT INTO intents(intent, op_key, payload, status) VALUES (?, ?, ?, 'PENDING')", intent, key, payload)
  send(intent, key, payload)
end
function on_response(intent, reply)
  if reply.outcome == "ok" then
    db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?", reply.receipt, intent)
  end
end
function on_timeout(intent, call)
  local r = db.row("SELECT payload FROM intents WHERE intent = ?", intent)
  local key = new_key(intent)
  db.exec("UPDATE intents SET op_key = ? WHERE intent = ?", key, intent)
  send(intent, key, r.payload)
end
)LUA";
  json bad = grade_code(lost_response_exercise(), per_attempt);
  CHECK(bad["passed"] == false);
  CHECK(bad["error"].is_null());
  REQUIRE(bad["counterexample"].is_object());
  // The counterexample's scenario carries the code: running it shows the broken run.
  CHECK(bad["counterexample"]["scenario"]["code"] == per_attempt);
  json replay = json::parse(api::call("run", json{{"scenario", bad["counterexample"]["scenario"]}}.dump()));
  CHECK_FALSE(replay.contains("error"));

  json good = grade_code(lost_response_exercise(), kStoreThenLookup);
  CHECK(good["passed"] == true);
  CHECK(good["counterexample"].is_null());
  CHECK(good["schedules"].get<int>() > 50);
  CHECK(good["text"]["en"].get<std::string>().find("not a proof") != std::string::npos);
}

TEST_CASE("each way code goes wrong gets its own refusal, with the line") {
  json ex = lost_response_exercise();
  json syntax = grade_code(ex, "function on_deliver(intent, payload)\n  local x = = 1\nend\n");
  CHECK(syntax["error"]["kind"] == "syntax");
  CHECK(syntax["error"]["line"] == 2);
  CHECK(syntax["error"]["column"] == 13);
  CHECK(syntax["passed"] == false);

  json raised = grade_code(ex, "function on_deliver(intent, payload)\n  local r = db.row('SELECT * FROM intents')\n  send(intent, r.op_key, payload)\nend\n");
  CHECK(raised["error"]["kind"] == "runtime");
  CHECK(raised["error"]["line"] == 3);
  // Lua names no column at run time: the name its message is about is found on the line.
  CHECK(raised["error"]["column"] == 16);
  // The schedule it failed in: here the one with no fault.
  CHECK(raised["error"]["fault_ids"] == json::array());

  json looping = grade_code(ex, "function on_deliver(intent, payload)\n  local n = 0\n  while true do\n    n = n + 1\n  end\nend\n");
  CHECK(looping["error"]["kind"] == "budget");
  CHECK(looping["error"]["line"].get<int>() >= 3);
  CHECK(looping["error"]["line"].get<int>() <= 5);

  json greedy = grade_code(ex, "function on_deliver(intent, payload)\n  local big = string.rep('x', 9 * 1024 * 1024)\nend\n");
  CHECK(greedy["error"]["kind"] == "memory");
  CHECK(greedy["error"]["reason"]["en"].get<std::string>().find("8 MiB") != std::string::npos);

  json peek_table = grade_code(ex, "function on_deliver(intent, payload)\n  db.rows('SELECT * FROM deliveries')\nend\n");
  CHECK(peek_table["error"]["kind"] == "forbidden");
  CHECK(peek_table["error"]["line"] == 2);
  CHECK(peek_table["error"]["column"] == 6);  // `rows`, the call that reached for it
  json peek_truth = grade_code(ex, "function on_deliver(intent, payload)\n  if truth.deliveries then end\nend\n");
  CHECK(peek_truth["error"]["kind"] == "forbidden");
  CHECK(peek_truth["error"]["reason"]["en"].get<std::string>().find("truth") != std::string::npos);
}

TEST_CASE("a fault that only some schedules reach names the schedule the code failed in") {
  // Correct until a timeout, where it indexes a row it never read.
  std::string code = std::string(kStoreThenLookup) + "\nfunction on_timeout(intent, call)\n  local r\n  lookup(intent, r.op_key)\nend\n";
  json out = grade_code(lost_response_exercise(), code);
  REQUIRE(out["error"].is_object());
  CHECK(out["error"]["kind"] == "runtime");
  REQUIRE(out["error"]["fault_ids"].is_array());
  CHECK(out["error"]["fault_ids"].size() == 1);
  // Running that schedule shows the same error, at /scenario/code.
  json replay = json::parse(api::call("run", json{{"scenario", out["error"]["scenario"]}}.dump()));
  REQUIRE(replay.contains("error"));
  CHECK(replay["error"]["path"] == "/scenario/code");
  CHECK(replay["error"]["line"] == out["error"]["line"]);
}

TEST_CASE("the code keeps nothing between calls but its database") {
  json ex = lost_response_exercise();
  json global = grade_code(ex, "function on_deliver(intent, payload)\n  count = 1\nend\n");
  CHECK(global["error"]["kind"] == "runtime");
  CHECK(global["error"]["reason"]["en"].get<std::string>().find("database") != std::string::npos);
  // An upvalue changed in one call is as the code wrote it in the next: the chunk runs
  // again before every call. The second send reuses the first key only if `seen` kept it.
  json upvalue = grade_code(ex, R"LUA(
local seen = {}
function on_deliver(intent, payload)
  seen[intent] = new_key(intent)
  db.exec("INSERT INTO intents(intent, op_key, payload, status) VALUES (?, ?, ?, 'PENDING')", intent, seen[intent], payload)
  send(intent, seen[intent], payload)
end
function on_timeout(intent, call)
  local r = db.row("SELECT payload FROM intents WHERE intent = ?", intent)
  send(intent, seen[intent], r.payload)
end
)LUA");
  REQUIRE(upvalue["error"].is_object());
  CHECK(upvalue["error"]["kind"] == "runtime");
  CHECK(upvalue["error"]["line"] == 10);
  json handler = grade_code(ex, "function on_time_out(intent)\nend\n");
  CHECK(handler["error"]["kind"] == "runtime");
  CHECK(handler["error"]["reason"]["en"].get<std::string>().find("on_timeout") != std::string::npos);
}

TEST_CASE("SQL the engine's SQLite leaves out is refused by name, not run as something else") {
  json ex = lost_response_exercise();
  json in_list = grade_code(ex, "function on_deliver(intent, payload)\n  db.rows(\"SELECT * FROM intents WHERE status IN ('PENDING')\")\nend\n");
  CHECK(in_list["error"]["kind"] == "runtime");
  CHECK(in_list["error"]["reason"]["en"].get<std::string>().find("IN (...)") != std::string::npos);
  json ddl = grade_code(ex, "function on_deliver(intent, payload)\n  db.exec('CREATE TABLE mine(x)')\nend\n");
  CHECK(ddl["error"]["kind"] == "runtime");
  json status = grade_code(ex, "function on_deliver(intent, payload)\n  db.exec(\"INSERT INTO intents(intent, payload, status) VALUES (?, ?, 'DONE')\", intent, payload)\nend\n");
  CHECK(status["error"]["kind"] == "runtime");
  CHECK(status["error"]["reason"]["en"].get<std::string>().find("DONE") != std::string::npos);
}

TEST_CASE("a client that breaks nothing because it does nothing does not pass") {
  json ex = lost_response_exercise();
  json idle = grade_code(ex, "function on_deliver(intent, payload)\nend\n");
  CHECK(idle["passed"] == false);
  REQUIRE(idle["counterexample"].is_object());
  CHECK(idle["counterexample"]["requirement"] == "delivered");
  CHECK(idle["counterexample"]["fault_ids"] == json::array());
  // Records UNKNOWN on a timeout and stops there: safe, and the user never learns.
  std::string gives_up = std::string(kStoreThenLookup) + "\nfunction on_timeout(intent, call)\n  db.exec(\"UPDATE intents SET status = 'UNKNOWN' WHERE intent = ?\", intent)\nend\n";
  json stuck = grade_code(ex, gives_up);
  CHECK(stuck["passed"] == false);
  REQUIRE(stuck["counterexample"].is_object());
  CHECK(stuck["counterexample"]["requirement"] == "finished");
  CHECK(stuck["counterexample"]["fault_ids"].size() == 1);
  CHECK(stuck["text"]["en"].get<std::string>().find("UNKNOWN") != std::string::npos);
}

TEST_CASE("a grade is the same every time") {
  json a = grade_code(lost_response_exercise(), kStoreThenLookup);
  json b = grade_code(lost_response_exercise(), kStoreThenLookup);
  CHECK(a.dump() == b.dump());
}

TEST_CASE("the course's exercises: the naive code fails with a counterexample, the reference passes") {
  int exercises = 0;
  for (const auto& entry : std::filesystem::directory_iterator("lessons/exercises")) {
    if (entry.path().extension() != ".json") continue;
    ++exercises;
    std::string id = entry.path().stem().string();
    CAPTURE(id);
    json ex = json::parse(slurp(entry.path()));
    std::filesystem::path solutions = std::filesystem::path("tests/exercises") / id;
    json naive = grade_code(ex, slurp(solutions / "naive.lua"));
    CHECK(naive["passed"] == false);
    CHECK(naive["error"].is_null());
    CHECK(naive["counterexample"].is_object());
    json reference = grade_code(ex, slurp(solutions / "reference.lua"));
    CHECK(reference["passed"] == true);
    CHECK(reference["error"].is_null());
    // The skeleton loads and breaks nothing by itself being run: it is where the learner starts.
    json skeleton = grade_code(ex, ex["skeleton"].get<std::string>());
    CHECK(skeleton["passed"] == false);
    CHECK((skeleton["error"].is_null() || skeleton["error"]["kind"] != "syntax"));
  }
  CHECK(exercises >= 3);
}

TEST_CASE("the course's broken submissions: each refused in its own way, in the schedule that reaches it") {
  json ex = json::parse(slurp("lessons/exercises/lost-response.json"));
  struct Case {
    const char* file;
    const char* kind;
  };
  for (const Case& c : {Case{"erroring.lua", "runtime"}, Case{"looping.lua", "budget"}, Case{"peeking.lua", "forbidden"}}) {
    CAPTURE(c.file);
    json out = grade_code(ex, slurp(std::filesystem::path("tests/exercises/lost-response") / c.file));
    CHECK(out["passed"] == false);
    REQUIRE(out["error"].is_object());
    CHECK(out["error"]["kind"] == c.kind);
    CHECK(out["error"]["line"].is_number());
    // Each fails only when the client times out: a schedule with a fault, named.
    REQUIRE(out["error"]["fault_ids"].is_array());
    CHECK(out["error"]["fault_ids"].size() == 1);
    CHECK(out["text"]["zh-CN"].get<std::string>().find("第") != std::string::npos);
  }
}

