import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsTestSupport

/// A real OwnTracks Recorder (`ot-recorder`) on a random port over a fresh store, to compare with:
/// in HTTP mode, or also subscribed to a broker (a Recorder built with `WITH_MQTT`). Its `ocat`
/// loads the store's `friends` and `keys` databases before it starts.
struct RecorderPeer {
    /// `ot-recorder` and `ocat` when both are on the PATH.
    static let tools: (recorder: String, ocat: String)? = {
        let folders = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        let find = { (name: String) in folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) } }
        guard let recorder = find("ot-recorder"), let ocat = find("ocat") else { return nil }
        return (recorder, ocat)
    }()

    let base: URL
    private let process: Process

    /// Starts a Recorder whose `friends` and `keys` databases hold `friends` and `keys` (`user-device`
    /// to a JSON array of `user/device`, and to a passphrase), and waits until it answers. With
    /// `broker`, it also subscribes to `owntracks/#` at QoS 1 on the broker at that port of 127.0.0.1;
    /// without, its MQTT side is off (port 0), as a Recorder built without MQTT has none.
    static func start(friends: [String: [String]], keys: [String: String], broker: Int? = nil) async throws -> RecorderPeer {
        let (recorder, ocat) = try #require(tools)
        let store = temporaryFolder("ot-recorder")
        #expect(try await runProcess(recorder, ["-S", store.path, "--initialize"]) == 0)
        let friendLines = try friends.map {
            "\($0.key) \(String(decoding: try JSONSerialization.data(withJSONObject: $0.value), as: UTF8.self))"
        }
        for (database, lines) in [("friends", friendLines), ("keys", keys.map { "\($0.key) \($0.value)" })] {
            let file = store.appendingPathComponent("\(database).load")
            try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
            #expect(
                try await runProcess("/bin/sh", ["-c", #""$0" -S "$1" --load="$2" < "$3""#, ocat, store.path, database, file.path]) == 0,
                "ocat --load=\(database)")
        }
        let port = Int.random(in: 40_000..<60_000)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: recorder)
        process.arguments = [
            "-S", store.path, "--http-host", "127.0.0.1", "--http-port", "\(port)", "--doc-root", store.path, "--norevgeo", "--quiet",
        ]
        process.arguments! +=
            broker.map { ["--host", "127.0.0.1", "--port", "\($0)", "--qos", "1", "--clientid", "ot-recorder-\(port)", "owntracks/#"] }
            ?? ["--port", "0"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let peer = RecorderPeer(base: URL(string: "http://127.0.0.1:\(port)")!, process: process)
        for _ in 0..<50 {
            if (try? await peer.send("GET", "/api/0/version").status) == 200 { return peer }
            try await Task.sleep(for: .milliseconds(100))
        }
        peer.stop()
        throw RecorderPeerError.notAnswering(port: port)
    }

    /// Sends a request to the Recorder.
    func send(_ method: String, _ path: String, body: Data = Data(), headers: [String: String] = [:]) async throws -> HTTPReply {
        try await URLSessionTransport().send(
            OutgoingRequest(method: method, url: URL(string: base.absoluteString + path)!, headers: headers, body: body), timeout: 10)
    }

    /// Stops the Recorder with SIGKILL: it inherits the test process's blocked signals, so a SIGTERM
    /// stays pending and it never stops (its store is thrown away anyway).
    func stop() {
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }
}

/// Why a ``RecorderPeer`` did not start.
enum RecorderPeerError: Error, CustomStringConvertible {
    case notAnswering(port: Int)

    var description: String {
        switch self {
        case .notAnswering(let port): "ot-recorder did not answer /api/0/version on port \(port) within 5 s"
        }
    }
}
