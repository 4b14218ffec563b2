import Foundation
import WhereaboutsCore

/// Sends pending records to an endpoint in batches, under leases, with back-off, token refresh and
/// exact bookkeeping: a record leaves the pending state only when a server acknowledged or refused it.
///
/// Flushes are serialised; a flush asked for while one runs is folded into it and returns that
/// flush's report. When to flush is the core's decision (``Tracker``); after a failure the uploader
/// schedules a retry at the back-off time. Time, sleeps and
/// background tasks come from the ``EngineClock`` the engine shares, so a simulated phone drives the
/// uploader in virtual time. The first request of a flush tells the server which of its commands the
/// device has carried out (on endpoints that take acknowledgements).
public actor Uploader {
    private let queue: any DeliveryQueue
    private let endpoint: any UploadEndpoint
    private let transport: any HTTPTransport
    private let credentials: any CredentialProvider
    private let configuration: UploaderConfiguration
    private let clock: EngineClock
    private let jitter: @Sendable () -> Double
    private var failures = 0
    private var notBefore: Date?
    private var serverNotBefore: Date?
    /// Why uploads are paused: the endpoint's URL answered 404 or 405, or the server refused the device id.
    private var misconfiguration: String?
    private var flushing = false
    private var rerun: UploadTrigger?
    private var waiters: [CheckedContinuation<FlushReport, Never>] = []
    private var retryTask: Task<Void, Never>?
    private let reportHandler = ReportHandler()

    /// Creates an uploader. `jitter` draws the random share of each back-off delay, in [0, 1).
    public init(
        queue: any DeliveryQueue, endpoint: any UploadEndpoint, transport: any HTTPTransport = URLSessionTransport(),
        credentials: any CredentialProvider = FixedCredential.none, configuration: UploaderConfiguration = .init(),
        clock: EngineClock = .system, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.queue = queue
        self.endpoint = endpoint
        self.transport = transport
        self.credentials = credentials
        self.configuration = configuration
        self.clock = clock
        self.jitter = jitter
    }

    /// Hands every flush's report to `handler` as the flush ends, within the flush (the engine learns
    /// which records were settled and which commands arrived), replacing an earlier handler.
    public nonisolated func setReportHandler(_ handler: @escaping @Sendable (FlushReport) async -> Void) {
        reportHandler.set(handler)
    }

    /// Stops a scheduled retry; records stay pending on disk.
    public func stop() {
        retryTask?.cancel()
        retryTask = nil
    }

    /// Sends pending records until the queue is empty or something stops it.
    @discardableResult
    public func flush(_ trigger: UploadTrigger) async -> FlushReport {
        guard !flushing else {
            rerun = rerun ?? trigger
            return await withCheckedContinuation { waiters.append($0) }
        }
        flushing = true
        var report = await drain(trigger)
        while let again = rerun, report.stoppedBy == nil {
            rerun = nil
            report.add(await drain(again))
        }
        rerun = nil
        flushing = false
        await reportHandler.current?(report)
        for waiter in waiters { waiter.resume(returning: report) }
        waiters.removeAll()
        return report
    }

    /// Flushes, waiting out back-off between attempts, until nothing is pending, the user is signed
    /// out, or `deadline` passes: for a background task or a process about to exit.
    public func drain(until deadline: Date, trigger: UploadTrigger = .stopped) async -> FlushReport {
        var total = FlushReport(trigger: trigger)
        while true {
            total.add(await flush(trigger))
            let wakeAt: Date
            switch total.stoppedBy {
            case nil, .signedOut, .storeError, .misconfigured: return total
            case .failed(_, let retryAt), .backingOff(let retryAt): wakeAt = retryAt
            }
            guard wakeAt < deadline else { return total }
            do { try await clock.sleep(wakeAt) } catch { return total }
        }
    }

    private func drain(_ trigger: UploadTrigger) async -> FlushReport {
        var report = FlushReport(trigger: trigger)
        if let misconfiguration, trigger != .manual {
            report.stoppedBy = .misconfigured(misconfiguration)
            return report
        }
        misconfiguration = nil
        let now = clock.now()
        if let until = serverNotBefore, until > now {
            report.stoppedBy = .backingOff(until: until)
            return report
        }
        if let until = notBefore, until > now, !trigger.skipsBackoff {
            report.stoppedBy = .backingOff(until: until)
            return report
        }
        do {
            var acknowledgements = try queue.commandAcknowledgements()
            if !endpoint.acceptsAcknowledgements && !acknowledgements.isEmpty {
                try queue.confirmAcknowledged(acknowledgements)
                acknowledgements = []
            }
            var state: CredentialState
            do { state = try await credentials.current() } catch {
                report.stoppedBy = failed("could not get a credential for \(endpoint.name): \(error)", retryAfter: nil)
                return report
            }
            let limit = min(configuration.batchSize, endpoint.maxBatchSize)
            let (order, lease) = (configuration.order, configuration.lease)
            let records = ItemDelivery<LocationRecord>(
                kind: "record", claim: { [queue] in try queue.claim(limit: limit, order: order, now: $0, lease: lease) },
                request: { [endpoint] in try endpoint.request(for: $0, acknowledging: $1, credential: $2) },
                interpret: { [endpoint] in endpoint.interpret($0, for: $1) }, delivered: queue.markDelivered,
                rejected: queue.markRejected, release: queue.release, settles: true)
            if let stop = try await drain(records, state: &state, acknowledgements: &acknowledgements, report: &report) {
                report.stoppedBy = stop
                return report
            }
            if endpoint.acceptsEvents, let events = queue as? any EventQueue {
                let delivery = ItemDelivery<EventRecord>(
                    kind: "event", claim: { try events.claimEvents(limit: limit, now: $0, lease: lease) },
                    request: { [endpoint] in try endpoint.eventRequest(for: $0, credential: $2) },
                    interpret: { [endpoint] in endpoint.interpretEvents($0, for: $1) }, delivered: events.markEventsDelivered,
                    rejected: events.markEventsRejected, release: events.releaseEvents, settles: false)
                var none: [String] = []
                if let stop = try await drain(delivery, state: &state, acknowledgements: &none, report: &report) {
                    report.stoppedBy = stop
                    return report
                }
            }
            failures = 0
            notBefore = nil
        } catch {
            report.stoppedBy = .storeError("\(error)")
        }
        return report
    }

    /// How the uploader claims, sends and settles the items of one kind (records, region events).
    private struct ItemDelivery<Item: Identifiable> where Item.ID == UUID {
        let kind: String
        let claim: (Date) throws -> [Item]
        let request: ([Item], [String], Credential?) throws -> OutgoingRequest
        let interpret: (HTTPReply, [Item]) -> DeliveryOutcome
        let delivered: ([UUID]) throws -> Void
        let rejected: ([UUID: Rejection], Date) throws -> Void
        let release: ([UUID]) throws -> Void
        /// Whether the report lists the settled items' ids (records do; the engine shows them).
        let settles: Bool
    }

    /// Sends the pending items batch by batch, the first request carrying the command
    /// acknowledgements (alone when nothing is pending), until none is left or something stops it.
    private func drain<Item>(
        _ delivery: ItemDelivery<Item>, state: inout CredentialState, acknowledgements: inout [String], report: inout FlushReport
    ) async throws -> FlushStop? {
        while true {
            if state == .signedOut { return .signedOut }
            let batch = try delivery.claim(clock.now())
            guard !batch.isEmpty || !acknowledgements.isEmpty else { return nil }
            if let stop = try await send(batch, delivery, acknowledging: acknowledgements, state: &state, report: &report) { return stop }
            acknowledgements = []
        }
    }

    /// Sends one batch and settles every item in it. Returns why draining must stop, if it must.
    private func send<Item>(
        _ batch: [Item], _ delivery: ItemDelivery<Item>, acknowledging acknowledgements: [String], state: inout CredentialState,
        report: inout FlushReport
    ) async throws -> FlushStop? {
        var refreshed = false
        let ids = batch.map(\.id)
        while true {
            let reply: HTTPReply
            let request: OutgoingRequest
            do {
                request = try delivery.request(batch, acknowledgements, state.credential)
                report.requests += 1
                reply = try await transport.send(request, timeout: configuration.requestTimeout)
            } catch {
                try delivery.release(ids)
                return failed("no answer from \(endpoint.name): \(error.localizedDescription)", retryAfter: nil)
            }
            switch UploadVerdict.classify(reply, now: clock.now()) {
            case .delivered:
                let outcome = delivery.interpret(reply, batch)
                if let unreadable = outcome.unreadable {
                    try delivery.release(ids)
                    return failed("\(endpoint.name) \(unreadable)", retryAfter: nil)
                }
                try delivery.delivered(outcome.delivered)
                try delivery.rejected(outcome.rejected, clock.now())
                try queue.confirmAcknowledged(acknowledgements)
                try queue.enqueueCommands(outcome.commands, at: clock.now())
                report.settle(outcome, kind: delivery.kind, listingIDs: delivery.settles)
                return nil
            case .refreshCredential where !refreshed:
                refreshed = true
                do { state = try await credentials.refreshed() } catch {
                    try delivery.release(ids)
                    return failed("could not refresh the credential for \(endpoint.name): \(error)", retryAfter: nil)
                }
                if state == .signedOut {
                    try delivery.release(ids)
                    return .signedOut
                }
            case .refreshCredential:
                try delivery.release(ids)
                return failed("\(endpoint.name) refused the credential even after a refresh (401)", retryAfter: nil)
            case .split where batch.count > 1:
                let half = batch.count / 2
                if let stop = try await send(
                    Array(batch[..<half]), delivery, acknowledging: acknowledgements, state: &state, report: &report)
                {
                    try delivery.release(Array(ids[half...]))
                    return stop
                }
                return try await send(Array(batch[half...]), delivery, acknowledging: [], state: &state, report: &report)
            case .split:
                guard let only = ids.first else {
                    return failed("\(endpoint.name) refused an empty request as too large (413)", retryAfter: nil)
                }
                let rejection = Rejection(
                    status: 413, reason: "a single \(delivery.kind) is larger than the server accepts: \(reply.bodyPrefix)")
                try delivery.rejected([only: rejection], clock.now())
                report.settle(
                    DeliveryOutcome(delivered: [], rejected: [only: rejection]), kind: delivery.kind, listingIDs: delivery.settles)
                return nil
            case .retry(let after):
                try delivery.release(ids)
                return failed("\(endpoint.name) answered \(reply.status)", retryAfter: after)
            case .misconfigured(let status):
                try delivery.release(ids)
                return pause(
                    "\(endpoint.name) answered \(status) at \(request.url.absoluteString): no upload endpoint there, so the upload URL is wrong",
                    fix: "Fix the upload URL (the server's base URL, e.g. http://127.0.0.1:8080)")
            case .badDevice(let reason):
                try delivery.release(ids)
                return pause(
                    "\(endpoint.name) refused the device id of \(request.url.absoluteString) (400 bad_device_id: \(reason))",
                    fix: "Fix the device id (the name given to `whereabouts-server device add`)")
            case .reject(let rejection):
                let rejected = Dictionary(uniqueKeysWithValues: ids.map { ($0, rejection) })
                try delivery.rejected(rejected, clock.now())
                report.settle(DeliveryOutcome(delivered: [], rejected: rejected), kind: delivery.kind, listingIDs: delivery.settles)
                return nil
            }
        }
    }

    /// Pauses uploads after a fault of the request itself (its URL answered 404 or 405, or the server
    /// refused its device id), `problem` saying which and `fix` how to mend it: no retry is
    /// scheduled, and only a manual flush tries again.
    private func pause(_ problem: String, fix: String) -> FlushStop {
        retryTask?.cancel()
        retryTask = nil
        let message = "\(problem); nothing was rejected, the records stay pending and uploads are paused. \(fix), then flush again"
        misconfiguration = message
        return .misconfigured(message)
    }

    private func failed(_ message: String, retryAfter: TimeInterval?) -> FlushStop {
        failures += 1
        let delay = configuration.backoff.delay(afterFailures: failures, retryAfter: retryAfter, unit: jitter())
        let retryAt = clock.now().addingTimeInterval(delay)
        notBefore = retryAt
        serverNotBefore = retryAfter.map { clock.now().addingTimeInterval($0) }
        scheduleRetry(at: retryAt)
        return .failed(message, retryAt: retryAt)
    }

    private func scheduleRetry(at retryAt: Date) {
        retryTask?.cancel()
        let clock = clock
        retryTask = clock.spawn { [weak self] in
            do { try await clock.sleep(retryAt) } catch { return }
            _ = await self?.flush(.retry)
        }
    }
}

/// The uploader's report handler, set from outside the actor (by an engine as it launches).
private final class ReportHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable (FlushReport) async -> Void)?

    func set(_ handler: @escaping @Sendable (FlushReport) async -> Void) { lock.withLock { self.handler = handler } }

    var current: (@Sendable (FlushReport) async -> Void)? { lock.withLock { handler } }
}
