import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsStore
import WhereaboutsStoreTestSupport
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("A misconfigured upload endpoint")
struct MisconfiguredEndpointTests {
    @Test(
        "404 from the endpoint itself: nothing is rejected, uploads pause with an error naming the URL, the right URL delivers everything")
    func wrongURL() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let store = try makeStore()
        try store.append(sampleRecords(250), at: Date())
        let typo = server.baseURL.appendingPathComponent("typo")
        let uploader = batchUploader(store, url: typo)

        let report = await uploader.flush(.threshold, acknowledging: [])
        guard case .misconfigured(let message) = report.stoppedBy else {
            Issue.record("expected a pause for a wrong URL, got \(report)")
            return
        }
        #expect(message.contains("\(typo.absoluteString)/v1/devices/phone-1/locations"))
        #expect(message.contains("answered 404") && message.contains("URL is wrong") && message.contains("Fix the upload URL"))
        #expect(report.rejected == 0)
        #expect(report.requests == 1, "a wrong URL is not tried batch after batch")
        #expect(try store.pendingCount() == 250)
        #expect(try store.summary().counts[.rejected, default: 0] == 0)

        let automatic = await uploader.flush(.threshold, acknowledging: [])
        #expect(automatic.requests == 0, "paused: automatic flushes send nothing")
        #expect(automatic.stoppedBy == report.stoppedBy)

        let fixed = await batchUploader(store, url: server.baseURL).flush(.manual, acknowledging: [])
        #expect(fixed.delivered == 250)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("405 pauses the same way, and a manual flush tries again")
    func methodNotAllowed() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(405)])
        let store = try makeStore()
        try store.append(sampleRecords(30), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        guard case .misconfigured = await uploader.flush(.threshold, acknowledging: []).stoppedBy else {
            Issue.record("405 did not pause uploads")
            return
        }
        #expect(try store.pendingCount() == 30)
        #expect(await uploader.flush(.manual, acknowledging: []).delivered == 30)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("403 (the admin token, another device's token) refuses the credential, not the records: nothing is rejected, uploads pause")
    func forbidden() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let body = #"{"error":"forbidden","message":"the admin token reads; only the device's own token writes its data"}"#
        await server.state.script([.status(403, body: body)])
        let store = try makeStore()
        try store.append(sampleRecords(30), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let report = await uploader.flush(.threshold, acknowledging: [])
        guard case .misconfigured(let message) = report.stoppedBy else {
            Issue.record("403 did not pause uploads: \(report)")
            return
        }
        #expect(message.contains("403: the admin token reads") && message.contains("Give the device's own credential"), "\(message)")
        #expect(report.rejected == 0)
        #expect(try store.pendingCount() == 30)
        #expect(await uploader.flush(.threshold, acknowledging: []).requests == 0, "paused: automatic flushes send nothing")
        #expect(await uploader.flush(.manual, acknowledging: []).delivered == 30)
        #expect(try await exactlyOnce(store, server.state))
    }

    @Test("400 bad_device_id refuses the request, not its records: nothing is rejected, uploads pause naming the device id")
    func badDevice() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let body = #"{"error":"bad_device_id","message":"device id \"my phone\" contains \" \", which a device id cannot hold"}"#
        await server.state.script([.status(400, body: body)])
        let store = try makeStore()
        try store.append(sampleRecords(30), at: Date())
        let uploader = batchUploader(store, url: server.baseURL)
        let report = await uploader.flush(.threshold, acknowledging: [])
        guard case .misconfigured(let message) = report.stoppedBy else {
            Issue.record("400 bad_device_id did not pause uploads: \(report)")
            return
        }
        #expect(message.contains("refused the device id") && message.contains("Fix the device id"), "\(message)")
        #expect(message.contains(#"device id "my phone" contains " ""#), "\(message)")
        #expect(report.rejected == 0)
        #expect(try store.pendingCount() == 30)
        #expect(await uploader.flush(.threshold, acknowledging: []).requests == 0, "paused: automatic flushes send nothing")
        #expect(await uploader.flush(.manual, acknowledging: []).delivered == 30)
        #expect(try await exactlyOnce(store, server.state))
    }
}
