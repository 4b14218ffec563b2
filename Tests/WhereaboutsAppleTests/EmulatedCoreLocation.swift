import Foundation
import WhereaboutsApple
import WhereaboutsCore

/// CoreLocation as iOS runs it for one app, outliving the app's processes: the authorization, the
/// monitored regions (kept across launches and shared by every manager), the device's position, and
/// the location managers of the process now running. Callbacks go to every manager's delegate, as iOS
/// sends region, visit and authorization callbacks; a region crossing while no process runs is held and
/// delivered once a relaunched process has created a manager, which is what a relaunch for a location
/// event does.
@MainActor
final class EmulatedCoreLocation {
    var status = CoreLocationConstants.authorizationNotDetermined
    /// What the user answers to the next dialog (a `CLAuthorizationStatus` raw value).
    var userAnswer = CoreLocationConstants.authorizationAlways
    var position: Coordinate
    /// The accuracy of the fixes one-time requests get, in metres.
    var oneShotAccuracy = 8.0
    /// `false`: one-time requests stay unanswered, as while the OS is still searching for a fix.
    var answersOneShots = true
    var monitored: [String: CoreLocationRegion] = [:]
    /// A region the app monitors outside Whereabouts that is not a circle (a beacon region).
    var foreignBeacons: Set<String> = []
    /// `false` on a device without region monitoring: `maximumRegionMonitoringDistance` is -1.
    var regionMonitoringAvailable = true
    /// Identifiers the OS refuses to monitor (as for a radius over `maximumRegionMonitoringDistance`):
    /// starting one calls `monitoringDidFail` instead of `didStartMonitoring`.
    var refused: Set<String> = []
    private(set) var managers: [EmulatedLocationManager] = []
    /// Crossings that happened while no process ran; a relaunch delivers them.
    private(set) var heldCrossings: [(id: String, state: Int)] = []
    /// Every region started and stopped, in order, for tests that count churn.
    private(set) var regionLog: [String] = []
    /// Every circle started, as the app handed it (with whether it wanted its state).
    private(set) var started: [CoreLocationRegion] = []
    private var lastState: [String: Int] = [:]

    init(position: Coordinate) { self.position = position }

    /// Whether the OS would relaunch the app: a crossing is held for it.
    var launchPending: Bool { !heldCrossings.isEmpty }

    /// A new manager of the running process.
    func makeManager() -> EmulatedLocationManager {
        let manager = EmulatedLocationManager(os: self)
        managers.append(manager)
        return manager
    }

    /// The process ended: its managers are gone; the OS keeps its regions.
    func killProcess() { managers = [] }

    /// Hands the held crossings to the relaunched process's managers, after their delegates are set.
    func deliverHeldCrossings() {
        let held = heldCrossings
        heldCrossings = []
        for crossing in held { determine(crossing.id, state: crossing.state) }
    }

    /// The device moves to `coordinate`: regions whose state changed are reported, to every manager, or
    /// held for a relaunch when no process runs. Managers with standard updates on get the position.
    func move(to coordinate: Coordinate, accuracy: Double = 10) {
        position = coordinate
        for (id, region) in monitored.sorted(by: { $0.key < $1.key }) {
            let state = self.state(of: region)
            guard lastState[id] != state else { continue }
            lastState[id] = state
            let notifies = state == CoreLocationConstants.regionStateInside ? region.notifyOnEntry : region.notifyOnExit
            guard notifies else { continue }
            if managers.isEmpty {
                heldCrossings.append((id, state))
            } else {
                determine(id, state: state)
            }
        }
        for manager in managers where manager.updating { manager.receiver?.didUpdateLocations([fix(accuracy)], from: manager) }
    }

    /// A visit, reported to every manager that monitors visits... and every other manager, as iOS does.
    func visit(_ visit: ReportedVisit) {
        for manager in managers { manager.receiver?.didVisit(visit, from: manager) }
    }

    /// The user changed the app's permission in Settings.
    func changeAuthorization(to status: Int32) {
        self.status = status
        for manager in managers { manager.receiver?.didChangeAuthorization(manager) }
    }

    func answerDialog(always: Bool) {
        guard
            status == CoreLocationConstants.authorizationNotDetermined
                || (always && status == CoreLocationConstants.authorizationWhenInUse)
        else { return }
        changeAuthorization(to: always ? userAnswer : CoreLocationConstants.authorizationWhenInUse)
    }

    func start(_ circle: CoreLocationRegion, by manager: EmulatedLocationManager) {
        guard !refused.contains(circle.identifier) else {
            Task { @MainActor in
                manager.receiver?.monitoringDidFail(
                    circle.identifier, error: "kCLErrorDomain error 5 (regionMonitoringFailure)", from: manager)
            }
            return
        }
        started.append(circle)
        monitored[circle.identifier] = circle
        lastState[circle.identifier] = state(of: circle)
        regionLog.append("start \(circle.identifier)")
        Task { @MainActor in manager.receiver?.didStartMonitoring(circle.identifier, from: manager) }
    }

    func stop(_ identifier: String) {
        monitored[identifier] = nil
        foreignBeacons.remove(identifier)
        regionLog.append("stop \(identifier)")
    }

    func answerState(_ identifier: String, to manager: EmulatedLocationManager) {
        guard let region = monitored[identifier] else { return }
        let state = self.state(of: region)
        Task { @MainActor in manager.receiver?.didDetermineState(state, for: identifier, from: manager) }
    }

    func answerOneShot(_ manager: EmulatedLocationManager) {
        guard answersOneShots else { return }
        let location = fix(oneShotAccuracy)
        Task { @MainActor in manager.receiver?.didUpdateLocations([location], from: manager) }
    }

    private func determine(_ id: String, state: Int) {
        for manager in managers { manager.receiver?.didDetermineState(state, for: id, from: manager) }
    }

    private func state(of region: CoreLocationRegion) -> Int {
        let center = try! Coordinate(latitude: region.latitude, longitude: region.longitude)
        return Geodesy.distance(center, position) <= region.radius
            ? CoreLocationConstants.regionStateInside : CoreLocationConstants.regionStateOutside
    }

    private func fix(_ accuracy: Double) -> ReportedLocation {
        ReportedLocation(latitude: position.latitude, longitude: position.longitude, horizontalAccuracy: accuracy, timestamp: Date())
    }
}

/// One `CLLocationManager` of the running process.
@MainActor
final class EmulatedLocationManager: LocationManaging {
    let os: EmulatedCoreLocation
    weak var receiver: CoreLocationReceiver?
    var desiredAccuracy: Double = 100
    var distanceFilter: Double = -1
    var pausesLocationUpdatesAutomatically = true
    var allowsBackgroundLocationUpdates = false
    var showsBackgroundLocationIndicator = false
    private(set) var updating = false
    private(set) var significantChanges = false
    private(set) var visits = false
    private(set) var dialogs: [String] = []
    private(set) var oneShots = 0
    private(set) var statesAsked: [String] = []

    init(os: EmulatedCoreLocation) { self.os = os }

    var authorizationStatusCode: Int32 { os.status }
    var accuracyAuthorizationCode: Int { 0 }
    var maximumRegionMonitoringDistance: Double {
        os.regionMonitoringAvailable ? 10_000 : CoreLocationConstants.regionMonitoringUnavailable
    }
    var monitoredCircles: [String: CoreLocationRegion?] {
        var circles: [String: CoreLocationRegion?] = os.monitored.mapValues { $0 }
        for beacon in os.foreignBeacons { circles[beacon] = .some(nil) }
        return circles
    }

    func startUpdatingLocation() { updating = true }
    func stopUpdatingLocation() { updating = false }
    func startMonitoringSignificantLocationChanges() { significantChanges = true }
    func stopMonitoringSignificantLocationChanges() { significantChanges = false }
    func startMonitoringVisits() { visits = true }
    func stopMonitoringVisits() { visits = false }
    func startMonitoring(circle: CoreLocationRegion) { os.start(circle, by: self) }
    func stopMonitoring(identifier: String) { os.stop(identifier) }
    func requestState(identifier: String) {
        statesAsked.append(identifier)
        os.answerState(identifier, to: self)
    }

    func requestLocation() {
        oneShots += 1
        os.answerOneShot(self)
    }

    func requestWhenInUseAuthorization() {
        dialogs.append("whenInUse")
        os.answerDialog(always: false)
    }

    func requestAlwaysAuthorization() {
        dialogs.append("always")
        os.answerDialog(always: true)
    }
}
