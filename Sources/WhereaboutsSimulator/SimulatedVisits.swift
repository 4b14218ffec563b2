import Foundation
import WhereaboutsCore

/// The visit monitoring of the simulated phone, as `evaluation.md` specifies: an arrival is reported
/// 3–10 min (seeded) after the truth has stayed 5 min within 100 m, a departure 1–5 min after it leaves
/// 150 m from there; each with a Wi-Fi quality position (σ ≈ 50 m) of the place.
struct SimulatedVisits {
    private var anchor: (position: Coordinate, time: Double)?
    private var place: (center: Coordinate, arrival: Double)?
    private var due: [(time: Double, arrival: Double?, departure: Double?, center: Coordinate)] = []

    /// Follows the truth at second `t`; returns the visits reported then.
    mutating func step(at t: Double, position: Coordinate, random: inout SeededGenerator) -> [Visit] {
        if let current = place {
            if Geodesy.distance(current.center, position) > 150 {
                due.append((t + random.uniform(60...300).rounded(), current.arrival, t, current.center))
                place = nil
                anchor = (position, t)
            }
        } else if let stay = anchor, Geodesy.distance(stay.position, position) <= 100 {
            if t - stay.time >= 300 {
                place = (stay.position, stay.time)
                due.append((t + random.uniform(180...600).rounded(), stay.time, nil, stay.position))
            }
        } else {
            anchor = (position, t)
        }
        var reported: [Visit] = []
        while let next = due.first, next.time <= t {
            due.removeFirst()
            let fix = SimulatedLocationService.noisyFix(
                next.center, sigma: 50, accuracy: random.uniform(50...100), source: .wifi, speed: nil, next.arrival ?? next.departure!,
                &random)
            reported.append(
                Visit(
                    fix: fix, arrival: next.arrival.map(Date.init(timeIntervalSince1970:)),
                    departure: next.departure.map(Date.init(timeIntervalSince1970:))))
        }
        return reported
    }
}
