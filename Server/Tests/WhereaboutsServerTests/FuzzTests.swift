import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// The fuzz corpus against a real server on 127.0.0.1: `WHEREABOUTS_FUZZ_CASES` cases (300 by
/// default, as CI runs it; thousands locally) from seed `WHEREABOUTS_FUZZ_SEED` (19 by default).
/// Times in the requests are drawn relative to the clock, since the server judges them by it.
@Suite("Fuzz: hostile requests against a live server")
struct FuzzTests {
    private static let environment = ProcessInfo.processInfo.environment
    private static let cases = Int(environment["WHEREABOUTS_FUZZ_CASES"] ?? "") ?? 300
    private static let seed = UInt64(environment["WHEREABOUTS_FUZZ_SEED"] ?? "") ?? 19
    /// Short read deadlines, so half-sent requests cost seconds; login throttling off, so guessed
    /// tokens keep exercising the endpoints.
    private static let settings = ServerSettings(
        rateLimit: 0, adminToken: LiveServer.adminToken, headerTimeout: 1, bodyTimeout: 2, idleTimeout: 10, loginFailuresPerMinute: 0)

    @Test(
        "no crash, no 5xx, no 2xx that stored nothing or something invalid, /health answering after every case",
        arguments: StorageKind.available)
    func fuzz(_ kind: StorageKind) async throws {
        try await withLiveServer(kind, settings: Self.settings) { server in
            let other = uniqueDevice("other")
            let otherToken = Tokens.generate()
            try await server.storage.addDevice(id: other, tokenHash: Tokens.hash(otherToken), at: Date())
            var corpus = FuzzCorpus(
                device: server.device, token: server.token, otherDevice: other, otherToken: otherToken, adminToken: LiveServer.adminToken,
                now: Date(), random: FuzzRandom(seed: Self.seed))
            var tally = FuzzTally()
            for number in 0..<Self.cases {
                let request = corpus.next()
                let place = "\(kind) seed \(Self.seed) case \(number) (\(request.label))"
                let oracle = FuzzOracle(storage: server.storage, device: request.device.isEmpty ? server.device : request.device)
                let before = try await oracle.snapshot()
                let (response, closed) = try await RawConnection.with(port: server.port) { connection in
                    await connection.send(request.bytes)
                    let response = await connection.readResponse(timeout: 20, head: request.isHead)
                    return (response, request.complete ? true : await connection.readUntilClose(timeout: 20))
                }
                tally.count(response?.status)
                if let response {
                    #expect(response.status < 500, "\(place): \(response.status) \(response.text.prefix(300))")
                } else {
                    #expect(!request.complete, "\(place): no answer within 20 s")
                }
                #expect(closed, "\(place): a half-sent request still held after 20 s")
                if let response, (200..<300).contains(response.status) {
                    let problems = try await oracle.problems(request, response: response, before: before)
                    #expect(problems.isEmpty, "\(place): \(problems.prefix(3))")
                    if problems.isEmpty, request.claim.isWrite { tally.verified += 1 }
                }
                let health = try await RawConnection.with(port: server.port) {
                    await $0.sendAndRead(rawRequest("GET", "/health"), timeout: 10)
                }
                #expect(health?.status == 200, "\(place): /health answered \(health?.status ?? 0) afterwards")
            }
            print("fuzz \(kind), seed \(Self.seed): \(Self.cases) cases; \(tally)")
        }
    }
}

/// Answers of a fuzz run, by status class.
struct FuzzTally: CustomStringConvertible {
    private var statuses: [Int: Int] = [:]
    private var unanswered = 0
    /// 2xx answers to writes whose claim the oracle confirmed.
    var verified = 0

    mutating func count(_ status: Int?) {
        guard let status else {
            unanswered += 1
            return
        }
        statuses[status, default: 0] += 1
    }

    var description: String {
        let classes = [2, 4, 5].map { digit in "\(digit)xx \(statuses.filter { $0.key / 100 == digit }.values.reduce(0, +))" }
        let detail = statuses.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        return
            "\(classes.joined(separator: ", ")), closed without an answer \(unanswered); writes verified \(verified); by status \(detail)"
    }
}
