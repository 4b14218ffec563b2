import Foundation
import Testing

/// The access log and `--log-level`, read from a real process's standard error.
@Suite("whereabouts-server logging")
struct ServerLoggingTests {
    private func database() -> String { ServerProcess.temporaryDatabase(named: "server-logging") }

    @Test("at info every request gets an access-log line with its status and without its query string")
    func accessLogAtInfo() async throws {
        let server = try await ServerProcess(database: database(), arguments: ["--log-level", "info"])
        let health = try await RawConnection.with(port: server.port) {
            await $0.sendAndRead(rawRequest("GET", "/health?token=secret-in-query"), timeout: 10)
        }
        let missing = try await RawConnection.with(port: server.port) {
            await $0.sendAndRead(rawRequest("GET", "/no-such-page"), timeout: 10)
        }
        #expect(health?.status == 200 && missing?.status == 404)
        await server.signal(SIGTERM)
        let log = server.log
        #expect(log.contains("GET /health 200"), "\(log)")
        #expect(log.contains("GET /no-such-page 404"), "\(log)")
        #expect(log.contains("client=127.0.0.1"), "\(log)")
        #expect(!log.contains("secret-in-query"), "the query string reached the log: \(log)")
    }

    @Test("above info (flag or WHEREABOUTS_LOG_LEVEL) requests leave no access-log line")
    func quietAboveInfo() async throws {
        for (arguments, environment) in [(["--log-level", "warning"], [String: String]()), ([], ["WHEREABOUTS_LOG_LEVEL": "error"])] {
            let server = try await ServerProcess(database: database(), arguments: arguments, environment: environment)
            let health = try await RawConnection.with(port: server.port) { await $0.sendAndRead(rawRequest("GET", "/health"), timeout: 10) }
            #expect(health?.status == 200)
            await server.signal(SIGTERM)
            #expect(!server.log.contains("GET /health"), "\(arguments) \(environment): \(server.log)")
        }
    }

    @Test("an unknown level is refused, naming the value and the levels there are")
    func unknownLevel() async throws {
        for (arguments, environment) in [(["--log-level", "loud"], [String: String]()), ([], ["WHEREABOUTS_LOG_LEVEL": "chatty"])] {
            let ran = try await ServerProcess.run(["serve", "--port", "0", "--database", database()] + arguments, environment: environment)
            #expect(ran.status != 0)
            let value = arguments.last ?? environment.values.first ?? ""
            #expect(ran.errors.contains("\(value) is not a level") && ran.errors.contains("trace, debug, info"), "\(ran.errors)")
        }
    }
}
