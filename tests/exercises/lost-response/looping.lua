-- lost-response, looping: a loop that never ends. on_timeout "waits a little" before it
-- reconciles by spinning on now(), but virtual time does not move while a handler runs.
-- Expected: refused with error.kind "budget" (the 1,000,000-instruction budget of one
-- handler call) on line 47, the loop, in a schedule where the client times out (the grade
-- names drop:request:weekly-report:1 in error.fault_ids). Otherwise the reference.

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
  local until_ms = now() + 50
  while now() < until_ms do
  end
  reconcile(intent)
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
