import Dispatch
import Foundation

/// Waits for the first of some signals (SIGINT, SIGTERM) instead of letting them end the process, so
/// a long-running command can stop cleanly.
final class SignalWaiter: @unchecked Sendable {
    private let lock = NSLock()
    private var sources: [DispatchSourceSignal] = []
    private var received: Int32?
    private var waiter: CheckedContinuation<Int32, Never>?

    /// Starts catching `signals` now.
    init(_ signals: [Int32]) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { [weak self] in self?.deliver(number) }
            source.resume()
            sources.append(source)
        }
    }

    /// Whether the process was started with `number` ignored (`nohup` ignores SIGHUP, so that a job
    /// outlives the terminal): such a signal should stay ignored, not be caught.
    static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        #if canImport(Darwin)
            let handler = current.__sigaction_u.__sa_handler
        #else
            let handler = current.__sigaction_handler.sa_handler
        #endif
        // Handlers are C function pointers, compared by address (SIG_IGN is 1).
        return handler.map { unsafeBitCast($0, to: Int.self) } == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    private func deliver(_ number: Int32) {
        let resumed = lock.withLock { () -> CheckedContinuation<Int32, Never>? in
            if received == nil { received = number }
            defer { waiter = nil }
            return waiter
        }
        resumed?.resume(returning: number)
    }

    /// The first signal caught, once it arrives.
    func wait() async -> Int32 {
        await withCheckedContinuation { continuation in
            let already = lock.withLock { () -> Int32? in
                if received == nil { waiter = continuation }
                return received
            }
            if let already { continuation.resume(returning: already) }
        }
    }
}
