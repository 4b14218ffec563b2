import Foundation
import Testing
import WhereaboutsCore

/// Every delivery rule, on the pure machine: each test plays the runner's part (the store, the
/// credential and the server's answers) step by step, without a server.
@Suite("Delivery machine: what to send, when to retry or pause, how to split, what an answer settles")
struct DeliveryMachineTests {
    private static let ids = (0..<4).map { UUID(uuidString: "00000000-0000-7000-8000-00000000000\($0)")! }
    private static let start = Date(timeIntervalSince1970: 1_750_000_000)
    private static let token = Credential.bearer("t1")
    private static let url = "http://127.0.0.1:1/v1/devices/phone/locations"

    private static func machine(acknowledgements: Bool = true, events: Bool = false, limit: Int = 500) -> DeliveryMachine {
        DeliveryMachine(
            configuration: DeliveryMachine.Configuration(
                endpointName: "server", batchLimit: limit, backoff: Backoff(initial: 2, multiplier: 2, maximum: 600, jitter: 0.5),
                acceptsAcknowledgements: acknowledgements, acceptsEvents: events))
    }

    private static func reply(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> HTTPReply {
        HTTPReply(status: status, headers: headers, body: Data(body.utf8))
    }

    /// Plays inputs into a machine at a time, keeping every write.
    private struct Runner {
        var machine: DeliveryMachine
        var now = DeliveryMachineTests.start
        var writes: [DeliveryWrite] = []
        var jitterDraws = 0

        mutating func step(_ input: DeliveryInput) -> DeliveryStep {
            var draws = 0
            let decision = machine.handle(
                input, now: now,
                jitter: {
                    draws += 1
                    return 0
                })
            jitterDraws += draws
            writes += decision.writes
            return decision.next
        }

        /// Starts a flush and answers the reads up to the first claim: these acknowledgements, this credential.
        mutating func open(_ trigger: UploadTrigger, acknowledgements: [String] = [], credential: CredentialState = .present(token))
            -> DeliveryStep
        {
            let first = step(.flush(trigger, acknowledging: acknowledgements))
            guard first == .fetchCredential else { return first }
            return step(.credential(credential))
        }

        /// A flush by a signed-out user: it stops before claiming anything.
        mutating func openSignedOut() -> DeliveryStep { open(.threshold, credential: .signedOut) }
    }

    /// A flush whose batch of every id the server found too large: its first half is being sent.
    private static func splitOnce() -> Runner {
        var runner = Runner(machine: machine())
        _ = runner.open(.threshold)
        _ = runner.step(.claimed(ids))
        _ = runner.step(.replied(reply(413), url: url))
        return runner
    }

    private static func report(_ step: DeliveryStep) -> FlushReport? {
        if case .finished(let report) = step { report } else { nil }
    }

    @Test("a delivered batch settles its items, confirms the acknowledgements it carried and keeps the commands once")
    func delivered() {
        var runner = Runner(machine: Self.machine())
        #expect(runner.open(.threshold, acknowledgements: ["c1"]) == .claim(.record, limit: 500))
        let batch = Array(Self.ids.prefix(3))
        #expect(runner.step(.claimed(batch)) == .send(.record, batch, acknowledging: ["c1"], credential: Self.token))
        let ok = Self.reply(200, #"{"accepted":3,"duplicate":0,"rejected":[]}"#)
        #expect(runner.step(.replied(ok, url: Self.url)) == .interpret(.record, batch, ok))
        let command = DeviceCommand(id: "c2", command: .reportLocation)
        let outcome = DeliveryOutcome(
            delivered: Array(batch.prefix(2)), rejected: [batch[2]: Rejection(status: 200, reason: "bad")], commands: [command])
        #expect(runner.step(.interpreted(outcome)) == .claim(.record, limit: 500))
        #expect(
            runner.writes == [
                .delivered(.record, Array(batch.prefix(2))),
                .rejected(.record, [batch[2]: Rejection(status: 200, reason: "bad")], at: Self.start),
                .confirmAcknowledged(["c1"]), .keepCommands([command], at: Self.start),
            ])
        // The next request carries no acknowledgement: they went with the first.
        #expect(runner.step(.claimed([Self.ids[3]])) == .send(.record, [Self.ids[3]], acknowledging: [], credential: Self.token))
        _ = runner.step(.replied(ok, url: Self.url))
        #expect(runner.step(.interpreted(DeliveryOutcome(delivered: [Self.ids[3]]))) == .claim(.record, limit: 500))
        let report = Self.report(runner.step(.claimed([])))
        #expect(report?.stoppedBy == nil)
        #expect(report?.delivered == 3)
        #expect(report?.rejected == 1)
        #expect(report?.requests == 2)
        #expect(report?.commands == [command])
        #expect(report?.acknowledged == ["c1"], "the report says which acknowledgements the server took")
        #expect(report?.deliveredIDs == [batch[0], batch[1], Self.ids[3]])
        #expect(!runner.machine.isFlushing)
    }

    @Test("what an answer settles neither way is handed back at once, not left leased")
    func unsettledHandedBack() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        let batch = Array(Self.ids.prefix(3))
        _ = runner.step(.claimed(batch))
        let ok = Self.reply(200)
        _ = runner.step(.replied(ok, url: Self.url))
        let outcome = DeliveryOutcome(delivered: [batch[0]], rejected: [batch[1]: Rejection(status: 200, reason: "bad")])
        #expect(runner.step(.interpreted(outcome)) == .claim(.record, limit: 500))
        #expect(runner.writes.contains(.release(.record, [batch[2]])))
    }

    @Test("acknowledgements travel alone when nothing is pending, and are forgotten at once by an endpoint that takes none")
    func acknowledgementsAlone() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.manual, acknowledgements: ["c1"])
        #expect(runner.step(.claimed([])) == .send(.record, [], acknowledging: ["c1"], credential: Self.token))
        _ = runner.step(.replied(Self.reply(200), url: Self.url))
        _ = runner.step(.interpreted(DeliveryOutcome(delivered: [])))
        #expect(runner.writes == [.confirmAcknowledged(["c1"])])

        var plain = Runner(machine: Self.machine(acknowledgements: false))
        #expect(plain.step(.flush(.manual, acknowledging: ["c1"])) == .fetchCredential)
        #expect(plain.writes.isEmpty, "the drain's endpoint is known once its credential is fetched")
        _ = plain.step(.credential(.notNeeded))
        #expect(plain.writes == [.confirmAcknowledged(["c1"])])
        let forgotten = Self.report(plain.step(.claimed([])))
        #expect(forgotten?.requests == 0)
        #expect(forgotten?.acknowledged == ["c1"])
    }

    @Test("a failed request keeps its acknowledgements unconfirmed for the next flush")
    func acknowledgementsSurviveFailure() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.manual, acknowledgements: ["c1"])
        _ = runner.step(.claimed([Self.ids[0]]))
        _ = runner.step(.replied(Self.reply(500), url: Self.url))
        #expect(!runner.writes.contains(.confirmAcknowledged(["c1"])))
        #expect(runner.writes == [.release(.record, [Self.ids[0]])])
    }

    @Test("back-off grows with each failure, never sooner than Retry-After; the server's time holds even for a foreground flush")
    func backoffWithRetryAfter() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        _ = runner.step(.claimed([Self.ids[0]]))
        let first = Self.report(runner.step(.replied(Self.reply(503), url: Self.url)))
        #expect(first?.stoppedBy == .failed("server answered 503", retryAt: Self.start.addingTimeInterval(2)))
        #expect(runner.jitterDraws == 1)
        #expect(runner.writes == [.release(.record, [Self.ids[0]])])

        runner.now = Self.start.addingTimeInterval(1)
        #expect(
            Self.report(runner.step(.flush(.threshold, acknowledging: [])))?.stoppedBy
                == .backingOff(until: Self.start.addingTimeInterval(2)))
        #expect(runner.step(.flush(.foreground, acknowledging: [])) == .fetchCredential, "the foreground skips our own back-off")
        _ = runner.step(.credential(.present(Self.token)))
        _ = runner.step(.claimed([Self.ids[0]]))
        let limited = Self.reply(429, headers: ["retry-after": "120"])
        let second = Self.report(runner.step(.replied(limited, url: Self.url)))
        #expect(second?.stoppedBy == .failed("server answered 429", retryAt: runner.now.addingTimeInterval(120)))

        runner.now = runner.now.addingTimeInterval(60)
        let held = Self.report(runner.step(.flush(.foreground, acknowledging: [])))
        #expect(held?.stoppedBy == .backingOff(until: Self.start.addingTimeInterval(1 + 120)), "Retry-After holds for every trigger")
        runner.now = Self.start.addingTimeInterval(200)
        #expect(runner.step(.flush(.retry, acknowledging: [])) == .fetchCredential)
        #expect(runner.machine.failures == 2)
    }

    @Test("a flush that empties the queue resets the back-off")
    func successResetsBackoff() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        _ = runner.step(.unanswered("timed out"))
        #expect(runner.machine.failures == 1)
        runner.now = Self.start.addingTimeInterval(10)
        _ = runner.open(.retry)
        #expect(Self.report(runner.step(.claimed([])))?.stoppedBy == nil)
        #expect(runner.machine.failures == 0)
        #expect(runner.machine.notBefore == nil)
    }

    @Test("a drain out of time at a claim stops with that reason, and leaves the back-off of an earlier failure")
    func outOfTimeAtClaim() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        _ = runner.step(.unanswered("timed out"))
        runner.now = Self.start.addingTimeInterval(10)
        #expect(runner.open(.stopped) == .claim(.record, limit: 500), "a drain at the stop skips the back-off")
        #expect(Self.report(runner.step(.outOfTime))?.stoppedBy == .outOfTime)
        #expect(runner.writes == [.release(.record, [])], "the failure's empty hand-back; nothing at the claim cut off")
        #expect(runner.machine.failures == 1, "running out of time is no success")
        #expect(runner.machine.notBefore != nil)
        #expect(!runner.machine.isFlushing)
    }

    @Test("a drain out of time during a split hands back the batch and every half not yet sent")
    func outOfTimeDuringSplit() {
        var runner = Self.splitOnce()
        #expect(Self.report(runner.step(.outOfTime))?.stoppedBy == .outOfTime)
        #expect(runner.writes == [.release(.record, [Self.ids[0], Self.ids[1], Self.ids[2], Self.ids[3]])])
        #expect(runner.machine.failures == 0)
    }

    @Test("a failure stays the reason when the drain's later flush only ran out of time")
    func failureOutlivesOutOfTime() {
        var total = FlushReport(trigger: .stopped)
        var failed = FlushReport(trigger: .stopped)
        failed.stoppedBy = .failed("server answered 503", retryAt: Self.start)
        var late = FlushReport(trigger: .stopped)
        late.stoppedBy = .outOfTime
        total.add(failed)
        total.add(late)
        #expect(total.stoppedBy == failed.stoppedBy)
        var plain = FlushReport(trigger: .stopped)
        plain.add(late)
        #expect(plain.stoppedBy == .outOfTime)
    }

    @Test("404, 405, 403 and 400 bad_device_id pause uploads without rejecting anything, until a manual flush")
    func pauseAndResume() {
        let wrongs = [
            Self.reply(404), Self.reply(405), Self.reply(403, #"{"error":"forbidden","message":"admin"}"#),
            Self.reply(400, #"{"error":"bad_device_id","message":"too long"}"#),
        ]
        for wrong in wrongs {
            var runner = Runner(machine: Self.machine())
            _ = runner.open(.threshold)
            _ = runner.step(.claimed([Self.ids[0]]))
            guard case .misconfigured(let message) = Self.report(runner.step(.replied(wrong, url: Self.url)))?.stoppedBy else {
                Issue.record("\(wrong.status) did not pause")
                continue
            }
            #expect(message.contains(Self.url))
            #expect(message.contains("nothing was rejected"))
            #expect(runner.writes == [.release(.record, [Self.ids[0]])])
            #expect(runner.machine.failures == 0, "a wrong request is not a failure to back off from")
            for trigger in [UploadTrigger.threshold, .retry, .foreground, .connectivity] {
                #expect(Self.report(runner.step(.flush(trigger, acknowledging: [])))?.stoppedBy == .misconfigured(message))
            }
            #expect(runner.step(.flush(.manual, acknowledging: [])) == .fetchCredential)
            #expect(runner.machine.pausedBecause == nil)
        }
    }

    @Test("413 sends the batch in halves, depth first; a single item still too large is rejected")
    func splitOn413() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        let all = Self.ids
        let tooLarge = Self.reply(413, "too large")
        let ok = Self.reply(200)
        #expect(runner.step(.claimed(all)) == .send(.record, all, acknowledging: [], credential: Self.token))
        #expect(
            runner.step(.replied(tooLarge, url: Self.url)) == .send(.record, [all[0], all[1]], acknowledging: [], credential: Self.token))
        #expect(runner.step(.replied(tooLarge, url: Self.url)) == .send(.record, [all[0]], acknowledging: [], credential: Self.token))
        #expect(runner.step(.replied(tooLarge, url: Self.url)) == .send(.record, [all[1]], acknowledging: [], credential: Self.token))
        #expect(runner.step(.replied(ok, url: Self.url)) == .interpret(.record, [all[1]], ok))
        #expect(
            runner.step(.interpreted(DeliveryOutcome(delivered: [all[1]])))
                == .send(.record, [all[2], all[3]], acknowledging: [], credential: Self.token))
        _ = runner.step(.replied(ok, url: Self.url))
        #expect(runner.step(.interpreted(DeliveryOutcome(delivered: [all[2], all[3]]))) == .claim(.record, limit: 500))
        let rejection = Rejection(status: 413, reason: "a single record is larger than the server accepts: too large")
        #expect(
            runner.writes == [
                .rejected(.record, [all[0]: rejection], at: Self.start), .delivered(.record, [all[1]]),
                .delivered(.record, [all[2], all[3]]),
            ])
        let report = Self.report(runner.step(.claimed([])))
        #expect(report?.delivered == 3)
        #expect(report?.rejectedIDs == [all[0]])
        #expect(report?.requests == 5)
    }

    @Test("a failure during a split hands back every half not yet sent")
    func splitStopReleasesHalves() {
        var runner = Self.splitOnce()
        let stop = Self.report(runner.step(.replied(Self.reply(503), url: Self.url)))?.stoppedBy
        guard case .failed = stop else {
            Issue.record("a 503 during a split did not fail the flush: \(String(describing: stop))")
            return
        }
        #expect(runner.writes == [.release(.record, [Self.ids[0], Self.ids[1]]), .release(.record, [Self.ids[2], Self.ids[3]])])
    }

    @Test("401 renews the credential once and resends; a second 401 fails, and signing out stops without a back-off")
    func refreshOnce() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        let batch = [Self.ids[0]]
        _ = runner.step(.claimed(batch))
        #expect(runner.step(.replied(Self.reply(401), url: Self.url)) == .refreshCredential)
        let renewed = Credential.bearer("t2")
        #expect(runner.step(.refreshed(.present(renewed))) == .send(.record, batch, acknowledging: [], credential: renewed))
        let stop = Self.report(runner.step(.replied(Self.reply(401), url: Self.url)))?.stoppedBy
        guard case .failed(let message, _) = stop else {
            Issue.record("a second 401 did not fail the flush")
            return
        }
        #expect(message == "server refused the credential even after a refresh (401)")
        #expect(runner.writes == [.release(.record, batch)])

        var signedOut = Runner(machine: Self.machine())
        _ = signedOut.open(.threshold)
        _ = signedOut.step(.claimed(batch))
        _ = signedOut.step(.replied(Self.reply(401), url: Self.url))
        #expect(Self.report(signedOut.step(.refreshed(.signedOut)))?.stoppedBy == .signedOut)
        #expect(signedOut.writes == [.release(.record, batch)])
        #expect(signedOut.machine.failures == 0)
        var never = Runner(machine: Self.machine())
        #expect(Self.report(never.openSignedOut())?.stoppedBy == .signedOut)
    }

    @Test("rejections read from the batch answer land on the items at their distinct indices; repeated indices deliver nothing")
    func rejectionsAtDistinctIndices() throws {
        let endpoint = WhereaboutsBatchEndpoint(base: URL(string: "http://127.0.0.1:1")!, device: "phone")
        let fix = try Fix(
            coordinate: Coordinate(latitude: 47.37, longitude: 8.54), horizontalAccuracy: 9, timestamp: Self.start)
        let records = Self.ids.prefix(3).map { LocationRecord(id: $0, fix: fix, trigger: .policy) }
        let batch = records.map(\.id)
        let answer = Self.reply(200, #"{"accepted":1,"duplicate":0,"rejected":[{"index":0,"reason":"a"},{"index":2,"reason":"b"}]}"#)
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        _ = runner.step(.claimed(batch))
        _ = runner.step(.replied(answer, url: Self.url))
        _ = runner.step(.interpreted(endpoint.interpret(answer, for: records)))
        #expect(
            runner.writes == [
                .delivered(.record, [batch[1]]),
                .rejected(
                    .record, [batch[0]: Rejection(status: 200, reason: "a"), batch[2]: Rejection(status: 200, reason: "b")], at: Self.start),
            ])

        let repeated = Self.reply(200, #"{"accepted":1,"duplicate":0,"rejected":[{"index":2,"reason":"a"},{"index":2,"reason":"b"}]}"#)
        var again = Runner(machine: Self.machine())
        _ = again.open(.threshold)
        _ = again.step(.claimed(batch))
        _ = again.step(.replied(repeated, url: Self.url))
        let stop = Self.report(again.step(.interpreted(endpoint.interpret(repeated, for: records))))?.stoppedBy
        guard case .failed = stop else {
            Issue.record("an answer rejecting one index twice was taken as stored")
            return
        }
        #expect(again.writes == [.release(.record, batch)])
    }

    @Test("another 4xx rejects the whole batch for good and the flush goes on")
    func rejectBatch() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        _ = runner.step(.claimed([Self.ids[0]]))
        #expect(runner.step(.replied(Self.reply(422, "no"), url: Self.url)) == .claim(.record, limit: 500))
        #expect(runner.writes == [.rejected(.record, [Self.ids[0]: Rejection(status: 422, reason: "no")], at: Self.start)])
    }

    @Test("a flush asked for during a flush is folded into it and drains again; a stopped flush does not rerun")
    func folding() {
        var runner = Runner(machine: Self.machine())
        _ = runner.open(.threshold)
        #expect(runner.step(.flush(.regionEvent, acknowledging: [])) == .joinRunningFlush)
        #expect(runner.step(.flush(.manual, acknowledging: ["c2"])) == .joinRunningFlush)
        #expect(runner.step(.claimed([])) == .fetchCredential, "drains again for the folded trigger")
        _ = runner.step(.credential(.notNeeded))
        #expect(
            runner.step(.claimed([])) == .send(.record, [], acknowledging: ["c2"], credential: nil),
            "with the acknowledgements the latest folded flush brought")
        _ = runner.step(.replied(Self.reply(200), url: Self.url))
        _ = runner.step(.interpreted(DeliveryOutcome(delivered: [])))
        let folded = Self.report(runner.step(.claimed([])))
        #expect(folded?.trigger == .threshold && folded?.acknowledged == ["c2"])

        var stopped = Runner(machine: Self.machine())
        _ = stopped.open(.threshold)
        _ = stopped.step(.flush(.regionEvent, acknowledging: []))
        _ = stopped.step(.claimed([Self.ids[0]]))
        #expect(Self.report(stopped.step(.unanswered("offline"))) != nil)
        #expect(!stopped.machine.isFlushing)
    }

    @Test("the drain a folded flush asks for takes the configuration given as it fetches its credential")
    func foldedDrainTakesNewConfiguration() {
        var runner = Runner(machine: Self.machine(limit: 500))
        _ = runner.open(.threshold)
        _ = runner.step(.flush(.manual, acknowledging: ["c2"]))
        #expect(runner.step(.claimed([])) == .fetchCredential)
        // The app switched to a one-record endpoint that takes no acknowledgements.
        runner.machine.configuration = Self.machine(acknowledgements: false, limit: 1).configuration
        #expect(runner.step(.credential(.notNeeded)) == .claim(.record, limit: 1))
        #expect(runner.writes == [.confirmAcknowledged(["c2"])], "an endpoint that takes none forgets them")
        let report = Self.report(runner.step(.claimed([])))
        #expect(report?.requests == 0)
        #expect(report?.acknowledged == ["c2"])
    }

    @Test("region events follow the records when the endpoint takes them")
    func eventsAfterRecords() {
        var runner = Runner(machine: Self.machine(events: true))
        _ = runner.open(.regionEvent)
        #expect(runner.step(.claimed([])) == .claim(.event, limit: 500))
        #expect(runner.step(.claimed([Self.ids[0]])) == .send(.event, [Self.ids[0]], acknowledging: [], credential: Self.token))
        _ = runner.step(.replied(Self.reply(200), url: Self.url))
        #expect(runner.step(.interpreted(DeliveryOutcome(delivered: [Self.ids[0]]))) == .claim(.event, limit: 500))
        let report = Self.report(runner.step(.claimed([])))
        #expect(report?.eventsDelivered == 1)
        #expect(report?.deliveredIDs == [], "the report lists record ids only")
        #expect(runner.writes == [.delivered(.event, [Self.ids[0]])])
    }

    @Test("a store error ends the flush without a back-off; a missing credential fails with one")
    func storeAndCredentialFailures() {
        var runner = Runner(machine: Self.machine())
        _ = runner.step(.flush(.threshold, acknowledging: []))
        #expect(Self.report(runner.step(.storeFailed("disk I/O error")))?.stoppedBy == .storeError("disk I/O error"))
        #expect(runner.machine.failures == 0)

        var credential = Runner(machine: Self.machine())
        _ = credential.step(.flush(.threshold, acknowledging: []))
        let stop = Self.report(credential.step(.credentialFailed("keychain locked")))?.stoppedBy
        #expect(stop == .failed("could not get a credential for server: keychain locked", retryAt: Self.start.addingTimeInterval(2)))
    }

    @Test("a caller waiting out back-off flushes again at the retry time when it is before its deadline")
    func resumeTime() {
        let deadline = Self.start.addingTimeInterval(30)
        var report = FlushReport(trigger: .stopped)
        report.stoppedBy = .failed("x", retryAt: Self.start.addingTimeInterval(5))
        #expect(DeliveryMachine.resumeTime(after: report, before: deadline) == Self.start.addingTimeInterval(5))
        report.stoppedBy = .backingOff(until: Self.start.addingTimeInterval(40))
        #expect(DeliveryMachine.resumeTime(after: report, before: deadline) == nil)
        for stop: FlushStop? in [nil, .signedOut, .storeError("x"), .misconfigured("x")] {
            report.stoppedBy = stop
            #expect(DeliveryMachine.resumeTime(after: report, before: deadline) == nil)
        }
    }
}
