import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsServer

/// `ot-recorder` on the PATH, if any.
private let recorderPath: String? = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
    .map { "\($0)/ot-recorder" }.first { FileManager.default.isExecutableFile(atPath: $0) }

@Suite("Side by side with a real OwnTracks Recorder")
struct OwnTracksSideBySideTests {
    /// What the Recorder adds from its own lookups (reverse geocoding, time zones, its HTTP mode) and
    /// we do not: left out of the comparison.
    private static let recorderOnly: Set<String> = ["ghash", "addr", "cc", "locality", "tzname", "isolocal", "_http", "_decrypted"]

    @Test(
        "the same messages to ot-recorder and to us: /api/0/list, /last and /locations agree field by field",
        .enabled(
            if: recorderPath != nil,
            "ot-recorder is not on the PATH: install the OwnTracks Recorder (e.g. Debian's ot-recorder) to compare side by side"))
    func sideBySide() async throws {
        let recorder = try #require(recorderPath)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ot-recorder-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        #expect(try await runProcess(recorder, ["-S", folder.path, "--initialize"]) == 0)
        let port = Int.random(in: 40_000..<60_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: recorder)
        process.arguments = [
            "-S", folder.path, "--port", "0", "--http-host", "127.0.0.1", "--http-port", "\(port)", "--doc-root", folder.path, "--norevgeo",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { process.terminate() }
        let theirs = URL(string: "http://127.0.0.1:\(port)")!
        let transport = URLSessionTransport()
        var ready = false
        for _ in 0..<50 where !ready {
            ready = (try? await Self.get(theirs, "/api/0/version")) != nil
            if !ready { try await Task.sleep(for: .milliseconds(100)) }
        }
        try #require(ready, "ot-recorder did not answer on port \(port)")

        try await withLiveServer(.sqlite) { server in
            #expect(try await server.storage.saveOwnTracksProfile(OwnTracksProfile(device: server.device, user: "jane", name: "nokia")))
            let auth = ["Authorization": "Basic \(Data("\(server.device):\(server.token)".utf8).base64EncodedString())"]
            let messages = [
                OwnTracksBooklet.location, OwnTracksBooklet.transition, OwnTracksBooklet.waypoint, OwnTracksBooklet.waypoints,
                OwnTracksBooklet.card,
                OwnTracksBooklet.lwt, OwnTracksBooklet.status, OwnTracksBooklet.laterLocation,
            ]
            for message in messages {
                let body = Data(message.utf8)
                let toThem = try await transport.send(
                    OutgoingRequest(
                        method: "POST", url: URL(string: theirs.absoluteString + "/pub?u=jane&d=nokia")!,
                        headers: ["Content-Type": "application/json"], body: body),
                    timeout: 10)
                #expect(toThem.status == 200)
                #expect(try await server.send("POST", "/pub", token: nil, body: body, headers: auth).status == 200)
            }
            for path in ["/api/0/list", "/api/0/list?user=jane"] {
                #expect(
                    OwnTracksBooklet.canonical(try await Self.get(theirs, path))
                        == OwnTracksBooklet.canonical(try await Self.get(server.base, path, auth)), "\(path)")
            }
            let last = "/api/0/last?user=jane&device=nokia"
            try compare(
                try await Self.get(theirs, last) as? [[String: Any]], try await Self.get(server.base, last, auth) as? [[String: Any]], last)
            let locations = "/api/0/locations?user=jane&device=nokia&from=2024-02-01&to=2024-02-03"
            let their = try await Self.get(theirs, locations) as? [String: Any]
            let our = try await Self.get(server.base, locations, auth) as? [String: Any]
            #expect(OwnTracksBooklet.canonical(their?["count"]) == OwnTracksBooklet.canonical(our?["count"]))
            try compare(their?["data"] as? [[String: Any]], our?["data"] as? [[String: Any]], locations)
        }
    }

    /// The JSON of a GET.
    private static func get(_ base: URL, _ path: String, _ headers: [String: String] = [:]) async throws -> Any? {
        let request = OutgoingRequest(method: "GET", url: URL(string: base.absoluteString + path)!, headers: headers, body: Data())
        return try? JSONSerialization.jsonObject(with: try await URLSessionTransport().send(request, timeout: 10).body)
    }

    /// Every object's members, but what only the Recorder's lookups add, are ours with the same values.
    private func compare(_ theirs: [[String: Any]]?, _ ours: [[String: Any]]?, _ path: String) throws {
        let (theirs, ours) = (try #require(theirs, "\(path): the Recorder's answer"), try #require(ours, "\(path): our answer"))
        #expect(theirs.count == ours.count, "\(path)")
        for (their, our) in zip(theirs, ours) {
            for (key, value) in their where !Self.recorderOnly.contains(key) {
                #expect(OwnTracksBooklet.canonical(our[key]) == OwnTracksBooklet.canonical(value), "\(path): \(key)")
            }
        }
    }
}
