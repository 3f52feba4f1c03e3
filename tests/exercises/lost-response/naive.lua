-- lost-response, naive: WRONG. Every retry draws a new operation key, so the service
-- cannot tell a retry from a new report. Expected: fails with duplicate_effect for
-- weekly-report with one fault: the service commits and no reply reaches the client (the
-- grade names crash:service:after_commit:weekly-report:1; a lost response does the same),
-- the client times out and sends again under a fresh key.

function on_deliver(intent, payload)
  local key = new_key(intent)
  db.exec("INSERT INTO intents(intent, op_key, payload, status) VALUES (?, ?, ?, 'PENDING')",
          intent, key, payload)
  send(intent, key, payload)
end

-- Try again, as a new attempt with a key of its own (the mistake).
local function retry(intent)
  local r = db.row("SELECT payload, status FROM intents WHERE intent = ?", intent)
  if r == nil or r.status ~= "PENDING" then return end
  local key = new_key(intent)
  db.exec("UPDATE intents SET op_key = ? WHERE intent = ?", key, intent)
  send(intent, key, r.payload)
end

function on_response(intent, reply)
  if reply.outcome == "ok" then
    db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?",
            reply.receipt, intent)
  elseif reply.outcome == "rejected" then
    db.exec("UPDATE intents SET status = 'CONFLICT' WHERE intent = ?", intent)
  else
    retry(intent)
  end
end

function on_timeout(intent, call)
  retry(intent)
end

function on_lookup(intent, reply)
end

function on_connect_error(intent, attempt)
  retry(intent)
end

-- Given by the exercise.
function on_restart()
  db.exec("UPDATE intents SET status = 'NEEDS_HUMAN' WHERE status = 'PENDING' OR status = 'UNKNOWN'")
end
