import Foundation
import Testing
import WhereaboutsTestSupport

/// The server executable the campaign drives: `WHEREABOUTS_SERVER`, else the Server/ package's debug
/// build in this checkout (`.ci/run` builds it before these tests).
private let serverExecutable: String =
    ProcessInfo.processInfo.environment["WHEREABOUTS_SERVER"]
    ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Server/.build/debug/whereabouts-server").path

@Suite("whereabouts bench faults")
struct FaultCampaignCommandTests {
    @Test(
        "a small campaign against the real CLI and server: every fault injected, nothing lost, duplicated or stranded, no run silently failed",
        .enabled(
            if: FileManager.default.isExecutableFile(atPath: serverExecutable),
            "whereabouts-server is not built; run `cd Server && swift build --product whereabouts-server` or set WHEREABOUTS_SERVER"))
    func smallCampaign() async throws {
        let result = try await CommandRunner.run([
            "bench", "faults", "--count", "24", "--seed", "7", "--json", "--server", serverExecutable,
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect(object["faults"] as? Int == 24)
        let fullDisks = ["fullDisk", "fullDiskCreating"].map { object[$0] as? Int ?? 0 }.reduce(0, +)
        #expect(fullDisks > 0, "a full disk is among the faults: \(result.stdout)")
        #expect((object["recorded"] as? Int ?? 0) > 0)
        #expect(object["onServer"] as? Int == object["recorded"] as? Int)
        #expect(object["lost"] as? Int == 0)
        #expect(object["duplicated"] as? Int == 0)
        #expect(object["unknown"] as? Int == 0)
        #expect(object["failedRuns"] as? Int == 0, "\(result.stderr)")
        for invariant in ["stranded", "silentFailures", "leftovers", "lockouts"] {
            #expect(object[invariant] as? Int == 0, "\(invariant): \(result.stdout)")
        }
        let newKinds = ["fullDiskCreating", "badDevice", "throttledNeighbour"].map { object[$0] as? Int ?? 0 }
        #expect(newKinds.reduce(0, +) > 0, "the kinds issue 47 added are among the faults: \(result.stdout)")
    }

    @Test(
        "a campaign that cannot inject clock jumps (no faketime on PATH) says so and fails",
        .enabled(if: FileManager.default.isExecutableFile(atPath: serverExecutable), "whereabouts-server is not built"))
    func withoutFaketime() async throws {
        let empty = temporaryFolder("cli-path")
        defer { try? FileManager.default.removeItem(at: empty) }
        let result = try await CommandRunner.run(
            ["bench", "faults", "--count", "1", "--json", "--server", serverExecutable], environment: ["PATH": empty.path])
        #expect(result.status == 1, "\(result.stdout)")
        #expect(result.stderr.contains("could not inject clock jump: faketime is not in any folder of PATH"), "\(result.stderr)")
    }

    @Test("bench faults refuses a count below 1 and a server path that is not a program, before starting anything")
    func badInput() async throws {
        let zero = try await CommandRunner.run(["bench", "faults", "--count", "0"])
        #expect(zero.status == 2)
        #expect(zero.stderr.contains("--count 0 is not a positive number"))
        let missing = try await CommandRunner.run(["bench", "faults", "--count", "1", "--server", "/nonexistent/whereabouts-server"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("/nonexistent/whereabouts-server is not an executable file"))
    }
}
