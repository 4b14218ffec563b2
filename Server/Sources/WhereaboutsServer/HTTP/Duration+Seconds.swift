/// A duration as floating-point seconds, for latency metrics and benchmarks.
extension Duration {
    /// The duration in seconds.
    public var seconds: Double { Double(components.seconds) + Double(components.attoseconds) * 1e-18 }
}
