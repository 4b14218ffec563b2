import Dispatch
import Foundation
import Testing
import WhereaboutsCore

@testable import WhereaboutsServer

/// SQLite's reads wait for one of GRDB's readers off the threads of Swift's concurrency pool. One
/// that waited on them (GRDB's blocking `read`, which a closure returning a non-Sendable value picks)
/// stalled the whole test process on 2 cores: with the pool's threads all waiting for a reader, the
/// async reads holding the readers could never resume to give them back.
@Suite("SQLite reads wait for a reader off the concurrency pool")
struct SQLiteReaderWaitTests {
    @Test("with every reader taken, history, last and events wait without holding a thread of the pool, and answer once readers are free")
    func readsWaitOffThePool() async throws {
        let storage = try SQLiteTrackStorage(path: String(ServerProcess.temporaryDatabase(named: "reader-wait").dropFirst("sqlite:".count)))
        try await storage.migrate(at: Date())
        try await storage.addDevice(id: "phone", tokenHash: Tokens.hash("phone"), at: Date())
        let records = try wireLocations(5).map { try $0.validated(now: Date()) }
        _ = try await storage.ingest(records, device: "phone", at: Date())

        let readers = await takeEveryReader(of: storage)

        // More reads than the pool has threads, each waiting for a reader.
        let width = ProcessInfo.processInfo.activeProcessorCount
        let reads = (0..<2 * width).map { index in
            Task {
                switch index % 3 {
                case 0:
                    var count = 0
                    try await storage.history(device: "phone", from: .distantPast, to: .distantFuture, page: 2) { count += $0.count }
                    return count
                case 1: return try await storage.last(device: "phone") == nil ? 0 : 1
                default: return try await storage.events(device: "phone", from: .distantPast, to: .distantFuture).count
                }
            }
        }
        #expect(await poolRuns(thenFreeing: readers), "the reads waiting for a reader blocked every thread of the concurrency pool")
        for (index, read) in reads.enumerated() {
            #expect(try await read.value == [5, 1, 0][index % 3])
        }
        try storage.closeNow()
    }

    @Test("closing while every reader is taken waits without holding a thread of the pool, and ends once readers are free")
    func closeWaitsOffThePool() async throws {
        let storage = try SQLiteTrackStorage(path: String(ServerProcess.temporaryDatabase(named: "close-wait").dropFirst("sqlite:".count)))
        try await storage.migrate(at: Date())
        let readers = await takeEveryReader(of: storage)

        // As many closes as the pool has threads (a second close finds the file closed and returns).
        let closes = (0..<ProcessInfo.processInfo.activeProcessorCount).map { _ in Task { try await storage.close() } }
        #expect(await poolRuns(thenFreeing: readers), "closing blocked every thread of the concurrency pool")
        for close in closes { try await close.value }
        await #expect(throws: (any Error).self, "the file is closed") { try await storage.last(device: "phone") }
    }

    /// Takes every reader of `storage` with a read that waits on GRDB's own queue for the returned
    /// semaphore, once signalled per reader (``poolRuns(thenFreeing:)``).
    private func takeEveryReader(of storage: SQLiteTrackStorage) async -> (gate: DispatchSemaphore, count: Int) {
        let count = storage.pool.configuration.maximumReaderCount
        let gate = DispatchSemaphore(value: 0)
        let taken = DispatchSemaphore(value: 0)
        for _ in 0..<count {
            storage.pool.asyncRead { _ in
                taken.signal()
                gate.wait()
            }
        }
        await onDispatchThread { for _ in 0..<count { taken.wait() } }
        return (gate, count)
    }

    /// Whether, from a thread of Dispatch's half a second on, a task still runs on the concurrency pool
    /// within 5 s; then gives the `readers` back.
    private func poolRuns(thenFreeing readers: (gate: DispatchSemaphore, count: Int)) async -> Bool {
        await onDispatchThread {
            Thread.sleep(forTimeInterval: 0.5)
            let ran = DispatchSemaphore(value: 0)
            Task.detached { ran.signal() }
            let inTime = ran.wait(timeout: .now() + 5) == .success
            for _ in 0..<readers.count { readers.gate.signal() }
            return inTime
        }
    }

    /// Runs `work`, which may block, on a thread of Dispatch's rather than of the concurrency pool.
    private func onDispatchThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in DispatchQueue.global().async { continuation.resume(returning: work()) } }
    }
}
