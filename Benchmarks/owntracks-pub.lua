-- wrk script: OwnTracks HTTP mode, one location per POST /pub with Basic auth, every one new
-- (the latitude carries a per-thread counter, so the content-derived record id never repeats).
-- tst starts a day ago and moves on a second every 10 messages of a thread, as a phone's times
-- increase (a fixed tst puts every message's index entries in one place: see Benchmarks/RESULTS.md);
-- it goes back to the start after 80,000 s, so it never passes the present however long the run.
-- WHEREABOUTS_PUB_AUTH holds base64("device:token").
local auth = os.getenv("WHEREABOUTS_PUB_AUTH")
local threads = 0

function setup(thread)
    threads = threads + 1
    thread:set("lane", threads)
end

local counter = 0
local tst0 = os.time() - 86400

function request()
    counter = counter + 1
    local body = string.format(
        '{"_type":"location","tid":"bb","tst":%d,"lat":48.%d%08d,"lon":2.35,"acc":5,"alt":35,"vel":4,"batt":80,"conn":"w"}',
        tst0 + math.floor(counter / 10) % 80000, lane, counter)
    return wrk.format("POST", "/pub", { ["Authorization"] = "Basic " .. auth, ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
    io.write(string.format("locations/s %.0f  p50 %.2f ms  p99 %.2f ms  non-2xx %d\n",
        summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
        summary.errors.status))
end
