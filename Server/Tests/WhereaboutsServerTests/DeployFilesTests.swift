import Foundation
import Testing

/// The deploy files: the Docker image is built where a Docker engine answers, and the test says so
/// where none does.
@Suite("deploy files")
struct DeployFilesTests {
    private let deploy = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../deploy").standardized

    @Test("the compose file builds the Dockerfile and runs two instances on PostgreSQL; the image builds where Docker runs")
    func dockerImage() async throws {
        let compose = try String(contentsOf: deploy.appendingPathComponent("compose.yaml"), encoding: .utf8)
        #expect(compose.contains("dockerfile: deploy/Dockerfile") && compose.contains("server-2:") && compose.contains("postgres://"))
        let unit = try String(contentsOf: deploy.appendingPathComponent("whereabouts-server.service"), encoding: .utf8)
        #expect(unit.contains("ExecStart=/usr/local/bin/whereabouts-server serve"))
        guard
            FileManager.default.isExecutableFile(atPath: "/usr/bin/docker")
                || FileManager.default.isExecutableFile(atPath: "/usr/local/bin/docker"),
            (try? await runProcess("/usr/bin/env", ["docker", "info"])) == 0
        else {
            print("note: no Docker engine answers here; the image is not built (docker build -f deploy/Dockerfile .)")
            return
        }
        let status = try await runProcess(
            "/usr/bin/env",
            [
                "docker", "build", "-f", deploy.appendingPathComponent("Dockerfile").path, "-t", "whereabouts-server:test",
                deploy.deletingLastPathComponent().path,
            ])
        #expect(status == 0)
    }
}
