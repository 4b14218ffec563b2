import Foundation

/// The time the engine and its uploader live by, and the way they start work in the background.
///
/// The system clock runs an app: ``now`` reads the wall clock, ``sleep`` waits, ``spawn`` starts a
/// task. The simulated phone passes a clock of its own, so that no test sleeps and a ten-hour
/// scenario replays in a moment: its time moves only when the simulation moves it, a sleep ends when
/// the simulation passes the deadline while the app runs, and it counts the work begun with
/// ``spawn`` to know when the engine is done with the present moment.
public struct EngineClock: Sendable {
    /// The current time.
    public let now: @Sendable () -> Date
    /// Returns at `deadline` (or at once if it has passed); throws when the task is cancelled.
    public let sleep: @Sendable (_ deadline: Date) async throws -> Void
    /// Starts `work` in a new task and returns the task (to cancel it).
    public let spawn: @Sendable (_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>

    /// Creates a clock from its three operations.
    public init(
        now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (_ deadline: Date) async throws -> Void,
        spawn: @escaping @Sendable (_ work: @escaping @Sendable () async -> Void) -> Task<Void, Never>
    ) {
        self.now = now
        self.sleep = sleep
        self.spawn = spawn
    }

    /// The wall clock and ordinary tasks.
    public static let system = EngineClock(
        now: Date.init,
        sleep: { deadline in
            let seconds = deadline.timeIntervalSinceNow
            if seconds > 0 { try await Task.sleep(nanoseconds: UInt64(min(seconds, 1e9) * 1e9)) }
        },
        spawn: { work in Task { await work() } })

    /// Sleeps for `seconds` from now.
    public func sleep(seconds: TimeInterval) async throws {
        try await sleep(now().addingTimeInterval(max(0, seconds)))
    }
}
