#include <doctest/doctest.h>

#include <functional>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

namespace {
// Checks a broken variant of lost-receipt and returns its first problem.
json first_problem(const std::function<void(json&)>& breakit) {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  breakit(j);
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/broken.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["ok"] == false);
  return out["errors"][0];
}
}  // namespace

TEST_CASE("the shipped lessons pass check") {
  for (const char* name : {"01-lost-receipt.json", "02-retry-duplicates.json"}) {
    json out = json::parse(idemlab::api::call("check", json{{"file", name}, {"text", read_lesson_text(name)}}.dump()));
    CHECK_MESSAGE(out["ok"] == true, name << ": " << out.dump());
  }
}

TEST_CASE("a broken lesson is refused with file, JSON path and reason") {
  json p = first_problem([](json& j) { j["questions"][0]["fact"] = "effect_happened"; });
  CHECK(p["file"] == "lessons/broken.json");
  CHECK(p["path"] == "/questions/0/fact");
  CHECK(p["reason"].get<std::string>().find("unknown fact 'effect_happened'") != std::string::npos);

  p = first_problem([](json& j) { j["questions"][1]["moment"] = "nowhere"; });
  CHECK(p["path"] == "/questions/1/moment");

  p = first_problem([](json& j) { j["title"].erase("en"); });
  CHECK(p["path"] == "/title");
  CHECK(p["reason"] == "missing language 'en'");

  p = first_problem([](json& j) { j["scenario"]["script"][0]["do"] = "teleport"; });
  CHECK(p["path"] == "/scenario/script/0/do");

  p = first_problem([](json& j) { j["scenario"]["faults"][0] = {{"drop", "carrier_pigeon"}}; });
  CHECK(p["path"] == "/scenario/faults/0/drop");

  p = first_problem([](json& j) { j["questions"][2]["id"] = j["questions"][0]["id"]; });
  CHECK(p["path"] == "/questions/2/id");
  CHECK(p["reason"].get<std::string>().find("used twice") != std::string::npos);
}

TEST_CASE("a lesson without moments: the missing list is the one error about moments, not one more per question") {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  j.erase("moments");
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/broken.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["ok"] == false);
  REQUIRE(out["errors"].size() == 1);
  CHECK(out["errors"][0]["path"] == "/moments");

  // Moments that are not a list: the same.
  j["moments"] = "start";
  out = json::parse(idemlab::api::call("check", json{{"file", "lessons/broken.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["errors"].size() == 1);
  CHECK(out["errors"][0]["path"] == "/moments");
}

TEST_CASE("a lesson with an empty list of moments: a question's moment is refused without an empty list of known ones") {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  j["moments"] = json::array();
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/broken.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["ok"] == false);
  int unknown = 0;
  for (const json& e : out["errors"]) {
    const std::string reason = e["reason"].get<std::string>();
    const bool lists_nothing = reason.size() >= 7 && reason.compare(reason.size() - 7, 7, "known: ") == 0;
    CHECK_MESSAGE(!lists_nothing, reason);
    if (reason.rfind("unknown moment", 0) == 0) {
      ++unknown;
      CHECK(reason.find("there is no moment to refer to") != std::string::npos);
    }
  }
  CHECK(unknown > 0);
}

TEST_CASE("a lesson whose facts are not a list: the error is at /facts alone, not at each question naming a fact") {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  j["facts"] = {{"id", "not a list"}};
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/broken.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["ok"] == false);
  REQUIRE(out["errors"].size() == 1);
  CHECK(out["errors"][0]["path"] == "/facts");
}

TEST_CASE("the service contract's knobs and crash points are checked with their JSON paths") {
  json p = first_problem([](json& j) { j["scenario"]["service"]["ordering"] = "keys_first"; });
  CHECK(p["path"] == "/scenario/service/ordering");
  CHECK(p["reason"].get<std::string>().find("known: atomic, key_first, effect_first") != std::string::npos);

  p = first_problem([](json& j) { j["scenario"]["service"]["dedup"] = "payload"; });
  CHECK(p["path"] == "/scenario/service/dedup");

  p = first_problem([](json& j) { j["scenario"]["service"]["lookup_lag_ms"] = -1; });
  CHECK(p["path"] == "/scenario/service/lookup_lag_ms");

  p = first_problem([](json& j) { j["scenario"]["service"]["retention_ms"] = 0; });
  CHECK(p["path"] == "/scenario/service/retention_ms");
  // A retention window may be a day (Stripe's), beyond the run's horizon, but not a year.
  p = first_problem([](json& j) { j["scenario"]["service"]["retention_ms"] = 365LL * 24 * 60 * 60 * 1000; });
  CHECK(p["path"] == "/scenario/service/retention_ms");

  p = first_problem([](json& j) { j["scenario"]["service"]["processing_ms"] = "slow"; });
  CHECK(p["path"] == "/scenario/service/processing_ms");

  p = first_problem([](json& j) { j["scenario"]["service"]["retry_after_ms"] = 5; });
  CHECK(p["path"] == "/scenario/service/retry_after_ms");

  p = first_problem([](json& j) { j["scenario"]["client"]["on_not_found"] = "give_up"; });
  CHECK(p["path"] == "/scenario/client/on_not_found");

  p = first_problem([](json& j) { j["scenario"]["faults"][0] = {{"crash_service", "mid_write"}}; });
  CHECK(p["path"] == "/scenario/faults/0/crash_service");

  p = first_problem([](json& j) {
    j["scenario"]["faults"][0] = {{"crash_service", "after_commit"}, {"crash_client", "after_send"}};
  });
  CHECK(p["path"] == "/scenario/faults/0");

  p = first_problem([](json& j) { j["scenario"]["fault_space"]["service_crash_points"] = {"after_commit", "after_send"}; });
  CHECK(p["path"] == "/scenario/fault_space/service_crash_points/1");
  CHECK(p["reason"] == "unknown injection point; known: before_commit, between_writes, after_commit, after_email_send");
}

TEST_CASE("a lesson may set every service knob and crash the service") {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  j["scenario"]["service"] = {{"lookup", true}, {"ordering", "effect_first"}, {"dedup", "fingerprint"},
                              {"lookup_lag_ms", 5}, {"retention_ms", 1000}, {"processing_ms", 20}};
  j["scenario"]["client"]["on_not_found"] = "retry_lookup";
  j["scenario"]["faults"].push_back({{"crash_service", "between_writes"}, {"attempt", 1}, {"restart_after_ms", 40}});
  j["scenario"]["fault_space"]["service_crash_points"] = {"before_commit", "between_writes", "after_commit"};
  idemlab::Lesson l = idemlab::load_lesson("lessons/x.json", j.dump());
  const idemlab::ServiceContract& s = l.scenario.service;
  CHECK(s.ordering == idemlab::Ordering::EffectFirst);
  CHECK(s.dedup == idemlab::Dedup::Fingerprint);
  CHECK(s.lookup_lag_ms == 5);
  CHECK(s.retention_ms == 1000);
  CHECK(s.processing_ms == 20);
  CHECK(l.scenario.client.on_not_found == idemlab::OnNotFound::RetryLookup);
  REQUIRE(l.scenario.faults.faults.size() == 2);
  CHECK(l.scenario.faults.faults[1].id() == "crash:service:between_writes:weekly-report:1");
  CHECK(l.scenario.faults.faults[1].restart_after_ms == 40);
  CHECK(l.scenario.space.service_crash_points.size() == 3);

  j["scenario"]["service"]["retention_ms"] = 24LL * 60 * 60 * 1000;  // a day, as Stripe keeps keys
  CHECK(idemlab::load_lesson("lessons/x.json", j.dump()).scenario.service.retention_ms == 86400000);
}

TEST_CASE("a planned fault the lesson's own run never fires is refused") {
  // The run has one attempt: there is no response of attempt 7 to lose.
  json p = first_problem([](json& j) { j["scenario"]["faults"].push_back({{"drop", "response"}, {"attempt", 7}}); });
  CHECK(p["file"] == "lessons/broken.json");
  CHECK(p["path"] == "/scenario/faults/1");
  std::string reason = p["reason"];
  CHECK(reason.find("'drop:response:weekly-report:7' never fires") != std::string::npos);
  CHECK(reason.find("points of that kind it passes: drop:response:weekly-report:1") != std::string::npos);

  // No email is ever sent (notify = none): no point after an email send to crash at.
  p = first_problem([](json& j) {
    j["scenario"]["faults"][0] = {{"crash_service", "after_email_send"}, {"attempt", 1}};
  });
  CHECK(p["path"] == "/scenario/faults/0");
  reason = p["reason"].get<std::string>();
  CHECK(reason.find("'crash:service:after_email_send:weekly-report:1' never fires") != std::string::npos);
  CHECK(reason.find("passes no point of that kind") != std::string::npos);

  // The same fault twice: the point fires once.
  p = first_problem([](json& j) { j["scenario"]["faults"].push_back(j["scenario"]["faults"][0]); });
  CHECK(p["path"] == "/scenario/faults/1");

  // Every planned fault of the shipped lesson fires: it passes.
  json ok = json::parse(idemlab::api::call(
      "check", json{{"file", "01-lost-receipt.json"}, {"text", read_lesson_text("01-lost-receipt.json")}}.dump()));
  CHECK(ok["ok"] == true);
}

TEST_CASE("a question whose computed answer is not among its options is refused") {
  json p = first_problem([](json& j) {
    for (json& q : j["questions"]) {
      if (q["kind"] == "predict") q["options"] = json::array({{{"id", "0"}, {"label", {{"zh-CN", "0"}, {"en", "0"}}}},
                                                               {{"id", "1"}, {"label", {{"zh-CN", "1"}, {"en", "1"}}}}});
    }
  });
  CHECK(p["reason"].get<std::string>().find("not among the options") != std::string::npos);
}

TEST_CASE("a moment no step matches is refused") {
  json p = first_problem([](json& j) { j["moments"][0]["at"] = {{"event", "commit"}, {"nth", 5}}; });
  CHECK(p["path"] == "/moments/0/at");
}

TEST_CASE("text that is not JSON is refused, not thrown") {
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/x.json"}, {"text", "{ nope"}}.dump()));
  CHECK(out["ok"] == false);
  CHECK(out["errors"][0]["reason"].get<std::string>().rfind("line 1, column 3: not valid JSON: unexpected 'nope'", 0) == 0);
  CHECK(out["errors"][0]["line"] == 1);
  CHECK(out["errors"][0]["column"] == 3);
}

TEST_CASE("the notification knobs, email messages and the relay's crash point are read and checked") {
  json j = json::parse(read_lesson_text("01-lost-receipt.json"));
  j["scenario"]["service"] = {{"notify", "outbox"}};
  j["scenario"]["provider"] = {{"dedup", "none"}};
  j["scenario"]["faults"].push_back({{"drop", "email_ack"}, {"attempt", 2}});
  j["scenario"]["fault_space"]["service_crash_points"] = {"after_email_send"};
  idemlab::Lesson l = idemlab::load_lesson("lessons/x.json", j.dump());
  CHECK(l.scenario.service.notify == idemlab::Notify::Outbox);
  CHECK(!l.scenario.provider.dedup_by_key);
  CHECK(l.scenario.faults.faults.back().id() == "drop:email_ack:weekly-report:2");
  CHECK(l.scenario.space.service_crash_points == std::vector<idemlab::ServicePoint>{idemlab::ServicePoint::AfterEmailSend});
  j["scenario"]["service"]["notify"] = "direct";
  j["scenario"].erase("provider");
  l = idemlab::load_lesson("lessons/x.json", j.dump());
  CHECK(l.scenario.service.notify == idemlab::Notify::Direct);
  CHECK(l.scenario.provider.dedup_by_key);  // the default: the provider deduplicates by key

  json p = first_problem([](json& j) { j["scenario"]["service"]["notify"] = "email"; });
  CHECK(p["path"] == "/scenario/service/notify");
  CHECK(p["reason"] == "unknown value 'email'; known: none, direct, outbox");

  p = first_problem([](json& j) { j["scenario"]["provider"] = {{"dedup", "fingerprint"}}; });
  CHECK(p["path"] == "/scenario/provider/dedup");
  CHECK(p["reason"] == "unknown value 'fingerprint'; known: key, none");

  p = first_problem([](json& j) { j["scenario"]["faults"][0] = {{"drop", "mail"}}; });
  CHECK(p["path"] == "/scenario/faults/0/drop");
  CHECK(p["reason"].get<std::string>().find("email, email_ack") != std::string::npos);

  p = first_problem([](json& j) { j["moments"][0]["at"]["side"] = "mailer"; });
  CHECK(p["path"] == "/moments/0/at/side");
  CHECK(p["reason"] == "unknown value 'mailer'; known: client, service, network, provider");

  p = first_problem([](json& j) { j["facts"] = {{{"fact", "email_sent"}, {"attempt", 1}}}; });
  CHECK(p["path"] == "/facts/0/attempt");
}

namespace {
// retry-duplicates (its compare block: a new key per attempt first, one key per intent
// second) written up as an incident whose report saw `effects` effects.
json as_incident(int effects) {
  json j = json::parse(read_lesson_text("02-retry-duplicates.json"));
  j["incident"] = {{"source", "example/shop #12"},
                   {"url", "https://github.com/example/shop/issues/12"},
                   {"title", "Report submitted twice after a timeout"},
                   {"expected", {{"zh-CN", "报告只交一次"}, {"en", "The report is submitted once"}}},
                   {"seen", {{"zh-CN", "报告交了两次"}, {"en", "The report was submitted twice"}}},
                   {"fix", {{"zh-CN", "每个意图一个操作标识"}, {"en", "One operation key per intent"}}},
                   {"reported", {{"effects", effects}, {"violation", "duplicate_effect"}}}};
  return j;
}
json check(const json& lesson) {
  return json::parse(idemlab::api::call("check", json{{"file", "lessons/incident-x.json"}, {"text", lesson.dump()}}.dump()));
}
}  // namespace

TEST_CASE("an incident passes check only when its reported run ends with what the report saw") {
  // A new key per attempt, with the first response lost: the retry is a second effect.
  json ok = check(as_incident(2));
  CHECK_MESSAGE(ok["ok"] == true, ok.dump());

  json more = check(as_incident(3));
  REQUIRE(more["ok"] == false);
  CHECK(more["errors"][0]["path"] == "/incident/reported/effects");
  CHECK(more["errors"][0]["reason"].get<std::string>().find("ends with 2 effects") != std::string::npos);

  json wrong = as_incident(2);
  wrong["incident"]["reported"] = {{"violation", "concurrent_execution"}};
  json out = check(wrong);
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/incident/reported/violation");
  CHECK(out["errors"][0]["reason"].get<std::string>().find("it breaks duplicate_effect") != std::string::npos);

  // A final status the reported run does not end with is named at its path.
  json status = as_incident(2);
  status["incident"]["reported"] = {{"status", "DELIVERED"}};  // it ends CONFLICT (a changed payload, refused)
  out = check(status);
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/incident/reported/status");
  CHECK(out["errors"][0]["reason"].get<std::string>().find("CONFLICT, not DELIVERED as the report saw") != std::string::npos);

  json no_compare = as_incident(2);
  no_compare.erase("compare");
  out = check(no_compare);
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/incident");

  json http = as_incident(2);
  http["incident"]["url"] = "http://github.com/example/shop/issues/12";
  out = check(http);
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/incident/url");

  json blank = as_incident(2);
  blank["incident"]["reported"] = json::object();
  out = check(blank);
  REQUIRE(out["ok"] == false);
  CHECK(out["errors"][0]["path"] == "/incident/reported");
}

TEST_CASE("run hands the page an incident's report, texts in both languages") {
  json out = json::parse(idemlab::api::call("run", json{{"file", "lessons/incident-x.json"}, {"text", as_incident(2).dump()}}.dump()));
  REQUIRE(out["lesson"].contains("incident"));
  const json& inc = out["lesson"]["incident"];
  CHECK(inc["url"] == "https://github.com/example/shop/issues/12");
  CHECK(inc["seen"]["en"] == "The report was submitted twice");
  CHECK(inc["seen"]["zh-CN"] == "报告交了两次");
  CHECK(inc["reported"]["effects"] == 2);
  // The engine's own replay, which the page shows: the first policy's run of the lesson.
  CHECK(inc["replayed"]["policy"] == "key-per-attempt");
  CHECK(inc["replayed"]["intent"] == "weekly-report");
  CHECK(inc["replayed"]["effects"] == 2);
  // Lesson 02's first policy records FAILED on the timeout while the effect exists.
  CHECK(inc["replayed"]["broken"] == json::array({"duplicate_effect", "false_failure"}));

  json plain = json::parse(idemlab::api::call("run", json{{"file", "lessons/02-retry-duplicates.json"}, {"text", read_lesson_text("02-retry-duplicates.json")}}.dump()));
  CHECK_FALSE(plain["lesson"].contains("incident"));
}

namespace {
// `check` of lesson `name` changed by `edit`: its first problem (REQUIRE: it is refused).
json first_problem_of(const std::string& name, const std::function<void(json&)>& edit) {
  json j = json::parse(read_lesson_text(name));
  edit(j);
  json out = json::parse(idemlab::api::call("check", json{{"file", "lessons/unsettled.json"}, {"text", j.dump()}}.dump()));
  REQUIRE(out["ok"] == false);
  return out["errors"][0];
}

// A script action at the horizon: its request is still on the way at 600 s (issue 32).
const json kAtHorizon = {{"at", 600000}, {"do", "deliver"}, {"intent", "late-report"}, {"payload", "Weekly report, version 2"}};
}  // namespace

TEST_CASE("check refuses a lesson with a run that does not settle: its own, one of its fault space, one a question is judged on") {
  // The lesson's own run stops at the horizon.
  json p = first_problem_of("06-send-first.json", [](json& j) {
    j["questions"] = json::array();
    j["scenario"]["script"].push_back(kAtHorizon);
  });
  CHECK(p["path"] == "/scenario");
  CHECK(p["reason"].get<std::string>().find("the lesson's own run does not settle, so its end is inconclusive: the run stopped at the 600 s "
                                            "virtual-time horizon") == 0);

  // A run of its fault space does: the client crashing at 5 ms restarts only after 600 s.
  p = first_problem_of("01-lost-receipt.json", [](json& j) {
    j["questions"] = json::array();
    j.erase("challenge");
    j["scenario"]["script"][0]["at"] = 5;
    j["scenario"]["fault_space"]["client_crash_points"] = {"after_send"};
    j["scenario"]["fault_space"]["restart_after_ms"] = 600000;
  });
  CHECK(p["path"] == "/fault_space");
  CHECK(p["reason"].get<std::string>().find("a run of the fault space (when the client crashes after sending attempt 1) does not settle") == 0);

  // With its questions, the first question's runs stop at the horizon: it has no answer.
  p = first_problem_of("06-send-first.json", [](json& j) { j["scenario"]["script"].push_back(kAtHorizon); });
  CHECK(p["path"] == "/questions/0");
  CHECK(p["reason"].get<std::string>().find("a run it is judged on does not settle: the run stopped at the 600 s virtual-time horizon") !=
        std::string::npos);

  // The sandbox still runs such a scenario, and says why it stopped.
  json lesson = json::parse(read_lesson_text("06-send-first.json"));
  json scenario = lesson["scenario"];
  scenario["script"].push_back(kAtHorizon);
  json run = json::parse(idemlab::api::call("run", json{{"scenario", scenario}}.dump()));
  REQUIRE(run.contains("verdict"));
  CHECK(run["verdict"]["stop"] == "horizon");
}
