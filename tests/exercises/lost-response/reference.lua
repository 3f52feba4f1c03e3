-- lost-response, reference: RIGHT. Expected: passes at K = 2 (no counterexample).
-- One operation key per intent, drawn once and stored in the row before the request
-- leaves; every retry and every lookup reads it back. A timeout (and a 500, a 429, an
-- "in progress") is an unknown outcome: the row becomes UNKNOWN and the client reconciles
-- by lookup under the stored key; not found means send again under the same key. Nothing
-- is ever recorded FAILED. on_restart is the one the exercise gives (NEEDS_HUMAN).

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
