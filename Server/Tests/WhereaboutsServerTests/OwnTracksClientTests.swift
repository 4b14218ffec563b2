import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsServer
import WhereaboutsStore
import WhereaboutsTestSupport

@Suite("Our device as an OwnTracks client of our server: transitions, and dwell updates once each")
struct OwnTracksClientTests {
    @Test("region events go as transitions; a dwell update goes once, as a location of its own", arguments: StorageKind.available)
    func uploaderToPub(_ kind: StorageKind) async throws {
        try await withLiveServer(kind) { server in
            let folder = temporaryFolder("owntracks-client")
            let store = try SQLiteLocationStore(path: folder.appendingPathComponent("store.sqlite").path)
            let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 - 3600).rounded(.down))
            let fix = try Fix(coordinate: Coordinate(latitude: 47.3769, longitude: 8.5417), horizontalAccuracy: 8, timestamp: start)
            let arrival = LocationRecord(fix: fix, trigger: .region)
            let entered = EventRecord(event: RegionEvent(regionID: "office", kind: .enter, timestamp: start, initial: false, fix: fix))
            try store.apply([.record(arrival), .event(entered)], at: Date())
            let endpoint = OwnTracksEndpoint(url: server.base.appendingPathComponent("pub"), user: "owner", device: server.device)
            let uploader = Uploader(
                queue: store, endpoint: endpoint, credentials: FixedCredential(.basic(user: server.device, password: server.token)))
            #expect(await uploader.flush(.manual, acknowledging: []).requests == 2)
            try store.apply([.dwell(120, of: arrival.id)], at: Date())
            #expect(await uploader.flush(.manual, acknowledging: []).requests == 1)
            try store.apply([.dwell(300, of: arrival.id)], at: Date())
            #expect(await uploader.flush(.manual, acknowledging: []).requests == 1)
            #expect(await uploader.flush(.manual, acknowledging: []).requests == 0, "nothing is sent twice")

            let stored = try await server.storage.ownTracksLocations(
                device: server.device, from: .distantPast, to: .distantFuture, limit: nil)
            #expect(stored.map(\.record.fix.timestamp) == [start, start.addingTimeInterval(120), start.addingTimeInterval(300)])
            #expect(Set(stored.map(\.record.id)).count == 3 && stored[0].record.id == arrival.id)
            #expect(stored.allSatisfy { $0.fields?.tid == String(server.device.suffix(2)) })
            let events = try await server.storage.events(device: server.device, from: .distantPast, to: .distantFuture)
            #expect(events.map(\.id) == [entered.id] && events.first?.kind == .enter && events.first?.regionID == "office")
        }
    }
}
