import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsTestSupport

/// A clock the test moves.
private final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current: Date
    init(_ start: Date) { current = start }
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

@Suite(
    "Motion history at a wake: a suspended app reads what CoreMotion recorded before the event that woke it", .timeLimit(.minutes(1)))
@MainActor
struct MotionHistoryTests {
    private let start = Date(timeIntervalSince1970: 1_750_000_000)

    private func activity(_ kind: MotionActivity.Kind, at t: TimeInterval, confidence: Int = 2) -> ReportedActivity {
        ReportedActivity(
            stationary: kind == .stationary, walking: kind == .walking, cycling: kind == .cycling, automotive: kind == .automotive,
            confidence: confidence, start: start + t)
    }

    /// `event` as the tests compare it: a fix's time, or an activity's class, confidence and start, in
    /// seconds from the test's start.
    private func described(_ event: LocationServiceEvent) -> String {
        switch event {
        case .fix(let fix): "fix \(Int(fix.timestamp.timeIntervalSince(start)))"
        case .activity(let report): "\(report.kind) \(report.confidence) \(Int(report.start.timeIntervalSince(start)))"
        default: "\(event)"
        }
    }

    private func location(at t: TimeInterval) -> ReportedLocation {
        ReportedLocation(latitude: home.latitude, longitude: home.longitude, horizontalAccuracy: 1_000, timestamp: start + t)
    }

    private static let stillRequest = LocationRequest(standard: nil, significantChange: true, visits: true, motionActivity: true)

    /// A process's service on the emulated OS with `motion`, its clock (from `clock`, else the test's
    /// start), and, when `configured`, motion activity on as a still device's request has it.
    private func service(
        _ motion: RecordingMotion, setup: AppSetup = .complete(), defaults: UserDefaults = freshDefaults(), clock: TestClock? = nil,
        configured: Bool = true
    ) -> (CoreLocationService, EmulatedLocationManager, TestClock) {
        let os = EmulatedCoreLocation(position: home)
        os.status = CoreLocationConstants.authorizationAlways
        let primary = os.makeManager()
        let clock = clock ?? TestClock(start)
        let service = CoreLocationService(
            manager: primary, oneShotManager: os.makeManager(), motion: motion, setup: setup, defaults: defaults, openSettings: {},
            log: LogLines().log, now: { clock.now })
        if configured { service.configure(Self.stillRequest) }
        return (service, primary, clock)
    }

    private static func freshDefaults() -> UserDefaults { UserDefaults(suiteName: "whereabouts.tests.\(UUID().uuidString)")! }

    /// The next `count` events of `service` other than authorization reports.
    private func next(_ count: Int, of service: CoreLocationService) async -> [LocationServiceEvent] {
        var found: [LocationServiceEvent] = []
        for await event in service.events {
            if case .authorizationChanged = event { continue }
            found.append(event)
            if found.count == count { break }
        }
        return found
    }

    @Test(
        "after four quiet hours, the latest departure's reports come before the waking position; a walk about the house hours before does not"
    )
    func catchUp() async throws {
        let motion = RecordingMotion()
        let (service, primary, clock) = service(motion)
        service.receiver.didUpdateLocations([location(at: 0)], from: primary)
        motion.report(activity(.stationary, at: 1))
        motion.history = [
            activity(.stationary, at: 1), activity(.walking, at: 600), activity(.stationary, at: 720),
            activity(.walking, at: 14_000), activity(.walking, at: 14_030, confidence: 0), activity(.automotive, at: 14_060),
        ]
        clock.advance(14_100)
        service.receiver.didUpdateLocations([location(at: 14_100)], from: primary)
        clock.advance(2)
        service.receiver.didUpdateLocations([location(at: 14_102)], from: primary)
        let events = await next(7, of: service).map(described)
        #expect(
            events == [
                "fix 0", "stationary high 1", "walking high 14000", "walking low 14030", "automotive high 14060", "fix 14100", "fix 14102",
            ])
        #expect(motion.queries == [start...(start + 14_100)], "one read, from the last delivered event to the wake; none 2 s later")
    }

    @Test("events that come while the history is read wait behind it, in order; a live report repeating one read is not handed on twice")
    func waiting() async throws {
        let motion = RecordingMotion()
        let (service, primary, clock) = service(motion)
        service.receiver.didUpdateLocations([location(at: 0)], from: primary)
        motion.history = [activity(.walking, at: 300)]
        clock.advance(400)
        service.receiver.didUpdateLocations([location(at: 400)], from: primary)
        service.receiver.didUpdateLocations([location(at: 401)], from: primary)
        motion.report(activity(.walking, at: 300))
        #expect(await next(4, of: service).map(described) == ["fix 0", "walking high 300", "fix 400", "fix 401"])
        clock.advance(1)
        service.receiver.didUpdateLocations([location(at: 402)], from: primary)
        #expect(await next(1, of: service).map(described) == ["fix 402"], "the live walking report was not handed on again")
    }

    @Test("a read CoreMotion never answers is given up (after two seconds), and the events go on")
    func unanswered() async throws {
        let motion = RecordingMotion()
        motion.answers = false
        let (service, primary, clock) = service(motion)
        service.receiver.didUpdateLocations([location(at: 0)], from: primary)
        clock.advance(400)
        service.receiver.didUpdateLocations([location(at: 400)], from: primary)
        #expect(await next(2, of: service).map(described) == ["fix 0", "fix 400"], "the read is given up and the event goes on")
        #expect(motion.queries.count == 1)
    }

    @Test("with motion off, or without NSMotionUsageDescription, nothing is read and events pass at once")
    func motionOff() async throws {
        let motion = RecordingMotion()
        let (service, primary, clock) = service(motion)
        service.configure(LocationRequest(standard: nil, significantChange: true))
        service.receiver.didUpdateLocations([location(at: 0)], from: primary)
        clock.advance(600)
        service.receiver.didUpdateLocations([location(at: 600)], from: primary)
        #expect(await next(2, of: service).count == 2)
        #expect(motion.queries.isEmpty)

        let complete = AppSetup.complete()
        let undeclared = AppSetup(
            usageDescriptions: complete.usageDescriptions.subtracting([AppSetup.motionKey]), backgroundModes: complete.backgroundModes,
            permittedTaskIdentifiers: complete.permittedTaskIdentifiers)
        let (plain, plainPrimary, plainClock) = self.service(motion, setup: undeclared)
        plain.receiver.didUpdateLocations([location(at: 0)], from: plainPrimary)
        plainClock.advance(600)
        plain.receiver.didUpdateLocations([location(at: 600)], from: plainPrimary)
        #expect(await next(2, of: plain).count == 2)
        #expect(motion.queries.isEmpty)
    }

    @Test(
        "a relaunched process first reads the history since the last event the terminated one was delivered; the events the OS brings wait behind it"
    )
    func relaunch() async throws {
        let defaults = Self.freshDefaults()
        let motion = RecordingMotion()
        let (earlier, earlierPrimary, clock) = service(motion, defaults: defaults)
        for t in 0...7 {
            earlier.receiver.didUpdateLocations([location(at: Double(t))], from: earlierPrimary)
            clock.advance(1)
        }
        #expect(await next(8, of: earlier).count == 8)
        #expect(defaults.object(forKey: "WhereaboutsMotionDeliveredUntil") as? Date == start + 5, "kept at most 5 s behind")
        motion.history = [
            activity(.stationary, at: 1), activity(.walking, at: 3_000), activity(.automotive, at: 3_100),
        ]
        clock.advance(3_592)
        let (relaunched, primary, _) = service(motion, defaults: defaults, clock: clock, configured: false)
        relaunched.receiver.didUpdateLocations([location(at: 3_600)], from: primary)
        relaunched.configure(Self.stillRequest)
        clock.advance(1)
        relaunched.receiver.didUpdateLocations([location(at: 3_601)], from: primary)
        #expect(
            await next(4, of: relaunched).map(described) == ["walking high 3000", "automotive high 3100", "fix 3600", "fix 3601"])
        #expect(motion.queries == [(start + 5)...(start + 3_600)], "one read, from the kept time to the process's start")
        #expect(defaults.object(forKey: "WhereaboutsMotionDeliveredUntil") as? Date == start + 3_601, "kept again as events come")
    }

    @Test(
        "without a kept time (motion was off, or a first launch) or without motion authorization a new process reads nothing; a kept time over 7 days old reads 7 days"
    )
    func relaunchBounds() async throws {
        let defaults = Self.freshDefaults()
        let motion = RecordingMotion()
        let (earlier, earlierPrimary, clock) = service(motion, defaults: defaults, configured: false)
        earlier.configure(LocationRequest(standard: nil, significantChange: true))
        earlier.receiver.didUpdateLocations([location(at: 0)], from: earlierPrimary)
        #expect(await next(1, of: earlier).count == 1)
        clock.advance(3_600)
        let (first, _, _) = service(motion, defaults: defaults, clock: clock)
        #expect(motion.queries.isEmpty, "motion was off: nothing was kept")
        withExtendedLifetime(first) {}

        defaults.set(start - 30 * 86_400, forKey: "WhereaboutsMotionDeliveredUntil")
        motion.isAuthorized = false
        let (unauthorized, _, _) = service(motion, defaults: defaults, clock: clock)
        #expect(motion.queries.isEmpty, "reading the history must not make iOS ask for motion data")
        withExtendedLifetime(unauthorized) {}

        motion.isAuthorized = true
        let (late, _, _) = service(motion, defaults: defaults, clock: clock)
        #expect(motion.queries == [(start + 3_600 - 7 * 86_400)...(start + 3_600)])
        withExtendedLifetime(late) {}
    }
}
