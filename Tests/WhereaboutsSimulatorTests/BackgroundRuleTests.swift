import Foundation
import Testing
import WhereaboutsCore
@testable import WhereaboutsSimulator

@Suite("Background execution rule")
struct BackgroundRuleTests {
    typealias S = SimFixtures

    @Test("without updates the app is suspended, and a due timer waits for the next wake")
    func timersWaitForWake() throws {
        let truth = S.path(still: 3000, speed: 10, moving: 3000)
        var state = SimulationState(truth: truth, configuration: TrackerConfiguration(mode: .significant), regions: [], seed: 1)
        state.foregroundUntil = S.start + 10
        state.deliver(.command(.start), at: S.start)
        state.timers[.activeSessionEnd] = S.start + 100
        var firedAt: Double?
        for t in 0..<3400 {
            let before = state.diagnostics.timersFired
            state.step(at: S.start + Double(t))
            if state.diagnostics.timersFired > before && firedAt == nil { firedAt = Double(t) }
        }
        let fired = try #require(firedAt)
        #expect(fired > 100)
        #expect(state.diagnostics.timersFiredLate == 1)
        #expect(state.diagnostics.wakes >= 1)
        #expect(state.timeline.contains { if case .wake = $0 { return true } else { return false } })
    }

    @Test("with standard updates on the app keeps running")
    func runningWithUpdates() {
        let outcome = Simulation(truth: S.path(moving: 600), regions: [], configuration: TrackerConfiguration(mode: .continuous()), seed: 1).run()
        let states = outcome.run.timeline.compactMap { if case .app(_, let s) = $0 { return s } else { return nil } }
        #expect(states == [.running])
    }
}
