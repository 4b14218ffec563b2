import ArgumentParser

/// `whereabouts bench …`: benchmarks that report ratios against a baseline run in the same process.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Benchmark parts of the engine against a baseline run in the same process.",
        subcommands: [BenchTracker.self, BenchGeofence.self, BenchDelivery.self, BenchFaults.self])
}
