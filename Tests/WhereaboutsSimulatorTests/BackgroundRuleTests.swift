import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsSimulator

@Suite("Background execution rule")
struct BackgroundRuleTests {
    typealias S = SimFixtures

    @Test("without updates the app is suspended, and a sleep that came due waits for the next wake")
    func sleepsWaitForWake() async throws {
        let phone = SimulatedPhone(truth: S.path(still: 3000, speed: 10, moving: 3000), seed: 1)
        phone.configure(LocationRequest(standard: nil, significantChange: true))
        let clock = phone.clock
        let woke = Stamp()
        _ = clock.spawn {
            try? await clock.sleep(Date(timeIntervalSince1970: S.start + 100))
            woke.set(clock.now().timeIntervalSince1970 - S.start)
        }
        await phone.advance(to: S.start + 3400)
        let firedAt = try #require(woke.value)
        #expect(firedAt > 3000, "the significant change once the device has moved 500 m is the first wake after 100 s")
        #expect(phone.diagnostics.timersFiredLate == 1)
        #expect(phone.diagnostics.wakes >= 2)
        #expect(phone.timeline.contains { if case .wake = $0 { return true } else { return false } })
    }

    @Test("with standard updates on the app keeps running")
    func runningWithUpdates() async throws {
        let outcome = try await Simulation(
            truth: S.path(moving: 600), regions: [], configuration: TrackerConfiguration(mode: .continuous()), seed: 1
        ).run()
        let states = outcome.run.timeline.compactMap { if case .app(let t, let s) = $0 { return (t, s) } else { return nil } }
        #expect(states.map(\.1) == [.running, .suspended], "running until the run ends with the app")
        #expect(states.last?.0 == S.start + 600)
    }
}

/// A time noted by one task and read by another.
final class Stamp: @unchecked Sendable {
    private let lock = NSLock()
    private var stamped: Double?

    var value: Double? { lock.withLock { stamped } }

    func set(_ value: Double) { lock.withLock { stamped = value } }
}
