import Foundation
import WhereaboutsCore

/// Performs the uploads a ``DeliveryMachine`` decides: claims pending records and events from the
/// store under leases, sends each request, reads the answers and writes what they settle.
///
/// The uploader decides nothing and keeps no timer. Back-off, pauses, 413 splits, credential refresh
/// and what each answer settles are the machine's rules; after a failure the report names the time
/// to flush again (``FlushStop/failed(_:retryAt:)``), which the engine's session keeps among its
/// deadlines. Flushes are serialised: a flush asked for while one runs is folded into it and returns
/// that flush's report. Time comes from the ``EngineClock`` the engine shares, so a simulated phone
/// drives the uploader in virtual time.
public actor Uploader {
    private let queue: any DeliveryQueue
    private let endpoint: any UploadEndpoint
    /// The endpoint of the drain under way (``UploadEndpoint/snapshot()``), taken as it fetches its
    /// credential, when the machine is given that endpoint's batch size and acknowledgements.
    private var drainEndpoint: any UploadEndpoint
    private let transport: any HTTPTransport
    private let credentials: any CredentialProvider
    private let configuration: UploaderConfiguration
    private let clock: EngineClock
    private let jitter: @Sendable () -> Double
    private var machine: DeliveryMachine
    /// The items of the batch claimed last, by id, to build its requests from.
    private var claimed: [UUID: ClaimedItem] = [:]
    private var waiters: [CheckedContinuation<FlushReport, Never>] = []
    /// While a drain runs: its deadline, after which flushes claim and send nothing more.
    private var claimsEnd: Date?
    private let reportHandler = ReportHandler()
    /// Where uploads go and the credential, when the endpoint and credentials read them from memory
    /// (the bridge's uploader): the engine keeps it equal to its session's.
    public nonisolated let account: UploadAccountBox?

    /// An item leased for the flush under way.
    private enum ClaimedItem {
        case record(LocationRecord)
        case event(EventRecord)

        var id: UUID {
            switch self {
            case .record(let record): record.id
            case .event(let event): event.id
            }
        }
    }

    /// Creates an uploader. `jitter` draws the random share of each back-off delay, in [0, 1); `account`
    /// is the place `endpoint` and `credentials` read the app's upload settings from, if they do.
    public init(
        queue: any DeliveryQueue, endpoint: any UploadEndpoint, transport: any HTTPTransport = URLSessionTransport(),
        credentials: any CredentialProvider = FixedCredential.none, configuration: UploaderConfiguration = .init(),
        clock: EngineClock = .system, jitter: @escaping @Sendable () -> Double = { Double.random(in: 0..<1) },
        account: UploadAccountBox? = nil
    ) {
        self.queue = queue
        self.endpoint = endpoint
        self.transport = transport
        self.credentials = credentials
        self.configuration = configuration
        self.clock = clock
        self.jitter = jitter
        self.account = account
        self.drainEndpoint = endpoint.snapshot()
        self.machine = DeliveryMachine(configuration: Self.machineConfiguration(drainEndpoint, queue: queue, configuration))
    }

    /// What the machine must know of `endpoint`, read again at each drain of the queue: an endpoint
    /// read from settings (the bridge's) changes when the app configures uploads.
    private static func machineConfiguration(
        _ endpoint: any UploadEndpoint, queue: any DeliveryQueue, _ configuration: UploaderConfiguration
    ) -> DeliveryMachine.Configuration {
        DeliveryMachine.Configuration(
            endpointName: endpoint.name, batchLimit: min(configuration.batchSize, endpoint.maxBatchSize), backoff: configuration.backoff,
            acceptsAcknowledgements: endpoint.acceptsAcknowledgements, acceptsEvents: endpoint.acceptsEvents && queue is any EventQueue)
    }

    /// Hands every flush's report to `handler` as the flush ends, within the flush (the engine learns
    /// which records were settled, which commands arrived and when to retry), replacing an earlier handler.
    public nonisolated func setReportHandler(_ handler: @escaping @Sendable (FlushReport) async -> Void) {
        reportHandler.set(handler)
    }

    /// Sends pending records until the queue is empty or something stops it; the first request
    /// carries `acknowledgements`, the ids of the commands carried out and not yet acknowledged
    /// (``Session/unacknowledgedCommands``; the report's ``FlushReport/acknowledged`` says which the
    /// server took).
    @discardableResult
    public func flush(_ trigger: UploadTrigger, acknowledging acknowledgements: [String]) async -> FlushReport {
        var decision = decide(.flush(trigger, acknowledging: acknowledgements))
        while true {
            var input: DeliveryInput
            do {
                try perform(decision.writes)
                switch decision.next {
                case .joinRunningFlush:
                    return await withCheckedContinuation { waiters.append($0) }
                case .finished(let report):
                    claimed.removeAll()
                    // Those that joined this flush, taken before the handler's wait, during which a
                    // new flush may start and others join that one.
                    let joined = waiters
                    waiters.removeAll()
                    await reportHandler.current?(report)
                    for waiter in joined { waiter.resume(returning: report) }
                    return report
                case .fetchCredential:
                    drainEndpoint = endpoint.snapshot()
                    machine.configuration = Self.machineConfiguration(drainEndpoint, queue: queue, configuration)
                    do { input = .credential(try await credentials.current()) } catch { input = .credentialFailed("\(error)") }
                case .refreshCredential:
                    do { input = .refreshed(try await credentials.refreshed()) } catch { input = .refreshFailed("\(error)") }
                case .claim(let kind, let limit):
                    input = pastDeadline ? .outOfTime : .claimed(try claim(kind, limit: limit))
                case .send(let kind, let ids, let acknowledgements, let credential):
                    input = pastDeadline ? .outOfTime : await send(kind, ids, acknowledging: acknowledgements, credential: credential)
                case .interpret(let kind, let ids, let reply):
                    input = .interpreted(interpret(reply, kind: kind, ids: ids))
                }
            } catch {
                input = .storeFailed("\(error)")
            }
            decision = decide(input)
        }
    }

    /// Flushes, waiting out back-off between attempts, until nothing is pending, the user is signed
    /// out, or `deadline` passes: for a background task or a process about to exit. `acknowledgements`
    /// go as with ``flush(_:acknowledging:)``, until the server takes them.
    ///
    /// No batch is claimed after `deadline`, by this drain's flushes or one already running, so the
    /// drain ends by `deadline` plus one request's timeout, however large the backlog or however fast
    /// new records arrive; what was not sent stays pending.
    public func drain(until deadline: Date, trigger: UploadTrigger = .stopped, acknowledging acknowledgements: [String]) async
        -> FlushReport
    {
        claimsEnd = deadline
        defer { claimsEnd = nil }
        var total = FlushReport(trigger: trigger)
        while true {
            let taken = Set(total.acknowledged)
            total.add(await flush(trigger, acknowledging: acknowledgements.filter { !taken.contains($0) }))
            guard let wakeAt = DeliveryMachine.resumeTime(after: total, before: deadline) else { return total }
            do { try await clock.sleep(wakeAt) } catch { return total }
        }
    }

    /// Whether a drain's deadline has passed: then nothing more is claimed or sent.
    private var pastDeadline: Bool { claimsEnd.map { clock.now() >= $0 } ?? false }

    private func decide(_ input: DeliveryInput) -> DeliveryDecision {
        let jitter = jitter
        return machine.handle(input, now: clock.now(), jitter: { jitter() })
    }

    private func claim(_ kind: DeliveryItemKind, limit: Int) throws -> [UUID] {
        let now = clock.now()
        let items: [ClaimedItem]
        switch kind {
        case .record:
            items = try queue.claim(limit: limit, order: configuration.order, now: now, lease: configuration.lease).map { .record($0) }
        case .event:
            guard let events = queue as? any EventQueue else { return [] }
            items = try events.claimEvents(limit: limit, now: now, lease: configuration.lease).map { .event($0) }
        }
        // A claim comes once the previous batch and its split halves are settled: only this one's items are kept.
        claimed.removeAll(keepingCapacity: true)
        var ids: [UUID] = []
        for item in items {
            ids.append(item.id)
            claimed[item.id] = item
        }
        return ids
    }

    private func send(_ kind: DeliveryItemKind, _ ids: [UUID], acknowledging acknowledgements: [String], credential: Credential?) async
        -> DeliveryInput
    {
        let request: OutgoingRequest
        do {
            switch kind {
            case .record: request = try drainEndpoint.request(for: records(ids), acknowledging: acknowledgements, credential: credential)
            case .event: request = try drainEndpoint.eventRequest(for: events(ids), credential: credential)
            }
            let reply = try await transport.send(request, timeout: configuration.requestTimeout)
            return .replied(reply, url: request.url.absoluteString)
        } catch {
            return .unanswered(error.localizedDescription)
        }
    }

    private func interpret(_ reply: HTTPReply, kind: DeliveryItemKind, ids: [UUID]) -> DeliveryOutcome {
        switch kind {
        case .record: drainEndpoint.interpret(reply, for: records(ids))
        case .event: drainEndpoint.interpretEvents(reply, for: events(ids))
        }
    }

    private func perform(_ writes: [DeliveryWrite]) throws {
        for write in writes {
            switch write {
            case .delivered(.record, let ids): try queue.markDelivered(ids)
            case .rejected(.record, let rejections, let date): try queue.markRejected(rejections, at: date)
            case .release(.record, let ids): try queue.release(ids)
            case .delivered(.event, let ids): try eventQueue().markEventsDelivered(ids)
            case .rejected(.event, let rejections, let date): try eventQueue().markEventsRejected(rejections, at: date)
            case .release(.event, let ids): try eventQueue().releaseEvents(ids)
            case .confirmAcknowledged(let ids): try queue.confirmAcknowledged(ids)
            case .keepCommands(let commands, let date): try queue.enqueueCommands(commands, at: date)
            }
        }
    }

    private func eventQueue() throws -> any EventQueue {
        guard let events = queue as? any EventQueue else {
            throw ValidationError(
                field: "queue", value: "\(type(of: queue))", problem: "keeps no region events", fix: "pass a store that does")
        }
        return events
    }

    private func records(_ ids: [UUID]) -> [LocationRecord] {
        ids.compactMap { if case .record(let record) = claimed[$0] { record } else { nil } }
    }

    private func events(_ ids: [UUID]) -> [EventRecord] {
        ids.compactMap { if case .event(let event) = claimed[$0] { event } else { nil } }
    }
}

/// The uploader's report handler, set from outside the actor (by an engine as it launches).
private final class ReportHandler: @unchecked Sendable {
    private let lock = NSLock()
    private var handler: (@Sendable (FlushReport) async -> Void)?

    func set(_ handler: @escaping @Sendable (FlushReport) async -> Void) { lock.withLock { self.handler = handler } }

    var current: (@Sendable (FlushReport) async -> Void)? { lock.withLock { handler } }
}
