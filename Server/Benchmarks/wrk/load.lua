-- wrk script, LOAD=pub or LOAD=batch (environment; also DEVICE and TOKEN):
--   pub:   OwnTracks POST /pub, one location a request, as the apps send it (no _id);
--   batch: POST /v1/devices/DEVICE/locations with SIZE locations a request (default 500) and
--          time-ordered version 7 ids.
-- Every location is new: latitudes and ids are unique by thread and counter.
local counter = 0
local thread_id = 0
local threads = {}
local load = os.getenv("LOAD") or "pub"
local size = tonumber(os.getenv("SIZE") or "500")

function setup(thread)
  thread:set("id", #threads + 1)
  table.insert(threads, thread)
end

function init(args)
  thread_id = id
  wrk.headers["Content-Type"] = "application/json"
  wrk.method = "POST"
  if load == "pub" then
    local auth = os.getenv("DEVICE") .. ":" .. os.getenv("TOKEN")
    wrk.headers["Authorization"] = "Basic " .. io.popen("printf %s '" .. auth .. "' | base64 -w0"):read("*a")
    wrk.path = "/pub"
  else
    wrk.headers["Authorization"] = "Bearer " .. os.getenv("TOKEN")
    wrk.path = "/v1/devices/" .. os.getenv("DEVICE") .. "/locations"
  end
end

local function pub()
  counter = counter + 1
  return string.format('{"_type":"location","lat":%d.%09d,"lon":2.29,"tst":%d,"acc":5,"tid":"wk"}',
    10 + thread_id, counter, os.time() - 3600)
end

local function batch()
  local base = os.time() - 86400
  local items = {}
  for i = 1, size do
    counter = counter + 1
    local ms = (base * 1000) + counter
    local id = string.format("%08x-%04x-7%03x-8%03x-%012x", math.floor(ms / 65536), ms % 65536, thread_id, 0, counter)
    local t = base + counter / 1000
    items[i] = string.format(
      '{"id":"%s","timestamp":"%s.%03dZ","latitude":47.%06d,"longitude":8.54,"accuracy":6}',
      id, os.date("!%Y-%m-%dT%H:%M:%S", math.floor(t)), counter % 1000, counter % 1000000)
  end
  return '{"locations":[' .. table.concat(items, ",") .. ']}'
end

function request()
  return wrk.format(nil, nil, nil, load == "pub" and pub() or batch())
end

function response(status, headers, body)
  if status ~= 200 then error("status " .. status .. ": " .. body) end
end
