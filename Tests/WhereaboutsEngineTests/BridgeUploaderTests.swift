import Foundation
import Testing
import Whereabouts
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

/// The bridge's uploader, which reads the app's upload settings at each drain of the queue, against
/// a real server on 127.0.0.1 while the app changes those settings.
@Suite("Bridge uploader: settings changed while a flush runs")
struct BridgeUploaderTests {
    /// Records queued in a new store, and the bridge's uploader on it, sending to our batch API on `server`.
    private static func uploader(_ server: TestServer, records: [LocationRecord]) throws -> (Uploader, SQLiteLocationStore) {
        let store = try SQLiteLocationStore(path: temporaryFile("bridge-uploader", suffix: ".sqlite").path)
        try store.append(records, at: Date())
        let uploader = Bridge.uploader(store: store)
        uploader.account?.update {
            $0.settings = UploadSettings(kind: .whereabouts, url: server.baseURL, device: "phone")
            $0.tokens = AuthTokens(idToken: "t1", expiresAt: Date(timeIntervalSinceNow: 3600), refreshToken: nil, userID: "user-1")
        }
        return (uploader, store)
    }

    @Test("a switch to OwnTracks during a batch: the drain under way ends on our API, the next sends one record a request to OwnTracks")
    func switchToOwnTracks() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let first = sampleRecords(3)
        let (uploader, store) = try Self.uploader(server, records: first)
        await server.state.script([.hang(2)])
        let running = Task { await uploader.flush(.threshold, acknowledging: []) }
        #expect(await eventually(within: 20) { await server.state.requests >= 1 }, "the first batch is on its way")

        let during = sampleRecords(3, start: Date(timeIntervalSinceNow: -600))
        try store.append(during, at: Date())
        uploader.account?.update {
            $0.settings = UploadSettings(kind: .owntracks, url: server.baseURL.appendingPathComponent("pub"), device: "phone", user: "jane")
        }
        // Folded into the running flush, it asks for a drain under the new settings.
        let folded = await uploader.flush(.manual, acknowledging: ["command-1"])
        let report = await running.value
        #expect(report == folded, "the flush it joined answers both")
        #expect(report.stoppedBy == nil, "\(report)")
        #expect(report.acknowledged == ["command-1"], "OwnTracks takes no acknowledgements: they are forgotten, not sent alone")
        // The drain under way keeps the endpoint, credential and batch size it began with.
        let onOurAPI = Set(await server.state.locations.keys)
        #expect(onOurAPI == Set((first + during).map { $0.id.uuidString.lowercased() }), "every record settled was sent")
        #expect(await server.state.ownTracks.isEmpty)
        #expect(try store.pendingCount() == 0)

        let after = sampleRecords(3, start: Date(timeIntervalSinceNow: -300))
        try store.append(after, at: Date())
        let next = await uploader.flush(.manual, acknowledging: [])
        #expect(next.delivered == after.count)
        #expect(next.requests == after.count, "one record a request")
        #expect(Set(await server.state.ownTracks.keys) == Set(after.map { $0.id.uuidString.lowercased() }))
        #expect(Set(await server.state.locations.keys) == onOurAPI)
    }

    @Test("a switch to Firestore with acknowledgements waiting and nothing pending sends nothing and does not trap")
    func switchWithAcknowledgementsOnly() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let (uploader, store) = try Self.uploader(server, records: sampleRecords(1))
        await server.state.script([.hang(2)])
        let running = Task { await uploader.flush(.threshold, acknowledging: []) }
        #expect(await eventually(within: 20) { await server.state.requests >= 1 })
        uploader.account?.update {
            $0.settings = UploadSettings(kind: .firestore, url: server.baseURL, project: "p", apiKey: "k", tokenUrl: server.baseURL)
        }
        let folded = await uploader.flush(.manual, acknowledging: ["command-1"])
        #expect(await running.value == folded)
        #expect(await server.state.requests == 1, "no request for the acknowledgements alone")
        #expect(await server.state.documents.isEmpty)
        #expect(folded.acknowledged == ["command-1"])
        #expect(try store.pendingCount() == 0)
    }
}
