import Foundation

/// The per-mode rule deciding whether an accepted fix becomes a record.
public enum RecordPolicy {
    /// Whether `mode` records `fix`, given the last recorded fix (if any).
    ///
    /// - `manual`: never (only requested fixes are recorded).
    /// - `significant`: the first fix, then at least 500 m and 300 s after the last record.
    /// - `move(x, y)`: at least x metres **or** y seconds after the last record.
    /// - `interval(y, x, f)`: at least y seconds **and** x metres after the last record (f metres while
    ///   `inForeground`).
    /// - `continuous` and `adaptive`: every fix, though one within the merge radius of the last
    ///   record (25 m plus half the two fixes' accuracies) is merged into it, moving or not, unless an
    ///   adaptive preset keeps it for the track's shape.
    public static func shouldRecord(_ fix: Fix, mode: TrackingMode, lastRecord: Fix?, inForeground: Bool = false) -> Bool {
        guard let last = lastRecord else { return mode != .manual }
        let distance = Geodesy.distance(last.coordinate, fix.coordinate)
        let elapsed = fix.timestamp.timeIntervalSince(last.timestamp)
        switch mode {
        case .manual: return false
        case .significant: return distance >= 500 && elapsed >= 300
        case .move(let x, let y): return distance >= x || elapsed >= y
        case .interval(let y, let x, let foreground):
            let needed = inForeground ? foreground ?? min(TrackingMode.defaultForegroundDisplacement, x) : x
            return elapsed >= y && distance >= needed
        case .continuous, .adaptive: return true
        }
    }

    /// The speed in metres per second from which a fix shows the device moving: it ends a stay even
    /// within the merge radius (walking is about 1.4 m/s; a still receiver's speed noise stays below).
    public static let stillSpeed: Double = 1

    /// The pace in metres per second assumed for a device seen leaving only by a distant fix without
    /// a speed: walking, the slowest common way to travel, so the stay it leaves is never claimed
    /// longer than the evidence allows.
    public static let walkingSpeed: Double = 1.4

    /// Whether `fix` reports a speed of at least ``stillSpeed`` (a fix without a speed does not).
    public static func isMoving(_ fix: Fix) -> Bool { (fix.speed ?? 0) >= stillSpeed }

    /// The coarsest accuracy in metres of a fix that adds shape (``addsShape(_:after:base:)``): a
    /// GPS-grade fix. Wi-Fi fixes (30–65 m) recorded densely made the track worse, not better: the
    /// line between two noisy positions lies nearer the truth than the noisy positions between them
    /// (112 scenarios at seed 7: balanced 34.5 → 34.9 m, efficient 41.1 → 43.5 m).
    public static let shapeAccuracy: Double = 20

    /// Whether `fix`, taken while the device moves, adds shape to a track whose last record is `last`,
    /// though it lies within the merge radius (``mergeRadius(base:_:_:)``), which is grown by both
    /// accuracies for a still device's noise: the fix is GPS-grade (``shapeAccuracy``) and lies
    /// further than both `base` and its own accuracy from `last`. GPS fixes a second apart at a
    /// boundary otherwise merge for 25–35 m, so the adaptive modes paid for positions they did not keep.
    public static func addsShape(_ fix: Fix, after last: Fix, base: Double) -> Bool {
        fix.horizontalAccuracy <= shapeAccuracy && Geodesy.distance(last.coordinate, fix.coordinate) >= max(base, fix.horizontalAccuracy)
    }

    /// The merge radius in metres between two fixes: the base radius grown by half of each accuracy,
    /// so noisy fixes of a still device merge and precise fixes of a moving one do not.
    public static func mergeRadius(base: Double, _ a: Fix, _ b: Fix) -> Double {
        base + 0.5 * (a.horizontalAccuracy + b.horizontalAccuracy)
    }
}
