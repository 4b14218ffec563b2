import Foundation
import Testing
import WhereaboutsTestSupport

@testable import WhereaboutsCore

@Suite("The motion history a woken app hands on: the latest departure, not a walk about the house hours ago")
struct MotionActivityWakeTests {
    private static func report(_ kind: MotionActivity.Kind, _ confidence: MotionActivity.Confidence = .high, at t: TimeInterval)
        -> MotionActivity
    {
        MotionActivity(kind: kind, confidence: confidence, start: time(t))
    }

    @Test("no reports, none handed on; no sure move, the last report alone")
    func withoutMoves() {
        #expect(MotionActivity.forwardedAtWake([]).isEmpty)
        let still = [Self.report(.stationary, at: 0), Self.report(.walking, .low, at: 60), Self.report(.stationary, at: 90)]
        #expect(Array(MotionActivity.forwardedAtWake(still)) == [still[2]])
        #expect(Array(MotionActivity.forwardedAtWake(Array(still.prefix(2)))) == [still[1]])
    }

    @Test("a walk, a drive: the whole run, from when the device set off")
    func currentRun() {
        let reports = [Self.report(.stationary, at: 0), Self.report(.walking, at: 600), Self.report(.automotive, at: 700)]
        #expect(Array(MotionActivity.forwardedAtWake(reports)) == Array(reports[1...]))
        #expect(Array(MotionActivity.forwardedAtWake(Array(reports[1...]))) == Array(reports[1...]))
    }

    @Test("a walk about the house, stillness, then the departure: from the departure on")
    func latestRun() {
        let reports = [
            Self.report(.walking, at: 0), Self.report(.stationary, at: 120), Self.report(.walking, at: 14_000),
            Self.report(.stationary, .low, at: 14_030), Self.report(.cycling, at: 14_060),
        ]
        #expect(Array(MotionActivity.forwardedAtWake(reports)) == Array(reports[2...]))
    }

    @Test("a walk to another place, then stillness there: the walk and the stillness after it")
    func arrivedElsewhere() {
        let reports = [Self.report(.stationary, at: 0), Self.report(.walking, at: 600), Self.report(.stationary, at: 1_200)]
        #expect(Array(MotionActivity.forwardedAtWake(reports)) == Array(reports[1...]))
    }
}
