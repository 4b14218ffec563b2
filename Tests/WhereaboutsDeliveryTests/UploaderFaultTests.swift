import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsStoreTestSupport
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("Uploader against a real server with injected faults")
struct UploaderFaultTests {
    @Test("happy path: batches of 100, oldest first, every record once")
    func happyPath() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        try store.append(sampleRecords(450), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let log = ReportLog()
        uploader.setReportHandler { await log.add($0) }
        let report = await uploader.flush(.manual, acknowledging: [])
        #expect(await log.reports == [report])
        #expect(Set(report.deliveredIDs) == Set(try store.allRecords().map(\.record.id)))
        #expect(report.delivered == 450)
        #expect(report.requests == 5)
        #expect(report.stoppedBy == nil)
        #expect(try await exactlyOnce(store, server.state))
        #expect(try store.pendingCount() == 0)
    }

    @Test("server down for the whole scenario, then up: nothing lost, nothing twice")
    func serverDownThenUp() async throws {
        let port = try await TestServer.freePort()
        let store = try makeStore()
        let uploader = batchUploader(store, url: URL(string: "http://127.0.0.1:\(port)")!)
        for round in 0..<5 {
            try store.append(sampleRecords(40, start: Date(timeIntervalSinceNow: Double(-10_000 + round * 100))), at: Date())
            let report = await uploader.flush(.connectivity, acknowledging: [])
            guard case .failed = report.stoppedBy else {
                Issue.record("expected a failure, got \(report)")
                return
            }
        }
        #expect(try store.pendingCount() == 200)
        let server = try await TestServer.start(port: port)
        defer { Task { await server.stop() } }
        let report = await uploader.flush(.connectivity, acknowledging: [])
        #expect(report.delivered == 200)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("intermittent 500s are retried with back-off until everything is delivered")
    func intermittent500() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(500), .status(503), .status(502)])
        let store = try makeStore()
        try store.append(sampleRecords(300), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let first = await uploader.flush(.threshold, acknowledging: [])
        guard case .failed = first.stoppedBy else {
            Issue.record("expected a failure, got \(first)")
            return
        }
        _ = await uploader.drain(until: Date().addingTimeInterval(20), trigger: .retry, acknowledging: [])
        #expect(try store.pendingCount() == 0)
        #expect(try await exactlyOnce(store, server.state))
    }

    /// Bug: a drain checked its deadline only between flushes, and one flush claimed batch after
    /// batch until none was left: `track` stopping with a day's backlog on a slow uplink took
    /// minutes (or for ever, while new records kept arriving) instead of `--drain-timeout`.
    @Test("a drain claims no batch after its deadline: it ends by then plus one request, the rest pending")
    func drainStopsClaimingAtItsDeadline() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script(Array(repeating: .hang(0.2), count: 20))
        let store = try makeStore()
        try store.append(sampleRecords(200), at: Date())
        let uploader = batchUploader(store, url: server.baseURL, batchSize: 1, timeout: 10)
        let started = Date()
        let report = await uploader.drain(until: started.addingTimeInterval(2), trigger: .stopped, acknowledging: [])
        // 20 slow answers, then fast ones: a drain that went on past its deadline would send all 200.
        let took = Date().timeIntervalSince(started)
        // Counted as well as timed: at 0.2 s an answer, at most 10 requests fit before the deadline,
        // and one more may be in flight when it passes, however loaded the machine.
        let requests = await server.state.requests
        #expect(requests <= 12, "the drain sent \(requests) requests in 2 s of 0.2 s answers")
        // The deadline, one request's timeout, and slack for a loaded machine.
        #expect(took < 2 + 10 + 5, "the drain took \(took) s")
        #expect(report.delivered < 200, "\(report)")
        #expect(report.stoppedBy == .outOfTime, "a drain cut off names why records are still pending: \(report)")
        #expect(try store.pendingCount() == 200 - report.delivered)
        #expect(try store.allRecords().filter { $0.state == .delivered }.count == report.delivered)
        // A later drain without a near deadline sends the rest, each once.
        _ = await uploader.drain(until: Date().addingTimeInterval(120), trigger: .retry, acknowledging: [])
        #expect(try store.pendingCount() == 0)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("a 200 that is not a batch answer for the items (a captive portal's page, an empty object) delivers nothing; they are resent")
    func unreadableSuccess() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(200, body: "<html>Sign in to the Wi-Fi</html>"), .status(200, body: "{}")])
        let store = try makeStore()
        try store.append(sampleRecords(50), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let first = await uploader.flush(.threshold, acknowledging: [])
        guard case .failed(let reason, _) = first.stoppedBy else {
            Issue.record("expected a failure, got \(first)")
            return
        }
        #expect(reason.contains("not a batch answer") && reason.contains("Sign in to the Wi-Fi"), "\(reason)")
        #expect(first.delivered == 0)
        _ = await uploader.drain(until: Date().addingTimeInterval(20), trigger: .retry, acknowledging: [])
        #expect(try store.pendingCount() == 0)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("429 with Retry-After: no attempt before the server's time, then delivered")
    func retryAfter() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(429, retryAfter: "1")])
        let store = try makeStore()
        try store.append(sampleRecords(120), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let started = Date()
        _ = await uploader.flush(.threshold, acknowledging: [])
        let early = await uploader.flush(.foreground, acknowledging: [])
        guard case .backingOff = early.stoppedBy else {
            Issue.record("a flush inside Retry-After went out: \(early)")
            return
        }
        _ = await uploader.drain(until: Date().addingTimeInterval(20), trigger: .retry, acknowledging: [])
        #expect(try store.pendingCount() == 0)
        #expect(Date().timeIntervalSince(started) >= 1)
        #expect(await server.state.requests == 3)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("a server that trickles its answer past the timeout: the flush gives up at the timeout and the batch is resent")
    func tricklingServer() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        // A byte every half second keeps the connection from ever going quiet for the 2 s timeout,
        // and the whole answer would take 50 s.
        await server.state.script([.trickle(0.5)])
        let store = try makeStore()
        try store.append(sampleRecords(10), at: Date())
        let started = Date()
        let first = await batchUploader(store, url: server.baseURL, timeout: 2).flush(.threshold, acknowledging: [])
        guard case .failed(let message, _) = first.stoppedBy else {
            Issue.record("expected a timeout, got \(first)")
            return
        }
        #expect(Date().timeIntervalSince(started) < 20, "given up near the 2 s timeout, not after the 50 s answer")
        #expect(message.contains("no answer"), "\(message)")
        #expect(try store.pendingCount() == 10)
        let resend = await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: [])
        #expect(resend.delivered == 10)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("a server that hangs past the timeout: the batch is resent and recognised as a duplicate")
    func hangingServer() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        // The client gives up after 2 s and the server answers after 6 s: on a loaded 2-core machine a
        // 0.5 s timeout could expire before the request even reached the server, which then never
        // stored it (CI saw that once).
        await server.state.script([.hang(6)])
        let store = try makeStore()
        try store.append(sampleRecords(80), at: Date())
        let first = await batchUploader(store, url: server.baseURL, timeout: 2).flush(.threshold, acknowledging: [])
        guard case .failed = first.stoppedBy else {
            Issue.record("expected a timeout, got \(first)")
            return
        }
        #expect(try store.pendingCount() == 80, "a timed-out batch stays pending")
        // The server stores the batch once its hang ends; the resend (with a timeout that a loaded
        // test machine cannot exceed) is then answered as a duplicate.
        #expect(await eventually { await server.state.locations.count == 80 })
        let resend = await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: [])
        #expect(resend.delivered == 80)
        #expect(await server.state.receipts.values.allSatisfy { $0 == 2 }, "each record arrived twice")
        #expect(try store.pendingCount() == 0)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("connection dropped after the server stored the batch: the resend changes nothing")
    func dropAfterStore() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.dropAfterStore, .dropAfterStore])
        let store = try makeStore()
        try store.append(sampleRecords(250), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        _ = await uploader.flush(.threshold, acknowledging: [])
        _ = await uploader.drain(until: Date().addingTimeInterval(20), trigger: .retry, acknowledging: [])
        #expect(try store.pendingCount() == 0)
        #expect(try await exactlyOnce(store, server.state))
        #expect(await server.state.receipts.values.contains { $0 > 1 })
    }

    @Test("a 400 for one batch: those records are rejected and reported, the rest delivered")
    func rejectedBatch() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        // The first batch goes through; the second is refused; the third goes through.
        await server.state.script([.hang(0), .status(400, body: "{\"error\":\"bad batch\",\"message\":\"unknown field\"}")])
        let store = try makeStore()
        try store.append(sampleRecords(300), at: Date())
        let report = await batchUploader(store, url: server.baseURL).flush(.threshold, acknowledging: [])
        #expect(report.rejected == 100)
        #expect(report.delivered == 200)
        let summary = try store.summary()
        #expect(summary.counts[.rejected] == 100)
        #expect(summary.rejected.first?.rejection.status == 400)
        #expect(summary.rejected.first?.rejection.reason.contains("unknown field") == true)
        #expect(try await exactlyOnce(store, server.state, rejected: 100))
        // Rejected records are never resent automatically…
        _ = await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: [])
        #expect(try store.summary().counts[.rejected] == 100)
        #expect(await server.state.locations.count == 200)
        // …only when the app requeues them after fixing the cause.
        #expect(try store.requeueRejected() == 100)
        #expect(await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: []).delivered == 100)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("413 splits the batch until it fits")
    func payloadTooLarge() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setMaxBatch(60)
        let store = try makeStore()
        try store.append(sampleRecords(400), at: Date())
        let report = await batchUploader(store, url: server.baseURL, batchSize: 200).flush(.threshold, acknowledging: [])
        #expect(report.delivered == 400)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("per-item rejections in a 200 answer reject only those records")
    func itemRejections() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        var records = sampleRecords(10)
        records[3].fix.timestamp = Date(timeIntervalSince1970: 86_400)  // 1970: the server refuses it
        try store.append(records, at: Date())
        let report = await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: [])
        #expect(report.delivered == 9)
        #expect(report.rejected == 1)
        let rejected = try store.summary().rejected
        #expect(rejected.map(\.id) == [records[3].id])
        #expect(rejected.first?.rejection.reason.contains("timestamp") == true)
    }

    @Test("a crash mid-upload: leased records come back when the lease runs out")
    func leaseExpiry() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        try store.append(sampleRecords(50), at: Date())
        let claimed = try store.claim(limit: 30, order: .oldestFirst, now: Date(), lease: 60)
        #expect(claimed.count == 30)
        let during = await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: [])
        #expect(during.delivered == 20)
        let later = Uploader(
            queue: store, endpoint: WhereaboutsBatchEndpoint(base: server.baseURL, device: "phone-1"),
            clock: EngineClock(now: { Date().addingTimeInterval(61) }, sleep: EngineClock.system.sleep, spawn: EngineClock.system.spawn))
        let after = await later.flush(.manual, acknowledging: [])
        #expect(after.delivered == 30)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("latest first sends the newest records first")
    func latestFirst() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        let records = sampleRecords(30)
        try store.append(records, at: Date())
        _ = await batchUploader(store, url: server.baseURL, batchSize: 10, order: .latestFirst).flush(.manual, acknowledging: [])
        let arrivals = await server.state.arrivals
        let ids = records.map { $0.id.uuidString.lowercased() }
        #expect(arrivals == Array(ids.reversed()))
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("commands are kept until carried out, sent again until acknowledged, and acknowledged with the next upload")
    func commands() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.queue([.reportLocation, .startActiveTracking(minutes: 15)])
        let store = try makeStore()
        try store.append(sampleRecords(5), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let report = await uploader.flush(.manual, acknowledging: [])
        #expect(report.commands.map(\.command) == [.reportLocation, .startActiveTracking(minutes: 15)])
        #expect(try store.unappliedCommands().map(\.id) == ["command-1", "command-2"])

        try store.append(sampleRecords(1), at: Date())
        #expect(await uploader.flush(.manual, acknowledging: []).commands.count == 2, "not acknowledged yet: the server sends them again")
        #expect(try store.unappliedCommands().count == 2, "a command sent again is kept once")

        try store.apply([.session(.commandsApplied(["command-1", "command-2"]))], at: Date())
        #expect(try store.unappliedCommands().isEmpty)
        #expect(try store.commandAcknowledgements() == ["command-1", "command-2"])
        let acknowledging = await uploader.flush(.manual, acknowledging: ["command-1", "command-2"])
        #expect(acknowledging.requests == 1, "with nothing pending, the acknowledgement goes alone")
        #expect(acknowledging.commands.isEmpty)
        #expect(acknowledging.acknowledged == ["command-1", "command-2"], "the report says which the server took")
        #expect(await server.state.acknowledged == ["command-1", "command-2"])
        #expect(try store.commandAcknowledgements().isEmpty)
        #expect(await uploader.flush(.manual, acknowledging: []).requests == 0)
    }

    @Test("a credential that cannot be refreshed offline is a failure with back-off, and nothing stays leased", arguments: [false, true])
    func refreshOffline(failsAtStart: Bool) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setValidTokens(["fresh"])
        let store = try makeStore()
        try store.append(sampleRecords(20), at: Date())
        // A back-off of a minute: the second flush must come before the retry time however loaded the machine is.
        let uploader = batchUploader(
            store, url: server.baseURL, credentials: OfflineRefresh(failsAtStart: failsAtStart),
            backoff: Backoff(initial: 60, multiplier: 2, maximum: 600))
        let report = await uploader.flush(.manual, acknowledging: [])
        guard case .failed(let message, let retryAt) = report.stoppedBy else {
            Issue.record("expected a failure to retry, got \(String(describing: report.stoppedBy))")
            return
        }
        #expect(message.contains("credential"))
        #expect(retryAt > Date())
        #expect(try store.summary().leased == 0, "the batch is handed back at once")
        #expect(try store.pendingCount() == 20)
        guard case .backingOff = await uploader.flush(.threshold, acknowledging: []).stoppedBy else {
            Issue.record("a flush before the retry time should wait")
            return
        }
    }

    @Test("413 then a failure in the first half hands the second half back at once")
    func splitThenFailure() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(413), .status(503)])
        let store = try makeStore()
        try store.append(sampleRecords(100), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let report = await uploader.flush(.manual, acknowledging: [])
        guard case .failed = report.stoppedBy else {
            Issue.record("expected a failure, got \(report)")
            return
        }
        #expect(try store.summary().leased == 0)
        _ = await uploader.drain(until: Date().addingTimeInterval(20), trigger: .retry, acknowledging: [])
        #expect(try store.pendingCount() == 0)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("region events go to the events API under the same rules: exactly once, even after a dropped answer")
    func regionEvents() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        // The records' request goes through; the events' answer is lost after the server stored them.
        await server.state.script([.hang(0), .dropAfterStore])
        let store = try makeStore()
        try store.append(sampleRecords(10), at: Date())
        for (i, kind) in [RegionEventKind.enter, .dwell, .exit].enumerated() {
            try store.apply(
                [
                    .event(
                        EventRecord(
                            event: RegionEvent(
                                regionID: "cafe", kind: kind, timestamp: Date(timeIntervalSinceNow: Double(i * 60 - 3600)), initial: false,
                                fix: nil)))
                ], at: Date())
        }
        let uploader = batchUploader(store, url: server.baseURL)
        _ = await uploader.flush(.regionEvent, acknowledging: [])
        _ = await uploader.drain(until: Date().addingTimeInterval(20), trigger: .retry, acknowledging: [])
        #expect(try store.allEvents().allSatisfy { $0.state == .delivered })
        let held = await server.state.events
        #expect(Set(held.keys) == Set(try store.allEvents().map { $0.record.id.uuidString.lowercased() }))
        #expect(held.values.map(\.kind).sorted() == ["dwell", "enter", "exit"])
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("an endpoint without an events API leaves events stored and pending")
    func eventsStayWithoutAnEventsAPI() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        try store.apply(
            [
                .event(EventRecord(event: RegionEvent(regionID: "cafe", kind: .enter, timestamp: Date(), initial: false, fix: nil)))
            ], at: Date())
        let uploader = Uploader(
            queue: store, endpoint: FirestoreEndpoint(base: server.baseURL, project: "p", userID: nil),
            configuration: UploaderConfiguration())
        #expect(await uploader.flush(.manual, acknowledging: []).stoppedBy == nil)
        #expect(try store.allEvents().map(\.state) == [.pending])
    }
}

/// A credential whose renewal needs the network, which is down.
private struct OfflineRefresh: CredentialProvider {
    let failsAtStart: Bool

    func current() async throws -> CredentialState {
        if failsAtStart { throw URLError(.notConnectedToInternet) }
        return .present(.bearer("expired"))
    }

    func refreshed() async throws -> CredentialState { throw URLError(.notConnectedToInternet) }
}
