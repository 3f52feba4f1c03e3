-- derived-key, naive: WRONG. The key is derived from the intent, its content and the
-- time (a volatile field, as a hash of the whole request with its timestamp), so every
-- retry, lookup and restart computes another key. Expected: fails with duplicate_effect
-- for topup-2025-03 with one fault: the service commits and no reply comes (the grade names
-- crash:service:after_commit:topup-2025-03:1; a lost response does the same); the lookup
-- under the key computed now finds nothing, and the resend under it is a second top-up.

-- The operation key, computed again wherever it is needed: the row stores none.
local function key_of(intent, payload)
  return derive_key(intent, payload, now())
end

local function row_of(intent)
  return db.row("SELECT payload, status FROM intents WHERE intent = ?", intent)
end

local function is_open(r)
  return r ~= nil and (r.status == "PENDING" or r.status == "UNKNOWN")
end

-- The outcome is unknown: say so, and ask the service under the intent's key.
local function reconcile(intent)
  local r = row_of(intent)
  if not is_open(r) then return end
  db.exec("UPDATE intents SET status = 'UNKNOWN' WHERE intent = ?", intent)
  lookup(intent, key_of(intent, r.payload))
end

local function settle(intent, receipt)
  db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?", receipt, intent)
end

function on_deliver(intent, payload)
  if row_of(intent) then return end
  db.exec("INSERT INTO intents(intent, payload, status) VALUES (?, ?, 'PENDING')", intent, payload)
  send(intent, key_of(intent, payload), payload)
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
    send(intent, key_of(intent, r.payload), r.payload)
  else
    lookup(intent, key_of(intent, r.payload))
  end
end

function on_connect_error(intent, attempt)
  local r = row_of(intent)
  if is_open(r) then send(intent, key_of(intent, r.payload), r.payload) end
end

function on_restart()
  local open = db.rows("SELECT intent FROM intents WHERE status = 'PENDING' OR status = 'UNKNOWN' ORDER BY intent")
  for _, r in ipairs(open) do
    reconcile(r.intent)
  end
end
