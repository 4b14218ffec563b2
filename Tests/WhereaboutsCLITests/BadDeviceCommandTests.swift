import Foundation
import Testing
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("An invalid --device on the command line")
struct BadDeviceCommandTests {
    @Test(
        "simulate and store flush refuse a device id the server would refuse, before recording or sending anything",
        arguments: ["my phone", String(repeating: "a", count: 65), "dev%2FA", ".."])
    func refused(device: String) async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        let upload = ["--upload", server.baseURL.absoluteString, "--device", device, "--token=T"]
        let run = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path] + upload)
        #expect(run.status == 2, "\(run.stdout)")
        #expect(run.stderr.contains("--device: device id \(String(reflecting: device))"), "\(run.stderr)")
        #expect(run.stderr.contains("use 1 to 64 letters, digits"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path), "nothing is recorded for a run that cannot upload")
        #expect(await server.state.locations.isEmpty)

        let record = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path])
        #expect(record.status == 0, "\(record.stderr)")
        let flush = try await CommandRunner.run(["store", "flush", path] + upload)
        #expect(flush.status == 2)
        #expect(flush.stderr.contains("--device: device id"), "\(flush.stderr)")
        let inspect = try await CommandRunner.run(["store", "inspect", path, "--json"])
        #expect(inspect.stdout.contains("\"rejected\":0"), "\(inspect.stdout)")
    }
}
