import Foundation
import Testing
import WhereaboutsCore

@Suite("Region notification text")
struct RegionNotificationTextTests {
    static let time = Date(timeIntervalSince1970: 1_700_000_000.123)

    static func event(_ kind: RegionEventKind, id: String = "home", initial: Bool = false) -> RegionEvent {
        RegionEvent(regionID: id, kind: kind, timestamp: time, initial: initial, fix: nil)
    }

    @Test("each kind has its own title and body, naming the region")
    func kinds() throws {
        let enter = try #require(RegionNotificationText(event: Self.event(.enter), regionName: "Home"))
        #expect(enter.title == "Arrived at Home")
        #expect(enter.body == "You entered the area “Home”.")
        let exit = try #require(RegionNotificationText(event: Self.event(.exit), regionName: "Home"))
        #expect(exit.title == "Left Home")
        #expect(exit.body == "You left the area “Home”.")
        let dwell = try #require(RegionNotificationText(event: Self.event(.dwell), regionName: "Home"))
        #expect(dwell.title == "Staying at Home")
        #expect(dwell.body == "You have stayed in the area “Home” for the time set for it.")
    }

    @Test("a missing, empty or blank name falls back to the region id; a name is trimmed")
    func names() {
        #expect(RegionNotificationText(event: Self.event(.exit))?.title == "Left home")
        #expect(RegionNotificationText(event: Self.event(.exit), regionName: "")?.title == "Left home")
        #expect(RegionNotificationText(event: Self.event(.exit), regionName: " \n ")?.title == "Left home")
        #expect(RegionNotificationText(event: Self.event(.exit), regionName: "  Office ")?.title == "Left Office")
    }

    @Test("initial states, the refresh region and kinds not asked for make no notification")
    func filtered() {
        #expect(RegionNotificationText(event: Self.event(.enter, initial: true)) == nil)
        #expect(RegionNotificationText(event: Self.event(.exit, id: MonitoredRegion.refreshRegionID)) == nil)
        #expect(RegionNotificationText(event: Self.event(.enter), kinds: [.exit]) == nil)
        #expect(RegionNotificationText(event: Self.event(.dwell), kinds: []) == nil)
        #expect(RegionNotificationText(event: Self.event(.exit), kinds: [.exit]) != nil)
    }

    @Test("the identifier is stable per event and the thread groups one region")
    func identifiers() throws {
        let exit = try #require(RegionNotificationText(event: Self.event(.exit)))
        #expect(exit.identifier == "whereabouts.region.home.exit.1700000000123")
        #expect(exit.threadIdentifier == "whereabouts.region.home")
        #expect(RegionNotificationText(event: Self.event(.exit), regionName: "Home")?.identifier == exit.identifier)
        let enter = try #require(RegionNotificationText(event: Self.event(.enter)))
        #expect(enter.identifier != exit.identifier)
        #expect(enter.threadIdentifier == exit.threadIdentifier)
        #expect(RegionNotificationText(event: Self.event(.exit, id: "office"))?.threadIdentifier == "whereabouts.region.office")
    }
}
