/// Polls `condition` every 20 ms until it holds, giving up after `limit` seconds' worth of polls (a
/// guard against hanging, not a timing assertion); returns whether it held.
///
/// The polls are counted, not timed. The tests of a process share Swift's cooperative threads (two
/// on a 2-core machine): while other tests hold them, neither this loop nor the tasks it waits for
/// can run, and a deadline on the clock would expire before the condition had a chance to come true.
@discardableResult
public func eventually(within limit: Double = 20, _ condition: () async throws -> Bool) async rethrows -> Bool {
    for _ in 0..<Int((limit / 0.02).rounded(.up)) {
        if try await condition() { return true }
        try? await Task.sleep(nanoseconds: 20_000_000)
    }
    return try await condition()
}
