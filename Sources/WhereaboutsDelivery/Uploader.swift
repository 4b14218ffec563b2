import Foundation
import WhereaboutsCore

/// Sends pending records to an endpoint in batches, under leases, with back-off, token refresh and
/// exact bookkeeping: a record leaves the pending state only when a server acknowledged or refused it.
///
/// Flushes are serialised; a flush asked for while one runs is folded into it and returns that
/// flush's report. After a failure a retry is scheduled at the back-off time.
public actor Uploader {
    private let queue: any DeliveryQueue
    private let endpoint: any UploadEndpoint
    private let transport: any HTTPTransport
    private let credentials: any CredentialProvider
    private let configuration: UploaderConfiguration
    private let clock: @Sendable () -> Date
    private let jitter: @Sendable () -> Double
    private var failures = 0
    private var notBefore: Date?
    private var serverNotBefore: Date?
    private var flushing = false
    private var rerun: UploadTrigger?
    private var waiters: [CheckedContinuation<FlushReport, Never>] = []
    private var retryTask: Task<Void, Never>?
    private var intervalTask: Task<Void, Never>?
    private let reportContinuation: AsyncStream<FlushReport>.Continuation

    /// Every flush's report, as it ends.
    public nonisolated let reports: AsyncStream<FlushReport>

    /// Creates an uploader. `jitter` draws the random share of each back-off delay, in [0, 1).
    public init(
        queue: any DeliveryQueue, endpoint: any UploadEndpoint, transport: any HTTPTransport = URLSessionTransport(),
        credentials: any CredentialProvider = FixedCredential.none, configuration: UploaderConfiguration = .init(),
        clock: @escaping @Sendable () -> Date = Date.init, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) }
    ) {
        self.queue = queue
        self.endpoint = endpoint
        self.transport = transport
        self.credentials = credentials
        self.configuration = configuration
        self.clock = clock
        self.jitter = jitter
        (reports, reportContinuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingNewest(64))
    }

    /// Starts the periodic flush (``UploaderConfiguration/interval``).
    public func start() {
        guard intervalTask == nil, let interval = configuration.interval else { return }
        intervalTask = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(nanoseconds: UInt64(interval * 1e9))
                guard !Task.isCancelled else { return }
                _ = await self?.flush(.interval)
            }
        }
    }

    /// Stops periodic flushes and scheduled retries; records stay pending on disk.
    public func stop() {
        intervalTask?.cancel()
        intervalTask = nil
        retryTask?.cancel()
        retryTask = nil
        reportContinuation.finish()
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
            let next = await drain(again)
            report.delivered += next.delivered
            report.eventsDelivered += next.eventsDelivered
            report.rejected += next.rejected
            report.requests += next.requests
            report.commands += next.commands
            report.stoppedBy = next.stoppedBy
        }
        rerun = nil
        flushing = false
        reportContinuation.yield(report)
        for waiter in waiters { waiter.resume(returning: report) }
        waiters.removeAll()
        return report
    }

    /// Flushes, waiting out back-off between attempts, until nothing is pending, the user is signed
    /// out, or `deadline` passes: for a background task or a process about to exit.
    public func drain(until deadline: Date, trigger: UploadTrigger = .stopped) async -> FlushReport {
        var total = FlushReport(trigger: trigger)
        while true {
            let report = await flush(trigger)
            total.delivered += report.delivered
            total.eventsDelivered += report.eventsDelivered
            total.rejected += report.rejected
            total.requests += report.requests
            total.commands += report.commands
            total.stoppedBy = report.stoppedBy
            let wakeAt: Date
            switch report.stoppedBy {
            case nil, .signedOut, .storeError: return total
            case .failed(_, let retryAt), .backingOff(let retryAt): wakeAt = retryAt
            }
            guard wakeAt < deadline else { return total }
            try? await Task.sleep(nanoseconds: UInt64(max(0, wakeAt.timeIntervalSince(clock())) * 1e9))
        }
    }

    private func drain(_ trigger: UploadTrigger) async -> FlushReport {
        var report = FlushReport(trigger: trigger)
        let now = clock()
        if let until = serverNotBefore, until > now {
            report.stoppedBy = .backingOff(until: until)
            return report
        }
        if let until = notBefore, until > now, !trigger.skipsBackoff {
            report.stoppedBy = .backingOff(until: until)
            return report
        }
        do {
            var state = try await credentials.current()
            let limit = min(configuration.batchSize, endpoint.maxBatchSize)
            let (order, lease) = (configuration.order, configuration.lease)
            let records = Lane<LocationRecord>(
                kind: "record", claim: { [queue] in try queue.claim(limit: limit, order: order, now: $0, lease: lease) },
                request: { [endpoint] in try endpoint.request(for: $0, credential: $1) },
                interpret: { [endpoint] in endpoint.interpret($0, for: $1) }, delivered: queue.markDelivered,
                rejected: queue.markRejected, release: queue.release)
            if let stop = try await drain(records, state: &state, report: &report, count: \.delivered) {
                report.stoppedBy = stop
                return report
            }
            if endpoint.acceptsEvents, let events = queue as? any EventQueue {
                let lane = Lane<EventRecord>(
                    kind: "event", claim: { try events.claimEvents(limit: limit, now: $0, lease: lease) },
                    request: { [endpoint] in try endpoint.eventRequest(for: $0, credential: $1) },
                    interpret: { [endpoint] in endpoint.interpretEvents($0, for: $1) }, delivered: events.markEventsDelivered,
                    rejected: events.markEventsRejected, release: events.releaseEvents)
                if let stop = try await drain(lane, state: &state, report: &report, count: \.eventsDelivered) {
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

    /// How the uploader claims, sends and settles one kind of item (records, region events).
    private struct Lane<Item: Identifiable> where Item.ID == UUID {
        let kind: String
        let claim: (Date) throws -> [Item]
        let request: ([Item], Credential?) throws -> OutgoingRequest
        let interpret: (HTTPReply, [Item]) -> DeliveryOutcome
        let delivered: ([UUID]) throws -> Void
        let rejected: ([UUID: Rejection], Date) throws -> Void
        let release: ([UUID]) throws -> Void
    }

    /// Sends the lane's pending items batch by batch until none is left or something stops it.
    private func drain<Item>(
        _ lane: Lane<Item>, state: inout CredentialState, report: inout FlushReport, count: WritableKeyPath<FlushReport, Int>
    ) async throws -> FlushStop? {
        while true {
            if state == .signedOut { return .signedOut }
            let batch = try lane.claim(clock())
            guard !batch.isEmpty else { return nil }
            if let stop = try await send(batch, lane, state: &state, report: &report, count: count) { return stop }
        }
    }

    /// Sends one batch and settles every item in it. Returns why draining must stop, if it must.
    private func send<Item>(
        _ batch: [Item], _ lane: Lane<Item>, state: inout CredentialState, report: inout FlushReport, count: WritableKeyPath<FlushReport, Int>
    ) async throws -> FlushStop? {
        var refreshed = false
        let ids = batch.map(\.id)
        while true {
            let reply: HTTPReply
            do {
                let request = try lane.request(batch, state.credential)
                report.requests += 1
                reply = try await transport.send(request, timeout: configuration.requestTimeout)
            } catch {
                try lane.release(ids)
                return failed("no answer from \(endpoint.name): \(error.localizedDescription)", retryAfter: nil)
            }
            switch UploadVerdict.classify(reply, now: clock()) {
            case .delivered:
                let outcome = lane.interpret(reply, batch)
                try lane.delivered(outcome.delivered)
                try lane.rejected(outcome.rejected, clock())
                try queue.enqueueCommands(outcome.commands, at: clock())
                report[keyPath: count] += outcome.delivered.count
                report.rejected += outcome.rejected.count
                report.commands += outcome.commands
                return nil
            case .refreshCredential where !refreshed:
                refreshed = true
                state = try await credentials.refreshed()
                if state == .signedOut {
                    try lane.release(ids)
                    return .signedOut
                }
            case .refreshCredential:
                try lane.release(ids)
                return failed("\(endpoint.name) refused the credential even after a refresh (401)", retryAfter: nil)
            case .split where batch.count > 1:
                let half = batch.count / 2
                if let stop = try await send(Array(batch[..<half]), lane, state: &state, report: &report, count: count) {
                    try lane.release(Array(ids[half...]))
                    return stop
                }
                return try await send(Array(batch[half...]), lane, state: &state, report: &report, count: count)
            case .split:
                try lane.rejected([ids[0]: Rejection(status: 413, reason: "a single \(lane.kind) is larger than the server accepts: \(reply.bodyPrefix)")], clock())
                report.rejected += 1
                return nil
            case .retry(let after):
                try lane.release(ids)
                return failed("\(endpoint.name) answered \(reply.status)", retryAfter: after)
            case .reject(let rejection):
                try lane.rejected(Dictionary(uniqueKeysWithValues: ids.map { ($0, rejection) }), clock())
                report.rejected += batch.count
                return nil
            }
        }
    }

    private func failed(_ message: String, retryAfter: TimeInterval?) -> FlushStop {
        failures += 1
        let delay = configuration.backoff.delay(
            afterFailures: failures, retryAfter: retryAfter, unit: jitter())
        let retryAt = clock().addingTimeInterval(delay)
        notBefore = retryAt
        serverNotBefore = retryAfter.map { clock().addingTimeInterval($0) }
        scheduleRetry(after: delay)
        return .failed(message, retryAt: retryAt)
    }

    private func scheduleRetry(after delay: TimeInterval) {
        retryTask?.cancel()
        retryTask = Task { [weak self] in
            try? await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            guard !Task.isCancelled else { return }
            _ = await self?.flush(.retry)
        }
    }
}
