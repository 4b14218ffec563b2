import Foundation
import Testing
import WhereaboutsCore

@Suite("LocationData snapshot")
struct LocationDataTests {
    static func time(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    static let firstID = UUID(uuidString: "7C9E6679-7425-40DE-944B-E07FC1F90AE7")!
    static let secondID = UUID(uuidString: "16fd2706-8baf-433b-82eb-8c7fada847da")!

    static func record(_ id: UUID, _ latitude: Double, _ longitude: Double, accuracy: Double, at seconds: Double, dwell: Double)
        -> LocationRecord
    {
        let fix = try! Fix(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), horizontalAccuracy: accuracy, altitude: 520, speed: 1.5,
            timestamp: time(seconds), source: .gps)
        return LocationRecord(id: id, fix: fix, trigger: .policy, dwell: dwell)
    }

    static let first = record(firstID, 48.137, 11.575, accuracy: 5, at: 1_700_000_000, dwell: 120)
    static let second = record(secondID, 48.1375, 11.5761, accuracy: 12.5, at: 1_700_000_300.25, dwell: 0)

    static let permissions = Permissions(
        foreground: PermissionRecord(
            isGranted: true, updatedAt: time(1_699_999_990), checkedAt: time(1_700_000_400), requestedAt: time(1_699_999_980),
            canAskAgain: true),
        background: PermissionRecord(
            isGranted: false, updatedAt: time(1_700_000_100), checkedAt: time(1_700_000_400), requestedAt: time(1_700_000_100)))

    static let snapshot = LocationData(
        lastTriedAt: time(1_700_000_400), lastLocation: LocationPoint(record: second),
        fence: LocationData.Fence(
            location: LocationPoint(
                id: MonitoredRegion.refreshRegionID, latitude: 48.1375, longitude: 11.5761, timestamp: time(1_700_000_300.25)),
            distanceToDiscovery: 812.5),
        pending: [first, second], permissions: permissions)

    @Test("golden JSON: every field, sorted keys, JavaScript milliseconds")
    func golden() throws {
        let expected =
            #"{"backgroundPermission":{"checkedAt":1700000400000,"isGranted":false,"requestedAt":1700000100000,"updatedAt":1700000100000},"#
            + #""fence":{"distanceToDiscovery":812.5,"location":{"id":"whereabouts.refresh","latitude":48.1375,"longitude":11.5761,"#
            + #""timestamp":1700000300250}},"#
            + #""foregroundPermission":{"canAskAgain":true,"checkedAt":1700000400000,"isGranted":true,"requestedAt":1699999980000,"#
            + #""updatedAt":1699999990000},"#
            + #""lastLocation":{"id":"16fd2706-8baf-433b-82eb-8c7fada847da","latitude":48.1375,"longitude":11.5761,"#
            + #""timestamp":1700000300250},"#
            + #""lastTriedAt":1700000400000,"#
            + #""report":{"items":{"#
            + #""16fd2706-8baf-433b-82eb-8c7fada847da":{"accuracy":12.5,"dwell":0,"id":"16fd2706-8baf-433b-82eb-8c7fada847da","#
            + #""latitude":48.1375,"longitude":11.5761,"timestamp":1700000300250},"#
            + #""7c9e6679-7425-40de-944b-e07fc1f90ae7":{"accuracy":5,"dwell":120,"id":"7c9e6679-7425-40de-944b-e07fc1f90ae7","#
            + #""latitude":48.137,"longitude":11.575,"timestamp":1700000000000}},"#
            + #""order":["7c9e6679-7425-40de-944b-e07fc1f90ae7","16fd2706-8baf-433b-82eb-8c7fada847da"]},"setupProblems":[]}"#
        #expect(try Self.snapshot.jsonString() == expected)
        #expect(try Self.snapshot.jsonData() == Data(expected.utf8))
    }

    @Test("golden JSON of the first launch: every optional field written as null")
    func firstLaunch() throws {
        let expected =
            #"{"backgroundPermission":null,"fence":null,"foregroundPermission":null,"lastLocation":null,"lastTriedAt":null,"#
            + #""report":{"items":{},"order":[]},"setupProblems":[]}"#
        #expect(try LocationData.firstLaunch.jsonString() == expected)
        let built = LocationData(lastTriedAt: nil, lastLocation: nil, fence: nil, pending: [], permissions: Permissions())
        #expect(built == .firstLaunch)
    }

    @Test("decoding the encoded snapshot gives it back")
    func roundTrip() throws {
        let decoded = try JSONDecoder().decode(LocationData.self, from: try Self.snapshot.jsonData())
        #expect(decoded == Self.snapshot)
        let empty = try JSONDecoder().decode(LocationData.self, from: try LocationData.firstLaunch.jsonData())
        #expect(empty == .firstLaunch)
    }

    @Test("JavaScript sees explicit nulls, not missing keys")
    func explicitNulls() throws {
        let object = try JSONSerialization.jsonObject(with: try LocationData.firstLaunch.jsonData()) as? [String: Any]
        let keys = object.map { Set($0.keys) }
        #expect(
            keys == ["lastTriedAt", "lastLocation", "fence", "report", "foregroundPermission", "backgroundPermission", "setupProblems"])
        #expect(object?["lastTriedAt"] is NSNull)
        #expect(object?["fence"] is NSNull)
    }

    @Test("the foreground record always carries canAskAgain, the background record never does")
    func canAskAgainShape() throws {
        let odd = LocationData(
            lastTriedAt: nil, lastLocation: nil, fence: nil, report: LocationData.Report(order: [], items: [:]),
            foregroundPermission: PermissionRecord(isGranted: false, updatedAt: Self.time(1), checkedAt: Self.time(2)),
            backgroundPermission: PermissionRecord(isGranted: false, updatedAt: Self.time(3), checkedAt: Self.time(4), canAskAgain: false))
        let json = try odd.jsonString()
        #expect(json.contains(#""backgroundPermission":{"checkedAt":4000,"isGranted":false,"requestedAt":null,"updatedAt":3000}"#))
        #expect(
            json.contains(
                #""foregroundPermission":{"canAskAgain":null,"checkedAt":2000,"isGranted":false,"requestedAt":null,"updatedAt":1000}"#))
    }

    @Test("the report lists pending records in upload order, each id once, with accuracy and dwell")
    func report() {
        let again = Self.record(Self.firstID, 48.2, 11.6, accuracy: 9, at: 1_700_000_900, dwell: 5)
        let report = LocationData.Report(pending: [Self.second, Self.first, again])
        #expect(report.order == ["16fd2706-8baf-433b-82eb-8c7fada847da", "7c9e6679-7425-40de-944b-e07fc1f90ae7"])
        #expect(
            report.items["7c9e6679-7425-40de-944b-e07fc1f90ae7"]
                == LocationData.ReportItem(
                    id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", latitude: 48.137, longitude: 11.575, timestamp: Self.time(1_700_000_000),
                    accuracy: 5, dwell: 120))
        #expect(report.items.count == 2)
    }

    @Test("lastLocation of a record is its lower-case UUID and its fix")
    func lastLocation() {
        #expect(
            LocationPoint(record: Self.first)
                == LocationPoint(
                    id: "7c9e6679-7425-40de-944b-e07fc1f90ae7", latitude: 48.137, longitude: 11.575, timestamp: Self.time(1_700_000_000)))
        #expect(LocationPoint(id: "x", fix: Self.second.fix).timestamp == Self.time(1_700_000_300.25))
    }

    @Test("the fence of a slot plan: refresh centre, plan time, distance to the nearest boundary")
    func fenceOfPlan() throws {
        let device = try Coordinate(latitude: 48.137, longitude: 11.575)
        var index = RegionIndex()
        index.insert(try Region(id: "story", center: Geodesy.destination(from: device, distance: 1000, bearing: 90), radius: 200))
        let planned = Self.time(1_700_000_500)

        let oneSlot = SlotPlanner.plan(index, at: device, slots: 1, minimumRefresh: 150, maximumRefresh: 5000)
        let tight = LocationData.Fence(plan: oneSlot, plannedAt: planned)
        #expect(tight.location == LocationPoint(id: "whereabouts.refresh", latitude: 48.137, longitude: 11.575, timestamp: planned))
        #expect(abs(tight.distanceToDiscovery - 800) < 1)

        let manySlots = SlotPlanner.plan(index, at: device, slots: 20, minimumRefresh: 150, maximumRefresh: 5000)
        #expect(manySlots.refresh.radius == 5000)
        #expect(abs(LocationData.Fence(plan: manySlots, plannedAt: planned).distanceToDiscovery - 800) < 1)

        let nothing = SlotPlanner.plan(RegionIndex(), at: device, slots: 20, minimumRefresh: 150, maximumRefresh: 5000)
        #expect(LocationData.Fence(plan: nothing, plannedAt: planned).distanceToDiscovery == 5000)
    }

    @Test(
        "JavaScript milliseconds round to the nearest millisecond",
        arguments: [
            (1_700_000_000.123, Int64(1_700_000_000_123)), (1_700_000_000.0004, 1_700_000_000_000), (0.0, 0), (-1.5, -1500),
        ])
    func milliseconds(seconds: Double, expected: Int64) {
        #expect(JavaScriptTime.milliseconds(Date(timeIntervalSince1970: seconds)) == expected)
        #expect(JavaScriptTime.date(expected).timeIntervalSince1970 == Double(expected) / 1000)
    }

    @Test("a non-finite number cannot be sent to JavaScript")
    func nonFinite() {
        var broken = Self.snapshot
        broken.fence?.distanceToDiscovery = .infinity
        #expect(throws: EncodingError.self) { try broken.jsonData() }
    }

    @Test("a missing Info.plist key reaches JavaScript as a setup problem with its code and key, and decodes back")
    func setupProblems() throws {
        var data = LocationData.firstLaunch
        data.setupProblems = AppSetup(
            usageDescriptions: [AppSetup.whenInUseKey, AppSetup.alwaysKey], backgroundModes: ["location"], permittedTaskIdentifiers: []
        )
        .problems()
        let object = try JSONSerialization.jsonObject(with: try data.jsonData()) as? [String: Any]
        let problems = try #require(object?["setupProblems"] as? [[String: Any]])
        #expect(problems.map { $0["code"] as? String } == ["motionUsageDescriptionMissing"])
        #expect(problems.first?["key"] as? String == "NSMotionUsageDescription")
        #expect((problems.first?["message"] as? String)?.contains("NSMotionUsageDescription") == true)
        #expect(try JSONDecoder().decode(LocationData.self, from: try data.jsonData()) == data)
        let older = Data(#"{"report":{"items":{},"order":[]}}"#.utf8)
        #expect(try JSONDecoder().decode(LocationData.self, from: older).setupProblems.isEmpty, "a snapshot from before the field decodes")
    }
}
