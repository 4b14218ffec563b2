import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsStoreTestSupport
import WhereaboutsTestServer
import WhereaboutsTestSupport

/// Which report each overlapping flush returns, against a real server.
@Suite("Uploader: overlapping flushes each return the report of the flush they ran or joined")
struct UploaderFoldingTests {
    /// Holds the first report handler call until opened.
    private actor Gate {
        private var isOpen = false
        private(set) var calls = 0

        func pass() async {
            calls += 1
            guard calls == 1 else { return }
            while !isOpen { try? await Task.sleep(nanoseconds: 5_000_000) }
        }

        func open() { isOpen = true }
    }

    @Test("a flush that joins a new flush while the last one's report handler runs gets the new flush's report")
    func joinerGetsItsFlushReport() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        try store.append(sampleRecords(1), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let gate = Gate()
        uploader.setReportHandler { _ in await gate.pass() }

        let first = Task { await uploader.flush(.manual, acknowledging: []) }
        #expect(await eventually(within: 20) { await gate.calls == 1 }, "the first flush ended and its handler waits")
        try store.append(sampleRecords(2, start: Date(timeIntervalSinceNow: -600)), at: Date())
        await server.state.script([.hang(1)])
        let second = Task { await uploader.flush(.threshold, acknowledging: []) }
        #expect(await eventually(within: 20) { await server.state.requests == 2 }, "the second flush's batch is on its way")
        let joiner = Task { await uploader.flush(.regionEvent, acknowledging: []) }
        try await Task.sleep(nanoseconds: 100_000_000)
        await gate.open()

        let firstReport = await first.value
        let secondReport = await second.value
        let joined = await joiner.value
        #expect(firstReport.delivered == 1)
        #expect(secondReport.delivered == 2)
        #expect(joined == secondReport, "the joiner waited on the second flush, not the first")
        #expect(try await exactlyOnce(store, server.state))
    }
}
