import Foundation
import Testing
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("Input files and credentials that are not what the command needs")
struct InputFileCommandTests {
    @Test("--trace and --regions refuse a folder, a device and a store, naming the file and what to give, quoting no binary")
    func notText() async throws {
        let folder = temporaryFolder("cli")
        let store = folder.appendingPathComponent("run.sqlite").path
        #expect(try await CommandRunner.run(["simulate", "--strategy", "move", "--store", store]).status == 0)
        let trace = folder.appendingPathComponent("one.gpx")
        try Data(
            #"<gpx version="1.1"><trk><trkseg><trkpt lat="48.1" lon="11.5"><time>2024-05-06T07:30:00Z</time></trkpt></trkseg></trk></gpx>"#
                .utf8
        ).write(to: trace)
        let cases: [([String], String)] = [
            (["--trace", folder.path], "\(folder.path): is a folder, not a GPX file; give the path of a GPX file"),
            (["--trace", "/dev/zero"], "/dev/zero: is a device, not a GPX file"),
            (["--trace", store], "\(store): is a SQLite database (a Whereabouts store?), not a GPX file"),
            (["--trace", trace.path, "--regions", folder.path], "is a folder, not a GeoJSON file of regions"),
        ]
        for (arguments, message) in cases {
            let run = try await CommandRunner.run(["simulate", "--strategy", "move"] + arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.stderr.contains(message), "\(arguments): \(run.stderr)")
            #expect(!run.stderr.contains("NSCocoaErrorDomain") && !run.stderr.contains("\u{FFFD}"), "\(run.stderr)")
        }
    }

    @Test("a token the server refuses is named as such, with where the current one comes from; no token asks for one")
    func refusedToken() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.setValidTokens(["current"])
        let path = temporaryFolder("cli").appendingPathComponent("run.sqlite").path
        #expect(try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path]).status == 0)
        let upload = ["store", "flush", path, "--upload", server.baseURL.absoluteString, "--device", "phone"]
        let stale = try await CommandRunner.run(upload + ["--token=stale"])
        #expect(stale.status == 2)
        #expect(stale.stderr.contains("refused the token (401)") && stale.stderr.contains("device rotate-token phone"), "\(stale.stderr)")
        let none = try await CommandRunner.run(upload)
        #expect(none.stderr.contains("give --token=TOKEN or set WHEREABOUTS_TOKEN"), "\(none.stderr)")
        let run = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path, "--token=stale"] + upload.suffix(4))
        #expect(run.status == 2, "records waiting for a token the user must fix fail the run: \(run.stdout)")
    }
}
