import Foundation
import Testing

/// The deploy files: the Docker health check runs under dash against a live server, and the image
/// is built where a Docker engine answers (the test reports itself skipped where none does).
@Suite("deploy files")
struct DeployFilesTests {
    private static let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../deploy")
        .standardized

    @Test("the compose file builds the Dockerfile and runs two instances on PostgreSQL; the systemd unit runs serve")
    func composeAndUnit() throws {
        let compose = try String(contentsOf: Self.deploy.appendingPathComponent("compose.yaml"), encoding: .utf8)
        #expect(compose.contains("dockerfile: deploy/Dockerfile") && compose.contains("server-2:") && compose.contains("postgres://"))
        let unit = try String(contentsOf: Self.deploy.appendingPathComponent("whereabouts-server.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/whereabouts-server serve"))
    }

    /// The image's `HEALTHCHECK CMD` array, as Docker runs it.
    private static func healthCheck() throws -> [String] {
        let dockerfile = try String(contentsOf: deploy.appendingPathComponent("Dockerfile"), encoding: .utf8)
        let line = try #require(
            dockerfile.split(separator: "\n").first { $0.hasPrefix("HEALTHCHECK CMD ") }, "the Dockerfile has no HEALTHCHECK")
        return try #require(try JSONSerialization.jsonObject(with: Data(line.dropFirst("HEALTHCHECK CMD ".count).utf8)) as? [String])
    }

    @Test(
        "the Docker health check passes under dash against a live server and fails where none listens",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: "/bin/dash") && FileManager.default.isExecutableFile(atPath: "/usr/bin/curl"),
            "dash or curl is not installed (apt-get install dash curl): the health check is not run"))
    func healthCheckUnderDash() async throws {
        let command = try Self.healthCheck()
        #expect(command.prefix(2) == ["/bin/sh", "-c"] && command.count == 3, "a shell command, as Docker runs it: \(command)")
        #expect(!command[2].contains("/dev/tcp"), "dash, Debian's /bin/sh, has no /dev/tcp")
        let environment = ProcessInfo.processInfo.environment
        try await withLiveServer(.sqlite) { server in
            let status = try await runProcess(
                "/bin/dash", ["-c", command[2]], environment: environment.merging(["WHEREABOUTS_PORT": "\(server.port)"]) { $1 })
            #expect(status == 0, "the health check of a live server passes")
        }
        let closed = try await runProcess(
            "/bin/dash", ["-c", command[2]], environment: environment.merging(["WHEREABOUTS_PORT": "9"]) { $1 })
        #expect(closed != 0, "no server on the port: the health check fails")
    }

    /// Whether a Docker engine answers `docker info`.
    private static let dockerAnswers: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["docker", "info"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(
        "the image builds from deploy/Dockerfile",
        .enabled(
            if: dockerAnswers, "no Docker engine answers `docker info` here: the image is not built (docker build -f deploy/Dockerfile .)"))
    func dockerImage() async throws {
        let status = try await runProcess(
            "/usr/bin/env",
            [
                "docker", "build", "-f", Self.deploy.appendingPathComponent("Dockerfile").path, "-t", "whereabouts-server:test",
                Self.deploy.deletingLastPathComponent().path,
            ])
        #expect(status == 0)
    }
}
