// What the shipped incidents say beyond their reported count (lessons/incident-*.json):
// the claims of their `fix` texts about the team's own change, and the report's second
// outcome where the model has one. course_test.cpp holds every incident to its `reported`
// block and its side-by-side fix to no failure over the fault space; these hold the words.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "engine/api/api.hpp"
#include "lesson_file.hpp"

using nlohmann::json;

namespace {

json call(const std::string& method, const json& input) { return json::parse(idemlab::api::call(method, input.dump())); }

json explore(const std::string& lesson, const json& policy, int faults) {
  json in = {{"file", "lessons/" + lesson}, {"text", read_lesson_text(lesson)}, {"faults", faults}, {"policy", policy}};
  json out = call("explore", in);
  REQUIRE_MESSAGE(out.contains("outcomes"), out.dump());
  CHECK(out["complete"] == true);
  return out;
}

// How many explored schedules end with the intent's status and effect count ("DELIVERED", 2).
int ending(const json& explored, const std::string& intent, const std::string& status, int effects) {
  const std::string prefix = intent + "=" + status + "/" + std::to_string(effects);
  int n = 0;
  for (const json& o : explored["outcomes"]) {
    const std::string key = o["key"].get<std::string>();
    if (key == prefix || key.rfind(prefix + "/", 0) == 0 || key.rfind(prefix + "|", 0) == 0) n += o["count"].get<int>();
  }
  return n;
}

// The side-by-side view of a shipped incident with its scenario changed by `change`: the
// report block, the questions and every moment after the first (a send, which holds in
// any run) are left out, since they speak of the reported run only.
json compare_variant(const std::string& name, const std::function<void(json&)>& change) {
  json lesson = json::parse(read_lesson_text(name));
  lesson.erase("incident");
  lesson["moments"] = json::array({lesson["moments"][0]});
  lesson["questions"] = json::array();
  change(lesson["scenario"]);
  json out = call("compare", {{"file", "lessons/" + name}, {"text", lesson.dump()}});
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  return out;
}

}  // namespace

TEST_CASE("incident myplanet: turning the interceptor's retry of the write off ends the duplicates but leaves lost replies to a person") {
  const std::string lesson = "incident-myplanet-submission.json";
  // The reported behaviour: some single lost message already stores the submission twice.
  json reported = explore(lesson, "retry-anonymous-post", 1);
  CHECK(ending(reported, "submission", "DELIVERED", 2) > 0);
  // The team's change: the write is sent once. No schedule of up to two faults makes a
  // second document, and none is safe to report as a failure either: after a lost reply the
  // app cannot say, and the intent ends NEEDS_HUMAN with the document stored or not.
  json team = explore(lesson, {{"client", {{"retry_layers", {{{"layer", "interceptor"}, {"attempts", 1}}}}}}}, 2);
  CHECK(team["no_violation_up_to"] == 2);
  CHECK(ending(team, "submission", "DELIVERED", 2) == 0);
  CHECK(ending(team, "submission", "NEEDS_HUMAN", 1) > 0);
  CHECK(ending(team, "submission", "NEEDS_HUMAN", 0) > 0);
  // The client-chosen id: every schedule with one fault ends delivered, once, but the one
  // where the service refuses the only send (429): nothing was stored, and FAILED says so.
  json safe = explore(lesson, "client-chosen-id", 1);
  CHECK(safe["no_violation_up_to"] == 1);
  CHECK(ending(safe, "submission", "FAILED", 0) == 1);
  CHECK(ending(safe, "submission", "DELIVERED", 1) == safe["schedules"].get<int>() - 1);
}

TEST_CASE("incident aws snapshot: without a token, switching the SDK's retry off trades the second snapshot for not knowing") {
  const std::string lesson = "incident-aws-snapshot.json";
  json no_retry = explore(lesson, {{"client", {{"retry_layers", {{{"layer", "sdk"}, {"attempts", 1}}}}}}}, 2);
  CHECK(ending(no_retry, "snapshot", "DELIVERED", 2) == 0);
  CHECK(ending(no_retry, "snapshot", "NEEDS_HUMAN", 1) > 0);  // a snapshot exists; the caller was not told
  json token = explore(lesson, "token-per-call", 2);
  CHECK(token["no_violation_up_to"] == 2);
  CHECK(ending(token, "snapshot", "NEEDS_HUMAN", 1) == 0);  // the SDK's retry recovers the lost reply
}

TEST_CASE("incident akash top-up: every charge credits the wallet again, and the fix makes one of each") {
  json in = {{"file", "lessons/incident-akash-topup.json"}, {"text", read_lesson_text("incident-akash-topup.json")}};
  json out = call("compare", in);
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  const json& reported = out["policies"][0]["ending"]["intents"][0];
  const json& fixed = out["policies"][1]["ending"]["intents"][0];
  // Three presses of Pay: three charges and as many credits (the webhook is the outbox).
  CHECK(reported["effects"] == 3);
  CHECK(reported["emails"] == 3);
  CHECK(fixed["effects"] == 1);
  CHECK(fixed["emails"] == 1);
  CHECK(fixed["status"] == "DELIVERED");
}

TEST_CASE("incident akash top-up: what the learner reads counts credits to the balance, not emails") {
  json in = {{"file", "lessons/incident-akash-topup.json"}, {"text", read_lesson_text("incident-akash-topup.json")}};
  json out = call("compare", in);
  REQUIRE_MESSAGE(out.contains("policies"), out.dump());
  // The side-by-side's ending line and its verdicts, in both languages.
  std::vector<std::string> texts;
  for (const json& p : out["policies"]) {
    for (const char* lang : {"en", "zh-CN"}) {
      texts.push_back(p["ending"]["text"][lang].get<std::string>());
      for (const json& v : p["verdict"]["violations"]) texts.push_back(v["reason"][lang].get<std::string>());
    }
  }
  for (const std::string& t : texts) {
    CAPTURE(t);
    CHECK(t.find("email") == std::string::npos);
    CHECK(t.find("封") == std::string::npos);  // the measure word of an email (封邮件)
  }
  const json& reported = out["policies"][0];
  CHECK(reported["ending"]["text"]["en"] == "topup: DELIVERED, 3 effects, 3 credits");
  CHECK(reported["ending"]["text"]["zh-CN"] == "topup：DELIVERED，3 条业务效果，3 次加值");
  bool duplicate = false;
  for (const json& v : reported["verdict"]["violations"]) {
    if (v["invariant"] != "duplicate_notification") continue;
    duplicate = true;
    CHECK(v["reason"]["en"].get<std::string>().find("3 credits for topup in the balance ledger") != std::string::npos);
    CHECK(v["reason"]["zh-CN"].get<std::string>().find("记了 3 次加值") != std::string::npos);
  }
  CHECK(duplicate);
  // The outbox lesson's provider is a mail provider still: its counts say emails.
  json mail = call("run", {{"file", "lessons/11-outbox.json"}, {"text", read_lesson_text("11-outbox.json")}});
  REQUIRE_MESSAGE(mail.contains("ending"), mail.dump());
  CHECK(mail["ending"]["text"]["en"].get<std::string>().find("email") != std::string::npos);
  CHECK(mail["ending"]["text"]["zh-CN"].get<std::string>().find("封邮件") != std::string::npos);
}

// Every text the engine writes about a run, in both languages ({"en", "zh-CN"} objects),
// with its JSON path; the lesson's own texts (under /lesson) are the author's.
static void engine_texts(const json& v, const std::string& path, std::vector<std::pair<std::string, std::string>>& out) {
  if (v.is_object() && v.contains("en") && v.contains("zh-CN") && v["en"].is_string()) {
    out.emplace_back(path, v["en"].get<std::string>());
    out.emplace_back(path, v["zh-CN"].get<std::string>());
    return;
  }
  if (v.is_object()) {
    for (auto it = v.begin(); it != v.end(); ++it) {
      if (path.empty() && it.key() == "lesson") continue;
      engine_texts(it.value(), path + "/" + it.key(), out);
    }
  } else if (v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i) engine_texts(v[i], path + "/" + std::to_string(i), out);
  }
}

TEST_CASE("incident akash top-up: the timeline's narration, faults and runs speak of credit notices and the ledger") {
  json out = call("run", {{"file", "lessons/incident-akash-topup.json"}, {"text", read_lesson_text("incident-akash-topup.json")}});
  REQUIRE_MESSAGE(out.contains("steps"), out.dump());
  std::vector<std::pair<std::string, std::string>> texts;
  engine_texts(out, "", texts);
  bool ledger = false, notice = false;
  for (const auto& text : texts) {
    // (not a structured binding: clang 14 cannot capture one in CAPTURE's lambda)
    const std::string& path = text.first;
    const std::string& t = text.second;
    CAPTURE(path);
    CAPTURE(t);
    // Keys such as mail-8621661d74 are names, not words: "email", "mail provider", 邮件 are.
    CHECK(t.find("email") == std::string::npos);
    CHECK(t.find("mail provider") == std::string::npos);
    CHECK(t.find("inbox") == std::string::npos);
    CHECK(t.find("the provider's") == std::string::npos);  // a lane with two names
    CHECK(t.find("邮件") == std::string::npos);
    CHECK(t.find("收件箱") == std::string::npos);
    ledger = ledger || t.find("the balance ledger") != std::string::npos;
    notice = notice || t.find("credit notice") != std::string::npos;
  }
  CHECK(ledger);
  CHECK(notice);
  // The outbox lesson keeps its mail provider in the same texts.
  json mail = call("run", {{"file", "lessons/11-outbox.json"}, {"text", read_lesson_text("11-outbox.json")}});
  std::vector<std::pair<std::string, std::string>> mail_texts;
  engine_texts(mail, "", mail_texts);
  bool says_mail = false;
  for (const auto& text : mail_texts) says_mail = says_mail || text.second.find("to the mail provider") != std::string::npos;
  CHECK(says_mail);
}

TEST_CASE("incident materialize: the producer is acknowledged whether the broker stopped before or after the append") {
  // What the producer cannot tell apart: a broker stopped before appending leaves one
  // record after the resend, one stopped after it leaves two; both end acknowledged.
  for (const std::string point : {"before_commit", "after_commit"}) {
    CAPTURE(point);
    json out = compare_variant("incident-materialize-kafka.json", [&](json& s) {
      s["faults"] = json::array({{{"crash_service", point}, {"attempt", 1}, {"restart_after_ms", 50}}});
    });
    const json& reported = out["policies"][0]["ending"]["intents"][0];
    CHECK(reported["status"] == "DELIVERED");
    CHECK(reported["effects"] == (point == "before_commit" ? 1 : 2));
    CHECK(out["policies"][1]["ending"]["intents"][0]["effects"] == 1);
  }
}

// An incident's page may state its count before any question: the title and summary tell
// the story, and the panel "The report" shows the report's "Seen" and, where the report gave
// a count (`reported.effects`), the engine's replay of it ("2 effects for snapshot"). A
// question asking for that count is answered before it is asked; those incidents ask
// instead what the client ends up believing.
TEST_CASE("no shipped incident asks for the effect count its report panel already shows") {
  int asked = 0;
  for (const std::string& name : shipped_lessons()) {
    if (name.rfind("incident-", 0) != 0) continue;
    CAPTURE(name);
    const std::string text = read_lesson_text(name);
    const json file = json::parse(text);
    if (!file["incident"]["reported"].contains("effects")) continue;  // the panel shows no count
    const json in = {{"file", "lessons/" + name}, {"text", text}};
    const json run = call("run", in);
    REQUIRE_MESSAGE(run.contains("lesson"), run.dump());
    const json& replayed = run["lesson"]["incident"]["replayed"];
    const json answers = call("answers", in);
    REQUIRE_MESSAGE(answers.contains("questions"), answers.dump());
    for (const json& q : file["questions"]) {
      if (q.value("kind", "") != "predict" || q.contains("if")) continue;
      const std::string ask = q.value("ask", "");
      if (ask != "effects" && ask != "deliveries") continue;
      if (q.value("intent", replayed["intent"].get<std::string>()) != replayed["intent"]) continue;
      ++asked;
      for (const json& a : answers["questions"]) {
        if (a["id"] != q["id"]) continue;
        CAPTURE(q["id"].get<std::string>());
        CHECK(a["expected"].get<std::string>() != std::to_string(replayed["effects"].get<int>()));
      }
    }
  }
  MESSAGE(asked << " effect-count questions checked");
}

TEST_CASE("incident azure blob: a 500 before or after the commit looks the same, and only the 409 tells them apart") {
  for (const std::string point : {"before_commit", "after_commit"}) {
    CAPTURE(point);
    json out = compare_variant("incident-azure-blob-409.json", [&](json& s) {
      s["faults"] = json::array({{{"service_error", point}, {"attempt", 1}}});
    });
    // Reading 409 as failure is wrong only when the first try committed: before the commit
    // the retry creates the file itself and is answered 201.
    const json& reported = out["policies"][0]["ending"]["intents"][0];
    CHECK(reported["effects"] == 1);
    CHECK(reported["status"] == (point == "before_commit" ? "DELIVERED" : "FAILED"));
    CHECK(out["policies"][1]["ending"]["intents"][0]["status"] == "DELIVERED");
  }
  // dotnet/arcade's reading, 409 on upload = success, also ends delivered under every
  // schedule of up to two faults (the name is this upload's alone).
  json arcade = explore("incident-azure-blob-409.json", {{"client", {{"on_already_exists", "success"}}}}, 2);
  CHECK(arcade["no_violation_up_to"] == 2);
  CHECK(ending(arcade, "invoice-blob", "FAILED", 1) == 0);
}

TEST_CASE("incident ubicloud: the token's stored refusal is what refuses the other family") {
  // A service that keeps nothing of a refused call (Stripe's way) would launch the
  // other family under the same token.
  json out = compare_variant("incident-ubicloud-token.json", [](json& s) { s["service"]["stores_refusal"] = false; });
  CHECK(out["policies"][0]["ending"]["intents"][0]["status"] == "DELIVERED");
  CHECK(out["policies"][0]["ending"]["intents"][0]["effects"] == 1);
  // The fix keeps one token per family: a retry of the same family after a lost reply
  // still launches one instance, in every schedule of up to two faults.
  json fixed = explore("incident-ubicloud-token.json", "token-includes-family", 2);
  CHECK(fixed["no_violation_up_to"] == 2);
  CHECK(ending(fixed, "vm-1", "DELIVERED", 2) == 0);
  CHECK(ending(fixed, "vm-1", "DELIVERED", 1) > 0);
}
