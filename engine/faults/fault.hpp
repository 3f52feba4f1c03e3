#pragma once
// Fault injection: faults attach to named injection points that the simulation passes
// (docs/design.md, "The model"). A fault plan is plain data, so a lesson can store it and
// the explorer can enumerate a fault space.
//
// Injection points (their ids):
//   drop:<message>:<intent>:<n>    lose message n of that kind, <message> one of
//                                  request | response | lookup | lookup_reply |
//                                  email | email_ack
//                                  (n = the attempt for request/response, the lookup count
//                                  for lookup/lookup_reply, the email send count for
//                                  email/email_ack (the service's sends to the mail
//                                  provider for that intent), all from 1)
//   crash:client:<point>:<intent>:<n>
//                                  crash the client at <point> of attempt n, and restart
//                                  it `restart_after_ms` later; <point> one of
//                                  after_persist  (intent stored, request not sent)
//                                  after_send     (request sent, no reply yet)
//                                  before_record  (reply received, outcome not stored)
//   crash:service:<point>:<intent>:<n>
//                                  crash the service while it handles the request of
//                                  attempt n of that intent (a new key only: a repeat
//                                  writes nothing), and restart it `restart_after_ms`
//                                  later; <point> one of
//                                  before_commit  (nothing written yet)
//                                  between_writes (the first of the two writes done:
//                                                 the key under key_first, the effect
//                                                 under effect_first; under atomic the
//                                                 open transaction is rolled back)
//                                  after_commit   (everything written, no reply sent)
//                                  after_email_send (the email of send n went to the mail
//                                                 provider, nothing else done yet: under
//                                                 notify = outbox the relay has not
//                                                 marked the outbox row sent; n counts
//                                                 the intent's email sends)
//   error:service:<point>:<intent>:<n>
//                                  the service, still up, answers the request of attempt
//                                  n of that intent (a new key only) with an error
//                                  instead of its result; <point> one of
//                                  before_commit  (500 Internal Server Error, nothing
//                                                 written: the work failed)
//                                  after_commit   (500 Internal Server Error after the
//                                                 commit: the effect exists, as when the
//                                                 reply's own rendering fails)
//                                  refused        (429 Too Many Requests on arrival, a
//                                                 throttle or no capacity,
//                                                 before the key is looked at: nothing
//                                                 done, a definite refusal; with
//                                                 ServiceContract::stores_refusal the
//                                                 refusal is stored under the key, as
//                                                 EC2's client token is)
//   connect_error:request:<intent>:<n>
//                                  the request of attempt n cannot be sent: the connection
//                                  is refused (ECONNREFUSED, a DNS failure) before a byte
//                                  leaves, and the client learns so at once. Unlike a lost
//                                  request, this is a definite error: nothing can have
//                                  happened at the service, so any retry is safe (Stripe's
//                                  SDKs retry connection errors whatever the method)
//   lose_row:<point>:<intent>:<n>  the client loses its own row for the intent after the
//                                  request of attempt n has left, the send that follows
//                                  the row's write (n = 1; after a lost row, a re-created
//                                  row's sends are numbered on from the lost one's, so
//                                  that no reply to an abandoned call answers a new one);
//                                  <point> one of
//                                  rolled_back (the transaction that wrote the row rolls
//                                                 back after the HTTP call inside it was
//                                                 made, as a Django view under
//                                                 ATOMIC_REQUESTS that calls an API and
//                                                 then raises: the process stays up, the
//                                                 row is gone, the request is on its way)
//                                  not_saved   (the client crashes before its state is
//                                                 saved, as a Terraform process killed
//                                                 mid-apply leaves created resources out
//                                                 of its state file, hashicorp/terraform
//                                                 #16615: the row is gone at restart; it
//                                                 restarts `restart_after_ms` later)
//                                  The effect may exist and the client has no row: only a
//                                  later pass that starts from nothing (a `reapply`, a
//                                  user's re-run) can make one again (docs/design.md).
// A crashed process loses its memory and keeps its database; a message that reaches it
// while it is down is lost.
//
// <intent> is the intent's name percent-encoded (RFC 3986 style, uppercase hex) for the
// three characters an id gives meaning to: '%' -> %25, ':' -> %3A, ',' -> %2C (a plan's
// ids are joined by ","). Any other name is written as it is ("weekly-report"), and two
// different faults, or plans, never share an id whatever their intents are called.
#include <cstdint>
#include <string>
#include <vector>

#include "engine/text/l10n.hpp"

namespace idemlab {

/// Email / EmailAck: the service's notification to the mail provider and the provider's
/// acknowledgement (ServiceContract::notify).
enum class MessageKind { Request, Response, Lookup, LookupReply, Email, EmailAck };
enum class ClientPoint { AfterPersist, AfterSend, BeforeRecord };
enum class ServicePoint { BeforeCommit, BetweenWrites, AfterCommit, AfterEmailSend };
/// Where the service answers with an error instead of its result (Fault::Kind::ServiceError).
/// Gateway: a gateway (proxy, load balancer) in front of the service answers 502 Bad
/// Gateway before the service's idempotency layer sees the request, so it can hit a
/// retry of a key already committed (the service never receives that request).
enum class ErrorPoint { BeforeCommit, AfterCommit, Refused, Gateway };
/// How the client loses its own row of an intent (Fault::Kind::LoseRow): RolledBack, the
/// transaction that wrote it rolls back after the request left (the process stays up);
/// NotSaved, the process crashes before the row is saved (gone at restart).
enum class RowPoint { RolledBack, NotSaved };

const char* to_string(MessageKind k);
const char* to_string(ClientPoint p);
const char* to_string(ServicePoint p);
const char* to_string(ErrorPoint p);
const char* to_string(RowPoint p);
/// Parses a message kind / crash point name; returns false for an unknown name.
bool parse(const std::string& s, MessageKind& out);
bool parse(const std::string& s, ClientPoint& out);
bool parse(const std::string& s, ServicePoint& out);
bool parse(const std::string& s, ErrorPoint& out);
bool parse(const std::string& s, RowPoint& out);

/// `s` with '%', ':' and ',' percent-encoded (%25, %3A, %2C): a name made safe to stand
/// between the ':' of a fault id and the ',' of a plan id.
std::string escape_id_part(const std::string& s);

struct Fault {
  enum class Kind { Drop, CrashClient, CrashService, ServiceError, ConnectError, LoseRow } kind = Kind::Drop;
  MessageKind message = MessageKind::Request;  ///< Drop (ConnectError: always Request)
  ClientPoint point = ClientPoint::AfterSend;  ///< CrashClient only
  ServicePoint service_point = ServicePoint::AfterCommit;  ///< CrashService only
  ErrorPoint error_point = ErrorPoint::AfterCommit;        ///< ServiceError only
  RowPoint row_point = RowPoint::RolledBack;               ///< LoseRow only
  std::string intent;
  int n = 1;
  std::int64_t restart_after_ms = 50;  ///< whenever crashes() is true

  /// Whether it crashes a side, which restarts restart_after_ms later: CrashClient,
  /// CrashService and LoseRow at NotSaved.
  bool crashes() const {
    return kind == Kind::CrashClient || kind == Kind::CrashService || (kind == Kind::LoseRow && row_point == RowPoint::NotSaved);
  }

  /// The injection point id, as in the header comment.
  std::string id() const;
  /// Whether `other` is the same kind of injection point: the same message lost, or the same
  /// side crashing at the same point (any intent, any n).
  bool same_kind(const Fault& other) const;
  /// Whether `other` is the same injection point (equal id()), without writing out either id.
  bool same_point(const Fault& other) const { return same_kind(other) && n == other.n && intent == other.intent; }
  /// "the response of attempt 1 is lost" / "第 1 次尝试的响应丢失". `credits`: the provider's
  /// lane stands in for a balance ledger (provider.effect = credit), so what it is sent is a
  /// credit notice, not an email.
  L10n describe(bool credits = false) const;
};

struct FaultPlan {
  std::vector<Fault> faults;
  /// Ids joined by ",", "" for no fault: two plans are the same run when ids match.
  std::string id() const;
  /// "no fault" or the faults described and joined (`credits`: as Fault::describe).
  L10n describe(bool credits = false) const;
};

/// The runs a side must consider possible: the run with no fault and every run with one
/// fault from the kinds named here ("any one message may be lost", "the client / the
/// service may crash at these points", "the service may answer with these errors"), plus
/// the lesson's own run.
struct FaultSpace {
  bool lose_any_one_message = true;
  std::vector<ClientPoint> client_crash_points;
  std::vector<ServicePoint> service_crash_points;
  std::vector<ErrorPoint> service_error_points;
  /// Adds one run per request sent, with its connection refused (Fault::Kind::ConnectError).
  bool connect_errors = false;
  /// Adds one run per listed point the client passes, with its row lost there
  /// (Fault::Kind::LoseRow).
  std::vector<RowPoint> row_loss_points;
  std::int64_t restart_after_ms = 50;  ///< how long a crashed side stays down, virtual ms
};

}  // namespace idemlab
