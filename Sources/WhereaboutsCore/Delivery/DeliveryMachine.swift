import Foundation

/// Every delivery decision as one pure state machine: `(input, now) → (store writes, next step)`.
///
/// A flush claims the pending records batch by batch, then the region events, and sends each batch;
/// the first request carries the acknowledgements of the commands the device carried out, which the
/// flush is given (the ``Session``'s ``Session/unacknowledgedCommands``). The machine
/// decides what each answer settles and what comes next:
/// - 2xx (read by the endpoint): delivered, rejected item by item, commands kept; an unreadable
///   answer (a proxy's page) delivers nothing and counts as a failure.
/// - 401: the credential is renewed once per batch and the batch sent again.
/// - 413: the batch is sent in halves; a single item the server still refuses is rejected.
/// - 408, 425, 429, 5xx and no answer: the batch is released and a back-off starts, never shorter than
///   the server's `Retry-After`; a flush during it stops at once, unless the network came back, the
///   app came to the foreground or the user asked (a server's `Retry-After` still holds then).
/// - 404, 405, 403 and 400 `bad_device_id`: the request or its credential is wrong, not its records. They stay pending and
///   uploads pause until a manual flush.
/// - Other 4xx: the batch is rejected.
///
/// A flush asked for while one runs is folded into it: the running flush drains again for it once
/// it ends, unless it stopped. The machine starts no timer: a ``FlushStop/failed(_:retryAt:)``
/// report names the time to flush again, which the engine's ``Session`` keeps among its deadlines.
/// A runner (the `Uploader`) performs each ``DeliveryStep`` and answers with the ``DeliveryInput``
/// the step names, so every rule here is tested without a server.
public struct DeliveryMachine: Sendable, Equatable {
    /// What the machine knows of the endpoint and the policy.
    public struct Configuration: Sendable, Equatable {
        /// The endpoint's short name, in messages.
        public var endpointName: String
        /// Items per request: the smaller of the uploader's batch size and the endpoint's limit.
        public var batchLimit: Int
        /// Back-off after failures.
        public var backoff: Backoff
        /// Whether requests carry command acknowledgements; when not, they are forgotten as read.
        public var acceptsAcknowledgements: Bool
        /// Whether region events are sent after the records.
        public var acceptsEvents: Bool

        /// Creates a configuration.
        public init(
            endpointName: String, batchLimit: Int, backoff: Backoff = Backoff(), acceptsAcknowledgements: Bool = false,
            acceptsEvents: Bool = false
        ) {
            self.endpointName = endpointName
            self.batchLimit = max(1, batchLimit)
            self.backoff = backoff
            self.acceptsAcknowledgements = acceptsAcknowledgements
            self.acceptsEvents = acceptsEvents
        }
    }

    /// The endpoint and policy. A runner whose endpoint can change (settings read from the store)
    /// sets it again at each ``DeliveryStep/fetchCredential``, which starts every drain of the queue
    /// (a flush's, and the one a folded flush asks for): the drain that follows uses it throughout.
    public var configuration: Configuration
    /// Failures in a row since the last flush that emptied the queue.
    public private(set) var failures = 0
    /// No flush before this time (the back-off), except one that skips it.
    public private(set) var notBefore: Date?
    /// No flush at all before this time: the server's `Retry-After`.
    public private(set) var serverNotBefore: Date?
    /// Why uploads are paused (a wrong URL or device id), until a manual flush.
    public private(set) var pausedBecause: String?
    private var running: Flush?

    /// The state of the flush under way.
    private struct Flush: Sendable, Equatable {
        var report: FlushReport
        var rerun: UploadTrigger?
        /// The acknowledgements the folded flush was given, for the drain it asks for.
        var rerunAcknowledgements: [String] = []
        var acknowledgements: [String] = []
        var credential = CredentialState.notNeeded
        var kind = DeliveryItemKind.record
        var batch: [UUID] = []
        /// Whether the batch in flight was already resent with a renewed credential.
        var refreshed = false
        /// Second halves of split batches still to send, the next one last.
        var halves: [[UUID]] = []
    }

    /// Creates a machine with no failure, pause or flush behind it.
    public init(configuration: Configuration) {
        self.configuration = configuration
    }

    /// Whether a flush is under way.
    public var isFlushing: Bool { running != nil }

    /// Handles one input at `now`; `jitter` draws the random share of a back-off delay, in [0, 1),
    /// and is called only when a failure starts one.
    public mutating func handle(_ input: DeliveryInput, now: Date, jitter: () -> Double) -> DeliveryDecision {
        var writes: [DeliveryWrite] = []
        let next: DeliveryStep
        if case .flush(let trigger, let acknowledgements) = input {
            next = begin(trigger, acknowledging: acknowledgements, now: now, writes: &writes)
        } else if var flush = running {
            // Taken out while it changes, so its growing report is not copied at every answer.
            running = nil
            next = advance(&flush, with: input, now: now, jitter: jitter, writes: &writes)
            if case .finished = next, !flush.halves.isEmpty { writes.append(.release(flush.kind, flush.halves.flatMap { $0 })) }
            running = next.endsFlush ? nil : flush
        } else {
            next = .finished(FlushReport(trigger: .manual))
        }
        return DeliveryDecision(writes: writes, next: next)
    }

    /// When a caller that waits out back-off (a background task, a process about to exit) flushes
    /// again after `report`, or `nil` when waiting cannot help (nothing pending, signed out, paused,
    /// a store error) or the time is not before `deadline`.
    public static func resumeTime(after report: FlushReport, before deadline: Date) -> Date? {
        switch report.stoppedBy {
        case nil, .signedOut, .storeError, .misconfigured, .outOfTime: nil
        case .failed(_, let retryAt), .backingOff(let retryAt): retryAt < deadline ? retryAt : nil
        }
    }

    // MARK: Starting

    private mutating func begin(
        _ trigger: UploadTrigger, acknowledging acknowledgements: [String], now: Date, writes: inout [DeliveryWrite]
    ) -> DeliveryStep {
        if var flush = running {
            flush.rerun = flush.rerun ?? trigger
            flush.rerunAcknowledgements = acknowledgements
            running = flush
            return .joinRunningFlush
        }
        var flush = Flush(report: FlushReport(trigger: trigger))
        let next = open(&flush, trigger: trigger, acknowledging: acknowledgements, now: now, writes: &writes)
        running = next.endsFlush ? nil : flush
        return next
    }

    /// The first step of one drain of the queue, or its end when paused or backing off. The
    /// acknowledgements not yet confirmed in this flush go with its first request; an endpoint that
    /// takes none has them forgotten at once.
    private mutating func open(
        _ flush: inout Flush, trigger: UploadTrigger, acknowledging acknowledgements: [String], now: Date,
        writes: inout [DeliveryWrite]
    ) -> DeliveryStep {
        if let pausedBecause, trigger != .manual { return finish(&flush, .misconfigured(pausedBecause)) }
        pausedBecause = nil
        if let until = serverNotBefore, until > now { return finish(&flush, .backingOff(until: until)) }
        if let until = notBefore, until > now, !trigger.skipsBackoff { return finish(&flush, .backingOff(until: until)) }
        flush.kind = .record
        let confirmed = Set(flush.report.acknowledged)
        flush.acknowledgements = acknowledgements.filter { !confirmed.contains($0) }
        return .fetchCredential
    }

    /// The drain's credential has come, and with it the configuration of the drain (the runner may
    /// change ``configuration`` at each ``DeliveryStep/fetchCredential``): an endpoint that takes no
    /// acknowledgements has them forgotten now; then the first batch is claimed.
    private mutating func credentialed(_ flush: inout Flush, _ state: CredentialState, writes: inout [DeliveryWrite]) -> DeliveryStep {
        flush.credential = state
        if !configuration.acceptsAcknowledgements && !flush.acknowledgements.isEmpty {
            writes.append(.confirmAcknowledged(flush.acknowledgements))
            flush.report.acknowledged += flush.acknowledgements
            flush.acknowledgements = []
        }
        return claim(&flush)
    }

    // MARK: Advancing

    private mutating func advance(
        _ flush: inout Flush, with input: DeliveryInput, now: Date, jitter: () -> Double, writes: inout [DeliveryWrite]
    ) -> DeliveryStep {
        let name = configuration.endpointName
        switch input {
        case .flush:
            return .joinRunningFlush
        case .credential(let state):
            return credentialed(&flush, state, writes: &writes)
        case .credentialFailed(let reason):
            return fail(&flush, "could not get a credential for \(name): \(reason)", retryAfter: nil, now: now, jitter: jitter)
        case .claimed(let ids):
            if ids.isEmpty && flush.acknowledgements.isEmpty { return drained(&flush, now: now, writes: &writes) }
            return send(&flush, ids)
        case .replied(let reply, let url):
            return judge(&flush, reply, url: url, now: now, jitter: jitter, writes: &writes)
        case .unanswered(let reason):
            writes.append(.release(flush.kind, flush.batch))
            return fail(&flush, "no answer from \(name): \(reason)", retryAfter: nil, now: now, jitter: jitter)
        case .interpreted(let outcome):
            if let unreadable = outcome.unreadable {
                writes.append(.release(flush.kind, flush.batch))
                return fail(&flush, "\(name) \(unreadable)", retryAfter: nil, now: now, jitter: jitter)
            }
            if !outcome.delivered.isEmpty { writes.append(.delivered(flush.kind, outcome.delivered)) }
            if !outcome.rejected.isEmpty { writes.append(.rejected(flush.kind, outcome.rejected, at: now)) }
            // What the answer settles neither way goes back to pending now, not when its lease ends.
            let answered = Set(outcome.delivered).union(outcome.rejected.keys)
            let unsettled = flush.batch.filter { !answered.contains($0) }
            if !unsettled.isEmpty { writes.append(.release(flush.kind, unsettled)) }
            if !flush.acknowledgements.isEmpty {
                writes.append(.confirmAcknowledged(flush.acknowledgements))
                flush.report.acknowledged += flush.acknowledgements
            }
            if !outcome.commands.isEmpty { writes.append(.keepCommands(outcome.commands, at: now)) }
            return settled(&flush, outcome)
        case .refreshed(let state):
            if state == .signedOut {
                writes.append(.release(flush.kind, flush.batch))
                return finish(&flush, .signedOut)
            }
            flush.credential = state
            return resend(&flush)
        case .refreshFailed(let reason):
            writes.append(.release(flush.kind, flush.batch))
            return fail(&flush, "could not refresh the credential for \(name): \(reason)", retryAfter: nil, now: now, jitter: jitter)
        case .storeFailed(let reason):
            return finish(&flush, .storeError(reason))
        case .outOfTime:
            // At a claim nothing is leased; at a request, the batch and its split halves are.
            let leased = flush.batch + flush.halves.joined()
            if !leased.isEmpty { writes.append(.release(flush.kind, leased)) }
            flush.batch = []
            flush.halves = []
            return finish(&flush, .outOfTime)
        }
    }

    /// What the server's answer to the batch in flight settles, and what comes next.
    private mutating func judge(
        _ flush: inout Flush, _ reply: HTTPReply, url: String, now: Date, jitter: () -> Double, writes: inout [DeliveryWrite]
    ) -> DeliveryStep {
        let name = configuration.endpointName
        let batch = flush.batch
        switch UploadVerdict.classify(reply, now: now) {
        case .delivered:
            return .interpret(flush.kind, batch, reply)
        case .refreshCredential where !flush.refreshed:
            flush.refreshed = true
            return .refreshCredential
        case .refreshCredential:
            writes.append(.release(flush.kind, batch))
            return fail(&flush, "\(name) refused the credential even after a refresh (401)", retryAfter: nil, now: now, jitter: jitter)
        case .split where batch.count > 1:
            let half = batch.count / 2
            flush.halves.append(Array(batch[half...]))
            return send(&flush, Array(batch[..<half]))
        case .split:
            guard let only = batch.first else {
                return fail(&flush, "\(name) refused an empty request as too large (413)", retryAfter: nil, now: now, jitter: jitter)
            }
            let rejection = Rejection(
                status: 413, reason: "a single \(flush.kind.rawValue) is larger than the server accepts: \(reply.bodyPrefix)")
            writes.append(.rejected(flush.kind, [only: rejection], at: now))
            return settled(&flush, DeliveryOutcome(delivered: [], rejected: [only: rejection]))
        case .retry(let after):
            writes.append(.release(flush.kind, batch))
            return fail(&flush, "\(name) answered \(reply.status)", retryAfter: after, now: now, jitter: jitter)
        case .misconfigured(let status):
            writes.append(.release(flush.kind, batch))
            return pause(
                &flush, "\(name) answered \(status) at \(url): no upload endpoint there, so the upload URL is wrong",
                fix: "Fix the upload URL (the server's base URL, e.g. http://127.0.0.1:8080)")
        case .badDevice(let reason):
            writes.append(.release(flush.kind, batch))
            return pause(
                &flush, "\(name) refused the device id of \(url) (400 bad_device_id: \(reason))",
                fix: "Fix the device id (the name given to `whereabouts-server device add`)")
        case .forbidden(let reason):
            writes.append(.release(flush.kind, batch))
            return pause(
                &flush, "\(name) refused the credential's access to \(url) (403: \(reason))",
                fix: "Give the device's own credential (not an admin's or another device's) or let it write there")
        case .reject(let rejection):
            let rejected = Dictionary(uniqueKeysWithValues: batch.map { ($0, rejection) })
            writes.append(.rejected(flush.kind, rejected, at: now))
            return settled(&flush, DeliveryOutcome(delivered: [], rejected: rejected))
        }
    }

    private func claim(_ flush: inout Flush) -> DeliveryStep {
        flush.batch = []
        if flush.credential == .signedOut { return finish(&flush, .signedOut) }
        return .claim(flush.kind, limit: configuration.batchLimit)
    }

    private func send(_ flush: inout Flush, _ batch: [UUID]) -> DeliveryStep {
        flush.batch = batch
        flush.refreshed = false
        return resend(&flush)
    }

    private func resend(_ flush: inout Flush) -> DeliveryStep {
        flush.report.requests += 1
        return .send(flush.kind, flush.batch, acknowledging: flush.acknowledgements, credential: flush.credential.credential)
    }

    /// The batch in flight is settled: the acknowledgements went with it, so later requests carry
    /// none; the next split half goes out, else the next batch is claimed.
    private func settled(_ flush: inout Flush, _ outcome: DeliveryOutcome) -> DeliveryStep {
        flush.report.settle(outcome, kind: flush.kind)
        flush.acknowledgements = []
        if let half = flush.halves.popLast() {
            flush.batch = half
            flush.refreshed = false
            return resend(&flush)
        }
        return claim(&flush)
    }

    /// Nothing of this kind is pending: events follow records, and then the drain is over.
    private mutating func drained(_ flush: inout Flush, now: Date, writes: inout [DeliveryWrite]) -> DeliveryStep {
        if flush.kind == .record && configuration.acceptsEvents {
            flush.kind = .event
            return claim(&flush)
        }
        failures = 0
        notBefore = nil
        guard let again = flush.rerun else { return finish(&flush, nil) }
        flush.rerun = nil
        return open(&flush, trigger: again, acknowledging: flush.rerunAcknowledgements, now: now, writes: &writes)
    }

    // MARK: Stopping

    /// A failure: back off (never sooner than the server asked) and stop the flush.
    private mutating func fail(
        _ flush: inout Flush, _ message: String, retryAfter: TimeInterval?, now: Date, jitter: () -> Double
    ) -> DeliveryStep {
        failures += 1
        let delay = configuration.backoff.delay(afterFailures: failures, retryAfter: retryAfter, unit: jitter())
        let retryAt = now.addingTimeInterval(delay)
        notBefore = retryAt
        serverNotBefore = retryAfter.map { now.addingTimeInterval($0) }
        return finish(&flush, .failed(message, retryAt: retryAt))
    }

    /// A fault of the request itself (its URL, its device id): nothing is rejected, uploads pause.
    private mutating func pause(_ flush: inout Flush, _ problem: String, fix: String) -> DeliveryStep {
        let message = "\(problem); nothing was rejected, the records stay pending and uploads are paused. \(fix), then flush again"
        pausedBecause = message
        return finish(&flush, .misconfigured(message))
    }

    /// Ends the flush with `stop`; ``handle(_:now:jitter:)`` hands back the split halves not sent.
    private func finish(_ flush: inout Flush, _ stop: FlushStop?) -> DeliveryStep {
        flush.report.stoppedBy = stop
        return .finished(flush.report)
    }
}

extension DeliveryStep {
    /// Whether the flush is over with this step.
    fileprivate var endsFlush: Bool {
        if case .finished = self { true } else { false }
    }
}
