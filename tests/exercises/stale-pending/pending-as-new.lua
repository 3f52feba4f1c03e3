-- stale-pending, pending-as-new: WRONG. As the reference, except that on_restart takes a
-- PENDING row for "never sent" and sends it again under a new key. Expected: fails with
-- duplicate_effect for invoice-42 with no fault at all (faults: []): its first request had
-- already been carried out when the client crashed.

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

-- After a crash: an UNKNOWN row is reconciled; a PENDING row is taken for "never sent"
-- and sent as a new attempt under a new key (the mistake).
function on_restart()
  for _, r in ipairs(db.rows("SELECT intent FROM intents WHERE status = 'UNKNOWN' ORDER BY intent")) do
    reconcile(r.intent)
  end
  local pending = db.rows("SELECT intent, payload FROM intents WHERE status = 'PENDING' ORDER BY intent")
  for _, r in ipairs(pending) do
    local key = new_key(r.intent)
    db.exec("UPDATE intents SET op_key = ? WHERE intent = ?", key, r.intent)
    send(r.intent, key, r.payload)
  end
end
