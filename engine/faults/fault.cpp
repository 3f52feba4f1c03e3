#include "engine/faults/fault.hpp"

#include "engine/text/provider_words.hpp"

namespace idemlab {

const char* to_string(MessageKind k) {
  switch (k) {
    case MessageKind::Request: return "request";
    case MessageKind::Response: return "response";
    case MessageKind::Lookup: return "lookup";
    case MessageKind::LookupReply: return "lookup_reply";
    case MessageKind::Email: return "email";
    case MessageKind::EmailAck: return "email_ack";
  }
  return "?";
}

const char* to_string(ClientPoint p) {
  switch (p) {
    case ClientPoint::AfterPersist: return "after_persist";
    case ClientPoint::AfterSend: return "after_send";
    case ClientPoint::BeforeRecord: return "before_record";
  }
  return "?";
}

const char* to_string(ServicePoint p) {
  switch (p) {
    case ServicePoint::BeforeCommit: return "before_commit";
    case ServicePoint::BetweenWrites: return "between_writes";
    case ServicePoint::AfterCommit: return "after_commit";
    case ServicePoint::AfterEmailSend: return "after_email_send";
  }
  return "?";
}

const char* to_string(ErrorPoint p) {
  switch (p) {
    case ErrorPoint::BeforeCommit: return "before_commit";
    case ErrorPoint::AfterCommit: return "after_commit";
    case ErrorPoint::Refused: return "refused";
    case ErrorPoint::Gateway: return "gateway";
  }
  return "?";
}

const char* to_string(RowPoint p) {
  switch (p) {
    case RowPoint::RolledBack: return "rolled_back";
    case RowPoint::NotSaved: return "not_saved";
  }
  return "?";
}

bool parse(const std::string& s, MessageKind& out) {
  for (MessageKind k : {MessageKind::Request, MessageKind::Response, MessageKind::Lookup,
                        MessageKind::LookupReply, MessageKind::Email, MessageKind::EmailAck}) {
    if (s == to_string(k)) { out = k; return true; }
  }
  return false;
}

bool parse(const std::string& s, ClientPoint& out) {
  for (ClientPoint p : {ClientPoint::AfterPersist, ClientPoint::AfterSend, ClientPoint::BeforeRecord}) {
    if (s == to_string(p)) { out = p; return true; }
  }
  return false;
}

bool parse(const std::string& s, ServicePoint& out) {
  for (ServicePoint p : {ServicePoint::BeforeCommit, ServicePoint::BetweenWrites, ServicePoint::AfterCommit,
                         ServicePoint::AfterEmailSend}) {
    if (s == to_string(p)) { out = p; return true; }
  }
  return false;
}

bool parse(const std::string& s, ErrorPoint& out) {
  for (ErrorPoint p : {ErrorPoint::BeforeCommit, ErrorPoint::AfterCommit, ErrorPoint::Refused, ErrorPoint::Gateway}) {
    if (s == to_string(p)) { out = p; return true; }
  }
  return false;
}

bool parse(const std::string& s, RowPoint& out) {
  for (RowPoint p : {RowPoint::RolledBack, RowPoint::NotSaved}) {
    if (s == to_string(p)) { out = p; return true; }
  }
  return false;
}

std::string escape_id_part(const std::string& s) {
  static const char* const kHex = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    if (c == '%' || c == ':' || c == ',') {
      unsigned char u = static_cast<unsigned char>(c);
      out += '%';
      out += kHex[u >> 4];
      out += kHex[u & 0xF];
    } else {
      out += c;
    }
  }
  return out;
}

bool Fault::same_kind(const Fault& other) const {
  if (kind != other.kind) return false;
  switch (kind) {
    case Kind::Drop: return message == other.message;
    case Kind::CrashClient: return point == other.point;
    case Kind::CrashService: return service_point == other.service_point;
    case Kind::ServiceError: return error_point == other.error_point;
    case Kind::ConnectError: return true;
    case Kind::LoseRow: return row_point == other.row_point;
  }
  return false;
}

std::string Fault::id() const {
  std::string where = ":" + escape_id_part(intent) + ":" + std::to_string(n);
  switch (kind) {
    case Kind::Drop: return std::string("drop:") + to_string(message) + where;
    case Kind::CrashClient: return std::string("crash:client:") + to_string(point) + where;
    case Kind::CrashService: return std::string("crash:service:") + to_string(service_point) + where;
    case Kind::ServiceError: return std::string("error:service:") + to_string(error_point) + where;
    case Kind::ConnectError: return "connect_error:request" + where;
    case Kind::LoseRow: return std::string("lose_row:") + to_string(row_point) + where;
  }
  return "?";
}

L10n Fault::describe(bool credits) const {
  std::string num = std::to_string(n);
  const ProviderWords words = provider_words(credits);
  const L10n& sent = words.short_item;
  const L10n& to = words.provider;
  if (kind == Kind::Drop) {
    switch (message) {
      case MessageKind::Request:
        return {"第 " + num + " 次尝试的请求丢失", "the request of attempt " + num + " is lost"};
      case MessageKind::Response:
        return {"第 " + num + " 次尝试的响应丢失", "the response of attempt " + num + " is lost"};
      case MessageKind::Lookup:
        return {"第 " + num + " 次对账查询丢失", "lookup " + num + " is lost"};
      case MessageKind::LookupReply:
        return {"第 " + num + " 次对账查询的答复丢失", "the reply to lookup " + num + " is lost"};
      case MessageKind::Email:
        return {"第 " + num + " 次发给" + to.zh + "的" + sent.zh + "丢失", sent.en + " send " + num + " to " + to.en + " is lost"};
      case MessageKind::EmailAck:
        return {to.zh + "对第 " + num + " 次" + sent.zh + "的确认丢失", to.en + "'s ack of " + sent.en + " send " + num + " is lost"};
    }
  }
  if (kind == Kind::CrashService) {
    switch (service_point) {
      case ServicePoint::BeforeCommit:
        return {"服务端处理第 " + num + " 次请求、写入任何数据前崩溃",
                "the service crashes handling the request of attempt " + num + ", before writing anything"};
      case ServicePoint::BetweenWrites:
        return {"服务端处理第 " + num + " 次请求、两次写入之间崩溃",
                "the service crashes handling the request of attempt " + num + ", between its two writes"};
      case ServicePoint::AfterCommit:
        return {"服务端提交第 " + num + " 次请求后、回复前崩溃",
                "the service crashes after committing the request of attempt " + num + ", before replying"};
      case ServicePoint::AfterEmailSend:
        return {"服务端第 " + num + " 次把" + sent.zh + "发给" + to.zh + "后、做任何别的事之前崩溃",
                "the service crashes right after " + sent.en + " send " + num + " to " + to.en + ", before doing anything else"};
    }
  }
  if (kind == Kind::ConnectError) {
    return {"第 " + num + " 次尝试连不上服务端（连接被拒绝）：请求根本没有发出去",
            "attempt " + num + " cannot connect (connection refused): the request never leaves the client"};
  }
  if (kind == Kind::LoseRow) {
    if (row_point == RowPoint::RolledBack) {
      return {"第 " + num + " 次请求发出之后，写下意图那一行的事务回滚了：客户端没有了这一行，请求却已经走了",
              "the transaction that wrote the intent's row rolls back after the request of attempt " + num +
                  " has left: the client has no row, and the request is on its way"};
    }
    return {"客户端发出第 " + num + " 次请求后、把状态存盘前崩溃：重启后意图那一行没有了",
            "the client crashes after sending attempt " + num + ", before its state is saved: at restart the intent's row is gone"};
  }
  if (kind == Kind::ServiceError) {
    switch (error_point) {
      case ErrorPoint::BeforeCommit:
        return {"服务端处理第 " + num + " 次请求失败，什么也没写，答复 500",
                "the service fails handling the request of attempt " + num + ", writes nothing and answers 500"};
      case ErrorPoint::AfterCommit:
        return {"服务端提交第 " + num + " 次请求后出错，答复 500（业务效果已经在了）",
                "the service commits the request of attempt " + num + ", then fails and answers 500 (the effect exists)"};
      case ErrorPoint::Refused:
        return {"服务端拒绝第 " + num + " 次请求（429：限流或容量不足），什么也没做",
                "the service refuses the request of attempt " + num + " (429: throttled, or out of capacity) and does nothing"};
      case ErrorPoint::Gateway:
        return {"服务端前面的网关对第 " + num + " 次请求答复 502：请求没到服务端，它的去重层也没看到",
                "the gateway in front of the service answers the request of attempt " + num +
                    " with 502: the request never reaches the service, nor its dedup layer"};
    }
  }
  switch (point) {
    case ClientPoint::AfterPersist:
      return {"客户端保存意图后、发出请求前崩溃", "the client crashes after storing the intent, before sending"};
    case ClientPoint::AfterSend:
      return {"客户端发出第 " + num + " 次请求后崩溃", "the client crashes after sending attempt " + num};
    case ClientPoint::BeforeRecord:
      return {"客户端收到第 " + num + " 次答复、记下结果前崩溃",
              "the client crashes after the reply to attempt " + num + " arrives, before recording it"};
  }
  return {"?", "?"};
}

std::string FaultPlan::id() const {
  std::string out;
  for (const Fault& f : faults) {
    if (!out.empty()) out += ",";
    out += f.id();
  }
  return out;
}

L10n FaultPlan::describe(bool credits) const {
  if (faults.empty()) return {"没有故障", "no fault"};
  L10n out = faults.front().describe(credits);
  for (std::size_t i = 1; i < faults.size(); ++i) out = L10n::join(out, faults[i].describe(credits), "，", ", and ");
  return out;
}

}  // namespace idemlab
