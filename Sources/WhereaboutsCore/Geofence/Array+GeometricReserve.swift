extension Array {
    /// Makes room for `count` elements in all, growing the capacity at least twofold when it grows,
    /// so that repeated reservations cost no more than appending (a plain `reserveCapacity` grows to
    /// exactly what is asked, and copies everything each time).
    mutating func reserveCapacity(growingTo count: Int) {
        if count > capacity { reserveCapacity(Swift.max(count, 2 * capacity)) }
    }
}
