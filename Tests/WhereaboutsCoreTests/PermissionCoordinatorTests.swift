import Foundation
import Testing
import WhereaboutsCore

/// Authorizations as a platform reports them, and times relative to a fixed instant.
private enum Auth {
    static let notDetermined = PlatformAuthorization(status: .notDetermined)
    static let whenInUse = PlatformAuthorization(status: .whenInUse)
    /// When In Use after the one Always prompt iOS shows (the OS will not ask for Always again).
    static let whenInUseFinal = PlatformAuthorization(status: .whenInUse, canPrompt: false)
    static let always = PlatformAuthorization(status: .always)
    static let provisional = PlatformAuthorization(status: .always, provisional: true)
    static let denied = PlatformAuthorization(status: .denied)
    /// Denied, but the OS shows its dialog again (Android after a first refusal).
    static let deniedAskable = PlatformAuthorization(status: .denied, canPrompt: true)
    static let restricted = PlatformAuthorization(status: .restricted)
    static let reduced = PlatformAuthorization(status: .whenInUse, reducedAccuracy: true)
}

private func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

private let hour: Double = 3600
private let minute: Double = 60

/// One input, when it happens, and the dialog or Settings action expected from it (`nil`: none).
private struct Step: Sendable, CustomStringConvertible {
    let time: Double
    let input: PermissionInput
    let action: PermissionEffect?

    init(_ time: Double, _ input: PermissionInput, _ action: PermissionEffect?) {
        self.time = time
        self.input = input
        self.action = action
    }

    var description: String { "t+\(Int(time))s \(input) → \(action.map { "\($0)" } ?? "nothing")" }
}

/// A named sequence of steps run against a fresh coordinator.
private struct Scenario: Sendable, CustomTestStringConvertible {
    let name: String
    var configuration = PermissionCoordinator.Configuration()
    var start = Permissions()
    let steps: [Step]

    var testDescription: String { name }
}

private let scenarios: [Scenario] = [
    Scenario(
        name: "first launch asks nothing until a location action",
        steps: [
            Step(0, .becameActive(Auth.notDetermined), nil),
            Step(5, .authorizationChanged(Auth.notDetermined), nil),
        ]),
    Scenario(
        name: "foreground asked on a location action; background on the next activation, not on the answer",
        steps: [
            Step(0, .becameActive(Auth.notDetermined), nil),
            Step(10, .locationAction, .requestAuthorization(.foreground)),
            Step(12, .authorizationChanged(Auth.whenInUse), nil),
            Step(20, .locationAction, nil),
            Step(100, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
        ]),
    Scenario(
        name: "refused background is not asked again at +1 h 59 min, asked again at +2 h",
        steps: [
            Step(0, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
            Step(4, .authorizationChanged(Auth.whenInUse), nil),
            Step(30 * minute, .becameActive(Auth.whenInUse), nil),
            Step(1 * hour + 59 * minute, .becameActive(Auth.whenInUse), nil),
            Step(2 * hour, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
            Step(2 * hour + 5, .authorizationChanged(Auth.whenInUse), nil),
            Step(3 * hour, .becameActive(Auth.whenInUse), nil),
            Step(4 * hour, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
        ]),
    Scenario(
        name: "a configured delay of 30 min replaces the 2 h",
        configuration: .init(backgroundRetryDelay: 30 * minute),
        steps: [
            Step(0, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
            Step(29 * minute + 59, .becameActive(Auth.whenInUse), nil),
            Step(30 * minute, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
        ]),
    Scenario(
        name: "an explicit background request respects the back-off",
        steps: [
            Step(0, .becameActive(Auth.whenInUse), .requestAuthorization(.background)),
            Step(5, .authorizationChanged(Auth.whenInUse), nil),
            Step(hour, .request(.background), nil),
            Step(2 * hour, .request(.background), .requestAuthorization(.background)),
        ]),
    Scenario(
        name: "background is never asked before foreground: the request asks for foreground",
        steps: [
            Step(0, .becameActive(Auth.notDetermined), nil),
            Step(1, .request(.background), .requestAuthorization(.foreground)),
            Step(3, .authorizationChanged(Auth.whenInUse), nil),
            Step(4, .request(.background), .requestAuthorization(.background)),
            Step(6, .authorizationChanged(Auth.always), nil),
            Step(7, .request(.background), nil),
        ]),
    Scenario(
        name: "canAskAgain false: a location action opens Settings",
        steps: [
            Step(0, .becameActive(Auth.denied), nil),
            Step(10, .locationAction, .openSettings),
            Step(20, .request(.foreground), .openSettings),
            Step(30, .request(.background), .openSettings),
        ]),
    Scenario(
        name: "denied but askable (Android): the dialog is shown again",
        steps: [
            Step(0, .becameActive(Auth.deniedAskable), nil),
            Step(10, .locationAction, .requestAuthorization(.foreground)),
        ]),
    Scenario(
        name: "restricted: nothing to ask and no Settings page that helps",
        steps: [
            Step(0, .becameActive(Auth.restricted), nil),
            Step(10, .locationAction, nil),
            Step(20, .request(.background), nil),
        ]),
    Scenario(
        name: "the OS will not prompt for Always again: activation asks nothing, a request opens Settings, at most once per back-off",
        steps: [
            Step(0, .becameActive(Auth.whenInUseFinal), nil),
            Step(5 * hour, .becameActive(Auth.whenInUseFinal), nil),
            Step(5 * hour + 1, .request(.background), .openSettings),
            Step(5 * hour + 60, .request(.background), nil),
            Step(6 * hour, .becameActive(Auth.whenInUseFinal), nil),
            Step(7 * hour, .request(.background), nil),
            Step(7 * hour + 1, .request(.background), .openSettings),
            Step(7 * hour + 2, .request(.foreground), nil),
        ]),
    Scenario(
        name: "provisional Always: the OS asks by itself, so the coordinator never does",
        steps: [
            Step(0, .becameActive(Auth.provisional), nil),
            Step(1, .request(.background), nil),
            Step(2, .locationAction, nil),
            Step(3 * hour, .becameActive(Auth.provisional), nil),
        ]),
    Scenario(
        name: "reduced accuracy counts as granted",
        steps: [
            Step(0, .becameActive(Auth.reduced), .requestAuthorization(.background)),
            Step(10, .locationAction, nil),
        ]),
    Scenario(
        name: "everything granted: becoming active asks nothing",
        steps: [
            Step(0, .becameActive(Auth.always), nil),
            Step(10, .locationAction, nil),
            Step(20, .request(.foreground), nil),
            Step(30, .request(.background), nil),
            Step(3 * hour, .becameActive(Auth.always), nil),
        ]),
    Scenario(
        name: "a receiver without permissions (gpsd, simulator) asks nothing",
        steps: [
            Step(0, .becameActive(.unrestricted), nil),
            Step(1, .locationAction, nil),
        ]),
    Scenario(
        name: "before any report the coordinator assumes not determined and asks",
        steps: [Step(0, .locationAction, .requestAuthorization(.foreground))]),
]

@Suite("Permission coordinator")
struct PermissionCoordinatorTests {
    @Test("dialogs and Settings, step by step", arguments: scenarios)
    fileprivate func scenario(_ scenario: Scenario) {
        var coordinator = PermissionCoordinator(permissions: scenario.start, configuration: scenario.configuration)
        for step in scenario.steps {
            let effects = coordinator.handle(step.input, now: at(step.time))
            let actions = effects.filter { if case .permissionsChanged = $0 { false } else { true } }
            #expect(actions == (step.action.map { [$0] } ?? []), "\(step)")
            if case .permissionsChanged(let records)? = effects.first {
                #expect(records == coordinator.permissions, "\(step)")
            }
            #expect(effects.dropFirst().allSatisfy { if case .permissionsChanged = $0 { false } else { true } }, "\(step)")
        }
    }

    @Test("first launch: both records stay null, no change is reported")
    func firstLaunch() {
        var coordinator = PermissionCoordinator()
        #expect(coordinator.handle(.becameActive(Auth.notDetermined), now: at(0)) == [])
        #expect(coordinator.permissions == Permissions(foreground: nil, background: nil))
        #expect(coordinator.problems == [])
        #expect(coordinator.backgroundBackOffEnd == nil)
    }

    @Test("asking for foreground creates its record with requestedAt; the answer sets isGranted and updatedAt")
    func foregroundRecord() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.notDetermined), now: at(0))
        let asked = coordinator.handle(.locationAction, now: at(10))
        let requested = PermissionRecord(isGranted: false, updatedAt: at(10), checkedAt: at(0), requestedAt: at(10), canAskAgain: true)
        #expect(asked == [.permissionsChanged(Permissions(foreground: requested)), .requestAuthorization(.foreground)])

        let answered = coordinator.handle(.authorizationChanged(Auth.whenInUse), now: at(12))
        let granted = PermissionRecord(isGranted: true, updatedAt: at(12), checkedAt: at(12), requestedAt: at(10), canAskAgain: true)
        #expect(answered == [.permissionsChanged(Permissions(foreground: granted))])
        #expect(coordinator.permissions.background == nil)

        _ = coordinator.handle(.authorizationChanged(Auth.whenInUse), now: at(50))
        #expect(coordinator.permissions.foreground?.updatedAt == at(12))
        #expect(coordinator.permissions.foreground?.checkedAt == at(50))
    }

    @Test("asking for background creates its record without canAskAgain; a refusal starts the back-off")
    func backgroundRecord() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.whenInUse), now: at(0))
        #expect(
            coordinator.permissions.background
                == PermissionRecord(isGranted: false, updatedAt: at(0), checkedAt: at(0), requestedAt: at(0), canAskAgain: nil))
        _ = coordinator.handle(.authorizationChanged(Auth.whenInUse), now: at(3))
        #expect(coordinator.permissions.background?.checkedAt == at(3))
        #expect(coordinator.backgroundBackOffEnd == at(2 * hour))
        #expect(coordinator.problem?.code == .backgroundDenied)

        _ = coordinator.handle(.becameActive(Auth.whenInUse), now: at(2 * hour))
        _ = coordinator.handle(.authorizationChanged(Auth.always), now: at(2 * hour + 4))
        #expect(
            coordinator.permissions.background
                == PermissionRecord(isGranted: true, updatedAt: at(2 * hour + 4), checkedAt: at(2 * hour + 4), requestedAt: at(2 * hour)))
        #expect(coordinator.backgroundBackOffEnd == nil)
        #expect(coordinator.problems == [])
    }

    @Test("the back-off survives a relaunch: the records carry it")
    func backOffAcrossRelaunch() throws {
        var first = PermissionCoordinator()
        _ = first.handle(.becameActive(Auth.whenInUse), now: at(0))
        _ = first.handle(.authorizationChanged(Auth.whenInUse), now: at(2))
        let stored = try JSONEncoder().encode(first.permissions)

        var relaunched = PermissionCoordinator(permissions: try JSONDecoder().decode(Permissions.self, from: stored))
        #expect(relaunched.handle(.becameActive(Auth.whenInUse), now: at(hour)).contains(.requestAuthorization(.background)) == false)
        #expect(relaunched.handle(.becameActive(Auth.whenInUse), now: at(2 * hour)).last == .requestAuthorization(.background))
    }

    @Test("a grant made in Settings while the app was away shows up on activation")
    func grantedInSettings() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.notDetermined), now: at(0))
        _ = coordinator.handle(.locationAction, now: at(1))
        _ = coordinator.handle(.authorizationChanged(Auth.denied), now: at(2))
        #expect(coordinator.permissions.foreground?.canAskAgain == false)
        #expect(coordinator.handle(.locationAction, now: at(3)).last == .openSettings)

        let effects = coordinator.handle(.becameActive(Auth.always), now: at(600))
        #expect(!effects.contains(.requestAuthorization(.background)))
        #expect(
            coordinator.permissions.foreground
                == PermissionRecord(isGranted: true, updatedAt: at(600), checkedAt: at(600), requestedAt: at(1), canAskAgain: true))
        #expect(coordinator.permissions.background == PermissionRecord(isGranted: true, updatedAt: at(600), checkedAt: at(600)))
        #expect(coordinator.problems == [])
    }

    @Test("a permission granted on a previous install creates records without requestedAt")
    func previousInstall() {
        var coordinator = PermissionCoordinator()
        let effects = coordinator.handle(.authorizationChanged(Auth.always), now: at(0))
        let foreground = PermissionRecord(isGranted: true, updatedAt: at(0), checkedAt: at(0), requestedAt: nil, canAskAgain: true)
        let background = PermissionRecord(isGranted: true, updatedAt: at(0), checkedAt: at(0), requestedAt: nil)
        #expect(effects == [.permissionsChanged(Permissions(foreground: foreground, background: background))])
    }

    @Test("revoking background in Settings: isGranted false, updatedAt moves, background asked again")
    func revokedInSettings() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.always), now: at(0))
        let effects = coordinator.handle(.becameActive(Auth.whenInUse), now: at(hour))
        #expect(coordinator.permissions.background?.isGranted == false)
        #expect(coordinator.permissions.background?.updatedAt == at(hour))
        #expect(coordinator.permissions.background?.requestedAt == at(hour))
        #expect(effects.last == .requestAuthorization(.background))
    }

    @Test("restricted: not granted, canAskAgain false, problem `restricted`")
    func restricted() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.restricted), now: at(0))
        #expect(
            coordinator.permissions
                == Permissions(foreground: PermissionRecord(isGranted: false, updatedAt: at(0), checkedAt: at(0), canAskAgain: false)))
        #expect(coordinator.problems.map(\.code) == [.restricted])
        #expect(coordinator.problem?.settingsCanFix == false)
    }

    @Test("reduced accuracy: granted in the records, flagged as a problem")
    func reducedAccuracy() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.authorizationChanged(Auth.reduced), now: at(0))
        #expect(coordinator.permissions.foreground?.isGranted == true)
        #expect(coordinator.authorization?.reducedAccuracy == true)
        #expect(coordinator.problems.map(\.code) == [.reducedAccuracy])
        _ = coordinator.handle(.authorizationChanged(PlatformAuthorization(status: .always, reducedAccuracy: true)), now: at(1))
        #expect(coordinator.permissions.background?.isGranted == true)
        #expect(coordinator.problems.map(\.code) == [.reducedAccuracy])
    }

    @Test("provisional Always: foreground granted, background not yet, problem `backgroundProvisional`")
    func provisional() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.provisional), now: at(0))
        #expect(coordinator.permissions.foreground?.isGranted == true)
        #expect(coordinator.permissions.background == nil)
        #expect(coordinator.problems.map(\.code) == [.backgroundProvisional])

        _ = coordinator.handle(.authorizationChanged(Auth.always), now: at(3 * hour))
        #expect(coordinator.permissions.background == PermissionRecord(isGranted: true, updatedAt: at(3 * hour), checkedAt: at(3 * hour)))
        #expect(coordinator.problems == [])
    }

    @Test("provisional Always confirmed as While Using: background stays not granted, never asked")
    func provisionalKeptWhileUsing() {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.provisional), now: at(0))
        _ = coordinator.handle(.authorizationChanged(Auth.whenInUseFinal), now: at(hour))
        #expect(coordinator.permissions.background == nil)
        #expect(!coordinator.handle(.becameActive(Auth.whenInUseFinal), now: at(5 * hour)).contains(.requestAuthorization(.background)))
        #expect(coordinator.handle(.request(.background), now: at(5 * hour)).last == .openSettings)
        #expect(coordinator.permissions.background?.requestedAt == at(5 * hour), "opening Settings counts as asking")
        #expect(coordinator.handle(.request(.background), now: at(6 * hour)) == [], "within the back-off: no Settings again")
    }

    @Test(
        "denied: one problem telling the user where to allow location",
        arguments: [
            (Auth.denied, PermissionProblem.foregroundDenied), (Auth.deniedAskable, PermissionProblem.foregroundDeniedAskable),
        ])
    func denied(authorization: PlatformAuthorization, expected: PermissionProblem) {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(authorization), now: at(0))
        #expect(coordinator.permissions.foreground?.isGranted == false)
        #expect(coordinator.permissions.foreground?.canAskAgain == authorization.canPrompt)
        #expect(coordinator.problems == [expected])
        #expect(expected.code == .foregroundDenied)
        #expect(expected.message.contains("Settings"))
    }

    @Test("problem codes are stable strings for JavaScript")
    func codes() {
        #expect(
            PermissionProblem.Code.allCases.map(\.rawValue) == [
                "restricted", "foregroundDenied", "backgroundDenied", "backgroundProvisional", "reducedAccuracy",
            ])
        for problem in [
            PermissionProblem.restricted, .foregroundDenied, .foregroundDeniedAskable, .backgroundDenied, .backgroundProvisional,
            .reducedAccuracy,
        ] {
            #expect(problem.description == "\(problem.code.rawValue): \(problem.message)")
            #expect(problem.message.hasSuffix("."))
        }
        #expect(PermissionProblem.diagnose(nil, permissions: Permissions()) == [])
    }

    @Test("records round-trip through Codable, times as JavaScript milliseconds")
    func codable() throws {
        let permissions = Permissions(
            foreground: PermissionRecord(isGranted: true, updatedAt: at(1), checkedAt: at(2.5), requestedAt: at(0), canAskAgain: true),
            background: PermissionRecord(isGranted: false, updatedAt: at(3), checkedAt: at(4), requestedAt: nil))
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(permissions), as: UTF8.self)
        #expect(
            json
                == #"{"background":{"checkedAt":1700000004000,"isGranted":false,"requestedAt":null,"updatedAt":1700000003000},"#
                + #""foreground":{"canAskAgain":true,"checkedAt":1700000002500,"isGranted":true,"requestedAt":1700000000000,"#
                + #""updatedAt":1700000001000}}"#)
        #expect(try JSONDecoder().decode(Permissions.self, from: Data(json.utf8)) == permissions)

        let empty = String(decoding: try encoder.encode(Permissions()), as: UTF8.self)
        #expect(empty == #"{"background":null,"foreground":null}"#)
        #expect(try JSONDecoder().decode(Permissions.self, from: Data(empty.utf8)) == Permissions())
        #expect(try JSONDecoder().decode(Permissions.self, from: Data("{}".utf8)) == Permissions())
    }

    @Test("a whole coordinator run's records survive the store's round trip")
    func runRoundTrip() throws {
        var coordinator = PermissionCoordinator()
        _ = coordinator.handle(.becameActive(Auth.notDetermined), now: at(0))
        _ = coordinator.handle(.locationAction, now: at(1))
        _ = coordinator.handle(.authorizationChanged(Auth.whenInUse), now: at(2))
        _ = coordinator.handle(.becameActive(Auth.whenInUse), now: at(60))
        _ = coordinator.handle(.authorizationChanged(Auth.whenInUse), now: at(61))
        let data = try JSONEncoder().encode(coordinator.permissions)
        #expect(try JSONDecoder().decode(Permissions.self, from: data) == coordinator.permissions)
        #expect(SettingKey<Permissions>.permissions.name == "permissions")
    }
}
