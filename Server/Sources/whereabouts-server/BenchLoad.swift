import Foundation
import WhereaboutsCore
import WhereaboutsServer

/// What one bench scenario sends.
enum BenchScenario: Sendable, Hashable, CustomStringConvertible {
    /// `POST /v1/devices/{id}/locations` with this many locations per request.
    case batch(Int)
    /// OwnTracks `POST /pub`, one location per request, Basic auth.
    case pub

    var description: String {
        switch self {
        case .batch(let size): "batch of \(size)"
        case .pub: "/pub (OwnTracks)"
        }
    }

    var locationsPerRequest: Int {
        switch self {
        case .batch(let size): size
        case .pub: 1
        }
    }
}

/// A whole HTTP request built once, with each record id's digits rewritten before each send, so
/// every location the load generator sends is new without encoding anything per request.
struct BenchRequest: Sendable {
    private(set) var bytes: [UInt8]
    /// Where each id's last 12 hex digits start.
    private let slots: [Int]
    private let ids: BenchIDs
    /// Where each location's time of day (`HH:MM:SS.mmm`, batch API) or epoch seconds (10 digits,
    /// `/pub`) start, in the order of `slots`; empty when every request sends the same times.
    private let timeSlots: [Int]
    /// `/pub`: the epoch seconds of number 0.
    private let epochBase: Int
    /// `/pub`: where each message's latitude digits after `48.` start (9 digits, the message's
    /// number), so every message's content, and the id the server derives from it, is new.
    private let latitudeSlots: [Int]

    /// The batch API's request for `size` locations of `device`. With `freshTimes`, the timestamps
    /// are yesterday at midnight plus the location's number in milliseconds (``stamp(_:milliseconds:)``),
    /// so each device's times increase as a phone's do; otherwise every request sends the same ones.
    static func batch(_ size: Int, device: String, token: String, ids: BenchIDs, freshTimes: Bool) -> BenchRequest {
        let start = Date().addingTimeInterval(-Double(size) - 3600)
        let midnight = Date(timeIntervalSince1970: ((Date().timeIntervalSince1970 / 86_400).rounded(.down) - 1) * 86_400)
        let locations = (0..<size).map { i in
            WireLocation(
                id: ids.template.id, timestamp: Timestamp.format(freshTimes ? midnight : start.addingTimeInterval(Double(i))),
                latitude: 48.85 + Double(i) * 1e-5, longitude: 2.35, accuracy: 5, altitude: 35, speed: 1.3, trigger: "policy")
        }
        let body = Array(try! JSONEncoder().encode(LocationBatch(locations: locations)))
        let head = "POST /v1/devices/\(device)/locations HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
        return BenchRequest(head: head, body: body, ids: ids, timeMarker: freshTimes ? #""timestamp":""# : nil, offset: 11, epochBase: 0)
    }

    /// OwnTracks' `/pub` request for one location of `device`, as the OwnTracks apps send it: without
    /// `_id`, so the server derives the record's id from the content, which the latitude's digits make
    /// new each time. With `freshTimes`, `tst` is a day ago plus the location's number in seconds.
    static func pub(device: String, token: String, ids: BenchIDs, freshTimes: Bool) -> BenchRequest {
        let tst = Int(Date().timeIntervalSince1970) - (freshTimes ? 86_400 : 3600)
        let body = Array(
            #"{"_type":"location","tid":"bb","tst":\#(tst),"lat":48.800000000,"lon":2.35,"acc":5,"alt":35,"vel":4,"batt":80,"conn":"w"}"#
                .utf8)
        let credentials = Data("\(device):\(token)".utf8).base64EncodedString()
        let head = "POST /pub HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic \(credentials)\r\n"
        return BenchRequest(head: head, body: body, ids: ids, timeMarker: freshTimes ? #""tst":"# : nil, offset: 0, epochBase: tst)
    }

    /// Every id in `body` (found by its template's marker) becomes a slot, and the time `offset` bytes
    /// after each `timeMarker` a time slot.
    private init(head: String, body: [UInt8], ids: BenchIDs, timeMarker: String?, offset: Int, epochBase: Int) {
        let prefix = Array((head + "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n").utf8)
        let bytes = prefix + body
        func positions(after marker: String) -> [Int] {
            let pattern = Array(marker.utf8)
            return (prefix.count..<(bytes.count - pattern.count)).filter { bytes[$0..<($0 + pattern.count)].elementsEqual(pattern) }
                .map { $0 + pattern.count }
        }
        slots = positions(after: ids.template.marker)
        timeSlots = timeMarker.map { positions(after: $0).map { $0 + offset } } ?? []
        latitudeSlots = positions(after: #""lat":48."#)
        self.bytes = bytes
        self.ids = ids
        self.epochBase = epochBase
    }

    /// Numbers the ids `first`, `first + 1`, … in their last 12 hex digits. Ordered ids also get
    /// `milliseconds` (the clock) as their time, so they are version 7 ids increasing with time;
    /// random ids get the numbers scrambled (a bijection on 48 bits), so they spread over the index
    /// as random UUIDs do.
    mutating func stamp(_ first: Int, milliseconds: UInt64) {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        func write(_ number: UInt64, at start: Int, width: Int, radix: UInt64 = 16) {
            var value = number
            for position in stride(from: start + width - 1, through: start, by: -1) {
                bytes[position] = digits[Int(value % radix)]
                value /= radix
            }
        }
        for (i, slot) in timeSlots.enumerated() {
            let number = UInt64(first + i)
            if epochBase > 0 {
                write(UInt64(epochBase) + number, at: slot, width: 10, radix: 10)
            } else {
                let ms = number % 86_400_000
                write(ms / 3_600_000, at: slot, width: 2, radix: 10)
                write(ms / 60_000 % 60, at: slot + 3, width: 2, radix: 10)
                write(ms / 1000 % 60, at: slot + 6, width: 2, radix: 10)
                write(ms % 1000, at: slot + 9, width: 3, radix: 10)
            }
        }
        for (i, slot) in latitudeSlots.enumerated() {
            write(UInt64(first + i) % 1_000_000_000, at: slot, width: 9, radix: 10)
        }
        for (i, slot) in slots.enumerated() {
            switch ids {
            case .ordered:
                write(milliseconds >> 16, at: slot - 24, width: 8)
                write(milliseconds & 0xFFFF, at: slot - 15, width: 4)
                write(UInt64(first + i) & 0xFFFF_FFFF_FFFF, at: slot, width: 12)
            case .random:
                write(UInt64(truncatingIfNeeded: (first + i) &* 0x9E37_79B9_7F4B) & 0xFFFF_FFFF_FFFF, at: slot, width: 12)
            }
        }
    }

    /// How many numbers one ``stamp(_:milliseconds:)`` uses: one per location of the request.
    var slotCount: Int { max(slots.count, latitudeSlots.count) }
}

/// What one run of a scenario measured.
struct BenchRun: Sendable {
    let scenario: BenchScenario
    let requests: Int
    let seconds: Double
    /// Each request's latency in seconds, sorted.
    let latencies: [Double]
    /// CPU seconds this process (server and load generator) used meanwhile.
    let cpuSeconds: Double

    var locationsPerSecond: Double { Double(requests * scenario.locationsPerRequest) / seconds }
    var requestsPerSecond: Double { Double(requests) / seconds }
    /// Locations per CPU-second of this process: what the code costs, whatever else runs on the machine.
    var locationsPerCPUSecond: Double { Double(requests * scenario.locationsPerRequest) / cpuSeconds }
    var p50: Double { latencies.isEmpty ? 0 : latencies[latencies.count / 2] }
    var p99: Double { latencies.isEmpty ? 0 : latencies[min(latencies.count - 1, latencies.count * 99 / 100)] }
}

/// Sends a scenario's requests from `connections` keep-alive connections, each on a thread of its own
/// sending its next request as soon as the answer to the previous one is read, for `duration` seconds.
struct BenchLoad: Sendable {
    let port: Int
    let connections: Int
    let duration: Double
    let ids: BenchIDs
    let freshTimes: Bool

    /// Runs `scenario` for a fresh device of `storage`.
    /// - Throws: ``BenchError`` when a request fails or is not answered 200, or when the device then
    ///   holds other than one new location for every location sent (a figure for duplicates the server
    ///   recognised, or for locations it did not store, would measure something else).
    func run(_ scenario: BenchScenario, storage: any TrackStorage) async throws -> BenchRun {
        let device = "bench-\(UUID().uuidString.prefix(8).lowercased())"
        let token = Tokens.generate()
        try await storage.addDevice(id: device, tokenHash: Tokens.hash(token), at: Date())
        let request: BenchRequest =
            switch scenario {
            case .batch(let size): .batch(size, device: device, token: token, ids: ids, freshTimes: freshTimes)
            case .pub: .pub(device: device, token: token, ids: ids, freshTimes: freshTimes)
            }
        let (port, lanes, duration) = (port, connections, duration)
        let cpu = Self.cpuSeconds()
        let clock = ContinuousClock()
        let start = clock.now
        let deadline = start + .seconds(duration)
        let latencies = try await withThrowingTaskGroup(of: [Double].self) { group in
            for lane in 0..<lanes {
                group.addTask {
                    try await Self.onThread {
                        var request = request
                        let connection = try BenchConnection(port: port)
                        var latencies: [Double] = []
                        var sent = 0
                        while clock.now < deadline {
                            request.stamp(
                                (sent * lanes + lane) * request.slotCount, milliseconds: UInt64(Date().timeIntervalSince1970 * 1000))
                            let began = clock.now
                            let status = try connection.exchange(request.bytes)
                            guard status == 200 else { throw BenchError("\(scenario): the server answered \(status)") }
                            latencies.append((clock.now - began).seconds)
                            sent += 1
                        }
                        return latencies
                    }
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let sent = latencies.count * request.slotCount
        let stored = try await storage.devices().first { $0.id == device }?.locations ?? 0
        guard stored == sent else {
            throw BenchError("\(scenario): \(sent) new locations were sent but the device holds \(stored); the figures would not be ingest")
        }
        return BenchRun(
            scenario: scenario, requests: latencies.count, seconds: (clock.now - start).seconds, latencies: latencies.sorted(),
            cpuSeconds: Self.cpuSeconds() - cpu)
    }

    /// User and system CPU time of this process so far.
    private static func cpuSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    /// Runs blocking `work` on a thread of its own, off the cooperative threads the server uses.
    private static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { done in
            Thread { done.resume(with: Result { try work() }) }.start()
        }
    }
}
