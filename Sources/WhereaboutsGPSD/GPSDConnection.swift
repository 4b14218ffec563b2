import Foundation
import Logging
import Whereabouts
import WhereaboutsCore

/// The state and the worker thread behind ``GPSDLocationService``.
///
/// One thread per service connects to gpsd, reads, decodes and yields events; blocking socket calls
/// therefore never occupy Swift's cooperative pool. Everything the thread and the service's methods
/// share is guarded by `condition`, which is why the class is `@unchecked Sendable`. Events are
/// yielded while the lock is held, so they keep the order of the lines they come from.
final class GPSDConnection: @unchecked Sendable {
    let endpoint: GPSDEndpoint
    private let backoff: GPSDBackoff
    private let connectTimeout: Double
    private let logger: Logger
    /// The time regions are monitored from: the engine's clock.
    private let now: @Sendable () -> Date
    /// Set from each fix's time before the fix is routed, when the service follows the receiver's time.
    private let gpsTime: GPSTime?
    private let continuation: AsyncStream<LocationServiceEvent>.Continuation
    private let wake = GPSDWakePipe()
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var router = GPSDFixRouter()
    private var decoder = GPSDDecoder()
    private var watching = false
    private var stopping = false
    private var finished = false
    private var finishWaiters: [CheckedContinuation<Void, Never>] = []

    /// Why one connection ended.
    private enum Outcome: Equatable {
        /// Nothing wants fixes any more; the watch was switched off.
        case idle
        /// The service is shutting down.
        case stopping
        /// Connecting failed or the connection broke; `receivedData` tells whether gpsd answered first.
        case failed(problem: String, receivedData: Bool)
    }

    init(
        endpoint: GPSDEndpoint, backoff: GPSDBackoff, connectTimeout: Double, logger: Logger, now: @escaping @Sendable () -> Date,
        gpsTime: GPSTime?, continuation: AsyncStream<LocationServiceEvent>.Continuation
    ) {
        self.endpoint = endpoint
        self.backoff = backoff
        self.connectTimeout = connectTimeout
        self.logger = logger
        self.now = now
        self.gpsTime = gpsTime
        self.continuation = continuation
    }

    /// Starts the worker thread.
    func start() {
        let thread = Thread { [self] in run() }
        thread.name = "Whereabouts \(endpoint)"
        thread.start()
    }

    // MARK: Requests from the service

    func configure(_ request: LocationRequest) { change { $0.configure(request) } }

    func requestOneShot() { change { $0.requestOneShot() } }

    func monitor(_ regions: [MonitoredRegion]) {
        let start = now()
        change { $0.monitor(regions, at: start) }
    }

    var statistics: GPSDStatistics { locked { decoder.statistics } }

    var isWatching: Bool { locked { watching } }

    /// Asks the worker to stop without waiting for it.
    func requestStop() {
        locked {
            stopping = true
            condition.broadcast()
        }
        wake?.wake()
    }

    /// Stops the worker, waits until it has closed the connection and finished the event stream.
    func shutdown() async {
        requestStop()
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let done: Bool = locked {
                if !finished { finishWaiters.append(waiter) }
                return finished
            }
            if done { waiter.resume() }
        }
    }

    private func change(_ update: (inout GPSDFixRouter) -> Void) {
        let wantedChanged: Bool = locked {
            let before = router.wantsFixes
            update(&router)
            if before != router.wantsFixes { condition.broadcast() }
            return before != router.wantsFixes
        }
        if wantedChanged { wake?.wake() }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    // MARK: The worker thread

    private func run() {
        var failuresInRow = 0
        var lastReported: String?
        loop: while waitUntilWanted() {
            switch watchOnce() {
            case .idle:
                continue
            case .stopping:
                break loop
            case .failed(let problem, let receivedData):
                if receivedData {
                    failuresInRow = 0
                    lastReported = nil
                }
                failuresInRow += 1
                let delay = backoff.delay(afterFailures: failuresInRow)
                locked { decoder.statistics.connectionFailures += 1 }
                let failure = LocationServiceFailure(
                    source: endpoint.description, problem: problem,
                    fix: "reconnecting in \(Self.seconds(delay)), then at intervals growing to \(Self.seconds(backoff.maximum)); "
                        + "start gpsd or check that it listens on \(endpoint.host) port \(endpoint.port)")
                if problem != lastReported {
                    lastReported = problem
                    continuation.yield(.failure(failure))
                    logger.warning("\(failure)")
                } else {
                    logger.info("\(endpoint): \(problem) again (attempt \(failuresInRow)); reconnecting in \(Self.seconds(delay))")
                }
                pause(delay)
            }
        }
        let waiters: [CheckedContinuation<Void, Never>] = locked {
            finished = true
            defer { finishWaiters = [] }
            return finishWaiters
        }
        continuation.finish()
        for waiter in waiters { waiter.resume() }
    }

    /// Blocks until something wants fixes; `false` when the service is stopping instead.
    private func waitUntilWanted() -> Bool {
        locked {
            while !stopping && !router.wantsFixes { condition.wait() }
            return !stopping
        }
    }

    /// Waits `delay` seconds before reconnecting, or less when the service stops or nothing wants
    /// fixes any more.
    private func pause(_ delay: Double) {
        let deadline = Date(timeIntervalSinceNow: delay)
        locked {
            while !stopping && router.wantsFixes && Date() < deadline { _ = condition.wait(until: deadline) }
        }
    }

    /// Whether the connection should end, and how.
    private func endReason() -> Outcome? {
        locked { stopping ? .stopping : router.wantsFixes ? nil : .idle }
    }

    private enum Connection {
        case open(GPSDSocket)
        case ended(Outcome)
    }

    /// Connects; a wake-up while connecting restarts the attempt unless the connection is no longer wanted.
    private func connect() -> Connection {
        while true {
            do {
                let socket = try GPSDSocket.connect(
                    host: endpoint.host, port: endpoint.port, timeout: connectTimeout, wake: wake)
                return endReason().map { .ended($0) } ?? .open(socket)
            } catch {
                switch error {
                case .interrupted:
                    if let end = endReason() { return .ended(end) }
                case .failed(let problem):
                    return .ended(endReason() ?? .failed(problem: problem, receivedData: false))
                }
            }
        }
    }

    /// Connects, watches and reads until the connection breaks or is no longer wanted.
    private func watchOnce() -> Outcome {
        let socket: GPSDSocket
        switch connect() {
        case .open(let opened): socket = opened
        case .ended(let outcome): return outcome
        }
        locked {
            decoder.statistics.connections += 1
            watching = true
        }
        defer { locked { watching = false } }
        logger.notice("connected to \(endpoint); watching its JSON reports")
        var receivedData = false
        do throws(GPSDSocketError) {
            try socket.send(#"?WATCH={"enable":true,"json":true}"# + "\n")
            var splitter = GPSDLineSplitter()
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                if let end = endReason() {
                    try? socket.send(#"?WATCH={"enable":false}"# + "\n")
                    logger.notice(
                        "stopped watching \(endpoint): \(end == .stopping ? "the service shuts down" : "nothing asks for positions")")
                    return end
                }
                let count: Int
                do {
                    count = try socket.receive(into: &buffer)
                } catch {
                    if error == .interrupted { continue }
                    throw error
                }
                guard count > 0 else {
                    return .failed(problem: "closed the connection", receivedData: receivedData)
                }
                receivedData = true
                handle(splitter.push(buffer[..<count]))
            }
        } catch {
            switch error {
            case .failed(let problem): return .failed(problem: problem, receivedData: receivedData)
            case .interrupted: return endReason() ?? .idle
            }
        }
    }

    /// Decodes the lines and yields their events; logs what was skipped once the lock is released.
    ///
    /// Rejected lines are logged as warnings (see ``isPowerOfTen(_:)``), gpsd's ERROR reports as
    /// warnings, other skipped reports and reports without a fix at trace level.
    private func handle(_ pieces: [GPSDLineSplitter.Piece]) {
        guard !pieces.isEmpty else { return }
        var logs: [(level: Logger.Level, message: Logger.Message)] = []
        let tracing = logger.logLevel <= .trace
        locked {
            for piece in pieces {
                let report: GPSDReport
                var text = ""
                switch piece {
                case .line(let line):
                    text = line
                    report = decoder.decode(line)
                case .overlong(let start, let byteCount):
                    report = .rejected(decoder.rejectOverlongLine(start: start, byteCount: byteCount))
                }
                switch report {
                case .fix(let fix):
                    if gpsTime?.observe(fixTime: fix.timestamp) == true {
                        decoder.statistics.clockSettings += 1
                    }
                    let routed = router.route(fix)
                    if routed.delivered {
                        decoder.statistics.delivered += 1
                    } else {
                        decoder.statistics.withheld += 1
                    }
                    for event in routed.events { continuation.yield(event) }
                case .rejected(let rejection):
                    let count = decoder.statistics.rejectedByReason[rejection.reason] ?? 0
                    logs.append(
                        (
                            Self.isPowerOfTen(count) ? .warning : .debug,
                            "\(rejection) (\(count) so far for \(rejection.reason.rawValue))"
                        ))
                case .skipped("ERROR"):
                    logs.append((.warning, "\(endpoint) reported an error: \(text); the report is skipped"))
                case .skipped(let reportClass):
                    if tracing { logs.append((.trace, "skipped a \(reportClass) report, which carries no position")) }
                case .noFix(let mode):
                    if tracing { logs.append((.trace, "skipped a TPV report in mode \(mode), which has no fix")) }
                }
            }
        }
        for entry in logs {
            logger.log(level: entry.level, entry.message, metadata: ["gpsd": "\(endpoint.host):\(endpoint.port)"])
        }
    }

    /// Rejections are logged as warnings the 1st, 10th, 100th, … time for each reason, so a receiver
    /// that sends the same bad line every second does not flood the log.
    private static func isPowerOfTen(_ count: Int) -> Bool {
        var n = count
        while n >= 10 && n % 10 == 0 { n /= 10 }
        return n == 1
    }

    /// `0.5 s`, `30 s`.
    static func seconds(_ value: Double) -> String {
        let rounded = (value * 1000).rounded() / 1000
        return rounded == rounded.rounded() && abs(rounded) < 1e15 ? "\(Int(rounded)) s" : "\(rounded) s"
    }
}
