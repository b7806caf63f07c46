-- wrk script for `make load`: each request is drawn at random from a mixed workload
--   search      35%  GET /api/hospitals/nearest around a seeded hospital
--   ambulances  20%  GET /api/ambulances/hospital/{id}, available?hospitalId=, available/all
--   profile     20%  GET /api/user/profile (a registered user's token)
--   booking     25%  POST /api/booking/book, a random user and ambulance (409 once taken)
-- Run with one connection per thread (-t N -c N), so each thread's requests and
-- responses alternate and every answer is counted under the kind that asked for it.
-- LOAD_DATA names the Lua file prep.py wrote; LOAD_RESULT the JSON summary to write.

local threads = {}
local next_id = 0

function setup(thread)
  next_id = next_id + 1
  thread:set("thread_id", next_id)
  table.insert(threads, thread)
end

local data, last_kind
-- "kind status" -> answers; flat, because wrk's thread:get cannot copy nested tables.
counts = {}

function init(args)
  data = dofile(os.getenv("LOAD_DATA"))
  math.randomseed(os.time() * 1000 + thread_id)
end

local function pick(list) return list[math.random(#list)] end

local function bearer(headers)
  headers["Authorization"] = "Bearer " .. pick(data.tokens)
  return headers
end

local patients = { "Male", "Female", "Other" }

function request()
  local r = math.random(100)
  local headers = { ["Accept"] = "application/json" }
  if r <= 35 then
    last_kind = "search"
    local h = pick(data.hospitals)
    local lat = h.lat + (math.random() - 0.5) * 0.4
    local lng = h.lng + (math.random() - 0.5) * 0.4
    return wrk.format("GET", string.format("/api/hospitals/nearest?lat=%.5f&lng=%.5f", lat, lng), headers)
  elseif r <= 55 then
    last_kind = "ambulances"
    if math.random(2) == 1 then bearer(headers) end
    local h = pick(data.hospitals)
    local s = math.random(100)
    if s <= 45 then
      return wrk.format("GET", "/api/ambulances/hospital/" .. h.id, headers)
    elseif s <= 90 then
      return wrk.format("GET", "/api/ambulances/available?hospitalId=" .. h.id, headers)
    end
    return wrk.format("GET", "/api/ambulances/available/all", headers)
  elseif r <= 75 then
    last_kind = "profile"
    return wrk.format("GET", "/api/user/profile", bearer(headers))
  end
  last_kind = "booking"
  local a = pick(data.ambulances)
  headers["Content-Type"] = "application/json"
  local body = string.format(
    '{"hospitalId":%d,"ambulanceId":%d,"bookingType":"%s","patient":{"name":"Load Test","age":%d,"gender":"%s","condition":"load test"}}',
    a.hid, a.id, math.random(2) == 1 and "EMERGENCY" or "NORMAL", math.random(1, 90), pick(patients))
  return wrk.format("POST", "/api/booking/book", bearer(headers), body)
end

function response(status, headers, body)
  local key = last_kind .. " " .. status
  counts[key] = (counts[key] or 0) + 1
end

local function json_counts(all)
  local parts = {}
  for key, n in pairs(all) do table.insert(parts, string.format('"%s":%d', key, n)) end
  return "{" .. table.concat(parts, ",") .. "}"
end

function done(summary, latency, requests)
  local all = {}
  for _, t in ipairs(threads) do
    for key, n in pairs(t:get("counts")) do all[key] = (all[key] or 0) + n end
  end
  local e = summary.errors
  local out = io.open(os.getenv("LOAD_RESULT"), "w")
  out:write(string.format(
    '{"requests":%d,"duration_us":%d,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"p50":%d,"p95":%d,"p99":%d,"max":%d,"mean":%.1f},"counts":%s}\n',
    summary.requests, summary.duration, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99), latency.max, latency.mean,
    json_counts(all)))
  out:close()
end
