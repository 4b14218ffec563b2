import Foundation
import WhereaboutsCore
import WhereaboutsStore

/// What `Fixtures/store-v5.sqlite` holds: a store written by the code of schema `v5` with every value
/// of every enum the store persists (fix sources, triggers, delivery states of records and events,
/// event kinds, region states, commands, settings). ``StoreMigrationTests`` checks that the current
/// code reads exactly these values from it, so that a change to what a stored code means is caught.
///
/// The file was made by ``write(to:)``, run by the test `StoreFixtureWriter`:
/// `WHEREABOUTS_WRITE_STORE_FIXTURE=$PWD/Tests/WhereaboutsStoreTests/Fixtures/store-v5.sqlite swift test --filter StoreFixtureWriter`.
/// Never rewrite a committed fixture: add one for a new schema beside it.
enum StoreFixture {
    static func id(_ n: Int) -> UUID { UUID(uuidString: String(format: "00000000-0000-4000-8000-%012d", n))! }

    static func date(_ seconds: Double) -> Date { Date(timeIntervalSince1970: 1_700_000_000 + seconds) }

    static func fix(_ n: Int, source: FixSource) -> Fix {
        try! Fix(
            coordinate: Coordinate(latitude: 48.125 + Double(n) / 1024, longitude: 11.5 + Double(n) / 512),
            horizontalAccuracy: Double(n + 3),
            altitude: n.isMultiple(of: 2) ? 520.5 : nil, speed: n.isMultiple(of: 3) ? nil : 1.25, course: n.isMultiple(of: 4) ? nil : 90,
            timestamp: date(Double(n) * 10), source: source)
    }

    static let deliveryStates: [DeliveryState] = [.pending, .delivered, .rejected]

    /// A record for every fix source with every trigger, in every delivery state.
    static let records: [(record: LocationRecord, state: DeliveryState)] = {
        let triggers: [RecordTrigger] = [.policy, .region, .request]
        let sources: [FixSource] = [.gps, .wifi, .cell, .significantChange, .unknown]
        return sources.enumerated().flatMap { s, source in
            triggers.enumerated().map { t, trigger in
                let n = 3 * s + t
                let record = LocationRecord(id: id(n), fix: fix(n, source: source), trigger: trigger, dwell: Double(n) * 7.5)
                return (record, deliveryStates[(s + t) % 3])
            }
        }
    }()

    /// An event of every kind, with and without a fix, in every delivery state.
    static let events: [(record: EventRecord, state: DeliveryState)] = {
        let kinds: [RegionEventKind] = [.enter, .exit, .dwell]
        return (0..<6).map { n in
            let event = RegionEvent(
                regionID: n.isMultiple(of: 2) ? "home" : "office", kind: kinds[n % 3], timestamp: date(1000 + Double(n)), initial: n == 0,
                fix: n < 3 ? fix(100 + n, source: [.gps, .wifi, .cell][n]) : nil)
            return (EventRecord(id: id(100 + n), event: event), deliveryStates[n % 3])
        }
    }()

    static let regions: [Region] = [
        try! Region(
            id: "home", center: Coordinate(latitude: 48.125, longitude: 11.5), radius: 150, notifyOnExit: false, loiteringDelay: 300),
        try! Region(
            id: "office",
            polygons: [
                [
                    [(48.13, 11.51), (48.13, 11.52), (48.14, 11.52), (48.14, 11.51), (48.13, 11.51)].map {
                        try! Coordinate(latitude: $0.0, longitude: $0.1)
                    }
                ]
            ]),
    ]

    static let regionStates = [
        RegionStateRecord(regionID: "home", inside: true, since: date(2000), dwelt: true),
        RegionStateRecord(regionID: "office", inside: false, since: date(2010), dwelt: false),
    ]

    static let commands = [
        DeviceCommand(id: "command-1", command: .reportLocation),
        DeviceCommand(id: "command-2", command: .startActiveTracking(minutes: 30)),
        DeviceCommand(id: "command-3", command: .setRegions([WireRegion(id: "gym", latitude: 48.15, longitude: 11.55, radius: 80)])),
    ]
    /// The commands carried out before the store was closed.
    static let appliedCommands = ["command-1"]

    /// The configuration the committed store holds: the flush interval as its default then was, so
    /// a later default does not change what the file must read back as.
    static let configuration = TrackerConfiguration(
        mode: .continuous(accuracy: .hundredMeters, distanceFilter: 25), minimumFlushInterval: 900)

    /// Writes the fixture to a new store at `path`.
    static func write(to path: String) throws {
        let store = try SQLiteLocationStore(path: path)
        try store.append(records.map(\.record), at: Date())
        try store.markDelivered(records.filter { $0.state == .delivered }.map(\.record.id))
        try store.markRejected(
            Dictionary(
                uniqueKeysWithValues: records.filter { $0.state == .rejected }.map {
                    ($0.record.id, Rejection(status: 422, reason: "refused"))
                }),
            at: date(3000))
        try store.apply(events.map { .event($0.record) }, at: Date())
        try store.markEventsDelivered(events.filter { $0.state == .delivered }.map(\.record.id))
        try store.markEventsRejected(
            Dictionary(
                uniqueKeysWithValues: events.filter { $0.state == .rejected }.map { ($0.record.id, Rejection(status: 400, reason: "bad")) }),
            at: date(3000))
        try store.apply([.session(.saveRegions(regions)), .regionStates(regionStates)], at: Date())
        try store.enqueueCommands(commands, at: date(4000))
        try store.apply(
            [
                .session(.commandsApplied(appliedCommands)), .session(.configuration(configuration)), .session(.trackingEnabled(true)),
            ], at: Date())
        try store.close()
    }
}
