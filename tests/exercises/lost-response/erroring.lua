-- lost-response, erroring: a runtime error. on_timeout reads a column the row does not
-- have (sent_at) and does arithmetic on the nil it gets. Expected: refused with
-- error.kind "runtime" at line 48 ("attempt to perform arithmetic on a nil value (field
-- 'sent_at')"), in a schedule with a fault that makes the client time out (the grade names
-- drop:request:weekly-report:1 in error.fault_ids); the fault-free run never times out.
-- Otherwise the reference.

local function row_of(intent)
  return db.row("SELECT op_key, payload, status FROM intents WHERE intent = ?", intent)
end

local function is_open(r)
  return r ~= nil and (r.status == "PENDING" or r.status == "UNKNOWN")
end

-- The outcome is unknown: say so, and ask the service under the stored key.
local function reconcile(intent)
  local r = row_of(intent)
  if not is_open(r) then return end
  db.exec("UPDATE intents SET status = 'UNKNOWN' WHERE intent = ?", intent)
  lookup(intent, r.op_key)
end

local function settle(intent, receipt)
  db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?", receipt, intent)
end

function on_deliver(intent, payload)
  if row_of(intent) then return end
  local key = new_key(intent)
  db.exec("INSERT INTO intents(intent, op_key, payload, status) VALUES (?, ?, ?, 'PENDING')",
          intent, key, payload)
  send(intent, key, payload)
end

function on_response(intent, reply)
  if reply.outcome == "ok" then
    settle(intent, reply.receipt)
  elseif reply.outcome == "rejected" then
    db.exec("UPDATE intents SET status = 'CONFLICT' WHERE intent = ?", intent)
  else
    reconcile(intent)  -- error, refused, in_progress: the effect may or may not exist
  end
end

function on_timeout(intent, call)
  local r = db.row("SELECT op_key, status FROM intents WHERE intent = ?", intent)
  local waited = now() - r.sent_at
  if waited >= 0 then reconcile(intent) end
end

function on_lookup(intent, reply)
  local r = row_of(intent)
  if not is_open(r) then return end
  if reply.outcome == "found" then
    settle(intent, reply.receipt)
  elseif reply.outcome == "not_found" then
    send(intent, r.op_key, r.payload)  -- the same key: a repeat is replayed, never redone
  else
    lookup(intent, r.op_key)
  end
end

function on_connect_error(intent, attempt)
  local r = row_of(intent)
  if is_open(r) then send(intent, r.op_key, r.payload) end  -- it never left: send it again
end

-- Given by the exercise.
function on_restart()
  db.exec("UPDATE intents SET status = 'NEEDS_HUMAN' WHERE status = 'PENDING' OR status = 'UNKNOWN'")
end
