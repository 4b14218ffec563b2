import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsSimulator

@Suite("A stay is recorded for as long as it lasts")
struct StayTests {
    typealias S = SimFixtures

    /// Walking east at 1.4 m/s for 30 minutes, still at the café for 30 minutes, walking on for 30.
    private static let walk: TruthPath = {
        var points: [TracePoint] = []
        var metres = 0.0
        for second in 0...5400 {
            if second < 1800 || second >= 3600 { metres += 1.4 }
            points.append(
                TracePoint(coordinate: Geodesy.destination(from: S.home, distance: metres, bearing: 90), time: S.start + Double(second)))
        }
        return TruthPath(trace: points, pad: 0)
    }()

    private static let cafe = Geodesy.destination(from: S.home, distance: 1.4 * 1801, bearing: 90)

    @Test(
        "a 30-minute stay lasts about 30 minutes in every mode that turns positioning down while still",
        arguments: [
            Strategy.adaptive, .stopDetect, .significant,
        ])
    func thirtyMinutes(_ strategy: Strategy) async throws {
        let outcome = try await Simulation(truth: Self.walk, regions: [], configuration: strategy.configuration, seed: 3).run()
        let near = outcome.run.fixes.filter { Geodesy.distance($0.fix.coordinate, Self.cafe) < 600 }
        let longest = try #require(near.map(\.dwell).max())
        #expect(longest >= 25 * 60, "\(strategy.name): the longest stay near the café is \(Int(longest)) s")
        #expect(longest <= 40 * 60, "\(strategy.name): \(Int(longest)) s claims more than the stay and the walk away")
    }

    @Test("walking on, records are not stays")
    func walkingIsNoStay() async throws {
        let outcome = try await Simulation(truth: Self.walk, regions: [], configuration: Strategy.continuous.configuration, seed: 3).run()
        let walking = outcome.run.fixes.filter { $0.fix.timestamp.timeIntervalSince1970 < S.start + 1700 }
        #expect(walking.count > 10)
        #expect(walking.allSatisfy { $0.dwell <= 5 }, "\(walking.map(\.dwell).max() ?? 0) s")
    }
}
