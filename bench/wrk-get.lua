-- Reads through HTTP: GET of READ_PATH with the bench customer's token (empty TOKEN: no header,
-- for /healthz). Counts answers that are not 2xx, like the other scripts.
local token = os.getenv("TOKEN") or ""
local path = os.getenv("READ_PATH")
local headers = {}
if token ~= "" then headers["Authorization"] = "Bearer " .. token end

function request()
  return wrk.format("GET", path, headers)
end

function done(summary, latency, requests)
  -- p90 and p99.9 in ms, beside wrk's p50 and p99 (bench.py reads "pct" lines).
  for _, p in ipairs({90, 99.9}) do io.write(string.format("pct %g %.3f\n", p, latency:percentile(p) / 1000)) end
  io.write(string.format("non2xx=%d\n", summary.errors.status))
end
