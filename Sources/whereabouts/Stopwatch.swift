import Foundation

/// Times short operations one by one and summarises them, net of the clock's own cost.
struct Stopwatch {
    private let clock = ContinuousClock()
    private let overhead: Double

    init() {
        var samples: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<1000 {
            let start = clock.now
            samples.append(Self.seconds(clock.now - start))
        }
        overhead = samples.sorted()[500]
    }

    /// Seconds `body` took, net of the clock's overhead.
    func time(_ body: () -> Void) -> Double {
        let start = clock.now
        body()
        return max(0, Self.seconds(clock.now - start) - overhead)
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// Median and 99th percentile of `samples`, in microseconds.
    static func summary(_ samples: [Double]) -> (median: Double, p99: Double) {
        let sorted = samples.sorted()
        guard !sorted.isEmpty else { return (0, 0) }
        return (sorted[sorted.count / 2] * 1e6, sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.99))] * 1e6)
    }
}

/// The process's resident memory in bytes (Linux `/proc/self/statm`; 0 where unavailable).
func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = text.split(separator: " ")
    return fields.count > 1 ? (Int(fields[1]) ?? 0) * 4096 : 0
}
