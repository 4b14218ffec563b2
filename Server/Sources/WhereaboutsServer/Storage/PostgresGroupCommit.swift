import NIOConcurrencyHelpers

/// Group commit for PostgreSQL: the writes of concurrent requests are coalesced into one
/// transaction whose statements each carry the whole group (multi-row inserts over bound arrays;
/// for `/pub`, a single statement), so a hundred `/pub` messages cost the statements and the commit
/// of one.
///
/// A write is queued; while fewer than ``concurrency`` groups are under way, the write starts one,
/// which takes every write queued by then (up to ``limit`` items). While groups commit, the writes
/// that arrive queue up, and the next group takes them. Each caller is answered only once its
/// group's transaction has committed. When a group's transaction fails as a whole (a statement's
/// error aborts a PostgreSQL transaction), each of its writes is run again alone, so one write's
/// failure is answered to that write only.
final class PostgresGroupCommit<Item: Sendable, Answer: Sendable>: Sendable {
    /// Commits a group in one transaction: one answer per item, in order (an item's own refusal,
    /// such as ``CredentialChanged``, is its `failure`); throwing fails the whole group.
    typealias Commit = @Sendable ([Item]) async throws -> [Result<Answer, any Error>]

    /// How many groups may be under way at once, on as many connections.
    let concurrency: Int
    /// The most items (as ``weight`` counts them) one group takes.
    let limit: Int
    private let weight: @Sendable (Item) -> Int
    private let state = NIOLockedValueBox(State())

    private struct State {
        var queue: [(item: Item, continuation: CheckedContinuation<Answer, any Error>)] = []
        var running = 0
    }

    /// - Parameters:
    ///   - concurrency: groups under way at once.
    ///   - limit: the largest group, in ``weight`` units.
    ///   - weight: an item's size in a group (a batch's record count; 1 for a message).
    init(concurrency: Int = 2, limit: Int, weight: @escaping @Sendable (Item) -> Int = { _ in 1 }) {
        self.concurrency = concurrency
        self.limit = limit
        self.weight = weight
    }

    /// Queues `item` and returns its answer once the transaction of the group that took it has
    /// committed; `commit` commits the groups this call starts.
    func submit(_ item: Item, commit: @escaping Commit) async throws -> Answer {
        try await withCheckedThrowingContinuation { continuation in
            let leads = state.withLockedValue { state in
                state.queue.append((item, continuation))
                guard state.running < concurrency else { return false }
                state.running += 1
                return true
            }
            if leads { Task { await drain(commit) } }
        }
    }

    /// Commits groups until the queue is empty.
    private func drain(_ commit: Commit) async {
        while let group = nextGroup() {
            let items = group.map(\.item)
            let answers: [Result<Answer, any Error>]
            do {
                answers = try await commit(items)
            } catch {
                answers = await alone(items, error: error, commit)
            }
            for (entry, answer) in zip(group, answers) { entry.continuation.resume(with: answer) }
        }
    }

    /// Takes the next group off the queue, or ends this drain (`nil`) when none is queued.
    private func nextGroup() -> [(item: Item, continuation: CheckedContinuation<Answer, any Error>)]? {
        state.withLockedValue { state in
            guard !state.queue.isEmpty else {
                state.running -= 1
                return nil
            }
            var total = 0
            let count =
                state.queue.firstIndex { entry in
                    total += weight(entry.item)
                    return total > limit
                } ?? state.queue.count
            let group = Array(state.queue.prefix(max(count, 1)))
            state.queue.removeFirst(group.count)
            return group
        }
    }

    /// The answers of a failed group's items, each committed again on its own (a group of one keeps
    /// its `error`).
    private func alone(_ items: [Item], error: any Error, _ commit: Commit) async -> [Result<Answer, any Error>] {
        guard items.count > 1 else { return [.failure(error)] }
        var answers: [Result<Answer, any Error>] = []
        for item in items {
            do {
                answers.append(try await commit([item])[0])
            } catch {
                answers.append(.failure(error))
            }
        }
        return answers
    }
}
