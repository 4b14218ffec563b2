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
    private var recordedSinceFlush = 0
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

    /// The earliest time the next attempt may start after failures, if backing off.
    public var backingOffUntil: Date? { notBefore }

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

    /// Notes newly recorded records; a flush starts when the threshold is reached.
    public func recorded(_ count: Int) async {
        recordedSinceFlush += count
        if recordedSinceFlush >= configuration.threshold { _ = await flush(.threshold) }
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
        recordedSinceFlush = 0
        do {
            var state = try await credentials.current()
            while true {
                if state == .signedOut {
                    report.stoppedBy = .signedOut
                    return report
                }
                let batch = try queue.claim(
                    limit: min(configuration.batchSize, endpoint.maxBatchSize), order: configuration.order, now: clock(),
                    lease: configuration.lease)
                guard !batch.isEmpty else { break }
                if let stop = try await send(batch, state: &state, report: &report) {
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

    /// Sends one batch and settles every record in it. Returns why draining must stop, if it must.
    private func send(_ batch: [LocationRecord], state: inout CredentialState, report: inout FlushReport) async throws -> FlushStop? {
        var refreshed = false
        while true {
            let reply: HTTPReply
            do {
                let request = try endpoint.request(for: batch, credential: state.credential)
                report.requests += 1
                reply = try await transport.send(request, timeout: configuration.requestTimeout)
            } catch {
                try queue.release(batch.map(\.id))
                return failed("no answer from \(endpoint.name): \(error.localizedDescription)", retryAfter: nil)
            }
            switch UploadVerdict.classify(reply, now: clock()) {
            case .delivered:
                let outcome = endpoint.interpret(reply, for: batch)
                try queue.markDelivered(outcome.delivered)
                try queue.markRejected(outcome.rejected, at: clock())
                try queue.enqueueCommands(outcome.commands, at: clock())
                report.delivered += outcome.delivered.count
                report.rejected += outcome.rejected.count
                report.commands += outcome.commands
                return nil
            case .refreshCredential where !refreshed:
                refreshed = true
                state = try await credentials.refreshed()
                if state == .signedOut {
                    try queue.release(batch.map(\.id))
                    return .signedOut
                }
            case .refreshCredential:
                try queue.release(batch.map(\.id))
                return failed("\(endpoint.name) refused the credential even after a refresh (401)", retryAfter: nil)
            case .split where batch.count > 1:
                let half = batch.count / 2
                if let stop = try await send(Array(batch[..<half]), state: &state, report: &report) {
                    try queue.release(batch[half...].map(\.id))
                    return stop
                }
                return try await send(Array(batch[half...]), state: &state, report: &report)
            case .split:
                let rejection = Rejection(status: 413, reason: "a single record is larger than the server accepts: \(reply.bodyPrefix)")
                try queue.markRejected([batch[0].id: rejection], at: clock())
                report.rejected += 1
                return nil
            case .retry(let after):
                try queue.release(batch.map(\.id))
                return failed("\(endpoint.name) answered \(reply.status)", retryAfter: after)
            case .reject(let rejection):
                try queue.markRejected(Dictionary(uniqueKeysWithValues: batch.map { ($0.id, rejection) }), at: clock())
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
