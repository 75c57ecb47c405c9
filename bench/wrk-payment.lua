-- POST /v1/payments through HTTP: PAYMENT_TYPE "internal" (between random pairs of the bench
-- customer's accounts) or "iban" (from a random account to an IBAN at another bank, booked to
-- clearing). A unique Idempotency-Key per request. Needs TOKEN, FIRST, LAST, PAYMENT_TYPE.
local token = os.getenv("TOKEN")
local first = tonumber(os.getenv("FIRST"))
local last = tonumber(os.getenv("LAST"))
local kind = os.getenv("PAYMENT_TYPE")
local counter = 0
local threads = {}

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

function request()
  counter = counter + 1
  local a = math.random(first, last)
  local body
  if kind == "internal" then
    local b = math.random(first, last)
    if a == b then b = (a == last) and first or a + 1 end
    body = string.format('{"type": "internal", "debtor_account": "%d", "amount": {"amount": "1.00", "currency": "CHF"}, "creditor": {"account": "%d"}}', a, b)
  else
    body = string.format('{"type": "iban", "debtor_account": "%d", "amount": {"amount": "1.00", "currency": "CHF"}, ' ..
      '"creditor": {"name": "Stadtwerke Bern", "iban": "CH5604835012345678009", "street": "Monbijoustrasse", "building_number": "11", ' ..
      '"postal_code": "3011", "town": "Bern", "country": "CH"}, "message": "bench"}', a)
  end
  local headers = {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("p-%d-%d-%d-%d", os.time(), thread_id, counter, math.random(1, 2000000000)),
  }
  return wrk.format("POST", "/v1/payments", headers, body)
end

function done(summary, latency, requests)
  -- p90 and p99.9 in ms, beside wrk's p50 and p99 (bench.py reads "pct" lines).
  for _, p in ipairs({90, 99.9}) do io.write(string.format("pct %g %.3f\n", p, latency:percentile(p) / 1000)) end
  io.write(string.format("non2xx=%d\n", summary.errors.status))
end
