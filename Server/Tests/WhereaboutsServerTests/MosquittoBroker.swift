import Foundation
import NIOCore
import NIOPosix
import WhereaboutsTestSupport

/// A Debian `mosquitto` broker of a test's own, on 127.0.0.1 and a port of its own, with a config
/// the test writes: persistence in its folder (a session and its queued messages outlive a restart
/// on SIGTERM), anonymous clients allowed; run as root (as in CI), it stays root, so it can write
/// the test's folder.
final class MosquittoBroker: @unchecked Sendable {
    /// Where mosquitto is installed, if it is (`.ci/run` installs it).
    static let path = ["/usr/sbin/mosquitto", "/usr/bin/mosquitto"].first(where: FileManager.default.isExecutableFile)
    /// Why an MQTT test is skipped: the condition of its `.enabled(if:)` trait.
    static let missing =
        "mosquitto or mosquitto_pub is not installed (apt-get install mosquitto mosquitto-clients; .ci/run installs them): the MQTT tests are skipped"
    /// Whether the broker and its publishing client are installed.
    static var installed: Bool { path != nil && FileManager.default.isExecutableFile(atPath: "/usr/bin/mosquitto_pub") }

    let folder: URL
    let port: Int
    /// Whether the listener speaks TLS only, with a certificate for `localhost` signed by `ca.pem` in `folder`.
    let tls: Bool
    /// The authority that signed a TLS broker's certificate.
    var authority: URL { folder.appendingPathComponent("ca.pem") }
    private let process = Process()
    private let ended: ProcessExit

    /// Starts a broker in `folder` (a new one by default) on `port` (a free one by default) and
    /// waits until it accepts connections; with `tls`, only TLS ones, with a certificate openssl makes.
    static func start(folder: URL = temporaryFolder("mosquitto"), port: Int? = nil, tls: Bool = false) async throws -> MosquittoBroker {
        if tls { try await makeCertificates(in: folder) }
        for _ in 0..<20 {
            let broker = try MosquittoBroker(folder: folder, port: port ?? Int.random(in: 10_000..<30_000), tls: tls)
            if try await broker.accepting() { return broker }
            await broker.stop()
            guard port == nil else { break }
        }
        throw CocoaError(
            .fileReadUnknown,
            userInfo: [
                NSLocalizedDescriptionKey:
                    "mosquitto did not start: \(String(decoding: (try? Data(contentsOf: folder.appendingPathComponent("log"))) ?? Data(), as: UTF8.self))"
            ])
    }

    private init(folder: URL, port: Int, tls: Bool) throws {
        self.folder = folder
        self.port = port
        self.tls = tls
        let certificates = "cafile \(folder.path)/ca.pem\ncertfile \(folder.path)/server.pem\nkeyfile \(folder.path)/server.key"
        let config = """
            listener \(port) 127.0.0.1
            \(tls ? certificates : "")
            allow_anonymous true
            persistence true
            persistence_location \(folder.path)/
            max_queued_messages 0
            max_inflight_messages 100
            log_dest file \(folder.path)/log
            \(geteuid() == 0 ? "user root" : "")
            """
        try config.write(to: folder.appendingPathComponent("mosquitto.conf"), atomically: true, encoding: .utf8)
        // With SIGTERM's default action back: a test process serving with graceful shutdown ignores
        // SIGTERM, and its children would inherit that, so the broker would never stop.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "--default-signal=TERM", Self.path ?? "/usr/sbin/mosquitto", "-c", folder.appendingPathComponent("mosquitto.conf").path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        ended = ProcessExit(process)
        try process.run()
    }

    /// Whether the broker accepts a connection within 5 s (`false`: it exited, the port being taken).
    /// Ports below Linux's ephemeral range (32768 on) are picked, and the broker's log must say it
    /// listens, so another process's listener is never taken for it.
    private func accepting() async throws -> Bool {
        for _ in 0..<250 {
            guard process.isRunning else { return false }
            if let channel = try? await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "127.0.0.1", port: port)
                .get()
            {
                try? await channel.close()
                let log = String(decoding: (try? Data(contentsOf: folder.appendingPathComponent("log"))) ?? Data(), as: UTF8.self)
                // "Error: " is mosquitto's own (a port in use); a TLS listener also logs "OpenSSL Error[0]"
                // for this probe, which closes without a handshake.
                return process.isRunning && log.contains("listen socket on port \(port)") && !log.contains("Error: ")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return false
    }

    /// Runs `body` with a broker of its own (`tls` as ``start(folder:port:tls:)`` takes it), stopped
    /// afterwards whether `body` returned or threw.
    static func with<T>(tls: Bool = false, _ body: (MosquittoBroker) async throws -> T) async throws -> T {
        let broker = try await start(tls: tls)
        do {
            let value = try await body(broker)
            await broker.stop()
            return value
        } catch {
            await broker.stop()
            throw error
        }
    }

    /// Stops the broker with SIGTERM (it saves its sessions) and waits for it to end.
    func stop() async {
        if process.isRunning { process.terminate() }
        await ended.wait()
    }

    /// Publishes `messages`, one per line, to `topic` with QoS 1 through Debian's `mosquitto_pub`,
    /// in order, and returns once the broker has acknowledged every one.
    func publish(_ messages: [String], topic: String) async throws {
        let input = folder.appendingPathComponent("publish-\(UUID().uuidString).txt")
        try (messages.joined(separator: "\n") + "\n").write(to: input, atomically: true, encoding: .utf8)
        let status = try await runProcess(
            "/bin/sh",
            [
                "-c",
                "exec /usr/bin/mosquitto_pub \(tls ? "-h localhost --cafile \(authority.path)" : "-h 127.0.0.1") -p \(port) -q 1 -t \"$0\" -l < \"$1\"",
                topic, input.path,
            ])
        guard status == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "mosquitto_pub exited \(status)"])
        }
    }

    /// An authority (`ca.pem`) and a certificate for `localhost` it signs (`server.pem`, `server.key`), made by openssl.
    private static func makeCertificates(in folder: URL) async throws {
        let script = """
            set -e
            cd "$0"
            openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=whereabouts-test-authority 2>/dev/null
            openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=localhost 2>/dev/null
            printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\\n' > server.ext
            openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.pem -days 2 -extfile server.ext 2>/dev/null
            """
        let status = try await runProcess("/bin/sh", ["-c", script, folder.path])
        guard status == 0 else {
            throw CocoaError(
                .fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "openssl could not make the broker's certificate (\(status))"])
        }
    }
}
