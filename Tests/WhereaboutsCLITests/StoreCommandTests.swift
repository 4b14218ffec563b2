import Foundation
import Testing
import WhereaboutsStore
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("whereabouts simulate --store --upload and whereabouts store")
struct StoreCommandTests {
    private func ids(_ store: SQLiteLocationStore) throws -> Set<String> {
        Set(try store.allRecords().map { $0.record.id.uuidString.lowercased() })
    }

    @Test("a recorded run is uploaded while it runs; the server ends with every record exactly once")
    func simulateAndUpload() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(500), .dropAfterStore])
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        let result = try await CommandRunner.run([
            "simulate", "--strategy", "continuous", "--store", path, "--upload", server.baseURL.absoluteString, "--batch-size", "40",
        ])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        #expect(result.stdout.contains("final flush"))
        let store = try SQLiteLocationStore(path: path)
        let records = try store.allRecords()
        #expect(!records.isEmpty)
        #expect(records.allSatisfy { $0.state == .delivered })
        #expect(Set(await server.state.locations.keys) == (try ids(store)))
        let inspect = try await CommandRunner.run(["store", "inspect", path])
        #expect(inspect.status == 0)
        #expect(inspect.stdout.contains("delivered \(records.count)"))
        #expect(inspect.stdout.contains("integrity ok"))
        let json = try await CommandRunner.run(["store", "inspect", path, "--json"])
        #expect(json.stdout.hasPrefix("{\"file\""))
    }

    @Test("store inspect lists rejected records with their reasons; store flush sends what is pending")
    func inspectRejected() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        await server.state.script([.status(422, body: "{\"error\":\"invalid\",\"message\":\"device unknown\"}")])
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("run.sqlite").path
        let recorded = try await CommandRunner.run([
            "simulate", "--strategy", "move", "--store", path, "--upload", server.baseURL.absoluteString, "--batch-size", "5",
        ])
        #expect(recorded.status == 0, "stderr: \(recorded.stderr)")
        let flush = try await CommandRunner.run(["store", "flush", path, "--upload", server.baseURL.absoluteString])
        #expect(flush.status == 0, "stderr: \(flush.stderr)")
        #expect(flush.stdout.hasPrefix("delivered 0, rejected 0"), "the run sent everything; nothing is left")
        let inspect = try await CommandRunner.run(["store", "inspect", path])
        #expect(inspect.stdout.contains("pending 0,"))
        #expect(inspect.stdout.contains("rejected:\n"), "the first request's records were refused for good")
        #expect(inspect.stdout.contains("422 {\"error\":\"invalid\",\"message\":\"device unknown\"}"))
    }

    @Test("bad store input: a missing file (inspect, flush, requeue), a URL that is not http, --store with every strategy")
    func badInput() async throws {
        let missing = try await CommandRunner.run(["store", "inspect", "/nonexistent/x.sqlite"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/x.sqlite: does not exist"))
        let folder = temporaryFolder("cli")
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("s.sqlite").path
        // A writing command on a mistyped path refuses it and leaves no new store behind.
        for command in [["store", "flush", path, "--upload", "http://127.0.0.1:9"], ["store", "requeue", path]] {
            let result = try await CommandRunner.run(command)
            #expect(result.status == 2, "\(command): \(result.stderr)")
            let refusal = "\(path): does not exist; this command works on what a store holds and creates none"
            #expect(result.stderr.contains(refusal), "\(result.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path), "\(command) created \(path)")
        }
        let badURL = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path, "--upload", "ftp://x"])
        #expect(badURL.status == 2)
        #expect(badURL.stderr.contains("is not an http(s) URL"))
        let all = try await CommandRunner.run(["simulate", "--store", path])
        #expect(all.status == 2)
        #expect(all.stderr.contains("one --strategy"))
    }

    @Test(
        "SIGKILL at random moments while recording and uploading, 50 times: the file stays sound, nothing acknowledged is lost, nothing is duplicated"
    )
    func killedFiftyTimes() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("crash.sqlite").path
        var generator = SystemRandomNumberGenerator()
        for round in 0..<50 {
            let process = try CommandRunner.launch([
                "simulate", "--strategy", "continuous", "--seed", "\(round)", "--store", path,
                "--upload", server.baseURL.absoluteString, "--batch-size", "10",
            ])
            try await Task.sleep(nanoseconds: UInt64.random(in: 20_000_000...700_000_000, using: &generator))
            kill(process.processIdentifier, SIGKILL)
            await CommandRunner.waitForExit(process)
            let store = try SQLiteLocationStore(path: path)
            #expect(try store.integrityCheck() == "ok", "round \(round)")
            let acknowledged = Set(await server.state.locations.keys)
            #expect(acknowledged.isSubset(of: try ids(store)), "round \(round): the server holds records the store lost")
        }
        let resume = try await CommandRunner.run(["store", "flush", path, "--upload", server.baseURL.absoluteString])
        #expect(resume.status == 0, "stderr: \(resume.stderr)")
        let store = try SQLiteLocationStore(path: path)
        let records = try store.allRecords()
        #expect(records.allSatisfy { $0.state == .delivered })
        #expect(Set(await server.state.locations.keys) == (try ids(store)))
        #expect(await server.state.locations.count == records.count)
    }

    @Test("a run into a store an earlier run used scores only its own records and events, under ids of its own")
    func secondRunIntoOneStore() async throws {
        let folder = temporaryFolder("cli")
        let path = folder.appendingPathComponent("twice.sqlite").path
        var reports: [[String: Any]] = []
        for round in 0..<2 {
            let out = folder.appendingPathComponent("out\(round)").path
            let result = try await CommandRunner.run(["simulate", "--strategy", "move", "--store", path, "--out", out])
            #expect(result.status == 0, "round \(round): \(result.stderr)")
            let data = try Data(contentsOf: URL(fileURLWithPath: out).appendingPathComponent("report.json"))
            reports.append(try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any]))
        }
        let store = try SQLiteLocationStore(path: path, options: StoreOptions(mode: .readOnly))
        let records = try store.allRecords()
        #expect(Set(records.map(\.record.id)).count == records.count)
        for key in ["recall", "precision", "recordedFixes", "reports"] {
            #expect("\(reports[0][key] ?? "none")" == "\(reports[1][key] ?? "none")", "\(key) of the second run counts the first's rows")
        }
    }

    @Test("bench delivery reports append and upload throughput with a JSON last line")
    func benchDelivery() async throws {
        let result = try await CommandRunner.run(["bench", "delivery", "--single", "50", "--fixes", "1000", "--json"])
        #expect(result.status == 0, "stderr: \(result.stderr)")
        let last = try #require(result.stdout.split(separator: "\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(object["serverHolds"] as? Int == object["sent"] as? Int)
        #expect((object["bytesPerFix"] as? Double ?? 0) > 0)
    }
}
