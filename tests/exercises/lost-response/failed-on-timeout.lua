-- lost-response, failed-on-timeout: WRONG. One key per intent, stored before sending (that
-- part is right), but a timeout is taken for a failure: the row becomes FAILED while the
-- service may have published the report. Expected: fails with false_failure for
-- weekly-report with one fault: the service commits and no reply reaches the client (the
-- grade names crash:service:after_commit:weekly-report:1; a lost response does the same).

local function row_of(intent)
  return db.row("SELECT op_key, payload, status FROM intents WHERE intent = ?", intent)
end

function on_deliver(intent, payload)
  local key = new_key(intent)
  db.exec("INSERT INTO intents(intent, op_key, payload, status) VALUES (?, ?, ?, 'PENDING')",
          intent, key, payload)
  send(intent, key, payload)
end

function on_response(intent, reply)
  if reply.outcome == "ok" then
    db.exec("UPDATE intents SET status = 'DELIVERED', receipt = ? WHERE intent = ?",
            reply.receipt, intent)
  else
    db.exec("UPDATE intents SET status = 'FAILED' WHERE intent = ?", intent)
  end
end

-- No answer in time: the client gives up and tells the user it failed (the mistake).
function on_timeout(intent, call)
  db.exec("UPDATE intents SET status = 'FAILED' WHERE intent = ?", intent)
end

function on_lookup(intent, reply)
end

function on_connect_error(intent, attempt)
  local r = row_of(intent)
  if r and r.status == "PENDING" then send(intent, r.op_key, r.payload) end
end

-- Given by the exercise.
function on_restart()
  db.exec("UPDATE intents SET status = 'NEEDS_HUMAN' WHERE status = 'PENDING' OR status = 'UNKNOWN'")
end
