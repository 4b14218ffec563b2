import Foundation

/// The faults a ``FaultProxy`` still has to play, one request each, in order.
public actor FaultScript {
    private var faults: [Fault] = []
    /// Requests the proxy received.
    public private(set) var requests = 0

    /// Queues faults after those already queued.
    public func add(_ more: [Fault]) { faults += more }

    /// Drops the faults not yet played and returns how many there were.
    public func clear() -> Int {
        defer { faults.removeAll() }
        return faults.count
    }

    func next() -> Fault? {
        requests += 1
        return faults.isEmpty ? nil : faults.removeFirst()
    }
}
