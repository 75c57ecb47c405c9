-- The HTTP requests of `make bench` (scripts/bench.py), one kind a run, chosen by REQUEST:
--   get       GET of READ_PATH, with TOKEN (an empty TOKEN sends no header: /healthz);
--   transfer  POST /v1/transfers between a random pair of the bench customer's accounts;
--   internal  POST /v1/payments of type internal between such a pair;
--   iban      POST /v1/payments from a random account to an IBAN at another bank (booked to
--             clearing).
-- Each write has a unique Idempotency-Key. The writes need TOKEN, FIRST and LAST (the span of the
-- bench customer's account ids).
local kind = os.getenv("REQUEST")
local token = os.getenv("TOKEN") or ""
local path = os.getenv("READ_PATH")
local first = tonumber(os.getenv("FIRST"))
local last = tonumber(os.getenv("LAST"))
-- why settable: a few demo accounts (scripts/bench_tls.py) run dry at CHF 1.00 a transfer.
local amount = os.getenv("AMOUNT") or "1.00"
local counter = 0
local threads = {}
local headers = {}
if token ~= "" then headers["Authorization"] = "Bearer " .. token end

-- why no `local thread_id`: `thread:set` makes a global in the thread's own Lua state; a local
-- of the same name would hide it, both threads would seed alike and send the same keys, and
-- half the requests would be idempotent replays of the other thread's.
function setup(thread)
  thread:set("thread_id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  math.randomseed(os.time() * 1000 + thread_id)
end

local function pair()
  local a = math.random(first, last)
  local b = math.random(first, last)
  if a == b then b = (a == last) and first or a + 1 end
  return a, b
end

-- Each write kind: its path and a fresh body.
local writes = {
  transfer = function()
    local a, b = pair()
    return "/v1/transfers", string.format(
      '{"from_account": "%d", "to_account": "%d", "amount": {"amount": "%s", "currency": "CHF"}, "message": "bench"}', a, b, amount)
  end,
  internal = function()
    local a, b = pair()
    return "/v1/payments", string.format(
      '{"type": "internal", "debtor_account": "%d", "amount": {"amount": "1.00", "currency": "CHF"}, "creditor": {"account": "%d"}}', a, b)
  end,
  iban = function()
    return "/v1/payments", string.format('{"type": "iban", "debtor_account": "%d", "amount": {"amount": "1.00", "currency": "CHF"}, ' ..
      '"creditor": {"name": "Stadtwerke Bern", "iban": "CH5604835012345678009", "street": "Monbijoustrasse", "building_number": "11", ' ..
      '"postal_code": "3011", "town": "Bern", "country": "CH"}, "message": "bench"}', math.random(first, last))
  end,
}

function request()
  if kind == "get" then return wrk.format("GET", path, headers) end
  counter = counter + 1
  local target, body = writes[kind]()
  headers["Content-Type"] = "application/json"
  headers["Idempotency-Key"] = string.format("%s-%d-%d-%d-%d", kind, os.time(), thread_id, counter, math.random(1, 2000000000))
  return wrk.format("POST", target, headers, body)
end

function done(summary, latency, requests)
  -- p90 and p99.9 in ms, beside wrk's p50 and p99 (bench.py reads "pct" lines).
  for _, p in ipairs({90, 99.9}) do io.write(string.format("pct %g %.3f\n", p, latency:percentile(p) / 1000)) end
  io.write(string.format("non2xx=%d\n", summary.errors.status))
end
