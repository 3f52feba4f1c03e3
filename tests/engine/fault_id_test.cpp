// Fault ids name one injection point, and plan ids one set of faults, whatever the intents
// are called: an intent's name is percent-encoded inside them (engine/faults/fault.hpp).
#include <doctest/doctest.h>

#include "engine/knowledge/worlds.hpp"
#include "engine/sim/simulation.hpp"
#include "world_lookup.hpp"

using namespace idemlab;

namespace {

Fault drop(MessageKind message, const std::string& intent, int n) {
  Fault f;
  f.kind = Fault::Kind::Drop;
  f.message = message;
  f.intent = intent;
  f.n = n;
  return f;
}

FaultPlan plan_of(std::vector<Fault> faults) {
  FaultPlan p;
  p.faults = std::move(faults);
  return p;
}

}  // namespace

TEST_CASE("fault ids of ordinary intent names read as before") {
  Fault f = drop(MessageKind::Response, "weekly-report", 1);
  CHECK(f.id() == "drop:response:weekly-report:1");
  f.kind = Fault::Kind::CrashService;
  f.service_point = ServicePoint::BetweenWrites;
  CHECK(f.id() == "crash:service:between_writes:weekly-report:1");
  CHECK(plan_of({drop(MessageKind::Request, "a", 1), drop(MessageKind::Response, "b_2.x", 3)}).id() ==
        "drop:request:a:1,drop:response:b_2.x:3");
}

TEST_CASE("an intent named like a plan cannot make two plans share an id") {
  // Before escaping both were "drop:request:a:1,drop:response:a:1".
  FaultPlan one = plan_of({drop(MessageKind::Request, "a:1,drop:response:a", 1)});
  FaultPlan two = plan_of({drop(MessageKind::Request, "a", 1), drop(MessageKind::Response, "a", 1)});
  CHECK(one.id() != two.id());
  CHECK(one.id() == "drop:request:a%3A1%2Cdrop%3Aresponse%3Aa:1");
  CHECK(two.id() == "drop:request:a:1,drop:response:a:1");
  // '%' itself is escaped, so an already-escaped-looking name stays distinct.
  CHECK(drop(MessageKind::Request, "a%3A1", 1).id() != drop(MessageKind::Request, "a:1", 1).id());
  CHECK(drop(MessageKind::Request, "a%3A1", 1).id() == "drop:request:a%253A1:1");
}

TEST_CASE("build_worlds keeps a world whose one fault is on an intent named like another plan") {
  // Intent "a" retries under its key; its run loses the responses of attempts 2 and 1
  // (plan id "drop:response:a:2,drop:response:a:1"). The other intent is named so that,
  // unescaped, losing its response 1 had that same id, and its world was silently dropped.
  const std::string odd = "a:2,drop:response:a";
  Scenario s;
  s.client.recovery = Recovery::Resend;
  s.client.retry_after_ms = 20;
  s.script.push_back({ActionKind::Deliver, 0, -1, "a", "payload-a"});
  s.script.push_back({ActionKind::Deliver, 0, -1, odd, "payload-odd"});
  s.faults = plan_of({drop(MessageKind::Response, "a", 2), drop(MessageKind::Response, "a", 1)});
  s.space.lose_any_one_message = true;
  std::vector<World> worlds = build_worlds(s);

  REQUIRE(!worlds.empty());
  CHECK(worlds[0].actual);
  CHECK(worlds[0].run.fired.size() == 2);  // both of the run's own faults fire
  const World* lost = world(worlds, drop(MessageKind::Response, odd, 1).id());
  REQUIRE(lost != nullptr);
  CHECK(!lost->actual);
  REQUIRE(lost->run.fired.size() == 1);
  CHECK(lost->run.fired[0].intent == odd);
  CHECK(lost->run.fired[0].message == MessageKind::Response);
}
