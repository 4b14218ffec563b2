import Foundation

/// The engine's source of time: what time it is, and a way to wait until a moment. The system clock
/// runs the engine in an app; tests and the simulated phone pass a clock they move by hand, so no
/// test sleeps.
public struct EngineClock: Sendable {
    /// The current time.
    public let now: @Sendable () -> Date
    /// Returns at `deadline` (or at once if it has passed); throws when the task is cancelled.
    public let sleep: @Sendable (_ deadline: Date) async throws -> Void

    /// Creates a clock from its two operations.
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (_ deadline: Date) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }

    /// The wall clock.
    public static let system = EngineClock(
        now: Date.init,
        sleep: { deadline in
            let seconds = deadline.timeIntervalSinceNow
            if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(seconds * 1e9)) }
        })
}
