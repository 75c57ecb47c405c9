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
  io.write(string.format("non2xx=%d\n", summary.errors.status))
end
