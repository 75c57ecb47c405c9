-- (c) POST /v1/transfers through HTTP: random pairs of the bench customer's accounts, a unique
-- Idempotency-Key per request. Needs TOKEN, FIRST, LAST in the environment.
local token = os.getenv("TOKEN")
local first = tonumber(os.getenv("FIRST"))
local last = tonumber(os.getenv("LAST"))
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
  local b = math.random(first, last)
  if a == b then b = (a == last) and first or a + 1 end
  local body = string.format('{"from_account": "%d", "to_account": "%d", "amount": {"amount": "1.00", "currency": "CHF"}, "message": "bench"}', a, b)
  local headers = {
    ["Authorization"] = "Bearer " .. token,
    ["Content-Type"] = "application/json",
    ["Idempotency-Key"] = string.format("w-%d-%d-%d-%d", os.time(), thread_id, counter, math.random(1, 2000000000)),
  }
  return wrk.format("POST", "/v1/transfers", headers, body)
end

function done(summary, latency, requests)
  -- p90 and p99.9 in ms, beside wrk's p50 and p99 (bench.py reads "pct" lines).
  for _, p in ipairs({90, 99.9}) do io.write(string.format("pct %g %.3f\n", p, latency:percentile(p) / 1000)) end
  io.write(string.format("non2xx=%d\n", summary.errors.status))
end
