import Foundation
import Testing
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("A wrong upload URL and store requeue on the command line")
struct WrongUploadURLCommandTests {
    @Test("a run uploading to a wrong URL keeps every record pending and fails; store flush names the URL; the right URL delivers them all")
    func wrongURL() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        let typo = server.baseURL.appendingPathComponent("typo").absoluteString
        let run = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path, "--upload", typo, "--drain-timeout", "1"])
        #expect(run.status == 2, "a run that strands its records fails: \(run.stderr)")
        #expect(run.stderr.contains("URL is wrong") && run.stderr.contains("stay pending in \(path)"), "\(run.stderr)")
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
        let records = try store.summary().records
        #expect(records > 0)
        #expect(try store.pendingCount() == records, "a 404 from the endpoint rejects nothing")
        try store.close()

        let flush = try await CommandRunner.run(["store", "flush", path, "--upload", typo])
        #expect(flush.status == 2)
        #expect(flush.stderr.contains("\(typo)/v1/devices/simulator/locations"), "\(flush.stderr)")
        #expect(flush.stderr.contains("URL is wrong") && flush.stderr.contains("stay pending"), "\(flush.stderr)")

        let fixed = try await CommandRunner.run(["store", "flush", path, "--upload", server.baseURL.absoluteString])
        #expect(fixed.status == 0, "\(fixed.stderr)")
        #expect(fixed.stdout.hasPrefix("delivered \(records), rejected 0"), "\(fixed.stdout)")
        #expect(await server.state.locations.count == records)
    }

    @Test("store requeue puts rejected records back to pending and the next flush delivers them")
    func requeue() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(422, body: "{\"error\":\"invalid\",\"message\":\"device unknown\"}")])
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        let run = try await CommandRunner.run([
            "simulate", "--strategy", "move", "--store", path, "--upload", server.baseURL.absoluteString, "--batch-size", "5",
        ])
        #expect(run.status == 0, "\(run.stderr)")
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
        let rejected = try store.summary().counts[.rejected, default: 0]
        try store.close()
        #expect(rejected > 0)
        let requeue = try await CommandRunner.run(["store", "requeue", path])
        #expect(requeue.status == 0, "\(requeue.stderr)")
        #expect(requeue.stdout.hasPrefix("requeued \(rejected) records and 0 region events; pending \(rejected)"), "\(requeue.stdout)")
        let flush = try await CommandRunner.run(["store", "flush", path, "--upload", server.baseURL.absoluteString])
        #expect(flush.stdout.hasPrefix("delivered \(rejected), rejected 0"), "\(flush.stdout)")
        let inspect = try await CommandRunner.run(["store", "inspect", path, "--json"])
        #expect(inspect.stdout.contains("\"rejected\":0"), "\(inspect.stdout)")
    }
}
