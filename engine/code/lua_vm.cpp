#include "engine/code/lua_vm.hpp"

#include <cctype>
#include <cstdlib>
#include <optional>

#include "engine/fingerprint/sha256.hpp"
#include "engine/scenario/limits.hpp"
#include "lauxlib.h"
#include "lua.h"
#include "lualib.h"

// Lua is compiled as C++ (CMakeLists.txt): an error is a C++ throw that lua_pcall catches,
// so no frame of ours is crossed by a longjmp. A C function below never lets a C++
// exception of its own reach Lua (Lua would take it for an error it cannot read): the
// host's refusals are caught where they are thrown and raised as the code's error.

namespace idemlab {

struct LuaVm::State {
  State() = default;
  State(const State&) = delete;
  State& operator=(const State&) = delete;
  // The state closes with its owner, also when LuaVm's constructor throws (code that does
  // not load): a partly built LuaVm runs no destructor of its own, its members' do.
  ~State() {
    if (L) lua_close(L);
  }
  lua_State* L = nullptr;
  std::size_t bytes = 0;   ///< what the Lua state holds (its allocator counts)
  long long counted = 0;   ///< instructions of this call, by kCodeHookEvery
  int statements = 0;      ///< SQL statements of this call
  int starts = 0;          ///< sends, lookups and timers this call started
  CodeHost* host = nullptr;
  bool in_handler = false;  ///< the handler runs (not the chunk before it)
  int budget_line = 0;
  std::optional<HostRefusal> refusal;  ///< the refusal being raised, for its kind and words
  int chunk = LUA_NOREF;      ///< the compiled code
  int loading_meta = LUA_NOREF;  ///< a fresh global table's metatable while the chunk runs
  int frozen_meta = LUA_NOREF;   ///< ... and while the handler runs: no global assigned
};

namespace {

using State = LuaVm::State;

// Sentinels raised as the error object: the client crashed; the budget ran out.
char crash_tag = 0;
char budget_tag = 0;

const char* const kHandlers[] = {"on_deliver", "on_response", "on_lookup", "on_timeout", "on_connect_error", "on_restart", "on_timer"};

// Names that are the observer's or another side's, not the client's: reading one is the
// mistake of looking where the client cannot look.
const char* const kNotTheClients[] = {"truth",  "service", "server",  "world",    "observer", "deliveries", "keys",
                                      "effects", "outbox", "emails", "network", "provider", "run"};

State& state_of(lua_State* L) {
  void* ud = nullptr;
  lua_getallocf(L, &ud);
  return *static_cast<State*>(ud);
}

void* allocate(void* ud, void* ptr, std::size_t osize, std::size_t nsize) {
  State& s = *static_cast<State*>(ud);
  std::size_t old = ptr ? osize : 0;
  if (nsize == 0) {
    std::free(ptr);
    s.bytes -= old;
    return nullptr;
  }
  if (nsize > old && s.bytes + (nsize - old) > limits::kMaxCodeMemoryBytes) return nullptr;
  void* p = std::realloc(ptr, nsize);
  if (!p) return nullptr;
  s.bytes = s.bytes - old + nsize;
  return p;
}

void count_hook(lua_State* L, lua_Debug* ar) {
  State& s = state_of(L);
  s.counted += limits::kCodeHookEvery;
  if (s.counted <= limits::kMaxCodeInstructions) return;
  if (lua_getinfo(L, "Sl", ar)) s.budget_line = ar->currentline;
  lua_pushlightuserdata(L, &budget_tag);
  lua_error(L);
}

// Raises `r` as the code's error at the line of the Lua code that called.
int raise(lua_State* L, HostRefusal r) {
  State& s = state_of(L);
  // What the column is found by: the name given, or the function the code called.
  if (r.token.empty()) {
    lua_Debug ar;
    if (lua_getstack(L, 0, &ar) && lua_getinfo(L, "n", &ar) && ar.name) r.token = ar.name;
  }
  luaL_where(L, 1);
  lua_pushstring(L, r.reason.en.c_str());
  lua_concat(L, 2);
  s.refusal = std::move(r);
  return lua_error(L);
}

int raise(lua_State* L, const char* kind, const std::string& zh, const std::string& en) {
  return raise(L, HostRefusal{kind, {zh, en}});
}

State& in_handler(lua_State* L, const char* what) {
  State& s = state_of(L);
  if (!s.in_handler || !s.host) {
    raise(L, "runtime", std::string(what) + " 只能在处理函数里调用：顶层代码在每次调用处理函数之前都会重新运行",
          std::string(what) + " can be called only inside a handler: the top-level code runs again before every handler call");
  }
  return s;
}

// A call that starts something on the wire or a timer: within kMaxCodeStarts per call.
State& starting(lua_State* L, const char* what) {
  State& s = in_handler(L, what);
  if (++s.starts > limits::kMaxCodeStarts) {
    raise(L, "budget", "一次调用发出了超过 " + std::to_string(limits::kMaxCodeStarts) + " 个请求、查询或定时器",
          "more than " + std::to_string(limits::kMaxCodeStarts) + " sends, lookups and timers in one handler call");
  }
  return s;
}

std::string text_arg(lua_State* L, int i, const char* fn, const char* name) {
  if (lua_type(L, i) != LUA_TSTRING && lua_type(L, i) != LUA_TNUMBER) {
    raise(L, "runtime", std::string(fn) + " 的参数 " + name + " 应当是文本，而这里是 " + luaL_typename(L, i),
          std::string(fn) + ": " + name + " must be text, not " + luaL_typename(L, i));
  }
  std::size_t n = 0;
  const char* p = lua_tolstring(L, i, &n);
  return std::string(p, n);
}

SqlValue sql_value(lua_State* L, int i) {
  switch (lua_type(L, i)) {
    case LUA_TNIL: return SqlValue::null();
    case LUA_TBOOLEAN: return SqlValue::of(static_cast<long long>(lua_toboolean(L, i)));
    case LUA_TSTRING: return SqlValue::of(text_arg(L, i, "db", "parameter"));
    case LUA_TNUMBER: {
      lua_Integer v = 0;
      if (lua_isinteger(L, i)) return SqlValue::of(static_cast<long long>(lua_tointeger(L, i)));
      lua_Number d = lua_tonumber(L, i);
      if (lua_numbertointeger(d, &v)) return SqlValue::of(static_cast<long long>(v));
      break;
    }
    default: break;
  }
  raise(L, "runtime", "SQL 参数只能是文本、整数、布尔值或 nil，这里是 " + std::string(luaL_typename(L, i)),
        "an SQL parameter must be text, an integer, a boolean or nil, not " + std::string(luaL_typename(L, i)));
  return {};
}

void push_value(lua_State* L, const SqlValue& v) {
  if (v.kind == SqlValue::Kind::Integer) lua_pushinteger(L, v.integer);
  else if (v.kind == SqlValue::Kind::Text) lua_pushlstring(L, v.text.data(), v.text.size());
  else lua_pushnil(L);
}

void push_row(lua_State* L, const SqlRow& row, const std::vector<std::string>& names) {
  lua_createtable(L, 0, static_cast<int>(row.size()));
  for (std::size_t c = 0; c < row.size() && c < names.size(); ++c) {
    push_value(L, row[c]);
    lua_setfield(L, -2, names[c].c_str());
  }
}

// db.exec / db.rows / db.row: mode 0 / 1 / 2.
int run_sql(lua_State* L, int mode) {
  static const char* const names[] = {"db.exec", "db.rows", "db.row"};
  State& s = in_handler(L, names[mode]);
  std::string statement = text_arg(L, 1, names[mode], "sql");
  std::vector<SqlValue> params;
  for (int i = 2; i <= lua_gettop(L); ++i) params.push_back(sql_value(L, i));
  if (++s.statements > limits::kMaxCodeStatements) {
    raise(L, "runtime", "一次调用执行了超过 " + std::to_string(limits::kMaxCodeStatements) + " 条 SQL 语句",
          "more than " + std::to_string(limits::kMaxCodeStatements) + " SQL statements in one handler call");
  }
  std::vector<SqlRow> rows;
  std::vector<std::string> columns;
  long long changed = 0;
  std::optional<HostRefusal> refused;
  try {
    changed = s.host->sql(statement, params, rows, columns);
  } catch (const HostRefusal& r) {
    refused = r;
  }
  if (refused && refused->kind == "crash") {
    lua_pushlightuserdata(L, &crash_tag);  // the client crashed at a point the statement passed
    return lua_error(L);
  }
  if (refused) return raise(L, std::move(*refused));
  if (mode == 0) {
    lua_pushinteger(L, changed);
  } else if (mode == 2) {
    if (rows.empty()) lua_pushnil(L);
    else push_row(L, rows[0], columns);
  } else {
    lua_createtable(L, static_cast<int>(rows.size()), 0);
    for (std::size_t i = 0; i < rows.size(); ++i) {
      push_row(L, rows[i], columns);
      lua_rawseti(L, -2, static_cast<lua_Integer>(i + 1));
    }
  }
  return 1;
}

int db_exec(lua_State* L) { return run_sql(L, 0); }
int db_rows(lua_State* L) { return run_sql(L, 1); }
int db_row(lua_State* L) { return run_sql(L, 2); }

int crashed(lua_State* L) {
  lua_pushlightuserdata(L, &crash_tag);
  return lua_error(L);
}

int send_request(lua_State* L) {
  State& s = starting(L, "send");
  std::string intent = text_arg(L, 1, "send", "intent");
  std::string key = text_arg(L, 2, "send", "key");
  std::string payload = text_arg(L, 3, "send", "payload");
  long long attempt = 0;
  std::optional<HostRefusal> refused;
  try {
    attempt = s.host->send(intent, key, payload);
  } catch (const HostRefusal& r) {
    refused = r;
  }
  if (refused) return raise(L, std::move(*refused));
  if (attempt == 0) return crashed(L);
  lua_pushinteger(L, attempt);
  return 1;
}

int send_lookup(lua_State* L) {
  State& s = starting(L, "lookup");
  std::string intent = text_arg(L, 1, "lookup", "intent");
  std::string key = text_arg(L, 2, "lookup", "key");
  bool up = false;
  std::optional<HostRefusal> refused;
  try {
    up = s.host->lookup(intent, key);
  } catch (const HostRefusal& r) {
    refused = r;
  }
  if (refused) return raise(L, std::move(*refused));
  if (!up) return crashed(L);
  return 0;
}

int new_key(lua_State* L) {
  State& s = in_handler(L, "new_key");
  std::string intent = text_arg(L, 1, "new_key", "intent");
  std::string key = s.host->new_key(intent);
  lua_pushlstring(L, key.data(), key.size());
  return 1;
}

int derive_key(lua_State* L) {
  std::string joined;
  for (int i = 1; i <= lua_gettop(L); ++i) {
    if (i > 1) joined += "\n";
    joined += text_arg(L, i, "derive_key", "each argument");
  }
  std::string key = "op-" + sha256_hex(joined).substr(0, 12);
  lua_pushlstring(L, key.data(), key.size());
  return 1;
}

// after(ms, intent): on_timer(intent) in `ms` virtual ms, unless the client crashes first
// (a timer is the process's memory). A whole number from 0 to limits::kMaxVirtualMs.
int after_timer(lua_State* L) {
  State& s = starting(L, "after");
  lua_Integer ms = 0;
  if (!lua_isinteger(L, 1) || (ms = lua_tointeger(L, 1)) < 0 || ms > limits::kMaxVirtualMs) {
    return raise(L, "runtime", "after 的第一个参数是等待的虚拟毫秒数：0 到 " + std::to_string(limits::kMaxVirtualMs) + " 之间的整数",
                 "after: its first argument is the wait in virtual ms, a whole number from 0 to " + std::to_string(limits::kMaxVirtualMs));
  }
  std::string intent = text_arg(L, 2, "after", "intent");
  s.host->after(intent, static_cast<std::int64_t>(ms));
  return 0;
}

int now(lua_State* L) {
  State& s = in_handler(L, "now");
  lua_pushinteger(L, s.host->now());
  return 1;
}

// A global read that is no library function, no handler and nothing the code defined.
int unknown_name(lua_State* L) {
  if (lua_type(L, 2) != LUA_TSTRING) return 0;
  std::string name = lua_tostring(L, 2);
  for (const char* n : kNotTheClients) {
    if (name == n) {
      return raise(L, HostRefusal{"forbidden",
                                  {"“" + name + "”不是客户端能知道的东西：它的代码只看得到自己的数据库（db）和手里的这条消息",
                                   "'" + name + "' is not something the client can know: its code sees only its own database (db) and the message in hand"},
                                  name});
    }
  }
  // Lua's own names the sandbox leaves out (docs/design.md, "Code mode"): not a typo.
  static const char* const kLeftOut[] = {"os", "io", "package", "debug", "coroutine", "require", "load", "loadfile",
                                         "dofile", "loadstring", "collectgarbage", "print", "pcall", "xpcall",
                                         "setmetatable", "getmetatable", "rawset", "rawget", "rawequal"};
  for (const char* n : kLeftOut) {
    if (name == n) {
      return raise(L, HostRefusal{"runtime",
                                  {"客户端的代码里没有“" + name + "”：它不做输入输出、不读时钟，也碰不到页面；它有的是自己的数据库（db）和框架代码开头列出的那些函数",
                                   "'" + name + "' is not available to the client's code: it has no I/O, no clock and nothing of the page; it has its database (db) and the calls the skeleton's header lists"},
                                  name});
    }
  }
  return raise(L, HostRefusal{"runtime", {"没有叫“" + name + "”的名字：拼写错了？若是想留到下一次调用的变量，请写进数据库（变量活不过一次调用）",
               "unknown name '" + name + "': a typo? If it is a variable meant to last until the next call, write it to the database (no variable outlives a call)"}, name});
}

int assign_global(lua_State* L) {
  std::string name = lua_type(L, 2) == LUA_TSTRING ? lua_tostring(L, 2) : "?";
  return raise(L, HostRefusal{"runtime",
                              {"处理函数给全局变量“" + name + "”赋值：变量活不过这次调用，客户端的记忆在它的数据库里；请用 local，或写进表里",
                               "a handler assigns the global '" + name + "': no variable outlives the call, the client's memory is its database; use local, or write it to a table"},
                              name});
}

int read_only(lua_State* L) {
  return raise(L, "runtime", "库是只读的", "the libraries are read-only");
}

// Pushes a read-only view of the table at `index`: reads go to it, writes are refused.
void push_read_only(lua_State* L, int index) {
  index = lua_absindex(L, index);
  lua_newtable(L);
  lua_createtable(L, 0, 3);
  lua_pushvalue(L, index);
  lua_setfield(L, -2, "__index");
  lua_pushcfunction(L, read_only);
  lua_setfield(L, -2, "__newindex");
  lua_pushboolean(L, 0);
  lua_setfield(L, -2, "__metatable");
  lua_setmetatable(L, -2);
}

// The global table every call's fresh one reads through: the base functions kept, the
// libraries read-only, and what the client may call.
void push_libraries(lua_State* L) {
  luaL_requiref(L, "_G", luaopen_base, 1);
  lua_pop(L, 1);
  const std::pair<const char*, lua_CFunction> libs[] = {
      {LUA_STRLIBNAME, luaopen_string}, {LUA_TABLIBNAME, luaopen_table}, {LUA_MATHLIBNAME, luaopen_math}, {LUA_UTF8LIBNAME, luaopen_utf8}};
  for (const auto& [name, open] : libs) {
    luaL_requiref(L, name, open, 1);
    lua_pop(L, 1);
  }
  // Nothing that loads code, reaches the collector, catches the interpreter's own stops
  // (a crash, the budget: pcall would swallow them), sets a metatable (a __gc or __close
  // would run at a time the builds do not share) or draws a random number.
  lua_newtable(L);
  const char* const kept[] = {"assert", "error", "ipairs", "next", "pairs", "rawequal", "rawlen", "rawget", "select",
                              "tonumber", "tostring", "type", "_VERSION"};
  for (const char* name : kept) {
    lua_getglobal(L, name);
    lua_setfield(L, -2, name);
  }
  lua_getglobal(L, LUA_MATHLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "random");
  lua_pushnil(L);
  lua_setfield(L, -2, "randomseed");
  lua_pop(L, 1);
  lua_getglobal(L, LUA_STRLIBNAME);
  lua_pushnil(L);
  lua_setfield(L, -2, "dump");
  lua_pop(L, 1);
  for (const auto& lib : libs) {
    lua_getglobal(L, lib.first);
    push_read_only(L, -1);
    lua_setfield(L, -3, lib.first);
    lua_pop(L, 1);
  }
  const luaL_Reg db[] = {{"exec", db_exec}, {"rows", db_rows}, {"row", db_row}, {nullptr, nullptr}};
  luaL_newlib(L, db);
  push_read_only(L, -1);
  lua_setfield(L, -3, "db");
  lua_pop(L, 1);
  const luaL_Reg calls[] = {{"send", send_request}, {"lookup", send_lookup}, {"new_key", new_key},
                            {"derive_key", derive_key}, {"now", now}, {"after", after_timer}, {nullptr, nullptr}};
  luaL_setfuncs(L, calls, 0);
  // Reading a name none of these has is an error, not nil.
  lua_createtable(L, 0, 1);
  lua_pushcfunction(L, unknown_name);
  lua_setfield(L, -2, "__index");
  lua_setmetatable(L, -2);
}

int line_of(const std::string& message, std::string& rest) {
  const std::string prefix = "submission:";
  rest = message;
  if (message.compare(0, prefix.size(), prefix) != 0) return 0;
  std::size_t colon = message.find(':', prefix.size());
  if (colon == std::string::npos) return 0;
  int line = std::atoi(message.substr(prefix.size(), colon - prefix.size()).c_str());
  rest = message.substr(colon + 1);
  if (!rest.empty() && rest[0] == ' ') rest.erase(0, 1);
  return line;
}

// The column (1-based, in characters) of the token a syntax error names ("near 'x'") on
// line `line` of `code` (its last copy there); 0 when it names none or it is not there.
// Line `line` of `code` (1-based), without its newline; empty when there is none.
std::string line_text(const std::string& code, int line) {
  std::size_t start = 0;
  for (int l = 1; l < line && start != std::string::npos; ++l) {
    start = code.find('\n', start);
    if (start != std::string::npos) ++start;
  }
  if (line < 1 || start == std::string::npos) return "";
  std::size_t end = code.find('\n', start);
  return code.substr(start, end == std::string::npos ? std::string::npos : end - start);
}

// Characters (UTF-8) in the first `upto` bytes of `s`.
int chars(const std::string& s, std::size_t upto) {
  int n = 0;
  for (std::size_t i = 0; i < upto && i < s.size(); ++i) n += (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
  return n;
}

int column_of(const std::string& code, int line, const std::string& rest) {
  std::string text = line_text(code, line);
  if (text.empty()) return 0;
  if (rest.find("near <eof>") != std::string::npos) return chars(text, text.size()) + 1;
  std::size_t near = rest.rfind("near '");
  if (near == std::string::npos) return 0;
  std::size_t from = near + 6, to = rest.rfind('\'');
  if (to == std::string::npos || to <= from) return 0;
  // The last one on the line: the parser reads from the left and stops where it fails, so
  // an earlier copy of the token was most often read well (`x = = 1` fails at the second).
  std::size_t at = text.rfind(rest.substr(from, to - from));
  return at == std::string::npos ? 0 : chars(text, at) + 1;
}

// The column (1-based, in characters) of the first copy of the name `word`, as a whole
// word, on line `line` of `code`; 0 when it is not there. Lua names no column at run time:
// the name its message gives ("(local 'r')") or the function the code called is found.
int column_of_name(const std::string& code, int line, const std::string& word) {
  std::string text = line_text(code, line);
  if (word.empty()) return 0;
  auto part = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (std::size_t at = text.find(word); at != std::string::npos; at = text.find(word, at + 1)) {
    std::size_t end = at + word.size();
    if ((at == 0 || !part(text[at - 1])) && (end >= text.size() || !part(text[end]))) return chars(text, at) + 1;
  }
  return 0;
}

// The name a runtime message of Lua's is about: "... (local 'r')" gives "r".
std::string named_in(const std::string& rest) {
  std::size_t close = rest.rfind("')");
  if (close == std::string::npos) return "";
  std::size_t open = rest.rfind('\'', close - 1);
  if (open == std::string::npos || open + 1 >= close) return "";
  return rest.substr(open + 1, close - open - 1);
}

}  // namespace

// Pushes a fresh global table and runs the chunk in it, under the instruction budget
// (the hook stays set for the handler that follows): the status of the protected call,
// the table left on the stack.
static int run_chunk(State& s) {
  lua_State* L = s.L;
  lua_newtable(L);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.loading_meta);
  lua_setmetatable(L, -2);
  lua_rawgeti(L, LUA_REGISTRYINDEX, s.chunk);
  lua_pushvalue(L, -2);
  lua_setupvalue(L, -2, 1);
  lua_sethook(L, count_hook, LUA_MASKCOUNT, limits::kCodeHookEvery);
  return lua_pcall(L, 0, 0, 0);
}

// The error on top of the stack after a failed protected call with `status`: nullopt for
// the client's crash (not an error), else the CodeFault to throw.
static std::optional<CodeFault> fault_of(State& s, int status, const std::string& code, bool loading) {
  lua_State* L = s.L;
  if (lua_touserdata(L, -1) == &crash_tag) return std::nullopt;
  if (lua_touserdata(L, -1) == &budget_tag) {
    std::string n = std::to_string(limits::kMaxCodeInstructions);
    std::string at = std::to_string(s.budget_line);
    return CodeFault("budget", s.budget_line, 0,
                     {"第 " + at + " 行：一次调用用完了 " + n + " 条指令的预算（一个不会结束的循环？）",
                      "line " + at + ": one call ran past its budget of " + n + " instructions (a loop that never ends?)"});
  }
  if (status == LUA_ERRMEM) {
    std::string mib = std::to_string(limits::kMaxCodeMemoryBytes / (1024 * 1024));
    return CodeFault("memory", 0, 0, {"代码占用的内存超过了 " + mib + " MiB", "the code took more than " + mib + " MiB of memory"});
  }
  if (lua_type(L, -1) != LUA_TSTRING) {
    return CodeFault("runtime", 0, 0, {"代码用一个不是文本的值引发了错误（error 的参数请用文本）",
                                       "the code raised an error with a value that is not text (give error a text)"});
  }
  std::string message = lua_tostring(L, -1);
  std::string rest;
  int line = line_of(message, rest);
  // "line 3: ..." where the line is known; Lua's own words otherwise.
  auto at_zh = [&](const std::string& what) { return line > 0 ? "第 " + std::to_string(line) + " 行" + what : what; };
  auto at_en = [&](const std::string& what) { return line > 0 ? "line " + std::to_string(line) + ": " + what : what; };
  if (s.refusal) {
    HostRefusal r = *s.refusal;
    return CodeFault(r.kind, line, column_of_name(code, line, r.token), {at_zh("：" + r.reason.zh), at_en(r.reason.en)});
  }
  if (loading) {
    return CodeFault("syntax", line, column_of(code, line, rest), {at_zh("有语法错误：" + rest), at_en("syntax error: " + rest)});
  }
  return CodeFault("runtime", line, column_of_name(code, line, named_in(rest)), {at_zh("出错：" + rest), at_en(rest)});
}

LuaVm::LuaVm(const std::string& code) : state_(std::make_unique<State>()) {
  State& s = *state_;
  s.L = lua_newstate(allocate, &s);
  if (!s.L) throw CodeFault("memory", 0, 0, {"无法为代码准备解释器", "no memory for the code's interpreter"});
  lua_State* L = s.L;
  push_libraries(L);
  int libraries = lua_gettop(L);
  for (int frozen = 0; frozen < 2; ++frozen) {
    lua_createtable(L, 0, 2);
    lua_pushvalue(L, libraries);
    lua_setfield(L, -2, "__index");
    if (frozen) {
      lua_pushcfunction(L, assign_global);
      lua_setfield(L, -2, "__newindex");
    }
    (frozen ? s.frozen_meta : s.loading_meta) = luaL_ref(L, LUA_REGISTRYINDEX);
  }
  lua_pop(L, 1);
  if (code.size() > limits::kMaxCodeBytes) {
    throw CodeFault("syntax", 0, 0, {"代码超过了 16 KiB", "the code is longer than 16 KiB"});
  }
  int status = luaL_loadbufferx(L, code.data(), code.size(), "=submission", "t");
  if (status != LUA_OK) {
    std::optional<CodeFault> f = fault_of(s, status, code, true);
    lua_settop(L, 0);
    throw *f;
  }
  s.chunk = luaL_ref(L, LUA_REGISTRYINDEX);
  // Run once as a handler call would, to know which handlers it defines and to refuse a
  // chunk that fails before any call.
  s.counted = 0;
  status = run_chunk(s);
  lua_sethook(L, nullptr, 0, 0);
  if (status != LUA_OK) {
    std::optional<CodeFault> f = fault_of(s, status, code, false);
    lua_settop(L, 0);
    if (f) throw *f;
    throw CodeFault("runtime", 0, 0, {"顶层代码出错", "the top-level code failed"});
  }
  // The handlers defined; a function named like one that is not one would never be called.
  lua_pushnil(L);
  while (lua_next(L, -2)) {
    if (lua_type(L, -2) == LUA_TSTRING && lua_type(L, -1) == LUA_TFUNCTION) {
      std::string name = lua_tostring(L, -2);
      bool known = false;
      for (const char* h : kHandlers) known = known || name == h;
      if (known) handlers_.push_back(name);
      else if (name.compare(0, 3, "on_") == 0) {
        lua_settop(L, 0);
        throw CodeFault("runtime", 0, 0,
                        {"“" + name + "”不是客户端会调用的处理函数；它调用的是 on_deliver、on_response、on_lookup、on_timeout、on_connect_error、on_restart、on_timer",
                         "'" + name + "' is not a handler the client calls; it calls on_deliver, on_response, on_lookup, on_timeout, on_connect_error, on_restart, on_timer"});
      }
    }
    lua_pop(L, 1);
  }
  lua_settop(L, 0);
  code_ = code;
}

LuaVm::~LuaVm() = default;

bool LuaVm::defines(const std::string& handler) const {
  for (const std::string& h : handlers_) {
    if (h == handler) return true;
  }
  return false;
}

namespace {

void push_code_value(lua_State* L, const CodeValue& v) {
  switch (v.kind) {
    case CodeValue::Kind::Nil: lua_pushnil(L); break;
    case CodeValue::Kind::Integer: lua_pushinteger(L, v.integer); break;
    case CodeValue::Kind::Text: lua_pushlstring(L, v.text.data(), v.text.size()); break;
    case CodeValue::Kind::Boolean: lua_pushboolean(L, v.boolean); break;
    case CodeValue::Kind::Table:
      lua_createtable(L, 0, static_cast<int>(v.fields.size()));
      for (const auto& [name, field] : v.fields) {
        push_code_value(L, field);
        lua_setfield(L, -2, name.c_str());
      }
      break;
  }
}

}  // namespace

bool LuaVm::call(CodeHost& host, const std::string& handler, const std::vector<CodeValue>& args) {
  if (!defines(handler)) return true;
  State& s = *state_;
  lua_State* L = s.L;
  s.host = &host;
  s.counted = 0;
  s.statements = 0;
  s.starts = 0;
  s.refusal.reset();
  s.in_handler = false;
  // A fresh global table, the chunk run in it, then the handler it defines.
  int status = run_chunk(s);
  if (status == LUA_OK) {
    lua_rawgeti(L, LUA_REGISTRYINDEX, s.frozen_meta);
    lua_setmetatable(L, -2);
    lua_getfield(L, -1, handler.c_str());
    for (const CodeValue& a : args) push_code_value(L, a);
    s.in_handler = true;
    status = lua_pcall(L, static_cast<int>(args.size()), 0, 0);
  }
  lua_sethook(L, nullptr, 0, 0);
  s.in_handler = false;
  s.host = nullptr;
  if (status == LUA_OK) {
    lua_settop(L, 0);
    return true;
  }
  std::optional<CodeFault> f = fault_of(s, status, code_, false);
  lua_settop(L, 0);
  if (!f) return false;  // the client crashed during the call
  throw *f;
}

}  // namespace idemlab
