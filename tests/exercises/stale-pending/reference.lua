-- stale-pending, reference: RIGHT. Expected: passes at K = 2 (no counterexample).
-- The lost-response reference (one key per intent, stored before sending; a timeout or an
-- open answer is UNKNOWN, reconciled by lookup under the stored key; not found: send again
-- under the same key), and on_restart reconciles every row that is PENDING or UNKNOWN:
-- after a crash a PENDING row may have been sent and carried out, and nobody waits for it.

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

-- After a crash nothing is waited for: every row without an outcome, PENDING as much as
-- UNKNOWN, is reconciled under its stored key (sorted, so the order never depends on the run).
function on_restart()
  local open = db.rows("SELECT intent FROM intents WHERE status = 'PENDING' OR status = 'UNKNOWN' ORDER BY intent")
  for _, r in ipairs(open) do
    reconcile(r.intent)
  end
end
